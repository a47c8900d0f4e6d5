"""A correction of a past score (``fix``) in a game whose house rules
count a round's other facts: the seat's pips, then the asked facts its
hand may have (blank ends, the doubles' pips) with the keys of score
entry (firmware/flows/score.py hands them over: ``kit``); the ``fix`` line
carries the seat's facts, the derived ones as the round has them.

Apart from score entry's part (firmware/flows/score_facts.py): a fix is
rare, and score entry, every round, should not load it.
"""

from firmware.flows.score_facts import FIELDS, COUNT, words, with_fields, ready, field_view  # noqa: F401

ASKED = 2       # the facts asked (blank ends, doubles' pips): the first two (shared_engine/facts.py)


def fix_fields(g, i, ui):
    """The fields of a correction of seat i: its pips, then the asked facts
    its hand may have (the hand's: blank ends, doubles' pips), as score
    entry asks them."""
    told = ui.get("facts") or {}
    pips = told.get("pips", ui.get("v", 0)) if ui.get("field") else ui.get("v", 0)
    rules = g.rules
    out = ["pips"]
    if rules.blank_end and pips:
        out.append("blank_ends")
    if rules.doubles_double and pips >= 2:
        out.append("doubles_pips")
    return out


def _was(g, r, s, name):
    """Seat s's fact ``name`` in scored round r, as it stands."""
    from shared_engine import facts
    for f in FIELDS:
        if f[0] == name:
            return facts.of_result(g.results[r], f[2], s)
    return 0


def fix_press(ctx, ui, button, kit):
    """A correction's press in such a game: the pips, then each asked fact;
    the ``fix`` line carries the seat's facts (the derived ones as the
    round has them)."""
    from shared_engine.engine import FIX
    edit = kit[0]
    g = ctx.game
    r = ui["r"]
    i = ui["i"]
    res = g.results[r]
    told = dict(ui.get("facts") or {})
    names = fix_fields(g, i, ui)
    f = ui.get("field", 0)
    v, b, more, what = edit(ui.get("v", res[3][i]), ui.get("b", res[4][i]), ui.get("more"), button,
                            words(names[f])[1])
    base = {"s": "fix", "r": r, "i": i, "b": b, "o": ui.get("o", 0)}
    if what == "back":
        if not f:
            return {"s": "sheet", "f": 2, "r": r, "i": i, "o": ui.get("o", 0)}, None
        told[names[f]] = v
        f -= 1
        v = told[names[f]]
    elif what == "ok":
        told[names[f]] = v
        names = fix_fields(g, i, {"field": 1, "facts": told})
        if f + 1 >= len(names):
            # (the ui as it was at the pips: a refusal reopens them)
            pips = told.pop("pips")
            u = with_fields(dict(base, v=pips), 0, told)
            ready()
            __import__("shared_engine.corrections", None, None, ("x",))
            from shared_engine import facts
            six = []
            for k in range(COUNT):
                v = facts.of_result(res, k, i)
                for name, _, kk, _, _ in FIELDS:
                    if kk == k and k < ASKED and name in told:
                        v = told[name]
                six.append(v)
            return u, (FIX, r + 1, i + 1, pips, 1 if b else 0, tuple(six))
        f += 1
        v = told.get(names[f])
        if v is None:
            v = _was(g, r, i, names[f])
    base["v"] = v
    if more:
        base["more"] = 1
    return with_fields(base, f, told), None
