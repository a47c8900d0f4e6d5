"""Preset `chickenfoot` (seed 000), part 1: FORMAT.md's example, the deal
and the hunt, the order of the rounds, turn order, tile uniqueness, the
start phase (ruling 7) and matching ends. Part 2 (test_chickenfoot_play.py)
has draws, feet, blocked, out and known hands: one file would need too much
heap to compile on MicroPython. Each illegal event is checked with its line
number; the number in a body line's trailing comment is its line."""

from _check import game, rejects, report, state, data_path, read_text, EXAMPLE, upto

R = "chickenfoot"


def test_format_example_state():
    path = data_path(__file__, "../data/format_example.dgn")
    st = state(read_text(path))
    assert st["hands"] == [8, 11, 9, 10]
    assert st["yard"] == 8
    assert st["drawable"] == 7
    assert st["open_ends"] == [0, 1, 2, 3, 6, 7]
    assert st["to_move"] == 2
    assert st["trains_needed"] == 0
    assert st["toes_needed"] == 0
    assert st["open_double"] is None
    assert st["awaiting_score"] is False
    assert st["round"] == 9
    # the same record built here
    assert state(game(R, ["Ann", "Bob", "Cy", "Di"], body=EXAMPLE)) == st


# -- the deal -------------------------------------------------------------------------

def test_deal_and_first_turn():
    st = state(game(R, 4, body="round 9-9 lead 2"))
    assert st["hands"] == [11, 11, 11, 11]
    assert st["yard"] == 10 and st["drawable"] == 9       # 1 tile in reserve
    assert st["to_move"] == 2                            # the leader plays on the centre
    assert st["trains_needed"] == 4
    assert st["open_ends"] == [9, 9, 9, 9]
    assert st["toes_needed"] == 0 and st["open_double"] is None
    assert st["awaiting_score"] is False and st["markers"] == [] and st["trains"] is None


def test_two_players_keep_two_tiles_in_reserve():
    st = state(game(R, 2, body="round 9-9 lead 1"))
    assert st["hands"] == [21, 21] and st["yard"] == 12 and st["drawable"] == 10


def test_hunt_draws_go_back_before_the_deal():
    st = state(game(R, 4, body="round 9-9 lead 3 hunt 1 2 3"))
    assert st["hands"] == [11, 11, 11, 11] and st["yard"] == 10 and st["to_move"] == 3
    st = state(game(R, 4, body="round 9-9 lead 2 hunt 4 1 2"))
    assert st["to_move"] == 2


def test_hunt_goes_clockwise_and_ends_with_the_leader():
    rejects(game(R, 4, body="round 9-9 lead 3 hunt 1 3   ; 3"), 3,
            "the hunt goes clockwise: seat 3 cannot follow seat 1")
    rejects(game(R, 4, body="round 9-9 lead 3 hunt 1 2   ; 3"), 3,
            "the hunt ends with the seat that found 9-9, seat 3")
    rejects(game(R, 4, body="round 9-9 lead 1 hunt 5 1   ; 3"), 3, "there is no seat 5")


def test_round_line_errors():
    rejects(game(R, 4, body="round 9-9 lead 5"), 3, "there is no seat 5")
    rejects(game(R, 4, body="round 9-9 lead 0"), 3, "there is no seat 0")
    rejects(game(R, 4, body="round 10-10 lead 1"), 3, "10-10 is not in a double-9 set")


def test_rounds_go_down_from_9_9():
    rejects(game(R, 4, body="round 8-8 lead 1"), 3, "this round starts with 9-9, not 8-8")
    text = game(R, 4, body="""
        round 9-9 lead 1     ; 3
        score 1 2 3 4        ; 4
        round 9-9 lead 2     ; 5
    """)
    rejects(text, 5, "this round starts with 8-8, not 9-9")


