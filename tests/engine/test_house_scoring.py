"""The house rules that change a round's count (RULES.md, "House rules";
issue 31): a score worked out from the round's facts and the rules, the
facts the engine knows and those it is told (the score line's marks), a
fix of a fact, the bounds of the facts it is asked, target_score and
tie_break most_outs. The number in a body line's trailing comment is its
line."""

from shared_engine import facts
from shared_engine.engine import Game, FIX, SCORE

from shared_engine.report import report as report_of

from _check import game, rejects, report, replay

CF = "chickenfoot"
MX = "mexican-train"

# chickenfoot, 3 players of 2 tiles, hands known: seat 1 goes out on 4-3;
# seat 2 keeps 5-0 (5 pips, a blank end), seat 3 keeps 6-6 (12 pips, a
# double). After 5 tag lines (two options) the body starts on line 6.
OUT_KNOWN = """
round 9-9 lead 1     ; 6
hand 1 9-4 4-3       ; 7
hand 2 9-2 5-0       ; 8
hand 3 9-1 6-6       ; 9
1 play 9-4           ; 10
2 play 9-2           ; 11
3 play 9-1           ; 12  the three trains are started
1 play 4-3           ; 13  seat 1 is out
"""


def cf(extra=None):
    o = {"hand_size": "2"}
    o.update(extra or {})
    return o


def test_blank_ends_doubles_and_the_out_bonus_from_the_facts():
    opts = cf({"blank_end": "5", "doubles_count_double": "yes", "out_bonus": "10"})
    rep = report(game(CF, 3, opts, OUT_KNOWN + "score 0 5+BE1 12+DP12"))
    r0 = rep["rounds"][0]
    # out: -10; 5 pips + one blank end of 5; 12 pips + the double again
    assert r0["scores"] == [-10, 10, 24] and rep["totals"] == [-10, 10, 24]
    assert r0["pips"] == [0, 5, 12] and r0["out"] == 1
    assert r0["facts"] == {"pips": [0, 5, 12], "holds_double_blank": [], "went_out": 1,
                           "blank_ends": [0, 1, 0], "doubles_pips": [0, 0, 12]}
    assert rep["house_rules"] == {"hand_size": "2", "blank_end": "5",
                                  "doubles_count_double": "yes", "out_bonus": "10"}
    from shared_engine import house
    assert [k for k, v in house.house(replay(game(CF, 3, opts, OUT_KNOWN)).rules)] == [
        "hand_size", "blank_end", "doubles_count_double", "out_bonus"]   # the table's order


def test_a_hand_known_whole_says_its_facts():
    opts = cf({"blank_end": "5", "doubles_count_double": "yes"})
    # 5 tag lines: the body from line 6, its score line 14
    rejects(game(CF, 3, opts, OUT_KNOWN + "score 0 5 12+DP12   ; 14"), 14,
            "seat 2's blank ends: at least 1, not 0")
    rejects(game(CF, 3, opts, OUT_KNOWN + "score 0 5+BE1 12   ; 14"), 14,
            "seat 3's doubles: at least 12 pips, not 0")
    rejects(game(CF, 3, opts, OUT_KNOWN + "score 0 5+BE2 12+DP12   ; 14"), 14,
            "seat 2's blank ends: at most 1, not 2")


def test_a_mark_for_a_rule_not_in_play_is_refused():
    rejects(game(CF, 3, cf(), OUT_KNOWN + "score 0 5+BE1 12   ; 12"), 12,
            "+BE: this game does not count it (its blank_end is off)")
    rejects(game(CF, 3, cf(), OUT_KNOWN + "score 0 5 12+OD   ; 12"), 12, "+OD: this game")


