"""`undo` (retracts the latest event not yet retracted; the line stays in
the file), `redeal` (the round in progress is void) and `end` (the game
stopped early), and ruling 8 (after out or blocked only `score` or `undo`).
The number in a body line's trailing comment is its line."""

from shared_engine.engine import UNDO, PLAY

from _check import game, rejects, report, state, events

CF = "chickenfoot"


def same_state(a, b):
    assert state(a) == state(b), (state(a), state(b))


# -- undo --------------------------------------------------------------------------

def test_undo_a_play():
    base = game(CF, 4, body="round 9-9 lead 1")
    same_state(game(CF, 4, body="round 9-9 lead 1\n1 play 9-4\nundo"), base)
    st = state(game(CF, 4, body="round 9-9 lead 1\n1 play 9-4\nundo\n1 play 9-2"))
    assert st["open_ends"] == [2, 9, 9, 9] and st["to_move"] == 2


def test_undo_keeps_the_line_numbers():
    rejects(game(CF, 4, body="""
        round 9-9 lead 1     ; 3
        1 play 9-4           ; 4
        undo                 ; 5
        2 play 9-2           ; 6
    """), 6, "seat 2 cannot play: it is seat 1's turn")


def test_undo_twice():
    base = game(CF, 4, body="round 9-9 lead 1")
    same_state(game(CF, 4, body="""
        round 9-9 lead 1
        1 play 9-4
        2 play 9-2
        undo
        undo
    """), base)


def test_nothing_to_undo():
    rejects(game(CF, 4, body="undo   ; 3"), 3, "there is nothing to undo")
    rejects(game(CF, 4, body="""
        round 9-9 lead 1     ; 3
        undo                 ; 4
        undo                 ; 5
    """), 5, "there is nothing to undo")


def test_undo_a_draw():
    text = game(CF, 4, body="""
        round 9-9 lead 1
        1 draw 5-3
        undo
    """)
    same_state(text, game(CF, 4, body="round 9-9 lead 1"))
    # the drawn tile is back in the yard: seat 1 may play any tile again
    assert state(text + "1 play 9-4\n")["to_move"] == 2


def test_undo_a_score():
    text = game(CF, 4, body="""
        round 9-9 lead 1
        1 play 9-4
        score 40 50 60 70
        undo
    """)
    rep = report(text)
    assert rep["rounds"] == [] and rep["totals"] == [0, 0, 0, 0]
    assert rep["state"]["round"] == 9 and rep["state"]["to_move"] == 2
    assert rep["state"]["trains_needed"] == 3


def test_undo_a_round_line():
    st = state(game(CF, 4, body="""
        round 9-9 lead 1
        undo
        round 9-9 lead 3
    """))
    assert st["to_move"] == 3
    assert report(game(CF, 4, body="round 9-9 lead 1\nundo"))["state"] is None


def test_undo_back_across_a_round():
    text = game(CF, 4, body="""
        round 9-9 lead 1
        1 play 9-4
        score 40 50 60 70
        round 8-8 lead 2
        2 play 8-1
        undo
        undo
        undo
    """)
    rep = report(text)
    assert rep["totals"] == [0, 0, 0, 0] and rep["rounds"] == []
    assert rep["state"]["round"] == 9 and rep["state"]["to_move"] == 2
    same_state(text, game(CF, 4, body="round 9-9 lead 1\n1 play 9-4"))


def test_undo_after_out():
    text = game(CF, 4, {"hand_size": "1"}, """
        round 9-9 lead 1
        1 play 9-4
        undo
    """)
    st = state(text)
    assert st["awaiting_score"] is False and st["to_move"] == 1 and st["hands"] == [1, 1, 1, 1]
    st = state(text + "1 play 9-2\n")
    assert st["awaiting_score"] is True and st["out"] == 1


