"""The facts of a round (RULES.md, "House rules"; FORMAT.md, "The facts of
a round"): what a score is worked out from beyond the pips and 0-0, which
of them the engine knows from the events and which score entry must ask.

A round's facts are six, one int a seat each, in this order (the
``SCORE`` event's ``facts`` tuple, and a scored round's bytes with the
missed calls after them):
    BLANK_ENDS     the 0 halves of the tiles left in hand, 0-0 aside
    DOUBLES_PIPS   the pips of the doubles left in hand, 0-0 aside
    OPEN_TRAIN     1: its own train carries a marker as the round ends
    UNSATISFIED    the doubles it played that are left unsatisfied
    OUT_ON_DOUBLE  1: it went out, on a double
    WENT_OUT       1: it went out
    MISSED_CALLS   (scored rounds only) its ``caught`` lines
The first two are the hand's: asked, unless the hand is known whole.
The next four follow from the play where it was recorded; a paper-sheet
round (nothing of its play recorded) is told them.

Loaded only when a round is scored or score entry asks what to ask.
"""

from shared_engine import tiles
from shared_engine.tiles import NO, OUT

BLANK_ENDS = 0
DOUBLES_PIPS = 1
OPEN_TRAIN = 2
UNSATISFIED = 3
OUT_ON_DOUBLE = 4
WENT_OUT = 5
MISSED_CALLS = 6
ASKED = 2          # the first two are asked, the others derived
COUNT = 6          # the facts of a score line
KEPT = 7           # the facts a scored round keeps

# What score entry must ask a seat (``ask``), as bits.
ASK_PIPS = 1
ASK_DB = 2
ASK_BLANK_ENDS = 4
ASK_DOUBLES_PIPS = 8
ASK_OPEN_TRAIN = 16
ASK_UNSATISFIED = 32
ASK_OUT_ON_DOUBLE = 64
ASK_WENT_OUT = 128


def paper(r):
    """True when nothing of round ``r``'s play was recorded (only its
    ``round`` line): a paper sheet, whose facts are told (ruling 15)."""
    return r.moves == 0 and not r.any_known


def _may_hold_zero(game, r, s):
    """0-0 may be in seat s's hand: not the centre double, not on the
    table, not known to be in another hand."""
    zero = tiles.double_id(0)
    if r.double == 0 or r.table[zero]:
        return False
    for o in range(game.n):
        if o != s and zero in r.known[o]:
            return False
    return True


def ask(game):
    """What score entry must ask of each seat for the round in play: a
    tuple of one int a seat, of the ASK_* bits. The seat that went out is
    asked nothing; a hand known whole (simulated games) is asked nothing
    the engine can count itself."""
    r = game.round
    rules = game.rules
    n = game.n
    if r is None:
        return (0,) * n
    out = r.out if r.ended == OUT else -1
    told = paper(r)
    mex = game.trains
    per = [0] * n
    for s in range(n):
        if s == out:
            continue
        bits = 0
        if not r.exact[s]:
            bits = ASK_PIPS
            if _may_hold_zero(game, r, s):
                bits |= ASK_DB
            if rules.blank_end:
                bits |= ASK_BLANK_ENDS
            if rules.doubles_double:
                bits |= ASK_DOUBLES_PIPS
        if told:
            if rules.open_train and mex:
                bits |= ASK_OPEN_TRAIN
            if rules.unsatisfied:
                bits |= ASK_UNSATISFIED
            if rules.out_bonus or rules.double_out:
                bits |= ASK_WENT_OUT
            if rules.double_out:
                bits |= ASK_OUT_ON_DOUBLE
        per[s] = bits
    return tuple(per)


def known(game):
    """The engine's facts of the round in play, in the order above (six
    tuples of one int a seat; 0 where it knows nothing): the hand's facts
    where the hand is known whole, the derived ones where the play was
    recorded."""
    r = game.round
    n = game.n
    f = [[0] * n for _ in range(COUNT)]
    if r is None:
        return tuple(tuple(x) for x in f)
    for s in range(n):
        if r.exact[s]:
            b, d = _hand_facts(r.known[s])
            f[BLANK_ENDS][s] = b
            f[DOUBLES_PIPS][s] = d
    if not paper(r):
        _derived(game, r, f)
    return tuple(tuple(x) for x in f)


def _hand_facts(ids):
    """(blank ends, doubles' pips) of the tiles ``ids``, 0-0 aside."""
    hi = tiles.HI
    lo = tiles.LO
    b = d = 0
    for t in ids:
        if t == 0:
            continue          # 0-0: valued on its own
        if lo[t] == 0:
            b += 1
        elif hi[t] == lo[t]:
            d += hi[t] + lo[t]
    return b, d


def _derived(game, r, f):
    """The facts the recorded play shows, into ``f`` (lists)."""
    n = game.n
    if game.trains:
        for s in range(n):
            if r.markers[s + 1]:
                f[OPEN_TRAIN][s] = 1
    if r.ended == OUT:
        f[WENT_OUT][r.out] = 1
        if r.out_double:
            f[OUT_ON_DOUBLE][r.out] = 1
    for s in _unsatisfied(game, r):
        f[UNSATISFIED][s] += 1


def _unsatisfied(game, r):
    """The seats (0-based, one entry a double) whose doubles are left
    unsatisfied: on a train whose end is a double nobody covered, or a
    chicken foot short of its toes. The double a seat went out on is not
    left unsatisfied (ruling 13)."""
    out = []
    last = r.out if (r.ended == OUT and r.out_double) else -1
    if game.trains:
        for t in range(game.n + 1):
            by = r.laid[t]
            if by and not (by - 1 == last and t == r.last_train):
                out.append(by - 1)
    elif r.toes and r.foot_by != NO and r.foot_by != last:
        out.append(r.foot_by)
    return out


def of_result(res, k, s):
    """Fact ``k`` of seat s (0-based) in the scored round ``res`` (a
    ``game.results`` item); 0 where the round keeps no facts."""
    b = res[7]
    if b is None:
        return 0
    v = b[k * (len(b) // KEPT) + s]
    return v * 2 if k == DOUBLES_PIPS else v