def test_zero_zero_is_worth_double_blank_else_twice_a_blank_end():
    # a paper sheet of two seats: seat 2 holds 0-0 and 7 pips more
    body = "round 9-9 lead 1\nscore 0 7+DB\n"
    assert report(game(CF, 2, {"double_blank": "25"}, body))["totals"] == [0, 32]
    assert report(game(CF, 2, {"blank_end": "5"}, body))["totals"] == [0, 17]
    assert report(game(CF, 2, {"blank_end": "5", "double_blank": "50"}, body))["totals"] == [0, 57]
    assert report(game(CF, 2, {"double_blank_50": "yes"}, body))["totals"] == [0, 57]
    assert report(game("chickenfoot-cross", 2, {}, body))["totals"] == [0, 57]
    assert report(game(CF, 2, {}, body))["totals"] == [0, 7]
    # doubles_count_double does not double 0-0
    rep = report(game(CF, 2, {"double_blank": "25", "doubles_count_double": "yes"}, body))
    assert rep["totals"] == [0, 32]


# mexican-train, two players, the station 12-12 placed by seat 1 (11 tiles
# left), seat 2 12: 6 tag lines (four options), the body from line 7.
MX_OPTS = {"rounds": "12", "open_train": "10", "unsatisfied_double": "10",
           "blocked_cap": "yes"}
MARKED = """
round 12-12 lead 1   ; 7
2 draw               ; 8
2 pass               ; 9  a marker on seat 2's train
1 play 12-6          ; 10
2 draw               ; 11
2 pass               ; 12
1 play 6-6           ; 13 a double on seat 1's own train
1 draw               ; 14
1 pass               ; 15 seat 1 cannot cover it: a marker on its train too
"""


def test_open_trains_and_doubles_left_unsatisfied_are_known_from_the_play():
    g = replay(game(MX, 2, MX_OPTS, MARKED))
    k = facts.known(g)
    assert k[facts.OPEN_TRAIN] == (1, 1) and k[facts.UNSATISFIED] == (1, 0)
    # nothing of them to ask: only the hands' pips and 0-0
    assert facts.ask(g) == (facts.ASK_PIPS | facts.ASK_DB,) * 2
    # closed now (nobody went out: blocked_cap): seat 1's hand is the lowest
    # and counts 0; its open train and its double left unsatisfied count
    rep = report(game(MX, 2, MX_OPTS, MARKED + "score 40 60"))
    assert rep["rounds"][0]["scores"] == [20, 70]
    f = rep["rounds"][0]["facts"]
    assert f["open_trains"] == [1, 2] and f["unsatisfied"] == [1, 0] and f["went_out"] is None
    # the marks may say it, not gainsay it
    assert report(game(MX, 2, MX_OPTS, MARKED + "score 40+OT+UD 60+OT"))["totals"] == [20, 70]
    rejects(game(MX, 2, MX_OPTS, MARKED + "score 40 60+UD   ; 16"), 16,
            "seat 2 left 0 doubles unsatisfied, not 1")
    rejects(game(MX, 2, MX_OPTS, MARKED + "score 40+OUT 60   ; 16"), 16, "seat 1 did not go out")


def test_blocked_cap_on_a_tie_caps_every_lowest_hand():
    # a paper sheet: seats 1 and 2 tie on the lowest hand, both count 0
    rep = report(game(CF, 3, {"blocked_cap": "yes"}, "round 9-9 lead 1\nscore 12 12 30\n"))
    assert rep["rounds"][0]["scores"] == [0, 0, 30]
    # a round somebody went out of is not capped
    rep = report(game(CF, 3, {"blocked_cap": "yes"}, "round 9-9 lead 1\nscore 0+OUT 12 30\n"))
    assert rep["rounds"][0]["scores"] == [0, 12, 30] and rep["rounds"][0]["out"] == 1


# mexican-train, two players of 3 tiles: seat 1 places the station and goes
# out on the double 4-4 (after 6 tag lines: body from line 7).
OUT_ON_DOUBLE = """
round 12-12 lead 1   ; 7
2 play 12-5          ; 8
1 play 12-4          ; 9
2 play 5-3           ; 10
1 play 4-4           ; 11 out on a double
"""