def test_undo_after_blocked():
    text = game(CF, 4, {"hand_size": "13"}, """
        round 9-9 lead 1
        1 draw
        blocked
        undo
    """)
    st = state(text)
    assert st["awaiting_score"] is False and st["to_move"] == 1


def test_undo_after_the_game_is_over():
    text = game(CF, 2, {"rounds": "9"}, """
        round 9-9 lead 1
        score 3 4
    """)
    assert report(text)["over"] is True
    rep = report(text + "undo\n")
    assert rep["over"] is False and rep["winners"] == [] and rep["state"]["round"] == 9
    rep = report(text + "undo\nscore 5 4\n")
    assert rep["over"] is True and rep["winners"] == [2]


def test_the_retracted_line_stays_in_the_record():
    text = game(CF, 4, body="round 9-9 lead 1\n1 play 9-4\nundo\n1 play 9-2\n")
    evs = events(text)
    assert [ev[0] for ev in evs[1:]] == [PLAY, UNDO, PLAY]
    assert evs[1] == (PLAY, 1, 9, 4, None)


# -- redeal ------------------------------------------------------------------------

def test_redeal_voids_the_round():
    text = game(CF, 4, body="""
        round 9-9 lead 1
        1 play 9-4
        2 play 9-2
        redeal
    """)
    rep = report(text)
    assert rep["state"] is None and rep["redeals"] == 1 and rep["rounds"] == []
    st = state(text + "round 9-9 lead 3\n3 play 9-4\n")
    assert st["hands"] == [11, 11, 10, 11] and st["trains_needed"] == 3 and st["to_move"] == 4


def test_a_void_round_is_dealt_again():
    rejects(game(CF, 4, body="""
        round 9-9 lead 1     ; 3
        redeal               ; 4
        round 8-8 lead 1     ; 5
    """), 5, "this round starts with 9-9, not 8-8")


def test_undo_a_redeal():
    st = state(game(CF, 4, body="""
        round 9-9 lead 1
        1 play 9-4
        redeal
        undo
    """))
    assert st["to_move"] == 2 and st["trains_needed"] == 3


# -- end ---------------------------------------------------------------------------

def test_end_stops_the_game():
    text = game(CF, 2, body="""
        round 9-9 lead 1     ; 3
        score 3 4            ; 4
        round 8-8 lead 2     ; 5
        2 play 8-1           ; 6
        end                  ; 7
    """)
    rep = report(text)
    assert rep["over"] is True and rep["stopped"] is True
    assert rep["state"] is None
    assert rep["totals"] == [3, 4] and rep["winners"] == [1]
    rejects(text + "1 play 1-5\n", 8, "the game is over")
    rejects(text + "round 8-8 lead 1\n", 8, "the game is over")


def test_a_finished_game_needs_no_end():
    text = game(CF, 2, {"rounds": "9"}, "round 9-9 lead 1\nscore 3 4")
    assert report(text)["over"] is True
    rejects(text + "end\n", 6, "the game is over")


def test_undo_an_end():
    rep = report(game(CF, 2, body="""
        round 9-9 lead 1
        score 3 4
        end
        undo
    """))
    assert rep["over"] is False and rep["winners"] == [] and rep["next_double"] == 8


# -- ruling 8: after out or blocked only score or undo ------------------------------

OUT = """
round 9-9 lead 1     ; 4
1 play 9-4           ; 5  seat 1 is out
"""


def test_after_out_no_redeal():
    rejects(game(CF, 4, {"hand_size": "1"}, OUT + "redeal   ; 6"), 6, "the round is over")


def test_after_out_no_end():
    rejects(game(CF, 4, {"hand_size": "1"}, OUT + "end   ; 6"), 6, "the round is over")


def test_after_out_score_or_undo():
    rep = report(game(CF, 4, {"hand_size": "1"}, OUT + "score 0 1 2 3"))
    assert rep["totals"] == [0, 1, 2, 3]
    st = state(game(CF, 4, {"hand_size": "1"}, OUT + "undo"))
    assert st["to_move"] == 1
