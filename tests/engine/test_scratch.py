"""Preset `chicken-scratch` (seed 003): double-6, five tiles each, the
holder of the highest double places it, no hunt (ruling 4: redeal), four
sides first, "Chickie" doubles, a drawn tile that fits must be played,
seven rounds, one per double, in the order they turn up. The number in a
body line's trailing comment is its line."""

from _check import game, rejects, report, state

R = "chicken-scratch"

SIDES = """
round 6-6 lead 1     ; 3
2 play 6-3           ; 4
3 play 6-2           ; 5
4 play 6-1           ; 6
1 play 6-0           ; 7  four sides: the start phase is over
"""


def test_deal_and_placement():
    st = state(game(R, 4, body="round 6-6 lead 1"))
    assert st["hands"] == [4, 5, 5, 5]
    assert st["yard"] == 8 and st["drawable"] == 8
    assert st["to_move"] == 2
    assert st["trains_needed"] == 4 and st["open_ends"] == [6, 6, 6, 6]


def test_double_six_set():
    rejects(game(R, 4, body="""
        round 6-6 lead 1     ; 3
        2 play 7-6           ; 4
    """), 4, "seat 2 cannot play 7-6: it is not in a double-6 set")
    rejects(game(R, 4, body="round 7-7 lead 1   ; 3"), 3, "7-7 is not in a double-6 set")


def test_next_highest_double_when_nobody_holds_6_6():
    st = state(game(R, 4, body="""
        round 5-5 lead 3
        hand 3 5-5 4-1 3-2 2-0 1-1
    """))
    assert st["round"] == 5 and st["to_move"] == 4 and st["hands"] == [5, 5, 4, 5]


def test_a_held_6_6_must_start_the_round():
    # "The holder of 6-6 places it in the centre; if nobody holds it, the
    # holder of the next highest double does." Seat 2's known hand holds
    # 6-6, so 5-5 cannot start this round.
    text = game(R, 4, body="""
        round 5-5 lead 3                  ; 3
        hand 2 6-6 4-1 3-2 2-0 1-1        ; 4
    """)
    rejects(text, 4, "6-6")


def test_a_later_round_starts_with_the_highest_held_unused_double():
    # "Each later round starts with the highest double that has not yet
    # started a round": 5-5 is held (seat 2's known hand), so not 4-4.
    text = game(R, 4, body="""
        round 6-6 lead 1                  ; 3
        score 1 2 3 4                     ; 4
        round 4-4 lead 1                  ; 5
        hand 2 5-5 4-1 3-2 2-0 1-1        ; 6
    """)
    rejects(text, 6, "5-5")


def test_a_double_starts_one_round_only():
    rejects(game(R, 4, body="""
        round 6-6 lead 1     ; 3
        score 1 2 3 4        ; 4
        round 6-6 lead 2     ; 5
    """), 5, "6-6 has already started a round")


def test_no_hunt():
    rejects(game(R, 4, body="round 6-6 lead 1 hunt 4 1   ; 3"), 3,
            "chicken-scratch has no hunt for the double: redeal instead")


def test_redeal_when_nobody_holds_a_starting_double():
    # Ruling 4.
    text = game(R, 4, body="""
        redeal
        round 6-6 lead 2
    """)
    rep = report(text)
    assert rep["redeals"] == 1 and rep["state"]["round"] == 6 and rep["state"]["to_move"] == 3
    rep = report(game(R, 4, body="redeal"))
    assert rep["redeals"] == 1 and rep["state"] is None and rep["rounds"] == []


def test_seven_rounds_one_per_double():
    body = ""
    for d in (6, 4, 5, 3, 0, 1, 2):
        body += "round %d-%d lead 1\nscore 2 3 4 1\n" % (d, d)
    rep = report(game(R, 4, body=body))
    assert [r["double"] for r in rep["rounds"]] == [6, 4, 5, 3, 0, 1, 2]
    assert rep["over"] is True
    assert rep["totals"] == [14, 21, 28, 7] and rep["winners"] == [4]
    rejects(game(R, 4, body=body + "round 6-6 lead 1"), 17, "the game is over")
    rep = report(game(R, 4, body="round 6-6 lead 1\nscore 2 3 4 1\n"))
    assert rep["over"] is False and rep["winners"] == []


def test_four_sides_first():
    rejects(game(R, 4, body="""
        round 6-6 lead 1     ; 3
        2 play 6-3           ; 4
        3 play 3-1           ; 5
    """), 5, "seat 3 cannot play 3-1: the centre 6-6 needs 3 more")
    st = state(game(R, 4, body=SIDES))
    assert st["trains_needed"] == 0 and st["open_ends"] == [0, 1, 2, 3]
    assert st["hands"] == [3, 4, 4, 4]


def test_chickie_double():
    st = state(game(R, 4, body=SIDES + "2 play 3-3"))
    assert st["toes_needed"] == 3 and st["open_double"] == 3
    assert st["open_ends"] == [0, 1, 2, 3, 3, 3]
    rejects(game(R, 4, body=SIDES + """
        2 play 3-3           ; 8
        3 play 2-5           ; 9
    """), 9, "seat 3 cannot play 2-5: a chicken foot on 3-3 needs 3 more toes")
    rejects(game(R, 4, body=SIDES + "2 play 5-5   ; 8"), 8, "no open end shows 5")
    st = state(game(R, 4, body=SIDES + """
        2 play 3-3
        3 play 3-4
        4 play 3-5
        1 play 3-1
    """))
    assert st["toes_needed"] == 0 and st["open_ends"] == [0, 1, 1, 2, 4, 5]


def test_a_drawn_tile_that_fits_must_be_played():
    rejects(game(R, 4, body="""
        round 6-6 lead 1     ; 3
        2 draw 6-2           ; 4
        2 pass               ; 5
    """), 5, "seat 2 cannot pass: the drawn tile 6-2 fits and must be played")


def test_empty_yard_pass():
    # Five players of five: 28 - 25 = 3 tiles in the yard.
    text = game(R, 5, body="""
        round 6-6 lead 1     ; 3
        2 draw               ; 4
        2 pass               ; 5
        3 draw               ; 6
        3 pass               ; 7
        4 draw               ; 8
        4 pass               ; 9
    """)
    st = state(text)
    assert st["yard"] == 0 and st["hands"] == [4, 6, 6, 6, 5] and st["to_move"] == 5
    rejects(text + "5 draw\n", 10, "seat 5 cannot draw: the yard is empty")
    st = state(text + "5 pass\n")
    assert st["to_move"] == 1 and st["awaiting_score"] is False
