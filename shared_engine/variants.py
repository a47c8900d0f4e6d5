"""The house rules' play that a game at the presets' defaults never runs
(RULES.md, "House rules"): the doubles a round skips
(``skip_missing_doubles``) and the missed call of a last tile
(``call_last_tile``). Loaded only where those rules are on: the engine's
own module stays the size it was for every other game.
"""

from shared_engine import tiles
from shared_engine.tiles import IllegalEvent


def doubles_left(game):
    """The doubles still to open a round, in the order of ``rounds``: under
    skip_missing_doubles a round opens on the first of them that someone
    holds, and a skipped one, still unused, comes first again in the next
    round (the board's dealer asks who holds each in turn)."""
    used = game.used
    return [d for d in game.rules.rounds if d not in used]


def skipped(game, double):
    """The doubles a round on ``double`` passes over, nobody holding them:
    those before it among the doubles still to open a round."""
    left = doubles_left(game)
    return left[:left.index(double)] if double in left else []


def check_start(game, double, hunt):
    """A round line under skip_missing_doubles: its double is one still to
    open a round, and a hunt (nobody held any of them) is for the first."""
    left = doubles_left(game)
    if double not in left:
        raise IllegalEvent("%d-%d does not open a round now: %s still do" % (
            double, double, ", ".join("%d-%d" % (d, d) for d in left) or "none"))
    if hunt and double != left[0]:
        raise IllegalEvent("a hunt is for %d-%d, the first double still to open a round"
                           % (left[0], left[0]))


def line(ev):
    """The DGN line of the event (CAUGHT, seat, tile_ids)."""
    return " ".join(["%d caught" % ev[1]] + [tiles.name(t) for t in ev[2]])


def caught(game, seat, tile_ids):
    """The event ``(CAUGHT, seat, tile_ids)`` (call_last_tile): ``seat``,
    holding one tile and caught not calling it, draws the option's count
    of tiles at once (as many as may be drawn), whoever's turn it is;
    ``tile_ids`` the tiles drawn where known (else empty). Here, not in
    engine.py: only a game under the rule loads it."""
    r = game._live()
    rules = game.rules
    if not rules.call_last:
        raise IllegalEvent("this game has no penalty for a last tile not called (%s is 0)"
                           % "call_last_tile")
    if seat < 1 or seat > game.n:
        raise IllegalEvent("there is no seat %d" % seat)
    s = seat - 1
    if r.hands[s] != 1:
        raise IllegalEvent("{seat} holds {tiles}: only a last tile is called",
                           seat, ("1 tile",) if r.hands[s] == 1 else ("{n} tiles", r.hands[s]))
    k = r.drawable(rules)
    if k > rules.call_last:
        k = rules.call_last
    if tile_ids and len(tile_ids) != k:
        raise IllegalEvent("seat %d draws %d tiles, not %d" % (seat, k, len(tile_ids)))
    for i in range(len(tile_ids)):
        t = tile_ids[i]
        game._unseen(t, s)
        if t in r.known[s] or t in tile_ids[:i]:
            raise IllegalEvent("%s is already in seat %d's hand" % (tiles.name(t), seat))
    if tile_ids:
        r.known[s].extend(tile_ids)
        r.any_known = True
    elif k and r.exact[s]:
        r.exact[s] = False
    r.yard -= k
    r.hands[s] += k
    r.moves += 1
    if k:
        r.passes = 0
    if r.caught is None:
        r.caught = [0] * game.n
    r.caught[s] += 1


