"""Scores and winners: a ``score`` line checked and counted (ruling 5, the
value of 0-0, positive scoring, the house rules of RULES.md worked out
from the round's facts: shared_engine/facts.py), round winners, and the
game's winners after its tie-breaks.

Loaded only when a round is scored or the winners are asked for: most
presses on the board never need it.
"""

from shared_engine import tiles
from shared_engine.tiles import IllegalEvent, OUT


def score(game, pips, db, claims=None):
    """Apply a score line: ``pips`` and ``db`` per seat, ``claims`` the
    facts its marks write (facts.py's order; None: none)."""
    r = game.round
    rules = game.rules
    n = game.n
    if r is None:
        raise IllegalEvent("no round is in play to score")
    if len(pips) != n or len(db) != n:
        raise IllegalEvent("the score line needs %d numbers, one per seat, not %d" % (
            n, len(pips)))
    holders = [s for s in range(n) if db[s]]
    if len(holders) > 1:
        raise IllegalEvent("only one seat can hold 0-0")
    zero = tiles.double_id(0)
    if holders:
        h = holders[0]
        if r.table[zero] and r.double != 0:
            raise IllegalEvent("{seat} cannot hold 0-0: it is on the table", h + 1)
        if r.double == 0:
            raise IllegalEvent("{seat} cannot hold 0-0: it is the centre double", h + 1)
        for o in range(n):
            if o != h and zero in r.known[o]:
                raise IllegalEvent("{seat} cannot hold 0-0: {seat2} does", h + 1, o + 1)
    if r.ended == OUT and (pips[r.out] or db[r.out]):
        if db[r.out]:
            raise IllegalEvent("{seat} went out: they hold no tiles, so no 0-0", r.out + 1)
        raise IllegalEvent("{seat} went out: their score must be 0, not {n}", r.out + 1, pips[r.out])
    out = r.out if r.ended == OUT else None
    fb = None
    if rules.facts or claims is not None:
        from shared_engine import facts
        fb, out = facts.resolve(game, r, pips, db, claims, out)
    bnd = None
    if r.ended or r.moves or r.any_known:
        # Ruling 5: a score the engine can prove wrong is refused, seat by
        # seat against what their hands can make (kept for a later fix);
        # a round closed early too, where its play was recorded (ruling 16).
        bnd = bounds(game, r)
        for s in range(n):
            check_seat(bnd, s, pips[s], db[s])
            if fb is not None:
                facts.check(rules, bnd, n, s, pips[s], fb[s], fb[n + s] * 2)
    else:
        for s in range(n):
            check_paper(game, r.double, s, pips[s])
    counted = count(game, pips, db, out, fb)
    totals = game.totals
    for s in range(n):
        totals[s] += counted[s]
    game.results.append((r.double, counted, out, tuple(pips), tuple(db),
                         bnd, None, fb))
    game.used.append(r.double)
    game.round = None
    if len(game.results) >= len(rules.rounds):
        game.over = True
    elif rules.target:
        # target_score: over after the round in which a total reached it
        for t in totals:
            if t >= rules.target:
                game.over = True

def count(game, pips, db, out, fb=None):
    """The round's scores as counted for the totals (a tuple), worked out
    from its facts and the rules (RULES.md, "What a hand counts"): 0-0's
    value; the house rules where the round keeps facts (``fb``, bytes:
    facts.py); under positive scoring the winner (the seat that went out,
    else the lowest) takes the others' scores."""
    rules = game.rules
    n = game.n
    zero = rules.double_blank or 2 * rules.blank_end
    counted = [pips[s] + (zero if db[s] else 0) for s in range(n)]
    if fb is not None:
        from shared_engine import facts
        facts.count(rules, n, counted, out, fb)
    if rules.positive:
        if out is not None:
            winners = [out]
        else:
            low = min(counted)
            winners = [s for s in range(n) if counted[s] == low]
        pot = sum(counted[s] for s in range(n) if s not in winners)
        share = pot // len(winners)
        counted = [share if s in winners else 0 for s in range(n)]
    return tuple(counted)


