"""Score entry: the pips left in each hand, player by player, and where
the house rules need them the hand's other facts, each a field of the
player's entry after the pips (firmware/flows/score_facts.py: blank ends,
the doubles' pips, ...; it takes the presses of a game whose rules count
such facts, and is loaded only for one).

The keys: UP +1, DOWN -1, B +10, A confirms and goes to the next field or
player; after the last one the ``score`` line is checked by the engine: a
score it can prove wrong is refused with its reason (naming the player,
whose entry is reopened) and nothing is stored. The player who went out
scores 0 and is skipped. A yes/no field: UP yes, DOWN no.

C marks "holds 0-0"; pressed again it takes the mark off and raises the
mending keys for one press: B -10, UP clear (back to 0), C "holds 0-0",
DOWN back to the previous field or player (from the first, out of score
entry); A is OK there too. Why (issue 32): with +1, +10 and -1 only, a
mistyped 250 took 225 presses to mend to 25, and DOWN at 0 went back a
player, easy to hit by mistake while counting down. Now DOWN at 0 does
nothing, the mend costs 10 presses (C C UP, then 25), and the common entry
is as short as before: the 0-0 mark, said in most rounds, is still one
press, and no other key moved.

ui keys: "s": "score", "i": seat index being entered (0-based), "p": pips
entered so far per seat, "d": 0-0 flags, "v": the value on screen, "b": its
0-0 flag, "field": the field of the seat's entry being entered (0: the
pips), "facts": the other fields entered, {field: [per seat]}, "more": 1
while the mending keys are up, "msg": a refusal.

Fixing a past score (``fix``, from the sheet: firmware/flows/rounds.py) is
this screen with the same keys, for one player of one scored round: the
value starts at the score as it stands, A makes the ``fix`` line (after
the hand's other facts, where the rules count them), the mending keys'
"back" goes back to the sheet's choice of player. ui keys: "s": "fix",
"r": the round (0-based), "i": the seat (0-based), "v", "b", "field",
"facts", "more" and "msg" as above, "o" (the sheet's, rounds.py).
"""

from shared_engine.engine import SCORE, OUT, FIX
from firmware.core import labels


def _out(g):
    r = g.round
    if r is not None and r.ended == OUT:
        return r.out
    return -1


def _state(g, ui):
    n = g.n
    p = ui.get("p") or [0] * n
    d = ui.get("d") or [0] * n
    i = ui.get("i")
    out = _out(g)
    if i is None:
        i = 0
        if i == out:
            i = 1 if n > 1 else 0
    return i, list(p), list(d), ui.get("v", p[i]), ui.get("b", d[i]), out


def _ui(i, p, d, v, b, msg=None, more=0):
    u = {"s": "score", "i": i, "p": p, "d": d, "v": v, "b": b}
    if msg:
        u["msg"] = msg
    if more:
        u["more"] = 1
    return u


def keys(v, b, more, yes_no=0):
    """The labels of the value being entered (``yes_no``: a yes/no field)."""
    if more:
        return labels("OK", "-10", "0-0", "clear", "back")
    if yes_no:
        return labels("OK", None, "more" if b else "0-0", "yes", "no")
    return labels("OK", "+10", "more" if b else "0-0", "+1", "-1" if v else None)


def edit(v, b, more, button, yes_no=0):
    """One press on a value being entered: (value, 0-0 flag, mending keys
    up, what else it asks: None, "ok" (A: take it) or "back" (the
    previous field or player)). ``yes_no``: a field of 1 (yes) or 0.
    Shared by score entry and the fix of a past score."""
    if button == "A":
        return v, b, 0, "ok"
    if more:
        if button == "B":
            return max(v - 10, 0), b, 0, None
        if button == "UP":
            return 0, b, 0, None
        if button == "C":
            return v, 0 if b else 1, 0, None
        return v, b, 0, "back"
    if button == "C":
        # the 0-0 mark; taken off again, the mending keys come up
        return (v, 1, 0, None) if not b else (v, 0, 1, None)
    if yes_no:
        if button == "UP":
            return 1, b, 0, None
        if button == "DOWN":
            return 0, b, 0, None
        return v, b, 0, None
    if button == "UP":
        return v + 1, b, 0, None
    if button == "B":
        return v + 10, b, 0, None
    return (v - 1 if v else 0), b, 0, None


def pips_text(p, d):
    return "%d+0-0" % p if d else "%d" % p


def _facts(g):
    """flows/score_facts.py for a game whose rules count a round's facts
    beyond the pips, else None (nothing of it loaded)."""
    if not g.rules.facts:
        return None
    from firmware.flows import score_facts
    return score_facts


def _fix_facts(g):
    """flows/fix_facts.py, the same for a correction."""
    if not g.rules.facts:
        return None
    from firmware.flows import fix_facts
    return fix_facts


