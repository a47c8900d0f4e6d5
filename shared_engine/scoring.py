"""Scores and winners: a ``score`` line checked and counted (ruling 5,
double-blank 50, positive scoring), round winners, and the game's winners
after its tie-breaks.

Loaded only when a round is scored or the winners are asked for: most
presses on the board never need it.
"""

from shared_engine import tiles
from shared_engine.tiles import IllegalEvent, OUT


def score(game, pips, db):
    r = game.round
    rules = game.rules
    n = game.n
    if r is None:
        raise IllegalEvent("no round is in play to score")
    if len(pips) != n:
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
    if r.ended:
        check_hands(game, r, pips, db)
    counted = [pips[s] + (50 if db[s] and rules.db50 else 0) for s in range(n)]
    out = r.out if r.ended == OUT else None
    if rules.positive:
        if out is not None:
            winners = [out]
        else:
            low = min(counted)
            winners = [s for s in range(n) if counted[s] == low]
        pot = sum(counted[s] for s in range(n) if s not in winners)
        share = pot // len(winners)
        counted = [share if s in winners else 0 for s in range(n)]
    for s in range(n):
        game.totals[s] += counted[s]
    game.results.append((r.double, tuple(counted), out, tuple(pips), tuple(db)))
    game.used.append(r.double)
    game.round = None
    rounds = rules.rounds
    if len(game.results) >= len(rounds):
        game.over = True

def check_hands(game, r, pips, db):
    """Ruling 5: a score the engine can prove wrong is refused."""
    n = game.n
    zero = tiles.double_id(0)
    pool = None
    for s in range(n):
        k = r.hands[s]
        p = pips[s]
        if k == 0:
            if p or db[s]:
                raise IllegalEvent("{seat} has no tiles left: their score must be 0", s + 1)
            continue
        if db[s] and zero not in r.known[s] and r.exact[s]:
            raise IllegalEvent("{seat} does not hold 0-0", s + 1)
        if r.exact[s]:
            total = 0
            for t in r.known[s]:
                total += tiles.pips(t)
            if total != p:
                raise IllegalEvent("{seat}'s hand counts {total}, not {n}", s + 1, total, p)
            if (zero in r.known[s]) != bool(db[s]):
                raise IllegalEvent("{seat} holds 0-0" if zero in r.known[s] else "{seat} does not hold 0-0",
                                   s + 1)
            continue
        if pool is None:
            taken = bytearray(r.table)
            for o in range(n):
                for t in r.known[o]:
                    taken[t] = 1
            pool = sorted(tiles.pips(t) for t in range(game.rules.tiles) if not taken[t])
        base = 0
        for t in r.known[s]:
            base += tiles.pips(t)
        u = k - len(r.known[s])
        if db[s] and zero not in r.known[s]:
            u -= 1  # the 0-0 is one of the tiles, and counts 0
        # Without the +DB mark no tile is 0-0; with it, 0-0 is counted
        # above: either way the other tiles come from the pool less 0-0.
        cand = pool
        if not r.table[zero] and not any(zero in h for h in r.known):
            cand = pool[1:]  # 0-0 is the pool's only 0, first when sorted
        if u < 0 or u > len(cand):
            raise IllegalEvent("{seat}'s score cannot be checked against {n} tiles", s + 1, k)
        lo = base + sum(cand[:u])
        hi = base + (sum(cand[len(cand) - u:]) if u else 0)
        if p < lo:
            raise IllegalEvent("{seat}'s {tiles} make at least {least} pips, not {n}",
                               s + 1, ("1 tile",) if k == 1 else ("{n} tiles", k), lo, p)
        if p > hi:
            raise IllegalEvent("{seat}'s {tiles} make at most {most} pips, not {n}",
                               s + 1, ("1 tile",) if k == 1 else ("{n} tiles", k), hi, p)

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

