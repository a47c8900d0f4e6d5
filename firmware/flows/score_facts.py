"""Score entry's questions beyond the pips, for a game whose house rules
count a round's other facts (RULES.md, "House rules"; the engine says which
it must be told: shared_engine/facts.py ``ask``): score entry's and the
fix's presses for such a game (firmware/flows/score.py hands them over,
with its keys: ``kit``, as it may not be imported from here).

Each is a field of the seat's entry, after its pips, entered with the same
keys: a count (UP +1, B +10, DOWN -1) or a yes/no (UP yes, DOWN no). A field is asked only where its answer can be other than
none: no blank end nor double in a hand of 0 pips, none of the doubles'
pips under 2. On a round none of whose play was recorded (a paper sheet)
the engine must also be told who went out: the seat with no pips and no
0-0 (a hand of tiles has pips, or is 0-0 alone), told without a question;
and whether on a double, asked of that seat only.

A module of its own, loaded only for such a game: most games have no
house rules, and score entry then loads nothing of them.
"""

from shared_engine import facts
from shared_engine.facts import COUNT

# (field, the engine's bit that asks it, the fact's index in the score
# event, its words on the screen, a yes/no)
_FIELDS = (
    ("blank_ends", facts.ASK_BLANK_ENDS, facts.BLANK_ENDS, ("blank ends",), 0),
    ("doubles_pips", facts.ASK_DOUBLES_PIPS, facts.DOUBLES_PIPS, ("doubles' pips",), 0),
    ("open_train", facts.ASK_OPEN_TRAIN, facts.OPEN_TRAIN, ("own train marked?",), 1),
    ("unsatisfied", facts.ASK_UNSATISFIED, facts.UNSATISFIED, ("doubles left open",), 0),
    ("out_on_double", facts.ASK_OUT_ON_DOUBLE, facts.OUT_ON_DOUBLE, ("out on a double?",), 1),
)


def _went_out(bits, pips, db):
    """The seat went out (a paper sheet's round): told, not asked."""
    return bool(bits & facts.ASK_WENT_OUT) and pips == 0 and not db


def fields(g, s, pips, db):
    """The fields of seat s's entry after its pips, by name, given the pips
    and 0-0 entered."""
    bits = facts.ask(g)[s]
    out = []
    gone = _went_out(bits, pips, db)
    for name, bit, _, _, _ in _FIELDS:
        if not bits & bit:
            continue
        if name == "blank_ends" and not pips:
            continue            # no tile but 0-0: no blank end (0-0's are its own)
        if name == "doubles_pips" and pips < 2:
            continue
        if name == "out_on_double" and not gone:
            continue
        if gone and name in ("open_train", "unsatisfied"):
            continue            # the seat that went out has no penalties (ruling 13)
        out.append(name)
    return out


def _words(name):
    """(the field's words, a yes/no) for the screen."""
    for f in _FIELDS:
        if f[0] == name:
            return f[3], f[4]
    return None, 0


def event_facts(g, pips, db, told):
    """The score event's facts: six, each None (not written) or one int a
    seat; ``told`` {field: [per seat]} as entered. None when the rules
    count none of them."""
    bits = facts.ask(g)
    out = [None] * facts.COUNT
    for name, bit, k, _, _ in _FIELDS:
        if any(b & bit for b in bits):
            got = told.get(name) or [0] * g.n
            out[k] = tuple(got[s] if bits[s] & bit else 0 for s in range(g.n))
    if any(b & facts.ASK_WENT_OUT for b in bits):
        out[facts.WENT_OUT] = tuple(1 if _went_out(bits[s], pips[s], db[s]) else 0 for s in range(g.n))
    for x in out:
        if x is not None:
            return tuple(out)
    return None


def field_view(view, name, v, b, more, keys):
    """The score screen's ``view`` for field ``name`` (not the pips): its
    words, the value (a yes or no), the keys."""
    words, yes_no = _words(name)
    view["field"] = words
    if yes_no:
        view["pips"] = ("yes",) if v else ("no",)
    view["labels"] = keys(v, b, more, yes_no)


def _got(p, told, name, i):
    """Seat i's value of field ``name`` as entered so far."""
    if name == "pips":
        return p[i]
    got = told.get(name)
    return got[i] if got else 0


def _store(p, told, name, i, v):
    if name == "pips":
        p[i] = v
    else:
        told[name] = list(told.get(name) or [0] * len(p))
        told[name][i] = v


def _with(u, field, told):
    if field:
        u["field"] = field
    if told:
        u["facts"] = told
    return u


def press(ctx, ui, button, kit):
    """Score entry's press in such a game: the pips, then each field."""
    from shared_engine.engine import SCORE
    edit, _, state, make = kit
    g = ctx.game
    n = g.n
    i, p, d, v, b, out = state(g, ui)
    told = dict(ui.get("facts") or {})
    field = ui.get("field", 0)
    names = ["pips"] + fields(g, i, p[i], d[i])
    name = names[min(field, len(names) - 1)]
    v, b, more, what = edit(v, b, ui.get("more"), button, _words(name)[1])
    if what is None:
        return _with(make(i, p, d, v, b, more=more), field, told), None
    _store(p, told, name, i, v)
    d[i] = b
    if what == "back":
        if field:
            f = field - 1
            return _with(make(i, p, d, _got(p, told, names[f], i), b), f, told), None
        j = i - 1
        if j == out:
            j -= 1
        if j < 0:
            return {}, None        # leave score entry
        names = ["pips"] + fields(g, j, p[j], d[j])
        f = len(names) - 1
        return _with(make(j, p, d, _got(p, told, names[f], j), d[j]), f, told), None
    # A: this field kept; the next, as the pips just entered ask, or the next player
    names = ["pips"] + fields(g, i, p[i], d[i])
    if field + 1 < len(names):
        f = field + 1
        return _with(make(i, p, d, _got(p, told, names[f], i), b), f, told), None
    j = i + 1
    if j == out:
        j += 1
    if j < n:
        return _with(make(j, p, d, p[j], d[j]), 0, told), None
    if out >= 0:
        p[out] = 0
        d[out] = 0
    u = _with(make(i, p, d, v, b), field, told)
    extra = event_facts(g, p, d, told)
    if extra is None:
        return u, (SCORE, tuple(p), tuple(d))
    return u, (SCORE, tuple(p), tuple(d), extra)


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
    for f in _FIELDS:
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
                            _words(names[f])[1])
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
            u = _with(dict(base, v=pips), 0, told)
            six = []
            for k in range(COUNT):
                v = facts.of_result(res, k, i)
                for name, _, kk, _, _ in _FIELDS:
                    if kk == k and k < facts.ASKED and name in told:
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
    return _with(base, f, told), None
