"""A whole game in each of the board's languages, pressed on the buttons in
`pipkeeper sim --script`: the language chosen at set-up on the board (the
options page's last row), the record tagged with it, every frame drawn
without a fault; and the board's setting followed when nobody changes it
(`pipkeeper roster --lang` writes that setting)."""

import os
import subprocess
import sys

import pytest

from pipkeeper import i18n
from planner import plan_game

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GAME = ("chicken-scratch", 2, 5, {"rounds": "6"})     # a short whole game: one round


def _sim(tmp_path, presses, frames=True):
    script = tmp_path / "script.txt"
    script.write_text("\n".join(presses) + "\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([ROOT, os.path.join(ROOT, "host"), env.get("PYTHONPATH", "")])
    args = [sys.executable, "-m", "pipkeeper", "sim", "--dir", str(tmp_path / "flash"),
            "--script", str(script), "-q"]
    if frames:
        args += ["--frames", str(tmp_path / "frames")]
    r = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return r


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_whole_game_in_each_language(tmp_path, lang):
    from shared_engine import dgn
    rules, n, seed, options = GAME
    presses, evs, planner = plan_game(rules, n, seed, "quick", options, lang=lang)
    _sim(tmp_path, presses)
    assert not (tmp_path / "flash" / "log.txt").exists(), (tmp_path / "flash" / "log.txt").read_text()
    text = (tmp_path / "flash" / "games" / "0001.dgn").read_text(encoding="utf-8")
    rec = dgn.read(text)
    assert rec.tag("Lang") == [lang]
    assert [ev for _, ev in rec.events] == evs
    assert dgn.replay(text).over
    frames = sorted(os.listdir(tmp_path / "frames"))
    assert len(frames) == len(presses) + 1
    assert (tmp_path / "flash" / "pipkeeper" / "settings.json").read_text().count('"%s"' % lang)


def test_the_boards_setting_is_the_set_ups_language(tmp_path):
    """settings.json "lang" (the board's language, from the last set-up or
    `pipkeeper roster --lang`) is offered at set-up and speaks the game."""
    (tmp_path / "flash" / "pipkeeper").mkdir(parents=True)
    (tmp_path / "flash" / "pipkeeper" / "settings.json").write_text('{"lang": "mn"}')
    rules, n, seed, options = GAME
    presses, evs, _ = plan_game(rules, n, seed, "quick", options)   # nobody touches the language
    _sim(tmp_path, presses, frames=False)
    text = (tmp_path / "flash" / "games" / "0001.dgn").read_text(encoding="utf-8")
    assert '[Lang "mn"]' in text.splitlines()


def test_the_sim_shows_names_in_any_script(tmp_path):
    """`pipkeeper sim` writes the names file of its roster and of its games'
    players, as `pipkeeper roster` does a board's (the board draws those
    names from it: test_i18n_screens' goldens): the names its fonts cannot
    draw, and only those."""
    import struct
    from pipkeeper.i18n import render
    flash = tmp_path / "flash"
    (flash / "pipkeeper").mkdir(parents=True)
    names = ["فاطمه زهرایی", "Батцэцэг Бат", "Ann"]
    (flash / "pipkeeper" / "roster.json").write_text('{"names": ["%s"]}' % '", "'.join(names),
                                                    encoding="utf-8")
    _sim(tmp_path, ["A"])                              # the players page
    data = (flash / "pipkeeper" / "names.bin").read_bytes()
    (n,) = struct.unpack_from("<H", data, 8)
    keys = {struct.unpack_from("<I", data, render.HEADER + 8 * i)[0] for i in range(n)}
    assert keys == {render.key_hash(s) for s in names[:2]}
