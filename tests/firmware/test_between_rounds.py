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


# -- the score sheet pages through its rounds (issue 32, item 5) ---------------

def _mexican(rounds):
    """A Mexican Train game after ``rounds`` scored rounds (12-12 down)."""
    g = Game("mexican-train", ["Ann", "Bob", "Cy", "Di"], {})
    for k in range(rounds):
        g.apply((ROUND, 12 - k, k % 4 + 1, ()))
        g.apply((SCORE, (0, k, 2 * k, 3), (0, 0, 0, 0)))
    return g


def _shown(v):
    from firmware.sheet_pages import ROWS, first_row
    first = first_row(v["rows"], v.get("top"), v.get("cursor"))
    return [label for label, _ in v["rows"][first:first + ROWS]]


def test_the_round_sheet_pages_back_to_the_first_rounds_and_returns():
    ctx = core.Ctx(game=_mexican(12))
    name, v = core.view(ctx, {})
    assert name == "sheet" and _shown(v) == ["%d-%d" % (d, d) for d in range(8, 0, -1)]
    assert v["labels"][2] == ("earlier",)          # C: the rounds before these
    ui = _press(ctx, {}, "C")
    name, v = core.view(ctx, ui)
    assert name == "sheet" and _shown(v)[0] == "12-12" and len(_shown(v)) == 8
    assert v["labels"][2] == ("latest",)
    # UP is still undo, DOWN the menu, on the page shown
    assert v["labels"][3] == ("undo",) and v["labels"][4] == ("more",)
    ui = _press(ctx, ui, "C")                       # back to the latest rounds
    assert ui == {} and _shown(core.view(ctx, ui)[1])[-1] == "1-1"
    assert len(ctx.game.results) == 12              # paging wrote nothing


def test_a_sheet_that_fits_offers_no_paging():
    ctx = core.Ctx(game=_mexican(8))
    v = core.view(ctx, {})[1]
    assert v["labels"][2] is None and len(_shown(v)) == 8
    assert _press(ctx, {}, "C") == {}


def test_historys_sheet_pages_with_up_and_down(tmp_path):
    from firmware.storage import Storage
    from shared_engine import dgn
    st = Storage(str(tmp_path))
    st.ensure_dirs()
    events = []
    for k in range(13):
        events += [(ROUND, 12 - k, k % 4 + 1, ()), (SCORE, (0, k, 2 * k, 3), (0, 0, 0, 0))]
    st.new_game(lambda n: dgn.write([("Rules", ["mexican-train"]), ("Players", ["Ann", "Bob", "Cy", "Di"])],
                                    events))
    ctx = core.Ctx(store=st)
    ui = {"s": "hist", "c": 0, "g": st.list_games()[-1]}
    name, v = core.view(ctx, ui)
    assert name == "sheet" and _shown(v)[-1] == "0-0" and _shown(v)[0] == "7-7"
    assert v["labels"][3] == ("earlier",) and v["labels"][4] is None
    ui = _press(ctx, ui, "UP")
    v = core.view(ctx, ui)[1]
    assert _shown(v)[0] == "12-12" and v["labels"][3] is None and v["labels"][4] == ("later",)
    ui = _press(ctx, ui, "DOWN")
    assert _shown(core.view(ctx, ui)[1])[-1] == "0-0"
    assert _press(ctx, ui, "C") == {"s": "hist", "c": 0}


def test_a_shared_win_says_so_in_one_phrase():
    """Issue 32, item 9: the end screen read "Ann & Cy win: shared: tied
    totals". The why is the totals alone: the screen says "share the win"."""
    g = Game("chickenfoot", ["Ann", "Bob", "Cy"], {"rounds": "9"})
    g.apply((ROUND, 9, 1, ()))
    g.apply((SCORE, (2, 9, 2), (0, 0, 0)))
    name, v = core.view(core.Ctx(game=g), {})
    assert name == "end" and v["winners"] == ["Ann", "Cy"], v
    assert v["why"] == ("tied totals",)
