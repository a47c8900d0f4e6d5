"""Score lines: ruling 5 (a score the engine can prove wrong is refused),
ruling 6 (paper-sheet scoring), `+DB` and `double_blank_50`,
`positive_scoring`, totals, winners and the tie-breaks. The number in a
body line's trailing comment is its line."""

from _check import game, rejects, report, data_path, read_text

CF = "chickenfoot"

# chickenfoot, 4 players of 1 tile: seat 1 goes out at once.
OUT1 = """
round 9-9 lead 1     ; 4
1 play 9-4           ; 5  out
"""
ONE = {"hand_size": "1"}

# The same with every hand known.
KNOWN = """
round 9-9 lead 1     ; 4
hand 1 9-4           ; 5
hand 2 5-3           ; 6
hand 3 6-1           ; 7
hand 4 0-0           ; 8
1 play 9-4           ; 9  out
"""

# chickenfoot, 2 players, double-6, 13 tiles each: one tile in the yard and
# two stay there, so the round is blocked at once. 27 tiles are not on the
# table (all but 6-6); their pips, sorted:
# 0 1 2 2 3 3 4 4 4 5 5 5 6 6 6 6 7 7 7 8 8 8 9 9 10 10 11
# 13 tiles make at least 44 and at most 106 pips; 12 tiles besides 0-0
# make at least 44 (1+2+2+3+3+4+4+4+5+5+5+6) and at most 100.
BLOCK13 = """
round 6-6 lead 1     ; 5
blocked              ; 6
"""
SMALL = {"set": "6", "hand_size": "13"}


# -- ruling 5 ------------------------------------------------------------------------

def test_the_out_player_scores_zero():
    rejects(game(CF, 4, ONE, OUT1 + "score 5 3 3 3   ; 6"), 6,
            "seat 1 went out: their score must be 0, not 5")
    rejects(game(CF, 4, ONE, OUT1 + "score 0+DB 3 3 3   ; 6"), 6, "seat 1 went out")
    rep = report(game(CF, 4, ONE, OUT1 + "score 0 3 3 3"))
    assert rep["rounds"][0]["out"] == 1 and rep["rounds"][0]["scores"] == [0, 3, 3, 3]


def test_one_tile_left_is_at_most_the_largest_tile():
    # 9-9 and 9-4 are on the table: the largest tile left is 9-8, 17 pips.
    rejects(game(CF, 4, ONE, OUT1 + "score 0 18 3 3   ; 6"), 6,
            "seat 2's hand of 1 tile makes at most 17, not 18")
    rep = report(game(CF, 4, ONE, OUT1 + "score 0 17 0+DB 3"))
    assert rep["totals"] == [0, 17, 0, 3]


def test_no_double_blank_mark_means_no_0_0():
    # FORMAT: "+DB marks a seat holding 0-0". Without the mark, seat 2's one
    # tile is not 0-0, and every other tile has at least 1 pip (ruling 5).
    rejects(game(CF, 4, ONE, OUT1 + "score 0 0 3 3   ; 6"), 6,
            "seat 2's hand of 1 tile makes at least 1")


def test_below_the_smallest_sum():
    # No +DB mark: no 0-0 either, so 1+2+2+3+3+4+4+4+5+5+5+6+6 = 50.
    rejects(game(CF, 2, SMALL, BLOCK13 + "score 49 60   ; 7"), 7,
            "seat 1's hand of 13 tiles makes at least 50, not 49")


def test_above_the_largest_sum():
    rejects(game(CF, 2, SMALL, BLOCK13 + "score 60 107   ; 7"), 7,
            "seat 2's hand of 13 tiles makes at most 106, not 107")


def test_the_smallest_and_largest_sums_are_accepted():
    rep = report(game(CF, 2, SMALL, BLOCK13 + "score 50 106"))
    assert rep["rounds"][0]["scores"] == [50, 106] and rep["rounds"][0]["out"] is None