def check_seat(bnd, s, p, d):
    """Refuse ``p`` pips (``d``: holding 0-0) for seat s (0-based) where the
    round's ``bounds`` prove them wrong: a score line's check, and a fix's."""
    seat = s + 1
    i = 7 * s + (4 if d else 1)
    v = bnd[i] << 16 | bnd[i + 1] << 8 | bnd[i + 2]
    k = bnd[7 * s]
    lo = v >> 11
    hi = v & 2047
    if lo > hi:
        if k == 0:
            raise IllegalEvent("{seat} has no tiles left: their score must be 0", seat)
        if lo == 2047:
            raise IllegalEvent("{seat}'s score cannot be checked against {n} tiles", seat, k)
        raise IllegalEvent("{seat} does not hold 0-0" if d else "{seat} holds 0-0", seat)
    if p != lo and lo == hi:
        raise IllegalEvent("{seat}'s hand counts {total}, not {n}", seat, lo, p)
    if p < lo:
        raise IllegalEvent("{seat}'s hand of {tiles} makes at least {least}, not {n}",
                           seat, ("1 tile",) if k == 1 else ("{n} tiles", k), lo, p)
    if p > hi:
        raise IllegalEvent("{seat}'s hand of {tiles} makes at most {most}, not {n}",
                           seat, ("1 tile",) if k == 1 else ("{n} tiles", k), hi, p)


def check_paper(game, double, s, p):
    """A paper-sheet round (nothing of its play recorded, ruling 16):
    refuse only what no hand can hold, more pips than the tiles not on
    the table (the set but the centre double)."""
    top = game.rules.top
    most = top * (top + 1) * (top + 2) // 2 - 2 * double
    if p > most:
        raise IllegalEvent("{seat} cannot hold {n} pips: the tiles not on the table hold {most}",
                           s + 1, p, most)


def _pool(game, r):
    """How many tiles of each pip count are where nobody knows (not on the
    table, in no known hand): a bytearray indexed by pips. Not a sorted
    list: on the board's fragmented heap a list of 91 tiles is a block of
    some hundreds of bytes it may not find."""
    taken = bytearray(r.table)
    for h in r.known:
        for t in h:
            taken[t] = 1
    counts = bytearray(2 * game.rules.top + 1)
    hi = tiles.HI   # tiles.pips inlined: this loop runs for every tile of the set
    lo = tiles.LO
    for t in range(game.rules.tiles):
        if not taken[t]:
            counts[hi[t] + lo[t]] += 1
    return counts


def _span(r, s, d, low, high):
    """(fewest, most) pips seat s's hand can make, its known tiles and the
    rest from the pool (``_pool``), holding 0-0 (d) or not; None when the
    count of tiles does not fit. ``low[u]`` and ``high[u]`` are the sums of
    the pool's u smallest and largest pips (``_sums``)."""
    known = r.known[s]
    base = 0
    for t in known:
        base += tiles.pips(t)
    u = r.hands[s] - len(known)
    if d and 0 not in known:   # 0: the id of 0-0
        u -= 1  # the 0-0 is one of the tiles, and counts 0
    # Without the +DB mark no tile is 0-0; with it, 0-0 is counted above:
    # either way the other tiles are the pool's less 0-0, its only tile of
    # 0 pips (index 0 is skipped).
    if u < 0 or u >= len(low):
        return None
    return base + low[u], base + high[u]


def _sums(pool, u, step):
    """[0, the smallest pip, the sum of the 2 smallest, ...] of ``pool``,
    0-0 left out, up to the ``u`` smallest (step 1; step -1: the largest);
    ``u`` is at most the pool's tiles with pips. Worked out once for all
    the seats of a score line: a seat's span is then two look-ups."""
    out = [0] * (u + 1)
    total = 0
    j = 0
    p = 1 if step > 0 else len(pool) - 1
    while j < u:
        k = pool[p]
        while k and j < u:
            j += 1
            total += p
            out[j] = total
            k -= 1
        p += step
    return out


