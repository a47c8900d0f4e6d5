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
from shared_engine.tiles import IllegalEvent, NO, OUT

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
            b, d = hand_facts(r.known[s])
            f[BLANK_ENDS][s] = b
            f[DOUBLES_PIPS][s] = d
    if not paper(r):
        _derived(game, r, f)
    return tuple(tuple(x) for x in f)


def hand_facts(ids):
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
    chicken foot short of its toes. (The double a seat went out on is not
    one, ruling 13: the engine forgets who laid it.)"""
    out = []
    if game.trains:
        for t in range(game.n + 1):
            by = r.laid[t]
            if by:
                out.append(by - 1)
    elif r.toes and r.foot_by != NO:
        out.append(r.foot_by)
    return out


# The rule that counts each fact of a score line (a mark for a rule not in
# play is refused); WENT_OUT counts for every game (the report's `out`,
# the sheet's `*`, most_outs).
_RULE = ("blank_end", "doubles_double", "open_train", "unsatisfied", "double_out", None)
_MARK = ("+BE", "+DP", "+OT", "+UD", "+OD", "+OUT")


def resolve(game, r, pips, db, claims, out):
    """The facts of round ``r`` as scored: the engine's, with the score
    line's ``claims`` (None, or six tuples, None or one int a seat):
    asked facts as claimed (0 where not), derived facts the engine's where
    the play was recorded (a claim that contradicts them is refused) and
    as claimed on a paper sheet. Returns (the round's facts as bytes, or
    None where the rules count none; the seat that went out, or None)."""
    rules = game.rules
    n = game.n
    told = paper(r)
    f = [[0] * n for _ in range(COUNT)]
    if not told:
        _derived(game, r, f)
    if claims is not None:
        if len(claims) != COUNT:
            raise IllegalEvent("a score's facts are %d, not %d" % (COUNT, len(claims)))
        for i in range(COUNT):
            c = claims[i]
            if c is None:
                continue
            if len(c) != n:
                raise IllegalEvent("the score line needs %d numbers, one per seat, not %d"
                                   % (n, len(c)))
            for s in range(n):
                v = c[s]
                if not v:
                    continue
                if _RULE[i] is not None and not getattr(rules, _RULE[i]):
                    raise IllegalEvent("%s: this game does not count it (its %s is off)" % (
                        _MARK[i], _RULE[i]))
                if i < ASKED or told:
                    f[i][s] = v
                elif f[i][s] != v:
                    raise IllegalEvent(_contradiction(i, s, f[i][s], v))
    if told:
        outs = [s for s in range(n) if f[WENT_OUT][s]]
        if len(outs) > 1:
            raise IllegalEvent("only one seat goes out: seats %d and %d are marked +OUT"
                               % (outs[0] + 1, outs[1] + 1))
        if outs:
            out = outs[0]
        for s in range(n):
            if f[OUT_ON_DOUBLE][s] and s != out:
                raise IllegalEvent("seat %d did not go out: +OD goes with +OUT" % (s + 1))
    if out is not None:
        p = pips[out] + f[BLANK_ENDS][out] + f[DOUBLES_PIPS][out]
        if p or db[out]:
            raise IllegalEvent("{seat} went out: their score must be 0, not {n}", out + 1, p)
    for s in range(n):
        dp = f[DOUBLES_PIPS][s]
        if dp & 1:
            raise IllegalEvent("{seat}'s doubles make an even number of pips, not {n}", s + 1, dp)
    if not rules.facts:
        return None, out
    fb = bytearray(KEPT * n)
    for i in range(COUNT):
        row = f[i]
        for s in range(n):
            v = row[s] >> 1 if i == DOUBLES_PIPS else row[s]
            fb[i * n + s] = v if v < 255 else 255
    if r.caught is not None:
        for s in range(n):
            v = r.caught[s]
            fb[MISSED_CALLS * n + s] = v if v < 255 else 255
    return bytes(fb), out


def _contradiction(i, s, known_v, v):
    """What a score line's derived fact gets wrong (the engine's ``known_v``)."""
    seat = s + 1
    if i == OPEN_TRAIN:
        return "seat %d's train carries no marker" % seat
    if i == UNSATISFIED:
        return "seat %d left %d doubles unsatisfied, not %d" % (seat, known_v, v)
    if i == OUT_ON_DOUBLE:
        return "seat %d did not go out on a double" % seat
    return "seat %d did not go out" % seat


def count(rules, n, counted, out, fb):
    """The house rules' part of a round's count (scoring.count), in place
    in ``counted`` (each seat's pips and 0-0 so far): blank ends and
    doubles counted again, blocked_cap on the hands, the penalties (open
    train, doubles left unsatisfied), the seat that went out -out_bonus
    or double_out (RULES.md, "What a hand counts")."""
    pen = [0] * n
    for s in range(n):
        counted[s] += rules.blank_end * fb[s]
        if rules.doubles_double:
            counted[s] += 2 * fb[n + s]
        pen[s] = rules.open_train * fb[2 * n + s] + rules.unsatisfied * fb[3 * n + s]
    if out is None and rules.blocked_cap:
        low = min(counted)
        for s in range(n):
            if counted[s] == low:
                counted[s] = 0
    for s in range(n):
        counted[s] += pen[s]
    if out is not None:
        if rules.double_out and fb[4 * n + out]:
            counted[out] = rules.double_out
        else:
            counted[out] = -rules.out_bonus


def check(rules, bnd, n, s, p, b, dp):
    """Refuse seat s's blank ends ``b`` and doubles' pips ``dp`` (each
    where a rule counts it) where the round's ``bounds`` (with the facts'
    spans) prove them wrong, and doubles' pips beyond the hand's."""
    seat = s + 1
    i = 7 * n + 4 * s
    if rules.blank_end:
        if b < bnd[i]:
            raise IllegalEvent("{seat}'s blank ends: at least {least}, not {n}", seat, bnd[i], b)
        if b > bnd[i + 1]:
            raise IllegalEvent("{seat}'s blank ends: at most {most}, not {n}", seat, bnd[i + 1], b)
    if rules.doubles_double:
        if dp & 1:
            raise IllegalEvent("{seat}'s doubles make an even number of pips, not {n}", seat, dp)
        if dp > p:
            raise IllegalEvent("{seat}'s doubles make more pips ({n}) than the hand ({total})",
                               seat, dp, p)
        if dp < 2 * bnd[i + 2]:
            raise IllegalEvent("{seat}'s doubles: at least {least} pips, not {n}", seat,
                               2 * bnd[i + 2], dp)
        if dp > 2 * bnd[i + 3]:
            raise IllegalEvent("{seat}'s doubles: at most {most} pips, not {n}", seat,
                               2 * bnd[i + 3], dp)


def spans(game, r, out):
    """Into ``out`` after its 7 bytes a seat, 4 bytes a seat: the fewest
    and most blank ends, and of the doubles' pips halved, seat s's hand
    could hold (its known tiles, the rest from the tiles nobody is known
    to hold). 0-0 counts in neither."""
    n = game.n
    taken = bytearray(r.table)
    for h in r.known:
        for t in h:
            taken[t] = 1
    blanks = 0
    doubles = []             # the halved pips of the doubles nobody is known to hold
    for d in range(game.rules.top, 0, -1):
        if not taken[tiles.double_id(d)]:
            doubles.append(d)
        if not taken[tiles.tile_id(d, 0)]:
            blanks += 1
    i = 7 * n
    for s in range(n):
        b, dp = hand_facts(r.known[s])
        dp >>= 1
        if r.exact[s] or r.hands[s] == 0:
            lo = (b, b, dp, dp)
        else:
            u = r.hands[s] - len(r.known[s])
            most = dp
            for d in doubles[:u]:
                most += d
            lo = (b, b + (u if u < blanks else blanks), dp, most if most < 255 else 255)
        for v in lo:
            out[i] = v
            i += 1


def round_facts(game, i):
    """The facts scored round i was worked out from (FORMAT.md, "The facts
    of a round"): pips, 0-0, who went out, and those the game's house rules
    count: the report's ``rounds[i].facts`` (shared_engine/report.py). A
    game without such rules has its round's ``pips``,
    ``holds_double_blank`` and ``out`` only: its reports stay the size they
    were, which the engine's tests on the unix port's heap hold several
    of, and it never loads this module."""
    double, counted, out, pips, db, bounds, orig, fb = game.results[i]
    rules = game.rules
    n = game.n
    f = {
        "pips": list(pips),
        "holds_double_blank": [s + 1 for s in range(n) if db[s]],
        "went_out": None if out is None else out + 1,
    }
    if rules.skip_missing:
        used = [res[0] for res in game.results[:i]]
        left = [d for d in rules.rounds if d not in used]
        f["skipped"] = left[:left.index(double)] if double in left else []
    if fb is not None:
        report(game, i, f)
    return f


def report(game, i, f):
    """Into ``f`` (the report's ``facts`` of scored round i, shared_engine/
    report.py) the facts the game's rules count."""
    rules = game.rules
    res = game.results[i]
    n = game.n
    out = res[2]

    def row(k):
        return [of_result(res, k, s) for s in range(n)]

    if rules.blank_end:
        f["blank_ends"] = row(BLANK_ENDS)
    if rules.doubles_double:
        f["doubles_pips"] = row(DOUBLES_PIPS)
    if rules.open_train:
        f["open_trains"] = [s + 1 for s in range(n) if of_result(res, OPEN_TRAIN, s)]
    if rules.unsatisfied:
        f["unsatisfied"] = row(UNSATISFIED)
    if rules.double_out:
        f["out_on_double"] = bool(out is not None and of_result(res, OUT_ON_DOUBLE, out))
    if rules.call_last:
        f["missed_calls"] = row(MISSED_CALLS)


def most_outs(game, tied):
    """tie_break most_outs: of the ``tied`` seats (0-based), the one who
    went out in most rounds wins, else they share: (seats, how)."""
    outs = [0] * game.n
    for res in game.results:
        if res[2] is not None:
            outs[res[2]] += 1
    most = max(outs[s] for s in tied)
    tied = [s for s in tied if outs[s] == most]
    if len(tied) == 1:
        return [tied[0] + 1], "most rounds gone out"
    return [s + 1 for s in tied], "shared"


def of_result(res, k, s):
    """Fact ``k`` of seat s (0-based) in the scored round ``res`` (a
    ``game.results`` item); 0 where the round keeps no facts."""
    b = res[7]
    if b is None:
        return 0
    v = b[k * (len(b) // KEPT) + s]
    return v * 2 if k == DOUBLES_PIPS else v


def corrected(game, res, s, claims):
    """A fix's facts for seat s of the scored round ``res``: (the round's
    facts bytes with the seat's as the fix writes them, or None where the
    rules count none; the seat that went out). Asked facts as written (0
    where not); derived facts the round's, a mark against them refused,
    but on a paper-sheet round (its ``bounds`` None) as written."""
    rules = game.rules
    n = game.n
    out = res[2]
    fb = res[7]
    told = res[5] is None
    c = claims if claims is not None else (0,) * COUNT
    if len(c) != COUNT:
        raise IllegalEvent("a fix's facts are %d, not %d" % (COUNT, len(c)))
    for i in range(COUNT):
        if c[i] and _RULE[i] is not None and not getattr(rules, _RULE[i]):
            raise IllegalEvent("%s: this game does not count it (its %s is off)" % (_MARK[i], _RULE[i]))
    if c[DOUBLES_PIPS] & 1:
        raise IllegalEvent("{seat}'s doubles make an even number of pips, not {n}", s + 1, c[DOUBLES_PIPS])
    if told:
        if c[WENT_OUT]:
            if out is not None and out != s:
                raise IllegalEvent("seat %d cannot have gone out: seat %d did" % (s + 1, out + 1))
            out = s
        elif out == s:
            out = None
        if c[OUT_ON_DOUBLE] and out != s:
            raise IllegalEvent("seat %d did not go out: +OD goes with +OUT" % (s + 1))
    else:
        for i in range(ASKED, COUNT):
            v = c[i]
            if not v:
                continue
            if i == WENT_OUT:
                had = 1 if out == s else 0
            elif fb is None:
                had = 0
            else:
                had = fb[i * n + s]
            if v != had:
                raise IllegalEvent(_contradiction(i, s, had, v))
    if fb is None:
        return None, out
    b = bytearray(fb)
    b[s] = c[BLANK_ENDS]
    b[n + s] = c[DOUBLES_PIPS] >> 1
    if told:
        for i in range(OPEN_TRAIN, COUNT):
            b[i * n + s] = c[i] if c[i] < 255 else 255
    return bytes(b), out