def test_double_out_replaces_the_out_bonus():
    opts = {"hand_size": "3", "rounds": "12", "double_out": "50", "out_bonus": "10",
            "unsatisfied_double": "10"}
    rep = report(game(MX, 2, opts, OUT_ON_DOUBLE + "score 0 9"))
    r0 = rep["rounds"][0]
    # 50 for going out on a double (not -10), and that double is not one
    # left unsatisfied (ruling 13)
    assert r0["scores"] == [50, 9] and r0["facts"]["out_on_double"] is True
    assert r0["facts"]["unsatisfied"] == [0, 0]
    g = replay(game(MX, 2, opts, OUT_ON_DOUBLE))
    assert facts.known(g)[facts.OUT_ON_DOUBLE] == (1, 0)
    assert facts.ask(g)[0] == 0          # the seat that went out: nothing to ask
    # quick tracking knows it too: "play double" is its last play
    quick = OUT_ON_DOUBLE.replace("12-5", "").replace("12-4", "").replace("5-3", "") \
        .replace("4-4", "double")
    assert report(game(MX, 2, opts, quick + "score 0 9"))["rounds"][0]["scores"] == [50, 9]
    # out on a plain tile: the out bonus
    plain = OUT_ON_DOUBLE.replace("1 play 12-4", "1 play 12-3").replace("1 play 4-4", "1 play 3-1")
    plain = plain.replace("2 play 5-3", "2 play 5-2")
    assert report(game(MX, 2, opts, plain + "score 0 9"))["rounds"][0]["scores"] == [-10, 9]
    rejects(game(MX, 2, opts, plain + "score 0+OD 9   ; 13"), 13,
            "seat 1 did not go out on a double")


def test_a_paper_sheet_is_told_who_went_out_and_how():
    opts = {"out_bonus": "10", "double_out": "50"}
    rep = report(game(CF, 3, opts, """
        round 9-9 lead 1
        score 0+OUT 12 7
        round 8-8 lead 2
        score 5 0+OUT+OD 3
    """))
    assert [r["out"] for r in rep["rounds"]] == [1, 2]
    assert [r["scores"] for r in rep["rounds"]] == [[-10, 12, 7], [5, 50, 3]]
    rejects(game(CF, 3, opts, "round 9-9 lead 1\nscore 0+OUT 0+OUT 7   ; 6"), 6,
            "only one seat goes out")
    rejects(game(CF, 3, opts, "round 9-9 lead 1\nscore 3+OUT 1 7   ; 6"), 6,
            "seat 1 went out: their score must be 0, not 3")
    rejects(game(CF, 3, opts, "round 9-9 lead 1\nscore 0+OD 1 7   ; 6"), 6,
            "+OD goes with +OUT")
    g = replay(game(CF, 3, opts, "round 9-9 lead 1"))
    asked = facts.ask(g)
    assert asked[0] & facts.ASK_WENT_OUT and asked[0] & facts.ASK_OUT_ON_DOUBLE
    assert not asked[0] & facts.ASK_OPEN_TRAIN      # no trains in chickenfoot


def test_fix_corrects_a_fact_as_it_corrects_pips():
    opts = cf({"blank_end": "5", "doubles_count_double": "yes", "out_bonus": "10"})
    text = game(CF, 3, opts, OUT_KNOWN + "score 0 5+BE1 12+DP12")
    # the hand is known: a fix that drops the blank end is refused
    rejects(text + "fix 1 2 5\n", 16, "seat 2's blank ends: at least 1, not 0")
    # a paper sheet: who went out moves with the fixes, blank ends too
    paper = game(CF, 3, {"blank_end": "5", "out_bonus": "10"},
                 "round 9-9 lead 1\nscore 0+OUT 12+BE1 7\n")
    assert report(paper)["totals"] == [-10, 17, 7]
    rep = report(paper + "fix 1 1 4\nfix 1 3 0+OUT\n")
    r0 = rep["rounds"][0]
    assert r0["out"] == 3 and r0["scores"] == [4, 17, -10] and rep["totals"] == [4, 17, -10]
    assert r0["corrected"] == [1, 3]
    rep = report(paper + "fix 1 2 12\n")
    assert rep["totals"] == [-10, 12, 7] and rep["rounds"][0]["facts"]["blank_ends"] == [0, 0, 0]
    rejects(paper + "fix 1 2 0+OUT\n", 7, "seat 2 cannot have gone out: seat 1 did")


