"""Preset `chickenfoot-cross` (seeds 001 and 004): the holder places the
centre double as their turn, the hunt when nobody holds it, four arms
first, a drawn tile that fits *may* be played, no yard reserve, an empty
yard loses the turn, 0-0 counts 50. The number in a body line's trailing
comment is its line."""

from _check import game, rejects, report, state

R = "chickenfoot-cross"

ARMS = """
round 9-9 lead 1     ; 3
2 play 9-4           ; 4
3 play 9-2           ; 5
4 play 9-7           ; 6
1 play 9-3           ; 7  four arms: the start phase is over
"""


def test_deal_and_placement():
    st = state(game(R, 4, body="round 9-9 lead 1"))
    assert st["hands"] == [6, 7, 7, 7]           # the leader placed 9-9 from hand
    assert st["yard"] == 27 and st["drawable"] == 27
    assert st["to_move"] == 2                    # placing it was the leader's turn
    assert st["trains_needed"] == 4 and st["open_ends"] == [9, 9, 9, 9]


def test_placing_the_double_is_the_leaders_turn():
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        1 play 9-4           ; 4
    """), 4, "seat 1 cannot play: it is seat 2's turn")


def test_the_leader_holds_the_centre_double():
    ok = state(game(R, 4, body="""
        round 9-9 lead 1
        hand 1 9-9 9-4 5-3 6-1 0-0 8-7 6-5
    """))
    assert ok["hands"] == [6, 7, 7, 7]
    rejects(game(R, 4, body="""
        round 9-9 lead 1                        ; 3
        hand 1 9-8 9-4 5-3 6-1 0-0 8-7 6-5      ; 4
    """), 4, "seat 1 places 9-9, so their hand must hold it")
    rejects(game(R, 4, body="""
        round 9-9 lead 1                        ; 3
        hand 1 9-4 5-3 6-1 0-0 8-7 6-5          ; 4
    """), 4, "seat 1 holds 7 tiles, not 6")
    rejects(game(R, 4, body="""
        round 9-9 lead 1                        ; 3
        hand 2 9-9 9-4 5-3 6-1 0-0 8-7 6-5      ; 4
    """), 4, "9-9 is the centre double: seat 2 cannot hold it")


def test_hunt_when_nobody_holds_the_double():
    # Seat 1 draws a tile and keeps it; seat 2 draws 9-9 and places it.
    st = state(game(R, 4, body="round 9-9 lead 2 hunt 1 2"))
    assert st["hands"] == [8, 7, 7, 7]
    assert st["yard"] == 27 - 2
    assert st["to_move"] == 3
    st = state(game(R, 4, body="round 9-9 lead 1 hunt 3 4 1"))
    assert st["hands"] == [7, 7, 8, 8] and st["yard"] == 24 and st["to_move"] == 2
    # Known hands then include the tiles drawn in the hunt.
    st = state(game(R, 4, body="""
        round 9-9 lead 2 hunt 1 2
        hand 1 9-8 9-4 5-3 6-1 0-0 8-7 6-5 1-1
        hand 2 9-9 9-6 5-2 6-2 0-1 8-6 6-4 1-2
    """))
    assert st["hands"] == [8, 7, 7, 7]
    rejects(game(R, 4, body="""
        round 9-9 lead 2 hunt 1 2                  ; 3
        hand 1 9-8 9-4 5-3 6-1 0-0 8-7 6-5         ; 4
    """), 4, "seat 1 holds 8 tiles, not 7")
    rejects(game(R, 4, body="round 9-9 lead 2 hunt 1 3 2   ; 3"), 3, "the hunt goes clockwise")


def test_rounds_go_down_from_9_9():
    rejects(game(R, 4, body="round 8-8 lead 1   ; 3"), 3, "this round starts with 9-9, not 8-8")
    st = state(game(R, 4, body="""
        round 9-9 lead 1
        score 1 2 3 4
        round 8-8 lead 3
    """))
    assert st["round"] == 8 and st["to_move"] == 4 and st["hands"] == [7, 7, 6, 7]


def test_four_arms_before_any_arm_gets_a_second():
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        2 play 9-4           ; 4
        3 play 4-2           ; 5
    """), 5, "seat 3 cannot play 4-2: the centre 9-9 needs 3 more")
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        2 play 9-4           ; 4
        3 play 4-4           ; 5
    """), 5, "the centre 9-9 needs 3 more")
    st = state(game(R, 4, body=ARMS))
    assert st["trains_needed"] == 0 and st["open_ends"] == [2, 3, 4, 7]
    rejects(game(R, 4, body=ARMS + "2 play 9-5   ; 8"), 8, "no open end shows 9")


def test_four_arms_whatever_the_number_of_players():
    st = state(game(R, 6, body="round 9-9 lead 1"))
    assert st["trains_needed"] == 4 and st["hands"] == [6, 7, 7, 7, 7, 7]
    st = state(game(R, 2, body="""
        round 9-9 lead 1
        2 play 9-4
        1 play 9-2
        2 play 9-7
    """))
    assert st["trains_needed"] == 1 and st["to_move"] == 1


def test_a_drawn_tile_that_fits_may_be_kept():
    st = state(game(R, 4, body="""
        round 9-9 lead 1
        2 draw 9-5
        2 pass
    """))
    assert st["to_move"] == 3 and st["hands"] == [6, 8, 7, 7] and st["yard"] == 26
    st = state(game(R, 4, body="""
        round 9-9 lead 1
        2 draw 9-5
        2 play 9-5
    """))
    assert st["to_move"] == 3 and st["hands"] == [6, 7, 7, 7] and st["trains_needed"] == 3


def test_after_drawing_only_the_drawn_tile():
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        2 draw 5-3           ; 4
        2 play 9-4           ; 5
    """), 5, "after drawing, only the drawn tile 5-3 may be played")