# What score_facts is handed of this flow's (it is this flow's part for the
# house rules' facts, and may not import it back: an import circle).
def _kit():
    return edit, keys, _state, _ui


def fix_view(ctx, ui):
    g = ctx.game
    r = ui["r"]
    i = ui["i"]
    res = g.results[r]
    v = ui.get("v", res[3][i])
    entered = []
    for s in range(g.n):
        if s != i:
            entered.append((g.players[s], ("out",) if s == res[2] else pips_text(res[3][s], res[4][s])))
    b = ui.get("b", res[4][i])
    view = {
        "title": ("Fix R{n} {tile}", r + 1, "%d-%d" % (res[0], res[0])),
        "right": ("was {n}", pips_text(res[3][i], res[4][i])),
        "name": g.players[i],
        "pips": v,
        "db": bool(b),
        "out": i == res[2],
        "entered": entered,
        "message": ui.get("msg"),
        "labels": keys(v, b, ui.get("more")),
    }
    f = _fix_facts(g)
    if f is not None and ui.get("field"):
        f.field_view(view, f.fix_fields(g, i, ui)[ui["field"]], v, b, ui.get("more"), keys)
    return "score", view


def fix_press(ctx, ui, button):
    g = ctx.game
    f = _fix_facts(g)
    if f is not None:
        return f.fix_press(ctx, ui, button, _kit())
    r = ui["r"]
    i = ui["i"]
    res = g.results[r]
    v, b, more, what = edit(ui.get("v", res[3][i]), ui.get("b", res[4][i]), ui.get("more"), button)
    if what == "back":
        return {"s": "sheet", "f": 2, "r": r, "i": i, "o": ui.get("o", 0)}, None
    u = {"s": "fix", "r": r, "i": i, "v": v, "b": b, "o": ui.get("o", 0)}
    if more:
        u["more"] = 1
    if what == "ok":
        return u, (FIX, r + 1, i + 1, v, 1 if b else 0)
    return u, None


def view(ctx, ui, k):
    if k == "fix":
        return fix_view(ctx, ui)
    g = ctx.game
    i, p, d, v, b, out = _state(g, ui)
    entered = []
    for s in range(g.n):
        if s == i:
            continue
        if s < i or s == out:
            entered.append((g.players[s], ("out",) if s == out else pips_text(p[s], d[s])))
    total = g.n - (1 if out >= 0 else 0)
    pos = i + 1 - (1 if 0 <= out < i else 0)
    r = g.round
    view = {
        "title": ("Score R{n} {tile}", len(g.results) + 1,
                  "%d-%d" % (r.double, r.double) if r is not None else ""),
        "right": "%d/%d" % (pos, total),
        "name": g.players[i],
        "pips": v,
        "db": bool(b),
        "out": i == out,
        "entered": entered,
        "message": ui.get("msg"),
        "labels": keys(v, b, ui.get("more")),
    }
    f = _facts(g)
    if f is not None and ui.get("field"):
        f.field_view(view, f.fields(f.asked(g, ui)[i], p[i], d[i])[ui["field"] - 1], v, b,
                     ui.get("more"), keys)
    return "score", view


def press(ctx, ui, k, button):
    if k == "fix":
        return fix_press(ctx, ui, button)
    g = ctx.game
    f = _facts(g)
    if f is not None:
        return f.press(ctx, ui, button, _kit())
    n = g.n
    i, p, d, v, b, out = _state(g, ui)
    v, b, more, what = edit(v, b, ui.get("more"), button)
    if what is None:
        return _ui(i, p, d, v, b, more=more), None
    if what == "back":
        j = i - 1
        if j == out:
            j -= 1
        if j < 0:
            return {}, None        # leave score entry
        return _ui(j, p, d, p[j], d[j]), None
    # A: keep this entry, go on
    p[i] = v
    d[i] = b
    j = i + 1
    if j == out:
        j += 1
    if j < n:
        return _ui(j, p, d, p[j], d[j]), None
    if out >= 0:
        p[out] = 0
        d[out] = 0
    return _ui(i, p, d, v, b), (SCORE, tuple(p), tuple(d))


def refused(ctx, ui, msg):
    """The UI after the engine refused the score: reopen the player it
    names (its first seat slot that is not the one who went out); a fix
    refused stays open on its value, with the reason."""
    if ui.get("s") == "fix":
        u = dict(ui)
        u["msg"] = ctx.words(msg)
        return u
    g = ctx.game
    i, p, d, v, b, out = _state(g, ui)
    t = msg[0]
    j = t.find("{")
    for s in msg[1:]:
        if t.startswith("seat", j + 1) and isinstance(s, int) and 0 < s <= g.n and s - 1 != out:
            i = s - 1
            break
        j = t.find("{", j + 1)
    u = _ui(i, p, d, p[i], d[i], ctx.words(msg))
    for k in ("facts", "ask"):      # (score_facts': the fields entered, what the engine asks)
        if ui.get(k):
            u[k] = ui[k]
    return u
