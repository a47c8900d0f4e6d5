"""What a new user hit (issue 32) in the engine and the record reader: a
score before the round ended checked against what the hands' tile counts
prove (item 3), numbers too long (item 3), a long token echoed whole and a
byte order mark (item 13), a tag's error at the tag's own line (item 14).
Each failed on main before its fix."""

import sys

from _check import game, rejects, report

MICRO = sys.implementation.name == "micropython"
CROSS = "chickenfoot-cross"


def test_a_round_closed_early_is_checked_against_its_hands():
    # 2 players of 7: Ann placed 9-9 (6 left), Bob played 9-4 (6 left)
    body = "round 9-9 lead 1\n2 play 9-4\n"
    rejects(game(CROSS, 2, body=body + "score 3 40   ; 5"), 5,
            "seat 1's hand of 6 tiles makes at least 15, not 3")
    rejects(game(CROSS, 2, body=body + "score 30 400   ; 5"), 5,
            "seat 2's hand of 6 tiles makes at most")
    rep = report(game(CROSS, 2, body=body + "score 30 40"))
    assert rep["totals"] == [30, 40] and rep["rounds"][0]["out"] is None
    # quick tracking knows the counts as well (three plays of 13 tiles)
    quick = "round 9-9 lead 1\n1 play\n2 play\n3 play\nscore 0 0 0   ; 7\n"
    rejects(game("chickenfoot", 3, body=quick), 7, "seat 1's hand of 13 tiles makes at least")
    # the correction of such a round is checked as much
    rejects(game(CROSS, 2, body=body + "score 30 40\nfix 1 2 2   ; 6"), 6,
            "seat 2's hand of 6 tiles makes at least")


def test_a_paper_sheet_is_bounded_by_the_set_alone():
    # nothing of the play recorded: the hands may hold anything, not more
    # than the tiles off the table (ruling 16)
    rep = report(game(CROSS, 2, body="round 9-9 lead 1\nscore 3 400\n"))
    assert rep["totals"] == [3, 400]
    rejects(game(CROSS, 2, body="round 9-9 lead 1\nscore 3 478   ; 4"), 4,
            "seat 2 cannot hold 478 pips: the tiles not on the table hold 477")


def test_a_number_of_more_than_four_digits_is_refused_in_one_line():
    for digits in (50, 5000):
        msg = rejects(game(CROSS, 2, body="round 9-9 lead 1\nscore 3 %s   ; 4" % ("9" * digits)), 4,
                      "a score must be a number of at most 4 digits, not '9999")
        assert "(%d bytes)" % digits in msg and len(msg) < 120, msg
        assert "Exceeds" not in msg
    rejects(game(CROSS, 2, body="round 9-9 lead 1\nscore 3 4\nfix 1 2 123456   ; 5"), 5,
            "at most 4 digits")


def test_a_long_token_is_not_echoed_whole():
    n = 4000 if MICRO else 1000000
    msg = rejects(game("chickenfoot", 2, body="round 9-9 lead 1\n" + "x" * n + "   ; 4"), 4,
                  "unknown event 'xxxx")
    assert len(msg) < 120 and "(%d bytes)" % n in msg, msg
    msg = rejects('[Rules "chickenfoot"]\n[Players "A" "B"]\n[' + "N" * n + ' "x"\n', 3,
                  "is not closed with ]")
    assert len(msg) < 120, msg
    # a word cut at a character's start, never inside one
    msg = rejects(game("chickenfoot", 2, body="round 9-9 lead 1\n1 play " + "é" * 30 + "   ; 4"), 4,
                  "is not a tile")
    assert "\ufffd" not in msg


def test_a_byte_order_mark_is_read_and_ignored():
    text = game("chickenfoot", 2, body="round 9-9 lead 1\n1 play 9-4\n")
    rep = report("\ufeff" + text)
    assert rep["rules"] == "chickenfoot" and rep["state"]["to_move"] == 2
    # only at the start of the record
    rejects(text + "\ufeff2 draw   ; 5\n", 5, "unknown event")


def test_a_tags_error_is_at_the_tags_own_line():
    rejects('[Rules "chickenfoot"]\n[Players "A" "B"]\n[Option "set" "1000"]\n[Event "x"]\n'
            'round 9-9 lead 1\n', 3, "set must be one of 6, 9, 12, 15, 18, not 1000")
    rejects('[Rules "chickenfoot"]\n[Set "1000"]\n[Players "A" "B"]\nround 9-9 lead 1\n', 2,
            "set must be one of")
    rejects('[Rules "chickenfoot"]\n[Players "A" "B"]\n[Event "x"]\n[Option "hand_size" "99"]\n'
            'round 9-9 lead 1\n', 4, "too few for 2 hands of 99")
    # a set too small for the hands: the [Set] tag, where no hand_size is given
    rejects('[Rules "chicken-scratch"]\n[Players "A" "B" "C" "D" "E" "F"]\n[Set "6"]\nround 6-6 lead 1\n',
            3, "too few for 6 hands of 5")
    rejects('[Rules "mexican-train"]\n[Players "A" "B"]\n[Event "x"]\n[Option "start_trains" "4"]\n'
            'round 12-12 lead 1\n', 4, "start_trains must be none")
