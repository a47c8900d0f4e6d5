"""Preset `chickenfoot` (seed 000), part 2: draws and the yard reserve,
chicken feet (rulings 2 and 3), blocked (rulings 1 and 6), out (ruling 8)
and a known hand's checks. Each illegal event is checked with its line
number; the number in a body line's trailing comment is its line."""

from _check import game, rejects, report, state, upto

R = "chickenfoot"


# -- draws and the yard ---------------------------------------------------------------------

def test_after_drawing_only_the_drawn_tile_may_be_played():
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        1 play 9-4           ; 4
        2 draw 5-3           ; 5
        2 play 9-2           ; 6
    """), 6, "seat 2 cannot play 9-2: after drawing, only the drawn tile 5-3 may be played")


def test_a_drawn_tile_that_fits_must_be_played():
    text = game(R, 4, body="""
        round 9-9 lead 1     ; 3
        1 play 9-4           ; 4
        2 draw 9-5           ; 5
    """)
    rejects(text + "2 pass\n", 6, "seat 2 cannot pass: the drawn tile 9-5 fits and must be played")
    st = state(text + "2 play 9-5\n")
    assert st["to_move"] == 3 and st["hands"] == [10, 11, 11, 11] and st["yard"] == 9


def test_a_drawn_tile_that_does_not_fit_is_kept():
    st = state(game(R, 4, body="""
        round 9-9 lead 1
        1 play 9-4
        2 draw 5-3
        2 pass
    """))
    assert st["to_move"] == 3 and st["hands"] == [10, 12, 11, 11] and st["yard"] == 9


def test_drawn_tile_may_option():
    st = state(game(R, 4, {"drawn_tile": "may"}, """
        round 9-9 lead 1
        1 play 9-4
        2 draw 9-5
        2 pass
    """))
    assert st["to_move"] == 3 and st["hands"][1] == 12


def test_one_draw_a_turn():
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        1 draw               ; 4
        1 draw               ; 5
    """), 5, "seat 1 has already drawn this turn")


