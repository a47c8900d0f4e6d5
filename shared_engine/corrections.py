"""Corrections: ``fix ROUND SEAT PIPS``, one seat's pips in a scored round
set again, checked against what the round's score line was checked
against (``scoring.bounds``), the round counted again and the totals with
it. Loaded only when a correction is made or refused.
"""

from shared_engine import scoring
from shared_engine.tiles import IllegalEvent


def span(b, s, d):
    """From a round's ``bounds``: (tiles, fewest, most) pips of seat s
    (0-based), holding 0-0 (d) or not."""
    i = 7 * s + (4 if d else 1)
    v = b[i] << 16 | b[i + 1] << 8 | b[i + 2]
    return b[7 * s], v >> 11, v & 2047


def fix(game, rnd, seat, p, d, claims=None):
    """``fix ROUND SEAT PIPS``: seat's pips (and 0-0 flag, and its facts:
    ``claims``, six ints in facts.py's order, or None) in scored round
    ``rnd`` (from 1), checked as the score line was, then the round
    counted again and the totals with it. Needs only the round's result."""
    res = game.results
    n = game.n
    if rnd < 1 or rnd > len(res):
        raise IllegalEvent("there is no scored round {n} to correct", rnd)
    if seat < 1 or seat > n:
        raise IllegalEvent("there is no seat %d" % seat)
    double, counted, out, pips, db, bnd, orig, fb = res[rnd - 1]
    s = seat - 1
    facts = None
    if claims is not None or fb is not None:
        from shared_engine import facts
        fb, out = facts.corrected(game, res[rnd - 1], s, claims)
    if out == s and (p or d or (fb is not None and (fb[s] or fb[n + s]))):
        if d:
            raise IllegalEvent("{seat} went out: they hold no tiles, so no 0-0", seat)
        raise IllegalEvent("{seat} went out: their score must be 0, not {n}", seat, p)
    if d:
        if double == 0:
            raise IllegalEvent("{seat} cannot hold 0-0: it is the centre double", seat)
        for o in range(n):
            if o != s and db[o]:
                raise IllegalEvent("{seat} cannot hold 0-0: {seat2} does", seat, o + 1)
    if bnd is not None:
        scoring.check_seat(bnd, s, p, d)
        if fb is not None:
            facts.check(game.rules, bnd, n, s, p, fb[s], fb[n + s] * 2)
    else:
        scoring.check_paper(game, double, s, p)
    new_pips = list(pips)
    new_db = list(db)
    new_pips[s] = p
    new_db[s] = 1 if d else 0
    now = scoring.count(game, new_pips, new_db, out, fb)
    totals = game.totals
    for o in range(n):
        totals[o] += now[o] - counted[o]
    if orig is None:
        orig = (counted, pips, db, res[rnd - 1][7])
    new_pips = tuple(new_pips)
    new_db = tuple(new_db)
    if new_pips == orig[1] and new_db == orig[2] and fb == orig[3] and out == res[rnd - 1][2]:
        orig = None  # corrected back to what the score line said
    res[rnd - 1] = (double, now, out, new_pips, new_db, bnd, orig, fb)