def test_ten_rounds_from_9_9_to_0_0():
    body = ""
    for d in range(9, -1, -1):
        body += "round %d-%d lead %d\nscore 1 2 3 4\n" % (d, d, d % 4 + 1)
    rep = report(game(R, 4, body=body))
    assert [r["double"] for r in rep["rounds"]] == [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    assert rep["over"] and rep["totals"] == [10, 20, 30, 40] and rep["winners"] == [1]
    assert rep["state"] is None
    rejects(game(R, 4, body=body + "round 0-0 lead 1"), 23, "the game is over")


def test_an_event_needs_a_round():
    rejects(game(R, 4, body="1 play 9-4"), 3, "no round is in play: a round line comes first")
    rejects(game(R, 4, body="1 draw"), 3, "no round is in play")
    rejects(game(R, 4, body="blocked"), 3, "no round is in play")
    rejects(game(R, 4, body="score 1 2 3 4"), 3, "no round is in play to score")


# -- turn order -------------------------------------------------------------------------

def test_turn_order():
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        2 play 9-4           ; 4
    """), 4, "seat 2 cannot play: it is seat 1's turn")
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        1 play 9-4           ; 4
        3 draw               ; 5
    """), 5, "seat 3 cannot draw: it is seat 2's turn")
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        1 play 9-4           ; 4
        2 draw               ; 5
        2 pass               ; 6
        2 draw               ; 7
    """), 7, "seat 2 cannot draw: it is seat 3's turn")
    rejects(game(R, 4, body="""
        round 9-9 lead 4     ; 3
        5 pass               ; 4
    """), 4, "there is no seat 5")


def test_turns_go_round_the_table():
    st = state(game(R, 4, body="""
        round 9-9 lead 4
        4 play 9-4
        1 play 9-1
    """))
    assert st["to_move"] == 2


# -- tile uniqueness and the set -------------------------------------------------------

def test_centre_double_is_never_in_a_hand():
    rejects(game(R, 4, body="""
        round 9-9 lead 1                                         ; 3
        hand 2 9-4 9-9 5-3 6-1 0-0 8-7 6-5 4-3 2-2 7-1 3-0       ; 4
    """), 4, "9-9 is the centre double: seat 2 cannot hold it")
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        1 play 9-9           ; 4
    """), 4, "seat 1 cannot play 9-9: 9-9 is the centre double")
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        1 draw 9-9           ; 4
    """), 4, "9-9 is the centre double")


def test_no_tile_twice_in_a_round():
    rejects(game(R, 4, body=upto(14) + "2 play 1-4   ; 15"), 15,
            "seat 2 cannot play 1-4: 4-1 is already on the table")
    rejects(game(R, 4, body=upto(14) + "2 draw 9-2   ; 15"), 15, "9-2 is already on the table")
    # A new round starts with every tile back in play.
    text = game(R, 4, body=upto(14) + """
        score 40 50 60 70    ; 15
        round 8-8 lead 1     ; 16
        1 play 8-4           ; 17
        2 play 8-1           ; 18
        3 play 8-2           ; 19
        4 play 8-3           ; 20
        1 play 4-1           ; 21  was on the table last round
    """)
    assert state(text)["to_move"] == 2


def test_tile_outside_the_set():
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        1 play 9-10          ; 4
    """), 4, "seat 1 cannot play 9-10: it is not in a double-9 set")
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        1 draw 12-3          ; 4
    """), 4, "12-3 is not in a double-9 set")


def test_trains_are_named_only_in_mexican_train():
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        1 play 9-4 @mx       ; 4
    """), 4, "trains are named only in mexican-train")


# -- the start phase (ruling 7) ---------------------------------------------------------

def test_start_phase_every_play_starts_a_train():
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        1 play 9-4           ; 4
        2 play 4-3           ; 5
    """), 5, "seat 2 cannot play 4-3: the centre 9-9 needs 3 more trains first")


def test_start_phase_allows_no_double():
    rejects(game(R, 4, body="""
        round 9-9 lead 1     ; 3
        1 play 9-4           ; 4
        2 play 4-4           ; 5
    """), 5, "the centre 9-9 needs 3 more trains first")


def test_start_phase_ends_with_one_train_per_player():
    st = state(game(R, 4, body=upto(10)))
    assert st["trains_needed"] == 0
    assert st["open_ends"] == [2, 3, 4, 7]
    # The centre takes exactly start_trains tiles: no fifth train.
    rejects(game(R, 4, body=upto(10) + "2 play 9-5    ; 11"), 11,
            "seat 2 cannot play 9-5: no open end shows 9")
    st = state(game(R, 4, body=upto(7)))
    assert st["trains_needed"] == 2 and st["open_ends"] == [2, 4, 9, 9]


def test_start_trains_option():
    text = game(R, 4, {"start_trains": "5"}, """
        round 9-9 lead 1     ; 4
        1 play 9-4           ; 5
        2 play 9-2           ; 6
        3 play 9-7           ; 7
        4 play 9-3           ; 8
    """)
    assert state(text)["trains_needed"] == 1
    rejects(text + "1 play 4-1\n", 9, "the centre 9-9 needs 1 more train first")
    st = state(text + "1 play 9-5\n")
    assert st["trains_needed"] == 0 and st["open_ends"] == [2, 3, 4, 5, 7]


def test_start_trains_with_eight_players():
    st = state(game(R, 8, body="round 9-9 lead 1"))
    assert st["trains_needed"] == 8 and st["open_ends"] == [9] * 8
    assert st["hands"] == [5] * 8


# -- matching ends -----------------------------------------------------------------------

def test_a_play_must_match_an_open_end():
    rejects(game(R, 4, body=upto(14) + "2 play 5-8   ; 15"), 15,
            "seat 2 cannot play 5-8: no open end shows 5")
    st = state(game(R, 4, body=upto(14) + "2 play 7-5"))
    assert st["open_ends"] == [0, 1, 2, 3, 5, 6]
    # played the other way round it matches the 5's end, and there is none
    rejects(game(R, 4, body=upto(14) + "2 play 8-7   ; 15"), 15, "no open end shows 8")


def test_a_matched_end_is_used_up():
    text = game(R, 4, body=upto(14) + """
        2 play 7-5           ; 15
        3 play 7-8           ; 16  the only 7 is gone
    """)
    rejects(text, 16, "seat 3 cannot play 7-8: no open end shows 7")
