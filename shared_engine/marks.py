"""The marks of a seat's number on a score or fix line (FORMAT.md, "The
facts of a round"): ``17+DB+BE2+DP12+OT+UD2+OD+OUT``, read and written.
Loaded by shared_engine/dgn.py only for a line that carries a mark
beyond ``+DB`` (or an event with facts to write): a game without house
rules never loads it. It imports the engine's event kinds, never dgn (which
hands it its number reader): no import circle.
"""


# The marks of a score's or a fix's number (FORMAT.md, "The facts of a
# round"), in shared_engine/facts.py's order; +DB apart.
_MARKS = (b"BE", b"DP", b"OT", b"UD", b"OD", b"OUT")


def token(x, _num, _text):
    """A seat's number on a score or fix line, ``PIPS[+MARK...]``: (pips,
    0/1 holds 0-0, the six facts as a list or None where no mark but +DB
    is written). ``_num`` and ``_text`` are dgn's (which imports this
    module: no import the other way)."""
    parts = x.split(b"+")
    p = _num(parts[0], "a score")
    d = 0
    m = None
    for mk in parts[1:]:
        if mk == b"DB":
            if d:
                raise ValueError("%r writes +DB twice" % _text(x))
            d = 1
            continue
        k = 0
        while k < len(mk) and 65 <= mk[k] <= 90:
            k += 1
        code = mk[:k]
        num = mk[k:]
        if code not in _MARKS:
            raise ValueError("%r: unknown mark +%s (the marks: +DB +BE +DP +OT +UD +OD +OUT)"
                             % (_text(x), _text(mk)))
        i = _MARKS.index(code)
        if i < 2 and not num:
            raise ValueError("%r: +%s takes a number (+%s2)" % (_text(x), _text(code), _text(code)))
        if num and i > 3:
            raise ValueError("%r: +%s takes no number" % (_text(x), _text(code)))
        if m is None:
            m = [0] * len(_MARKS)
        if m[i]:
            raise ValueError("%r writes +%s twice" % (_text(x), _text(code)))
        m[i] = _num(num, "+" + code.decode()) if num else 1
    return p, d, m


def text(p, d, m):
    """``token``'s text: a seat's number and its marks."""
    s = "%d+DB" % p if d else "%d" % p
    if m is not None:
        for i in range(len(_MARKS)):
            v = m[i]
            if v:
                s += "+" + _MARKS[i].decode()
                if i < 2 or (i == 3 and v > 1):
                    s += "%d" % v
    return s


def score(w, _num, _text):
    """A score line's event (its words ``w``), marks and all: (SCORE, pips,
    db) or (SCORE, pips, db, facts), facts six tuples (None where no seat
    has that mark)."""
    from shared_engine.engine import SCORE
    n = len(w)
    pips = []
    db = []
    facts = None
    for j in range(1, n):
        p, d, f = token(w[j], _num, _text)
        pips.append(p)
        db.append(d)
        if f is not None:
            if facts is None:
                facts = [[0] * (n - 1) for _ in f]
            for i in range(len(f)):
                facts[i][j - 1] = f[i]
    if facts is None:
        return (SCORE, tuple(pips), tuple(db))
    return (SCORE, tuple(pips), tuple(db), tuple(tuple(f) if any(f) else None for f in facts))


def fix(w, _num, _text):
    """A fix line's event (its words ``w``), marks and all."""
    from shared_engine.engine import FIX
    p, d, f = token(w[3], _num, _text)
    if f is None:
        return (FIX, _num(w[1], "a round"), _num(w[2], "a seat"), p, d)
    return (FIX, _num(w[1], "a round"), _num(w[2], "a seat"), p, d, tuple(f))


def line(ev):
    """The text of a score or fix event with facts."""
    from shared_engine.engine import SCORE
    if ev[0] == SCORE:
        f = ev[3]
        return "score " + " ".join(
            text(ev[1][s], ev[2][s], None if f is None else [
                0 if c is None else c[s] for c in f]) for s in range(len(ev[1])))
    return "fix %d %d %s" % (ev[1], ev[2], text(ev[3], ev[4], ev[5]))