def test_bounds_with_double_blank_in_hand():
    # +DB: 0-0 is one of the tiles, the other 12 come from the rest.
    rejects(game(CF, 2, SMALL, BLOCK13 + "score 43+DB 60   ; 7"), 7,
            "seat 1's hand of 13 tiles makes at least 44, not 43")
    rejects(game(CF, 2, SMALL, BLOCK13 + "score 101+DB 60   ; 7"), 7,
            "seat 1's hand of 13 tiles makes at most 100, not 101")
    rep = report(game(CF, 2, SMALL, BLOCK13 + "score 100+DB 60"))
    assert rep["rounds"][0]["scores"] == [100, 60]
    assert rep["rounds"][0]["holds_double_blank"] == [1]


def test_bounds_count_a_known_drawn_tile():
    # 13 tiles each: seat 1 draws 8-8 (16 pips), the last tile that may be
    # drawn. Its 13 tiles are 8-8 and 12 others, none 0-0 (no +DB): at least
    # 16 + 44 (1+2+2+3+3+4+4+4+5+5+5+6).
    body = """
        round 9-9 lead 1     ; 4
        1 play 9-4           ; 5
        2 play 9-2           ; 6
        3 play 9-7           ; 7
        4 play 9-3           ; 8
        1 draw 8-8           ; 9
        blocked              ; 10
    """
    opts = {"hand_size": "13"}
    rejects(game(CF, 4, opts, body + "score 59 60 60 60   ; 11"), 11,
            "seat 1's hand of 13 tiles makes at least 60, not 59")
    rep = report(game(CF, 4, opts, body + "score 60 60 60 60"))
    assert rep["totals"] == [60, 60, 60, 60]


def test_known_hands_are_counted_exactly():
    rep = report(game(CF, 4, ONE, KNOWN + "score 0 8 7 0+DB"))
    assert rep["rounds"][0]["scores"] == [0, 8, 7, 0]
    rejects(game(CF, 4, ONE, KNOWN + "score 0 8 6 0+DB   ; 10"), 10,
            "seat 3's hand counts 7, not 6")
    rejects(game(CF, 4, ONE, KNOWN + "score 0 8 7 0   ; 10"), 10, "seat 4 holds 0-0")
    rejects(game(CF, 4, ONE, KNOWN + "score 0 8+DB 7 0   ; 10"), 10,
            "seat 2 cannot hold 0-0: seat 4 does")
    known3 = "\n".join(KNOWN.strip().split("\n")[:4]) + "\n1 play 9-4  ; 8\n"
    rejects(game(CF, 4, ONE, known3 + "score 0 8+DB 7 5   ; 9"), 9, "seat 2 does not hold 0-0")


def test_one_double_blank_only():
    rejects(game(CF, 4, body="""
        round 9-9 lead 1           ; 3
        score 1+DB 2 3+DB 4        ; 4
    """), 4, "only one seat can hold 0-0")


def test_double_blank_on_the_table():
    text = game(CF, 4, {"hand_size": "2"}, """
        round 9-9 lead 1     ; 4
        1 play 9-0           ; 5
        2 play 9-1           ; 6
        3 play 9-2           ; 7
        4 play 9-3           ; 8
        1 play 0-0           ; 9  out on a double
    """)
    rejects(text + "score 0 5+DB 3 3   ; 10\n", 10, "seat 2 cannot hold 0-0: it is on the table")


def test_double_blank_as_the_centre():
    rejects(game(CF, 4, {"rounds": "0"}, """
        round 0-0 lead 1           ; 4
        score 1+DB 2 3 4           ; 5
    """), 5, "seat 1 cannot hold 0-0: it is the centre double")


def test_score_line_has_one_number_per_seat():
    rejects(game(CF, 4, body="""
        round 9-9 lead 1     ; 3
        score 1 2 3          ; 4
    """), 4, "the score line needs 4 numbers, one per seat, not 3")


# -- ruling 6: paper-sheet scoring ------------------------------------------------------

def test_paper_sheet_scoring():
    # Nothing of the play was recorded: 11 tiles cannot make 0 pips, but
    # the checks that need the play are skipped.
    rep = report(game(CF, 4, body="""
        round 9-9 lead 1
        score 0 12 31+DB 4
        round 8-8 lead 2
        score 5 0 0 9
    """))
    r0 = rep["rounds"][0]
    assert r0["double"] == 9 and r0["scores"] == [0, 12, 31, 4] and r0["out"] is None
    assert r0["winners"] == [1]
    assert rep["rounds"][1]["scores"] == [5, 0, 0, 9] and rep["rounds"][1]["winners"] == [2, 3]
    assert rep["totals"] == [5, 12, 31, 13]
    assert rep["state"] is None and rep["over"] is False and rep["winners"] == []