def test_no_pass_without_drawing_while_the_yard_has_tiles():
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        1 pass               ; 4
    """), 4, "seat 1 cannot pass: they must draw first (9 tiles may be drawn)")


def _draw_and_pass(seats, count):
    out = ""
    for i in range(count):
        s = seats[i % len(seats)]
        out += "%d draw\n%d pass\n" % (s, s)
    return out


def test_yard_reserve_one_tile_for_three_or_more():
    body = "round 9-9 lead 1\n" + _draw_and_pass((1, 2, 3, 4), 9)   # lines 3-21
    st = state(game(R, 4, body=body))
    assert st["yard"] == 1 and st["drawable"] == 0 and st["to_move"] == 2
    assert st["hands"] == [14, 13, 13, 13]
    rejects(game(R, 4, body=body + "2 draw"), 22,
            "seat 2 cannot draw: the last 1 tile of the yard stay")
    # with nothing to draw, a pass is the turn
    st = state(game(R, 4, body=body + "2 pass"))
    assert st["to_move"] == 3 and st["awaiting_score"] is False


def test_yard_reserve_two_tiles_for_two_players():
    body = "round 9-9 lead 1\n" + _draw_and_pass((1, 2), 10)      # lines 3-23
    st = state(game(R, 2, body=body))
    assert st["yard"] == 2 and st["drawable"] == 0
    rejects(game(R, 2, body=body + "1 draw"), 24,
            "seat 1 cannot draw: the last 2 tiles of the yard stay")


def test_yard_reserve_none_option():
    body = "round 9-9 lead 1\n" + _draw_and_pass((1, 2, 3, 4), 10)  # lines 4-24
    st = state(game(R, 4, {"yard_reserve": "none"}, body))
    assert st["yard"] == 0 and st["drawable"] == 0
    rejects(game(R, 4, {"yard_reserve": "none"}, body + "3 draw"), 25,
            "seat 3 cannot draw: the yard is empty")


# -- chicken feet (ruling 3) -------------------------------------------------------------

def test_a_double_starts_a_chicken_foot():
    st = state(game(R, 4, body=upto(11)))
    assert st["toes_needed"] == 3 and st["open_double"] == 4
    assert st["open_ends"] == [2, 3, 4, 4, 4, 7]
    assert st["to_move"] == 3                      # no second play after a double
    st = state(game(R, 4, body=upto(12)))
    assert st["toes_needed"] == 2 and st["open_ends"] == [1, 2, 3, 4, 4, 7]
    st = state(game(R, 4, body=upto(14)))
    assert st["toes_needed"] == 0 and st["open_double"] is None


def test_three_toes_before_any_other_play():
    rejects(game(R, 4, body=upto(11) + "3 play 2-5   ; 12"), 12,
            "seat 3 cannot play 2-5: a chicken foot on 4-4 needs 3 more toes")
    rejects(game(R, 4, body=upto(13) + "1 play 3-5   ; 14"), 14,
            "seat 1 cannot play 3-5: a chicken foot on 4-4 needs 1 more toe")


def test_a_toe_is_never_a_double():
    rejects(game(R, 4, body=upto(11) + "3 play 2-2   ; 12"), 12,
            "seat 3 cannot play 2-2: a toe of the chicken foot is never a double")


def test_a_double_needs_a_matching_end():
    rejects(game(R, 4, body=upto(14) + "2 play 5-5   ; 15"), 15,
            "seat 2 cannot play 5-5: no open end shows 5")


def test_a_second_foot_after_the_first_is_complete():
    st = state(game(R, 4, body=upto(14) + "2 play 6-6"))
    assert st["toes_needed"] == 3 and st["open_double"] == 6
    assert st["open_ends"] == [0, 1, 2, 3, 6, 6, 6, 7]


def test_unfinishable_foot_leads_to_passes_and_a_blocked_round():
    # Ruling 2. Two players, double-6, 13 tiles each: one tile is left in
    # the yard and two stay there, so nothing can be drawn.
    opts = {"set": "6", "hand_size": "13"}
    text = game(R, 2, opts, """
        round 6-6 lead 1     ; 5
        1 play 6-3           ; 6
        2 play 6-2           ; 7
        1 play 3-3           ; 8  a foot on 3-3
        2 pass               ; 9
        1 pass               ; 10 nobody can play: blocked
    """)
    st = state(text)
    assert st["drawable"] == 0
    assert st["awaiting_score"] is True and st["blocked"] is True and st["to_move"] is None
    assert st["toes_needed"] == 3
    rejects(text + "2 play 3-1\n", 11, "the round is over: only its score may follow")


# -- blocked (rulings 1 and 6) ------------------------------------------------------------

# 4 players of 13 tiles: 2 tiles in the yard, 1 of them in reserve.
BLOCK = """
round 9-9 lead 1     ; 4
1 play 9-4           ; 5
2 play 9-2           ; 6
3 play 9-7           ; 7
4 play 9-3           ; 8
1 draw               ; 9  the last tile that may be drawn
1 pass               ; 10 after a draw: does not count toward blocked
2 pass               ; 11
3 pass               ; 12
4 pass               ; 13
"""


def test_blocked_after_a_full_cycle_of_passes():
    opts = {"hand_size": "13"}
    st = state(game(R, 4, opts, BLOCK))
    assert st["drawable"] == 0 and st["yard"] == 1
    assert st["awaiting_score"] is False and st["to_move"] == 1
    st = state(game(R, 4, opts, BLOCK + "1 pass"))
    assert st["awaiting_score"] is True and st["blocked"] is True and st["to_move"] is None
    rejects(game(R, 4, opts, BLOCK + "1 pass\n2 pass"), 15, "the round is over")


def test_a_play_restarts_the_cycle():
    opts = {"hand_size": "13"}
    text = game(R, 4, opts, BLOCK + """
        1 play 4-5           ; 14
        2 pass               ; 15
        3 pass               ; 16
        4 pass               ; 17
    """)
    st = state(text)
    assert st["awaiting_score"] is False and st["to_move"] == 1
    assert state(text + "1 pass\n")["awaiting_score"] is True


def test_blocked_line_needs_nothing_left_to_draw():
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        blocked              ; 4
    """), 4, "the round is not blocked: 9 tiles may still be drawn")
    opts = {"hand_size": "13"}
    rejects(game(R, 4, opts, """
        round 9-9 lead 1     ; 4
        blocked              ; 5
    """), 5, "the round is not blocked: 1 tile may still be drawn")
    st = state(game(R, 4, opts, "\n".join(BLOCK.strip().split("\n")[:6]) + "\nblocked"))
    assert st["awaiting_score"] is True and st["to_move"] is None


# -- out (ruling 8) ---------------------------------------------------------------------------

def test_out_ends_the_round_at_once():
    text = game(R, 4, {"hand_size": "1"}, """
        round 9-9 lead 1     ; 4
        1 play 9-4           ; 5  Ann's last tile
    """)
    st = state(text)
    assert st["awaiting_score"] is True and st["out"] == 1 and st["to_move"] is None
    assert st["hands"] == [0, 1, 1, 1]
    rejects(text + "2 play 9-2\n", 6, "the round is over: only its score may follow")
    rejects(text + "2 draw\n", 6, "the round is over")
    rejects(text + "blocked\n", 6, "the round is over")
    rejects(text + "round 8-8 lead 2\n", 6, "round 9-9 is still in play: score it first")
    rep = report(text + "score 0 3 4 5\nround 8-8 lead 2\n")
    assert rep["rounds"][0]["out"] == 1 and rep["state"]["round"] == 8


