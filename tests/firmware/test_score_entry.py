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


def test_a_mistyped_250_mends_to_25_in_10_presses():
    from pipkeeper.bench.firmware import mend_presses
    assert mend_presses(250, 25) == 10
    ctx = _ended_round()
    ui, _ = press_all(ctx, {"s": "score"}, ["B"] * 25)
    assert ui["v"] == 250
    ui, _ = press_all(ctx, ui, ["C", "C", "UP"] + number_presses(25))   # 0-0, more, clear, then 25
    assert ui["v"] == 25 and not ui.get("more") and not ui["b"]


def test_the_mending_keys():
    ctx = _ended_round()
    ui, _ = press_all(ctx, {"s": "score"}, ["B", "B", "B", "UP"])
    assert ui["v"] == 31
    assert core.view(ctx, ui)[1]["labels"][2] == ("0-0",)
    ui, _ = press_all(ctx, ui, ["C"])              # holds 0-0: one press, as before
    assert ui["b"] == 1 and "more" not in ui and core.view(ctx, ui)[1]["db"]
    assert core.view(ctx, ui)[1]["labels"][2] == ("more",)
    ui, _ = press_all(ctx, ui, ["C"])              # again: the mark off, the mending keys up
    assert ui["b"] == 0 and ui["more"] == 1
    assert [x and x[0] for x in core.view(ctx, ui)[1]["labels"]] == ["OK", "-10", "0-0", "clear", "back"]
    ui, _ = press_all(ctx, ui, ["B"])              # -10, and the keys go down
    assert ui["v"] == 21 and "more" not in ui
    ui, _ = press_all(ctx, ui, ["C", "C", "C"])    # 0-0, more, 0-0 again from the mending keys
    assert ui["b"] == 1 and "more" not in ui
    ui, _ = press_all(ctx, ui, ["C", "B", "C", "C", "B", "C", "C", "B"])     # -10 three times, stops at 0
    assert ui["v"] == 0 and ui["b"] == 0
    ui, _ = press_all(ctx, ui, ["C", "A"])         # 0-0 on: Ann's 0+0-0 taken; Bob next
    assert ui["i"] == 1
    ui, _ = press_all(ctx, ui, ["C", "C", "DOWN"])     # back to Ann, as she was entered
    assert (ui["i"], ui["v"], ui["b"]) == (0, 0, 1)
    ui, _ = press_all(ctx, ui, ["C", "DOWN"])      # (0-0 on: C is "more") back from the first: out
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
    ui, act = press_all(ctx, ui, ["C", "C", "UP"] + number_presses(25) + ["A"])
    assert act == (FIX, 1, 2, 25, 0)
    ui, act = press_all(ctx, {"s": "fix", "r": 0, "i": 1, "v": 0, "b": 0}, ["DOWN"])
    assert ui["s"] == "fix" and act is None
    ui, act = press_all(ctx, ui, ["C", "C", "DOWN"])
    assert ui == {"s": "sheet", "f": 2, "r": 0, "i": 1, "o": 0} and act is None


def test_the_score_flow_names_every_word_it_shows():
    """Every label is a message of the catalogue (host/pipkeeper/i18n)."""
    from pipkeeper.i18n.catalogue import en
    ctx = _ended_round()
    for ui in ({"s": "score"}, {"s": "score", "v": 3}, {"s": "score", "more": 1}, {"s": "score", "b": 1}):
        for lab in core.view(ctx, ui)[1]["labels"]:
            assert lab is None or lab[0] in en.MESSAGES
    assert score_flow.edit(0, 0, 0, "DOWN") == (0, 0, 0, None)


# -- the house rules' facts -------------------------------------------------------

def _round(rules, options, n=3):
    g = Game(rules, ["Ann", "Bob", "Cy", "Di"][:n], dict(options, rounds="%d" % (12 if rules == "mexican-train" else 9)))
    g.apply((ROUND, g.rules.rounds[0], 1, ()))
    return core.Ctx(game=g)


def _field(ctx, ui):
    v = core.view(ctx, ui)[1]
    return v.get("field") and v["field"][0]


def test_blank_ends_and_the_doubles_pips_are_asked_after_the_pips():
    ctx = _round("chickenfoot", {"blank_end": "5", "doubles_count_double": "yes"})
    ui, act = press_all(ctx, {"s": "score"}, number_presses(12) + ["A"])
    assert _field(ctx, ui) == "blank ends"
    ui, act = press_all(ctx, ui, ["UP", "UP", "A"])
    assert _field(ctx, ui) == "doubles' pips"
    ui, act = press_all(ctx, ui, number_presses(8) + ["A"])
    assert ui["i"] == 1 and _field(ctx, ui) is None           # Bob's pips
    # Bob: 1 pip: no double but 0-0 can make it; Cy: 0 pips and 0-0, no blank end
    ui, act = press_all(ctx, ui, ["UP", "A", "A", "C", "A"])
    assert act == (SCORE, (12, 1, 0), (0, 0, 1), ((2, 0, 0), (8, 0, 0), None, None, None, None))
    # back from Bob's pips: Ann's last field, as entered
    ui, act = press_all(ctx, {"s": "score"}, number_presses(12) + ["A", "UP", "A", "A", "C", "C", "DOWN"])
    assert (ui["i"], _field(ctx, ui), ui["v"]) == (0, "doubles' pips", 0)
    ui, act = press_all(ctx, ui, ["C", "C", "DOWN"])
    assert (ui["i"], _field(ctx, ui), ui["v"]) == (0, "blank ends", 1)


