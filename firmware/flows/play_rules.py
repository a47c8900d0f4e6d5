"""What the turn screen and the game menu say under the house rules that
change a turn (RULES.md, "House rules"): a first-turn run, drawing until a
tile fits, a missed call of the last tile.

A module of its own, loaded by firmware/flows/play.py only for a game with
one of these rules: play's module is loaded on every press, and the board's
heap on the picker's press had no room to spare for these words too.
"""


def status(g, out):
    """The turn screen's status lines (``out``, play.py's) under
    ``first_turn_run`` and ``drawn_tile until``."""
    r = g.round
    rules = g.rules
    if rules.first_run and r.run == r.to_move:
        # the run's seat keeps the turn: its own train's "first turn" line says less
        if ("First turn: own train only",) in out:
            out.remove(("First turn: own train only",))
        out.insert(0, ("First turn: play on, or Pass to end it",))
    if rules.draw_until and r.drew and r.drawable(rules):
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