def test_score_and_fix_events_with_facts_round_trip():
    ev = (SCORE, (0, 5, 12), (0, 0, 1), ((0, 1, 0), (0, 0, 12), None, None, None, None))
    from shared_engine import dgn
    line = dgn.format_event(ev)
    assert line == "score 0 5+BE1 12+DB+DP12"
    assert dgn.parse_event(line) == ev
    fx = (FIX, 2, 3, 7, 1, (2, 4, 1, 2, 1, 1))
    assert dgn.format_event(fx) == "fix 2 3 7+DB+BE2+DP4+OT+UD2+OD+OUT"
    assert dgn.parse_event(dgn.format_event(fx)) == fx
    assert dgn.parse_event("score 3+UD 4") == (SCORE, (3, 4), (0, 0),
                                               (None, None, None, (1, 0), None, None))


def test_target_score_ends_the_game_after_the_round_it_is_reached():
    opts = {"target_score": "50"}
    rep = report(game(CF, 3, opts, """
        round 9-9 lead 1
        score 0 20 30
        round 8-8 lead 2
        score 10 0 25
    """))
    assert rep["totals"] == [10, 20, 55] and rep["over"] is True and rep["winners"] == [1]
    rejects(game(CF, 3, opts, """
        round 9-9 lead 1
        score 0 20 30
        round 8-8 lead 2
        score 10 0 25
        round 7-7 lead 3     ; 8
    """), 8, "the game is over")


def test_tie_break_most_outs():
    opts = {"tie_break": "most_outs", "rounds": "9 8 7"}
    rep = report(game(CF, 2, opts, """
        round 9-9 lead 1
        score 0+OUT 10
        round 8-8 lead 2
        score 0+OUT 5
        round 7-7 lead 1
        score 15 0+OUT
    """))
    assert rep["totals"] == [15, 15] and rep["winners"] == [1]
    assert rep["tie_break"] == "most rounds gone out"
    # still tied: shared
    rep = report(game(CF, 2, {"tie_break": "most_outs", "rounds": "9 8"}, """
        round 9-9 lead 1
        score 0+OUT 10
        round 8-8 lead 2
        score 10 0+OUT
    """))
    assert rep["winners"] == [1, 2] and rep["tie_break"] == "shared"


def test_checkpoint_keeps_the_facts():
    from shared_engine import checkpoint
    opts = cf({"blank_end": "5", "doubles_count_double": "yes", "out_bonus": "10"})
    g = replay(game(CF, 3, opts, OUT_KNOWN + "score 0 5+BE1 12+DP12\nfix 1 3 12+DP12\n"))
    again = checkpoint.restore(checkpoint.snapshot(g))
    assert again.results == g.results and again.totals == g.totals
    assert report_of(again) == report_of(g)


def test_the_events_the_board_builds():
    # score entry's event with only what it asked: the engine fills the rest
    g = Game(MX, ["A", "B"], dict(MX_OPTS))
    from shared_engine import dgn
    for _, ev in dgn.read(game(MX, 2, MX_OPTS, MARKED)).events:
        g.apply(ev)
    g.apply((SCORE, (40, 60), (0, 0), (None, None, None, None, None, None)))
    assert g.totals == [20, 70]