def test_a_paper_round_is_told_who_went_out_and_on_what():
    """A round scored from the menu with nothing of its play recorded: the
    seat with no pips and no 0-0 went out (told, not asked); whether on a
    double is asked of it alone."""
    ctx = _round("chickenfoot", {"out_bonus": "10", "double_out": "25"})
    ui, act = press_all(ctx, {"s": "score"}, number_presses(7) + ["A", "A"])
    assert ui["i"] == 1 and _field(ctx, ui) == "out on a double?"
    labels = [x and x[0] for x in core.view(ctx, ui)[1]["labels"]]
    assert labels == ["OK", None, "0-0", "yes", "no"] and core.view(ctx, ui)[1]["pips"] == ("no",)
    ui, act = press_all(ctx, ui, ["UP", "A"] + number_presses(30) + ["A"])
    assert act == (SCORE, (7, 0, 30), (0, 0, 0), (None, None, None, None, (0, 1, 0), (0, 1, 0)))


def test_a_paper_round_of_mexican_train_is_told_the_markers_and_the_open_doubles():
    ctx = _round("mexican-train", {"open_train": "10", "unsatisfied_double": "20"})
    seq = []
    for pips, marked, open_doubles in ((9, 1, 0), (20, 0, 1), (4, 0, 0)):
        seq += number_presses(pips) + ["A"] + (["UP"] if marked else []) + ["A"]
        seq += ["UP"] * open_doubles + ["A"]
    ui, act = press_all(ctx, {"s": "score"}, seq)
    assert act == (SCORE, (9, 20, 4), (0, 0, 0), (None, None, (1, 0, 0), (0, 1, 0), None, None))


def test_a_round_whose_play_was_recorded_asks_only_the_hand():
    """The markers, the doubles left open, who went out and on what: the
    engine knows them from the play (quick tracking too)."""
    from shared_engine.engine import PLAY, UNKNOWN
    ctx = _round("mexican-train", {"open_train": "10", "unsatisfied_double": "20", "out_bonus": "5"})
    ctx.game.apply((PLAY, 2, UNKNOWN, UNKNOWN, None))
    ui, act = press_all(ctx, {"s": "score"}, ["UP", "A", "UP", "A", "UP", "A"])
    assert act == (SCORE, (1, 1, 1), (0, 0, 0))


def test_a_fix_corrects_a_seats_blank_ends():
    ctx = _round("chickenfoot", {"blank_end": "5"})
    g = ctx.game
    g.apply((SCORE, (12, 4, 0), (0, 0, 0), ((2, 1, 0), None, None, None, None, None)))
    ui = {"s": "fix", "r": 0, "i": 0, "v": 12, "b": 0}
    ui, act = press_all(ctx, ui, ["A"])
    assert core.view(ctx, ui)[1]["field"] == ("blank ends",) and act is None
    ui, act = press_all(ctx, ui, ["C", "C", "UP", "UP", "A"])        # clear, then 1 blank end
    assert act[:5] == (FIX, 1, 1, 12, 0) and act[5][0] == 1
    ui, act = press_all(ctx, {"s": "fix", "r": 0, "i": 0, "v": 12, "b": 0}, ["A", "C", "C", "DOWN"])
    assert ui.get("field", 0) == 0 and ui["v"] == 12             # back to the pips


def test_score_entrys_numbers_are_the_engines():
    """flows/score_facts.py keeps the engine's numbers (what is asked, the
    facts' order) rather than load its module: the same."""
    from shared_engine import facts
    from firmware.flows import score_facts, fix_facts
    assert score_facts.ASK_WENT_OUT == facts.ASK_WENT_OUT
    assert (score_facts.COUNT, score_facts.WENT_OUT, fix_facts.ASKED) == (facts.COUNT, facts.WENT_OUT, facts.ASKED)
    for name, bit, k, _, _ in score_facts.FIELDS:
        assert (bit, k) == {"blank_ends": (facts.ASK_BLANK_ENDS, facts.BLANK_ENDS),
                            "doubles_pips": (facts.ASK_DOUBLES_PIPS, facts.DOUBLES_PIPS),
                            "open_train": (facts.ASK_OPEN_TRAIN, facts.OPEN_TRAIN),
                            "unsatisfied": (facts.ASK_UNSATISFIED, facts.UNSATISFIED),
                            "out_on_double": (facts.ASK_OUT_ON_DOUBLE, facts.OUT_ON_DOUBLE)}[name]
