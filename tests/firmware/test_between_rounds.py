"""Between rounds on the board (firmware/flows/rounds.py), as the app runs
the flows: a press, then the event it makes applied and the UI back to the
state's own screen (App.apply).

Issue 32, item 7: in Chicken Scratch, "Nobody" on the last double not yet
used writes ``redeal``, and the board went straight back to "After round 1
of 2" with nothing telling the table to shuffle and deal again.
"""

from firmware import core
from shared_engine.engine import Game, ROUND, SCORE


def _press(ctx, ui, button):
    """One press as App.press runs it: the UI it moves to, or (an event)
    the event applied and the UI reset."""
    ui, act = core.step(ctx, ui, button)
    if act is None:
        return ui
    ctx.game.apply(act)
    return {}


def _scratch_after_round_one():
    g = Game("chicken-scratch", ["Ann", "Bob", "Cy"], {"rounds": "6 5"})
    g.apply((ROUND, 6, 1, ()))
    g.apply((SCORE, (0, 7, 12), (0, 0, 0)))
    return core.Ctx(game=g)


def test_nobody_holding_the_last_double_says_shuffle_and_deal_again():
    ctx = _scratch_after_round_one()
    assert core.view(ctx, {})[0] == "sheet"            # "After round 1 of 2"
    ui = _press(ctx, {}, "A")                           # Next: the dealer, 5-5
    name, v = core.view(ctx, ui)
    assert name == "dealer" and v["centre"] == "5-5" and "redeal" not in v
    ui = _press(ctx, ui, "B")                           # Nobody holds 5-5: no double left
    assert ctx.game.redeals == 1 and ui == {}
    name, v = core.view(ctx, ui)
    assert name == "dealer", v
    assert v["redeal"] == ("Nobody held a double: shuffle all the tiles and draw new hands",)
    assert v["centre"] == "5-5"                         # the deal starts over from the highest double left
    assert v["labels"][0] == ("Start",) and v["labels"][3] == ("undo",)
    # the dealer's own keys: A starts the redealt round
    ui = _press(ctx, ui, "A")
    assert ctx.game.round is not None and ctx.game.round.double == 5


def test_a_void_first_deal_says_so_too():
    g = Game("chicken-scratch", ["Ann", "Bob"], {"rounds": "6"})
    ctx = core.Ctx(game=g)
    ui = _press(ctx, {}, "B")                           # nobody holds 6-6, the only double
    assert g.redeals == 1
    name, v = core.view(ctx, ui)
    assert name == "dealer" and "redeal" in v
    # undo takes the void deal back, and the line with it
    ui = _press(ctx, ui, "UP")
    assert g.redeals == 0 and "redeal" not in core.view(ctx, ui)[1]
