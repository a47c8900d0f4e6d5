"""The ``hand`` line: a seat's dealt hand known (simulated games, and
players who record everything); then that seat's plays, draws and score
are checked against it. The board never writes one, so it never loads
this module.
"""

from shared_engine import tiles
from shared_engine.tiles import IllegalEvent


def hand(game, seat, tile_ids):
    """The event ``(HAND, seat, tile_ids)``, right after the round line."""
    r = game._live()
    rules = game.rules
    if seat < 1 or seat > game.n:
        raise IllegalEvent("there is no seat %d" % seat)
    s = seat - 1
    if r.moves:
        raise IllegalEvent("a hand is given right after the round line, before any play")
    if r.exact[s]:
        raise IllegalEvent("seat %d's hand is already given" % seat)
    centre = tiles.double_id(r.double)
    places = rules.centre_in_hand and r.lead == seat
    want = r.hands[s] + (1 if places else 0)
    if len(tile_ids) != want:
        raise IllegalEvent("seat %d holds %d tiles, not %d" % (seat, want, len(tile_ids)))
    # the tiles listed, a byte each (a dict of 60 keys is a block of 1 KB
    # on the unix port's heap, where the engine's tests run)
    seen = bytearray(tiles.size(tiles.MAX_SET))
    for t in tile_ids:
        if t >= rules.tiles:
            raise IllegalEvent("%s is not in a double-%d set" % (tiles.name(t), rules.top))
        if seen[t]:
            raise IllegalEvent("%s is listed twice" % tiles.name(t))
        seen[t] = 1
        if t == centre:
            if not places:
                raise IllegalEvent("%s is the centre double: seat %d cannot hold it" % (
                    tiles.name(t), seat))
            continue
        game._unseen(t, s)
    if not rules.fixed_order:
        # chicken-scratch: the round starts with the highest unused double held.
        for d in rules.rounds:
            if d > r.double and d not in game.used and seen[tiles.double_id(d)]:
                raise IllegalEvent("seat %d holds %d-%d: the round starts with the highest "
                                   "double not yet played, not %d-%d" % (
                                       seat, d, d, r.double, r.double))
    elif rules.skip_missing:
        # skip_missing_doubles: none of the doubles the round skipped
        from shared_engine import variants
        for d in variants.skipped(game, r.double):
            if seen[tiles.double_id(d)]:
                raise IllegalEvent("seat %d holds %d-%d: the round starts with the first double "
                                   "still to open a round that someone holds, not %d-%d" % (
                                       seat, d, d, r.double, r.double))
    if places and not seen[centre]:
        raise IllegalEvent("seat %d places %s, so their hand must hold it" % (
            seat, tiles.name(centre)))
    k = [0] * (len(tile_ids) - (1 if places else 0))
    i = 0
    for t in tile_ids:
        if t != centre:
            k[i] = t
            i += 1
    r.known[s] = k
    r.exact[s] = True
    r.any_known = True
