"""Score entry's keys (firmware/flows/score.py), run on CPython as the test
planner runs the flows: the common entry as short as before, a wrong entry
cheap to mend, and DOWN at 0 no longer a way out by mistake (issue 32)."""

from firmware import core
from firmware.flows import score as score_flow
from shared_engine.engine import Game, ROUND, SCORE, FIX

from planner import number_presses, press_all


def _ended_round():
    """A 4-player Chicken Foot round closed from the menu: score entry."""
    g = Game("chickenfoot", ["Ann", "Bob", "Cy", "Di"], {"rounds": "9 8"})
    g.apply((ROUND, 9, 1, ()))
    return core.Ctx(game=g)


def test_down_at_0_stays_on_the_player():
    ctx = _ended_round()
    ui, _ = press_all(ctx, {"s": "score"}, ["A", "UP", "DOWN", "DOWN", "DOWN"])
    assert ui["i"] == 1 and ui["v"] == 0
    assert core.view(ctx, ui)[1]["labels"][4] is None      # nothing on DOWN at 0


def test_a_mistyped_250_mends_to_25_in_9_presses():
    from pipkeeper.bench.firmware import mend_presses
    assert mend_presses(250, 25) == 9
    ctx = _ended_round()
    ui, _ = press_all(ctx, {"s": "score"}, ["B"] * 25)
    assert ui["v"] == 250
    ui, _ = press_all(ctx, ui, ["C", "UP"] + number_presses(25))      # more, clear, then 25
    assert ui["v"] == 25 and not ui.get("more")


def test_the_mending_keys():
    ctx = _ended_round()
    ui, _ = press_all(ctx, {"s": "score"}, ["B", "B", "B", "UP"])
    assert ui["v"] == 31
    ui, _ = press_all(ctx, ui, ["C"])
    assert ui["more"] == 1
    assert [x and x[0] for x in core.view(ctx, ui)[1]["labels"]] == ["Back", "-10", "0-0", "clear", "back"]
    ui, _ = press_all(ctx, ui, ["B"])                 # -10, and the keys go down
    assert ui["v"] == 21 and "more" not in ui
    ui, _ = press_all(ctx, ui, ["C", "C"])            # holds 0-0
    assert ui["b"] == 1 and core.view(ctx, ui)[1]["db"]
    ui, _ = press_all(ctx, ui, ["C", "A"])            # A only puts the keys down
    assert ui["v"] == 21 and ui["b"] == 1 and "more" not in ui
    ui, _ = press_all(ctx, ui, ["C", "B", "C", "B", "C", "B"])       # -10 stops at 0
    assert ui["v"] == 0
    ui, _ = press_all(ctx, ui, ["A"])                 # Ann's 0+0-0 taken; Bob next
    assert ui["i"] == 1
    ui, _ = press_all(ctx, ui, ["C", "DOWN"])         # back to Ann, as she was entered
    assert (ui["i"], ui["v"], ui["b"]) == (0, 0, 1)
    ui, _ = press_all(ctx, ui, ["C", "DOWN"])         # back from the first: out of score entry
    assert ui == {}


def test_a_whole_entry_takes_the_presses_it_took_before():
    ctx = _ended_round()
    pips = (19, 0, 25, 7)
    seq = []
    for p in pips:
        seq += number_presses(p) + ["A"]
    ui, act = press_all(ctx, {"s": "score"}, seq)
    assert act == (SCORE, pips, (0, 0, 0, 0))
    # +10 +10 -1, OK; OK; +10 +10 +1 x5, OK; +1 x5 -> 10 - 3 (no: 7 is B DOWN x3), OK
    assert len(seq) == 4 + 1 + 8 + 5


def test_a_fix_mends_and_goes_back_with_the_same_keys():
    ctx = _ended_round()
    g = ctx.game
    g.apply((SCORE, (0, 250, 5, 7), (0, 0, 0, 0)))
    ui = {"s": "fix", "r": 0, "i": 1, "v": 250, "b": 0}
    ui, act = press_all(ctx, ui, ["C", "UP"] + number_presses(25) + ["A"])
    assert act == (FIX, 1, 2, 25, 0)
    ui, act = press_all(ctx, {"s": "fix", "r": 0, "i": 1, "v": 0, "b": 0}, ["DOWN"])
    assert ui["s"] == "fix" and act is None
    ui, act = press_all(ctx, ui, ["C", "DOWN"])
    assert ui == {"s": "sheet", "f": 2, "r": 0, "i": 1, "o": 0} and act is None


def test_the_score_flow_names_every_word_it_shows():
    """Every label is a message of the catalogue (host/pipkeeper/i18n)."""
    from pipkeeper.i18n.catalogue import en
    ctx = _ended_round()
    for ui in ({"s": "score"}, {"s": "score", "v": 3}, {"s": "score", "more": 1}):
        for lab in core.view(ctx, ui)[1]["labels"]:
            assert lab is None or lab[0] in en.MESSAGES
    assert score_flow.edit(0, 0, 0, "DOWN") == (0, 0, 0, None)