def test_a_round_closed_after_part_of_the_play_is_checked():
    # Issue 32: the play was recorded, so the engine knows each hand's
    # count of tiles (seat 1 10, seat 2 12, the others 11) even without a
    # tile: 0 pips is refused, as for a round that ended (ruling 16).
    body = """
        round 9-9 lead 1     ; 3
        1 play 9-4           ; 4
        2 draw               ; 5
    """
    rejects(game(CF, 4, body=body + "score 0 0 0 0   ; 6"), 6,
            "seat 1's hand of 10 tiles makes at least 33, not 0")
    rejects(game(CF, 4, body=body + "score 40 50 60 400   ; 6"), 6,
            "seat 4's hand of 11 tiles makes at most")
    rep = report(game(CF, 4, body=body + "score 40 50 60 70"))
    assert rep["totals"] == [40, 50, 60, 70] and rep["state"] is None
    assert rep["rounds"][0]["out"] is None


def test_paper_sheet_file_with_a_tie_break():
    rep = report(read_text(data_path(__file__, "../data/paper_sheet_tiebreak.dgn")))
    assert rep["rounds"][0]["scores"] == [0, 2, 55]        # 0-0 counts 50 in cross
    assert rep["totals"] == [26, 26, 67]
    assert rep["over"] is True
    assert rep["winners"] == [1] and rep["tie_break"] == "most rounds won"


# -- double_blank_50 ------------------------------------------------------------------

def test_double_blank_50_option():
    rep = report(game(CF, 4, {"hand_size": "1", "double_blank_50": "yes"},
                      KNOWN + "score 0 8 7 0+DB"))
    assert rep["rounds"][0]["scores"] == [0, 8, 7, 50] and rep["totals"] == [0, 8, 7, 50]
    assert rep["rounds"][0]["pips"] == [0, 8, 7, 0]


def test_double_blank_off_by_default():
    rep = report(game("mexican-train", 2, body="round 12-12 lead 1\nscore 4+DB 9\n"))
    assert rep["rounds"][0]["scores"] == [4, 9]
    rep = report(game("chicken-scratch", 2, body="round 6-6 lead 1\nscore 4+DB 9\n"))
    assert rep["rounds"][0]["scores"] == [4, 9]


# -- positive_scoring (mexican-train) -------------------------------------------------

# after 5 tag lines (three options)
POSITIVE_OUT = """
round 12-12 lead 1   ; 6
2 play 12-5          ; 7
1 play 12-4          ; 8
2 play 5-3           ; 9
1 play 4-4           ; 10 seat 1 is out
"""


def test_positive_scoring_out_player_scores_the_others_pips():
    opts = {"hand_size": "3", "positive_scoring": "yes", "rounds": "12"}
    rep = report(game("mexican-train", 2, opts, POSITIVE_OUT + "score 0 9"))
    assert rep["rounds"][0]["scores"] == [9, 0]
    assert rep["totals"] == [9, 0]
    assert rep["over"] is True and rep["winners"] == [1]
    rejects(game("mexican-train", 2, opts, POSITIVE_OUT + "score 9 0   ; 11"), 11,
            "seat 1 went out")


def test_positive_scoring_highest_total_wins():
    # Two players of 2 tiles each: the leader places the station and holds 1.
    opts = {"hand_size": "2", "positive_scoring": "yes", "rounds": "12 11"}
    rep = report(game("mexican-train", 3, opts, """
        round 12-12 lead 1
        2 play 12-5
        3 play 12-3
        1 play 12-6          ; seat 1 is out
        score 0 5 7
        round 11-11 lead 2
        3 play 11-3
        1 play 11-4
        2 play 11-5          ; seat 2 is out
        score 4 0 9
    """))
    assert [r["out"] for r in rep["rounds"]] == [1, 2]
    assert rep["rounds"][0]["scores"] == [12, 0, 0]
    assert rep["rounds"][1]["scores"] == [0, 13, 0]
    assert rep["totals"] == [12, 13, 0]
    assert rep["over"] is True and rep["winners"] == [2]


