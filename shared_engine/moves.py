"""Legal plays: every (tile, target) a seat could play now.

The board's tile picker and the bots use it, and the engine asks it when a
hand is known (a seat that holds a play may not draw or pass). Kept apart
from the reducer so a quick-tracking press never loads it.
"""

from shared_engine import tiles
from shared_engine.tiles import MEXICAN, NO, UNSEEN
from shared_engine.presets import TRAINS


def legal_plays(game, seat=None):
    """Every (a, b, target) the seat to move (or ``seat``) could legally
    play now: a is the connecting end, target None or a train
    (mexican-train). Tiles come from the seat's hand where it is known,
    else from every tile not on the table and not known elsewhere.
    Returns None when the open ends are not known (quick tracking)."""
    r = game.round
    if r is None or r.ended or game.over:
        return []
    s = r.to_move if seat is None else seat - 1
    if r.drew and r.drawn >= 0:
        pool = (r.drawn,)
    elif r.exact[s]:
        pool = r.known[s]
    else:
        pool = candidates(game, s)
    return plays_for(game, s, pool)


def candidates(game, s):
    r = game.round
    taken = bytearray(r.table)
    for o in range(game.n):
        if o != s:
            for t in r.known[o]:
                taken[t] = 1
    # Tile ids are below 256: a bytearray of the final size, not a list
    # grown to a block of 128 words (1 KB the board's fragmented heap may
    # not have: a long Mexican Train game met it drawing the tile picker).
    n = game.rules.tiles
    out = bytearray(n - sum(taken))
    i = 0
    for t in range(n):
        if not taken[t]:
            out[i] = t
            i += 1
    return out

def plays_for(game, s, pool):
    """The legal plays of seat s from the tiles in pool (None if the
    layout is not known well enough to say)."""
    r = game.round
    HI = tiles.HI
    LO = tiles.LO
    out = []
    if game.rules.layout == TRAINS:
        targets = train_targets(game, r, s)
        if targets is None:
            return None
        for t in pool:
            h = HI[t]
            l = LO[t]
            for tg, need in targets:
                if h == need:
                    out.append((h, l, tg))
                elif l == need:
                    out.append((l, h, tg))
        return out
    if r.centre_left:
        need = (r.double,)
        no_double = True
    elif r.toes:
        if r.foot < 0:
            return None
        need = (r.foot,)
        no_double = True
    else:
        if r.ends is None:
            return None
        need = [p for p in range(len(r.ends)) if r.ends[p] > 0]
        no_double = False
    for t in pool:
        h = HI[t]
        l = LO[t]
        if h == l:
            if not no_double and h in need:
                out.append((h, l, None))
            continue
        if h in need:
            out.append((h, l, None))
        if l in need:
            out.append((l, h, None))
    return out

def train_targets(game, r, s):
    """(target, pip it needs) for every train seat s may play on now."""
    own = s + 1
    if r.od_train != NO:
        if not r.had_turn[s] and r.od_train != own:
            return []
        cand = (r.od_train,)
    elif not r.had_turn[s]:
        cand = (own,)
    else:
        cand = [own, MEXICAN]
        for o in range(1, game.n + 1):
            if o != own and r.markers[o]:
                cand.append(o)
    out = []
    for tg in cand:
        end = r.trains[tg]
        if end == UNSEEN:
            return None
        if tg == r.od_train and r.od_pip == UNSEEN:
            return None
        out.append((tg, r.double if end == NO else end))
    return out