# -- corrections ---------------------------------------------------------------
#
# A ``fix`` comes rounds after the score it corrects, when the round's state
# (hands, known tiles, the table) is long gone: on the board the undo history
# keeps only two rounds. So a scored round keeps what each seat's pips could
# have been, as its score line was checked: 7 bytes a seat (the checkpoint
# carries them), the tile count, then the fewest and the most pips without
# 0-0 in 3 bytes (11 bits each: a double-15 set holds 2,040 pips), then the
# same with 0-0; fewest > most where that is impossible. Bytes, not ints:
# 13 rounds of 10 players cost 1 KB a game on the 64-bit unix port. Where
# the rules count a round's facts (house rules), 4 bytes a seat follow the
# 7 of every seat: the fewest and the most blank ends, and the fewest and
# the most of the doubles' pips, halved (they are even; a double-18 set's
# doubles hold 342).

_NONE = (1, 0)  # an empty span: fewest > most
_UNCHECKED = (2047, 0)  # empty too: the tile count does not fit what is left


def bounds(game, r):
    """What each seat's score could be in the ended round ``r`` (bytes, 7 a
    seat, read by ``corrections.span``). Every round's score line on the
    board pays for it, a full replay a dozen times: what does not depend
    on the seat (the pool, its tiles with pips, who is known to hold 0-0)
    is worked out once."""
    zero = tiles.double_id(0)
    n = game.n
    out = bytearray(11 * n if game.rules.facts else 7 * n)
    low = high = None
    no_db = r.double == 0 or r.table[zero]
    holder = -1            # the seat known to hold 0-0
    most = 0               # the most tiles of a hand not known
    for o in range(n):
        known = r.known[o]
        if zero in known:
            holder = o
        if not r.exact[o] and r.hands[o] - len(known) > most:
            most = r.hands[o] - len(known)
    for s in range(n):
        k = r.hands[s]
        known = r.known[s]
        if k == 0:
            spans = ((0, 0), _NONE)
        elif r.exact[s]:
            total = 0
            for t in known:
                total += tiles.pips(t)
            spans = (_NONE, (total, total)) if zero in known else ((total, total), _NONE)
        else:
            if low is None:
                pool = _pool(game, r)
                m = 0
                for p in range(1, len(pool)):
                    m += pool[p]
                if most > m:
                    most = m
                low = _sums(pool, most, 1)
                high = _sums(pool, most, -1)
                pool = None
            held = no_db or (holder >= 0 and holder != s)
            spans = (_span(r, s, 0, low, high) or _UNCHECKED,
                     _NONE if held else (_span(r, s, 1, low, high) or _UNCHECKED))
        i = 7 * s
        out[i] = k if k < 255 else 255
        for lo, hi in spans:
            v = lo << 11 | hi
            out[i + 1] = v >> 16
            out[i + 2] = (v >> 8) & 255
            out[i + 3] = v & 255
            i += 3
    if game.rules.facts:
        from shared_engine import facts
        facts.spans(game, r, out)
    return bytes(out)


# -- the end of the game ------------------------------------------------------

def round_winners(game, i):
    """Seats (1-based) that won scored round i: the lowest score (the
    highest under positive scoring)."""
    counted = game.results[i][1]
    best = max(counted) if game.rules.positive else min(counted)
    return [s + 1 for s in range(game.n) if counted[s] == best]

def winners(game):
    """(seats, how): the game's winners after tie-breaks, and the
    tie-break that decided it (None when the totals alone did)."""
    if not game.over or not game.results:
        return [], None
    tot = game.totals
    best = max(tot) if game.rules.positive else min(tot)
    tied = [s for s in range(game.n) if tot[s] == best]
    if len(tied) == 1:
        return [tied[0] + 1], None
    if game.rules.tie_outs:
        from shared_engine import facts
        return facts.most_outs(game, tied)
    if not game.rules.tie_rounds:
        return [s + 1 for s in tied], "shared"
    won = [0] * game.n
    for i in range(len(game.results)):
        for w in round_winners(game, i):
            won[w - 1] += 1
    most = max(won[s] for s in tied)
    tied2 = [s for s in tied if won[s] == most]
    if len(tied2) == 1:
        return [tied2[0] + 1], "most rounds won"
    big = 1 << 30
    low = []
    for s in tied2:
        m = big
        for res in game.results:
            v = res[1][s]
            if v and v < m:
                m = v
        low.append(m)
    best_low = min(low)
    tied3 = [tied2[i] for i in range(len(tied2)) if low[i] == best_low]
    if len(tied3) == 1:
        return [tied3[0] + 1], "lowest non-zero round score"
    return [s + 1 for s in tied3], "shared"