def test_out_on_a_double():
    # The last tile may be a double: the round ends, no foot is waited for.
    text = game(R, 4, {"hand_size": "2"}, """
        round 9-9 lead 1     ; 4
        1 play 9-0           ; 5
        2 play 9-1           ; 6
        3 play 9-2           ; 7
        4 play 9-3           ; 8
        1 play 0-0           ; 9 Ann is out on a double
    """)
    st = state(text)
    assert st["awaiting_score"] is True and st["out"] == 1 and st["to_move"] is None
    rejects(text + "2 play 0-5\n", 10, "the round is over")


# -- a known hand (simulated games) ------------------------------------------------------------

HAND1 = "hand 1 9-4 9-2 5-3 6-1 0-0 8-7 6-5 4-3 2-2 7-1 3-0"


def test_known_hand_plays_are_checked():
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        %s                   ; 4
        1 play 9-5           ; 5
    """ % HAND1), 5, "seat 1 cannot play 9-5: they do not hold it")
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        %s                   ; 4
        1 draw               ; 5
    """ % HAND1), 5, "seat 1 cannot draw: they can play 9-")
    st = state(game(R, 4, body="""
        round 9-9 lead 1
        %s
        1 play 9-2
    """ % HAND1))
    assert st["hands"][0] == 10


def test_known_hand_keeps_its_tiles_from_others():
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        %s                   ; 4
        1 play 9-4           ; 5
        2 draw 5-3           ; 6
    """ % HAND1), 6, "5-3 is in seat 1's hand")
    rejects(game(R, 4, body="""
        round 9-9 lead 1                                       ; 3
        %s                                                     ; 4
        hand 2 9-8 9-6 5-5 6-6 1-1 8-8 6-3 4-4 2-1 7-7 5-3     ; 5
    """ % HAND1), 5, "5-3 is in seat 1's hand")
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        %s                   ; 4
        2 play 5-3           ; 5
    """ % HAND1), 5, "it is seat 1's turn")


def test_known_hand_draws_are_checked():
    # Seat 2's hand has no 9, so they draw; 5-3 is already in it.
    rejects(game(R, 4, body="""
        round 9-9 lead 1                                       ; 3
        hand 2 8-1 7-6 5-5 6-6 1-1 8-8 6-3 4-4 2-1 7-7 5-3     ; 4
        1 play 9-4                                             ; 5
        2 draw 5-3                                             ; 6
    """), 6, "5-3 is already in seat 2's hand")
    st = state(game(R, 4, body="""
        round 9-9 lead 1
        hand 2 8-1 7-6 5-5 6-6 1-1 8-8 6-3 4-4 2-1 7-7 5-3
        1 play 9-4
        2 draw 9-2
        2 play 9-2
    """))
    assert st["hands"][1] == 11 and st["trains_needed"] == 2


def test_hand_line_errors():
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        1 play 9-4           ; 4
        hand 2 9-8 9-6 5-5 6-6 1-1 8-8 6-3 4-4 2-1 7-7 5-3     ; 5
    """), 5, "a hand is given right after the round line, before any play")
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        %s                   ; 4
        %s                   ; 5
    """ % (HAND1, HAND1)), 5, "seat 1's hand is already given")
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        hand 1 9-4 9-2 5-3   ; 4
    """), 4, "seat 1 holds 11 tiles, not 3")
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        hand 5 9-4           ; 4
    """), 4, "there is no seat 5")
    rejects(game(R, 4, body="""
        round 9-9 lead 1                                       ; 3
        hand 2 9-8 9-6 5-5 6-6 1-1 8-8 6-3 4-4 2-1 7-7 7-7     ; 4
    """), 4, "7-7 is listed twice")
    rejects(game(R, 4, body="""
        round 9-9 lead 1                                       ; 3
        hand 2 9-8 9-6 5-5 6-6 1-1 8-8 6-3 4-4 2-1 7-7 10-1    ; 4
    """), 4, "10-1 is not in a double-9 set")
    rejects(game(R, 4, body="""
        hand 2 9-8 9-6 5-5 6-6 1-1 8-8 6-3 4-4 2-1 7-7 5-3     ; 3
    """), 3, "no round is in play")


def test_known_hand_cannot_pass_with_a_play_in_hand():
    # 13 tiles each: after seat 1 draws the one drawable tile, nothing can
    # be drawn; seat 2 holds a 9 and so may not pass.
    text = game(R, 4, {"hand_size": "13"}, """
        round 9-9 lead 1                                               ; 4
        hand 2 9-8 9-6 5-5 6-6 1-1 8-8 6-3 4-4 2-1 7-7 5-3 3-3 0-0     ; 5
        1 draw               ; 6
        1 pass               ; 7
        2 pass               ; 8
    """)
    rejects(text, 8, "seat 2 cannot pass: they can play 9-")