# 4 players of 13 tiles: 55 - 52 = 3 tiles in the yard, no reserve.
EMPTY = """
round 9-9 lead 1     ; 4
2 draw               ; 5
2 pass               ; 6
3 draw               ; 7
3 pass               ; 8
4 draw               ; 9
4 pass               ; 10 the yard is empty
"""


def test_no_reserve_the_yard_empties():
    opts = {"hand_size": "13"}
    st = state(game(R, 4, opts, EMPTY))
    assert st["yard"] == 0 and st["drawable"] == 0 and st["to_move"] == 1
    rejects(game(R, 4, opts, EMPTY + "1 draw"), 11, "seat 1 cannot draw: the yard is empty")


def test_empty_yard_the_player_loses_the_turn():
    opts = {"hand_size": "13"}
    st = state(game(R, 4, opts, EMPTY + "1 pass"))
    assert st["to_move"] == 2 and st["awaiting_score"] is False
    st = state(game(R, 4, opts, EMPTY + "1 pass\n2 pass\n3 pass"))
    assert st["awaiting_score"] is False
    st = state(game(R, 4, opts, EMPTY + "1 pass\n2 pass\n3 pass\n4 pass"))
    assert st["awaiting_score"] is True and st["blocked"] is True


def test_chicken_foot_as_in_chickenfoot():
    st = state(game(R, 4, body=ARMS + "2 play 4-4"))
    assert st["toes_needed"] == 3 and st["open_double"] == 4
    rejects(game(R, 4, body=ARMS + """
        2 play 4-4           ; 8
        3 play 2-5           ; 9
    """), 9, "seat 3 cannot play 2-5: a chicken foot on 4-4 needs 3 more toes")
    rejects(game(R, 4, body=ARMS + """
        2 play 4-4           ; 8
        3 play 4-1           ; 9
        4 play 3-3           ; 10
    """), 10, "a toe of the chicken foot is never a double")


def test_double_blank_counts_50():
    rep = report(game(R, 4, body="""
        round 9-9 lead 1
        score 3 0+DB 5 7
    """))
    assert rep["rounds"][0]["scores"] == [3, 50, 5, 7]
    assert rep["totals"] == [3, 50, 5, 7]
    rep = report(game(R, 4, {"double_blank_50": "no"}, """
        round 9-9 lead 1
        score 3 0+DB 5 7
    """))
    assert rep["rounds"][0]["scores"] == [3, 0, 5, 7]
