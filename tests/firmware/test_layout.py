"""Every screen at every player count, with the longest names a roster
allows, drawn by the firmware on the unix port with every string measured
(mp_layout.py): no text leaves the panel or runs into the button labels,
no sentence is cut short, no word of a note or message is left out.

The views come from the flows themselves (layout_views.py), over whole
simulated games of each preset."""

import json
import os
import subprocess

import pytest

import layout_views
from firmware import core
from shared_engine import simulate
from shared_engine.engine import DRAW, UNDO, UNKNOWN, IllegalEvent

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.mark.parametrize("n", list(layout_views.COUNTS))
def test_no_text_is_clipped(tmp_path, mpy_tree, n):
    from pipkeeper.paths import micropython_binary
    views = layout_views.views(n)
    vj = tmp_path / "views.json"
    from i18n_views import encode
    vj.write_text(json.dumps([(s, encode(v)) for s, v in views]))
    r = subprocess.run([micropython_binary(), "-X", "heapsize=4M", os.path.join(HERE, "mp_layout.py"),
                        str(vj), mpy_tree], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    results = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(results) == len(views)
    problems = []
    for (screen, v), bad in zip(views, results):
        for b in bad:
            problem = "%s (%s): %s" % (screen, v.get("title") or v.get("name") or "", b)
            if problem not in problems:
                problems.append(problem)
    assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("lang", ["en", "cy", "ga", "sv", "mn", "fa"])
def test_no_text_meets_another_in_every_language(tmp_path, mpy_tree, lang):
    """The screens as the flows make them with a name in each script
    (i18n_views: Persian, Cyrillic, Welsh's Ŵ, accents over capitals),
    drawn in each language with the roster's names file, every bitmap
    measured by its own rows: no text's ink meets another's (a Persian
    name over the big digits of the score screen), none is lost in a
    highlight or leaves it (a descender, a Persian name's dots)."""
    from pipkeeper.paths import micropython_binary
    from pipkeeper.i18n import render
    import i18n_views
    views = [(s, v) for _, s, v in i18n_views.views(tmp_path / "board")]
    vj = tmp_path / "views.json"
    vj.write_text(json.dumps([(s, i18n_views.encode(v)) for s, v in views], ensure_ascii=False))
    names = tmp_path / "names.bin"
    names.write_bytes(render.names([n for n in i18n_views.NAMES if not render.drawable(n)]))
    r = subprocess.run([micropython_binary(), "-X", "heapsize=4M", os.path.join(HERE, "mp_layout.py"),
                        str(vj), mpy_tree, str(names), lang], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    problems = []
    for (screen, v), line in zip(views, r.stdout.splitlines()):
        problems += ["%s: %s" % (screen, b) for b in json.loads(line)]
    assert len(r.stdout.splitlines()) == len(views)
    assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("rules", ["chickenfoot", "mexican-train"])
def test_draw_is_offered_exactly_when_the_engine_takes_it(rules):
    """The turn screen's B says "Draw" only when a draw would be recorded:
    not with the yard closed, not twice in a turn."""
    sim = simulate.simulate(rules, 4, seed=3)
    evs = simulate.to_quick(list(sim.events))
    from shared_engine.engine import Game, HAND
    g = Game(rules, sim.names, {})
    ctx = core.Ctx(game=g)
    seen = set()
    for ev in evs:
        if ev[0] == HAND:
            continue
        g.apply(ev)
        if core.kind(ctx, {}) != "turn":
            continue
        offered = core.view(ctx, {})[1]["labels"][1] == ("Draw",)
        try:
            g.apply((DRAW, g.round.to_move + 1, UNKNOWN, UNKNOWN))
            taken = True
            g.apply((UNDO,))
        except IllegalEvent:
            taken = False
        assert offered == taken, (ev, g.round.yard, g.round.drew)
        seen.add(offered)
    assert seen == {True, False}
