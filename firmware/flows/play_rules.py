"""What the house rules change in play on the board (RULES.md, "House
rules"): the turn screen's lines and the game menu's rows under a
first-turn run, drawing until a tile fits, a missed call of the last tile;
the dealer's "Nobody" under skip-missing-doubles.

A module of its own, loaded by firmware/flows/play.py and rounds.py only
where one of these rules changes the screen in hand (a run's seat, a
drawn tile that does not fit, a seat on its last tile, a double nobody
holds): those flows are loaded on every press, the board's heap on the
picker's press had no room to spare for these too, and the stock image's
cold boot paid for loading it on every turn.
"""


def status(out, run, until):
    """The turn screen's status lines (``out``, play.py's, which says when):
    ``run``, the seat to move is in its first-turn run (first_turn_run);
    ``until``, it drew a tile that does not fit and may draw again
    (drawn_tile until)."""
    if run:
        # the run's seat keeps the turn: its own train's "first turn" line says less
        if ("First turn: own train only",) in out:
            out.remove(("First turn: own train only",))
        out.insert(0, ("First turn: play on, or Pass to end it",))
    if until:
        for m in (("Drew: play it or pass",), ("Drew: may play it, or pass",)):
            if m in out:
                out[out.index(m)] = ("Drew: play it, or draw again",)


def caught(ctx, g):
    """The game menu's rows for ``call_last_tile``: each seat down to one
    tile, caught not calling it (``SEAT caught``: it draws)."""
    from shared_engine.engine import CAUGHT
    r = g.round
    out = []
    for s in range(g.n):
        if r.hands[s] == 1:
            out.append((("{name} did not call the last tile", ctx.name(s + 1)), (CAUGHT, s + 1, ())))
    return out


def nobody_holds(g, d, base):
    """The dealer's ui after "Nobody" under ``skip_missing_doubles``: nobody
    holds the double ``d``, so ask of the next still to open a round
    (shared_engine/variants.py); nobody holds any: the first is drawn for
    (the hunt). ``base``: the dealer's ui as it stands."""
    from shared_engine.variants import doubles_left
    left = doubles_left(g)
    i = left.index(d) if d in left else -1
    if i + 1 < len(left):
        base["d"] = left[i + 1]
        return base
    base["d"] = left[0]
    base["h"] = []
    return base