# -- winners and tie-breaks -------------------------------------------------------------

def paper(rules, rows, options=None):
    """A game of paper-sheet rounds, one per row of scores."""
    n = len(rows[0])
    ds = [str(9 - i) for i in range(len(rows))]
    opts = {"rounds": " ".join(ds)}
    opts.update(options or {})
    body = ""
    for i in range(len(rows)):
        body += "round %s-%s lead 1\nscore %s\n" % (ds[i], ds[i], " ".join(rows[i]))
    return game(rules, n, opts, body)


def test_lowest_total_wins():
    rep = report(paper(CF, (("3", "9", "4"), ("8", "1", "2"))))
    assert rep["totals"] == [11, 10, 6] and rep["winners"] == [3] and rep["tie_break"] is None


def test_tie_shared_by_default():
    rep = report(paper(CF, (("10", "20"), ("20", "10"))))
    assert rep["totals"] == [30, 30] and rep["winners"] == [1, 2]
    assert rep["tie_break"] == "shared"


def test_tie_break_most_rounds_won():
    # cross: totals 60-60; seat 1 won rounds 1 and 2, seat 2 round 3.
    rep = report(paper("chickenfoot-cross", (("0", "30"), ("0", "30"), ("60", "0"))))
    assert rep["totals"] == [60, 60]
    assert rep["winners"] == [1] and rep["tie_break"] == "most rounds won"


def test_tie_break_lowest_nonzero_round():
    # totals 21-21, two rounds won each (the 7-7 round is won by both);
    # seat 1's lowest non-zero round is 2, seat 2's is 4.
    rep = report(paper("chickenfoot-cross", (("2", "10"), ("12", "4"), ("7", "7"))))
    assert rep["totals"] == [21, 21]
    assert [r["winners"] for r in rep["rounds"]] == [[1], [2], [1, 2]]
    assert rep["winners"] == [1] and rep["tie_break"] == "lowest non-zero round score"


def test_tie_break_zero_rounds_do_not_count_as_lowest():
    # totals 10-10, one round won each; seat 1's rounds 0 and 10, seat 2's
    # 4 and 6: seat 2's lowest non-zero score, 4, is lower than 10.
    rep = report(paper("chickenfoot-cross", (("0", "4"), ("10", "6"))))
    assert rep["totals"] == [10, 10]
    assert rep["winners"] == [2] and rep["tie_break"] == "lowest non-zero round score"


def test_tie_break_still_tied_is_shared():
    rep = report(paper("chickenfoot-cross", (("10", "20"), ("20", "10"))))
    assert rep["winners"] == [1, 2] and rep["tie_break"] == "shared"


def test_tie_break_option_on_another_preset():
    opts = {"tie_break": "most_rounds_won,lowest_nonzero_round"}
    rep = report(paper(CF, (("0", "30"), ("0", "30"), ("60", "0")), opts))
    assert rep["winners"] == [1]
    opts = {"tie_break": "shared"}
    rep = report(paper("chickenfoot-cross", (("0", "30"), ("0", "30"), ("60", "0")), opts))
    assert rep["winners"] == [1, 2]


def test_round_winners_count_double_blank_as_50():
    # cross: seat 2's 0+DB round counts 50, so seat 1 alone won it.
    rep = report(paper("chickenfoot-cross", (("0", "0+DB"), ("50", "0"))))
    assert rep["totals"] == [50, 50]
    assert [r["winners"] for r in rep["rounds"]] == [[1], [2]]
    assert rep["winners"] == [1, 2] and rep["tie_break"] == "shared"


def test_no_winners_until_the_game_is_over():
    rep = report(paper(CF, (("3", "9"),), {"rounds": "9 8"}))
    assert rep["over"] is False and rep["winners"] == []
    rep = report(paper(CF, (("3", "9"),), {"rounds": "9 8"}) + "end\n")
    assert rep["over"] is True and rep["winners"] == [1]
