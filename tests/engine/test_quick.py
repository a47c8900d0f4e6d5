"""Quick tracking (FORMAT.md: `SEAT play`, `SEAT play double`, `SEAT draw`
without tiles): everything that does not need the tiles is still checked
(turns, counts, start-phase trains, chicken-foot toe counts, doubles to
satisfy, out, blocked, scores); what needs them is skipped (matching ends,
legal plays). The number in a body line's trailing comment is its line."""

from _check import game, rejects, replay, report, state

CF = "chickenfoot"

# Four quick trains: the start phase is over, no open end is known.
TRAINS = """
round 9-9 lead 1     ; 3
1 play               ; 4
2 play               ; 5
3 play               ; 6
4 play               ; 7
"""


def test_quick_play_in_the_start_phase():
    st = state(game(CF, 4, body="round 9-9 lead 1\n1 play"))
    assert st["trains_needed"] == 3 and st["hands"] == [10, 11, 11, 11] and st["to_move"] == 2
    assert st["open_ends"] is None
    st = state(game(CF, 4, body=TRAINS))
    assert st["trains_needed"] == 0 and st["hands"] == [10, 10, 10, 10]


def test_quick_start_phase_still_counts_trains():
    rejects(game(CF, 4, body="""
        round 9-9 lead 1     ; 3
        1 play double        ; 4
    """), 4, "seat 1 cannot play a double: the centre 9-9 needs 4 more trains first")
    # during the start phase a train still starts on the centre: its pip is known
    g = replay(game(CF, 4, body="round 9-9 lead 1\n1 play"))
    plays = g.legal_plays()
    assert plays is not None and len(plays) == 9


def test_quick_turn_order():
    rejects(game(CF, 4, body="""
        round 9-9 lead 1     ; 3
        1 play               ; 4
        3 play               ; 5
    """), 5, "seat 3 cannot play: it is seat 2's turn")


def test_quick_double_starts_a_foot():
    text = game(CF, 4, body=TRAINS + "1 play double")
    st = state(text)
    assert st["toes_needed"] == 3 and st["open_double"] is None and st["open_ends"] is None
    assert st["to_move"] == 2
    assert replay(text).legal_plays() is None


def test_quick_toe_counts():
    body = TRAINS + """
        1 play double        ; 8
        2 play               ; 9
        3 play               ; 10
    """
    assert state(game(CF, 4, body=body))["toes_needed"] == 1
    rejects(game(CF, 4, body=body + "4 play double   ; 11"), 11,
            "seat 4 cannot play a double: a toe of the chicken foot is never a double")
    st = state(game(CF, 4, body=body + "4 play"))
    assert st["toes_needed"] == 0
    # a double is allowed again once the foot is complete
    st = state(game(CF, 4, body=body + "4 play\n1 play double"))
    assert st["toes_needed"] == 3


def test_a_known_double_after_quick_plays_fixes_the_toes_pip():
    text = game(CF, 4, body=TRAINS + """
        1 play 4-4           ; 8  the ends are unknown: not checked
        2 play 5-3           ; 9
    """)
    rejects(text, 9, "seat 2 cannot play 5-3: a chicken foot on 4-4 needs 3 more toes")
    st = state(game(CF, 4, body=TRAINS + "1 play 4-4\n2 play 4-3"))
    assert st["toes_needed"] == 2 and st["open_double"] == 4


def test_matching_is_skipped_but_not_uniqueness():
    text = game(CF, 4, body=TRAINS + """
        1 play 5-3           ; 8  no end is known: not checked
        2 play 3-5           ; 9  but 5-3 is on the table
    """)
    rejects(text, 9, "seat 2 cannot play 3-5: 5-3 is already on the table")
    st = state(game(CF, 4, body=TRAINS + "1 play 5-3"))
    assert st["to_move"] == 2 and st["open_ends"] is None


def test_quick_draw():
    st = state(game(CF, 4, body="""
        round 9-9 lead 1
        1 draw
        1 pass
    """))
    assert st["yard"] == 9 and st["hands"] == [12, 11, 11, 11] and st["to_move"] == 2
    # the drawn tile is unknown: it may be played (a quick or a known play)
    st = state(game(CF, 4, body="round 9-9 lead 1\n1 draw\n1 play"))
    assert st["hands"] == [11, 11, 11, 11] and st["trains_needed"] == 3
    rejects(game(CF, 4, body="""
        round 9-9 lead 1     ; 3
        1 draw               ; 4
        1 draw               ; 5
    """), 5, "seat 1 has already drawn this turn")


def test_quick_out():
    text = game(CF, 4, {"hand_size": "2"}, """
        round 9-9 lead 1     ; 4
        1 play               ; 5
        2 play               ; 6
        3 play               ; 7
        4 play               ; 8
        1 play               ; 9  seat 1's last tile
    """)
    st = state(text)
    assert st["awaiting_score"] is True and st["out"] == 1 and st["hands"] == [0, 1, 1, 1]
    rejects(text + "2 play\n", 10, "the round is over")
    rejects(text + "score 4 1 2 3\n", 10, "seat 1 went out: their score must be 0, not 4")
    rep = report(text + "score 0 1 2 3\n")
    assert rep["rounds"][0]["out"] == 1


def test_quick_out_on_a_double():
    text = game(CF, 4, {"hand_size": "2"}, """
        round 9-9 lead 1
        1 play
        2 play
        3 play
        4 play
        1 play double
    """)
    st = state(text)
    assert st["awaiting_score"] is True and st["out"] == 1


# 4 players of 13 tiles: 2 in the yard, 1 of them in reserve.
QBLOCK = """
round 9-9 lead 1     ; 4
1 play               ; 5
2 play               ; 6
3 play               ; 7
4 play               ; 8
1 draw               ; 9
1 pass               ; 10
2 pass               ; 11
3 pass               ; 12
4 pass               ; 13
"""


def test_quick_blocked():
    opts = {"hand_size": "13"}
    assert state(game(CF, 4, opts, QBLOCK))["awaiting_score"] is False
    st = state(game(CF, 4, opts, QBLOCK + "1 pass"))
    assert st["awaiting_score"] is True and st["blocked"] is True
    assert st["hands"] == [13, 12, 12, 12]


def test_quick_scores_are_checked_by_counts():
    # 12 tiles from 54 unknown (only 9-9 is known to be on the table), none
    # of them 0-0 (no +DB mark), make at least 1+2+2+3+3+4+4+4+5+5+5+6 = 44.
    opts = {"hand_size": "13"}
    text = game(CF, 4, opts, QBLOCK + "1 pass   ; 14")
    rejects(text + "score 60 43 60 60   ; 15\n", 15,
            "seat 2's hand of 12 tiles makes at least 44, not 43")
    rep = report(text + "score 60 44 60 60\n")
    assert rep["totals"] == [60, 44, 60, 60]


# -- mexican-train ----------------------------------------------------------------

MX = "mexican-train"

MXFIRST = """
round 12-12 lead 1   ; 3
2 play               ; 4
3 play               ; 5
4 play               ; 6
1 play               ; 7
"""


def test_quick_trains():
    st = state(game(MX, 4, body=MXFIRST))
    assert st["trains"] == {"1": None, "2": None, "3": None, "4": None, "mx": None}
    assert st["hands"] == [10, 11, 11, 11] and st["to_move"] == 2
    assert replay(game(MX, 4, body=MXFIRST)).legal_plays() is None
    st = state(game(MX, 4, body=MXFIRST + "2 play @mx"))
    assert st["to_move"] == 3 and st["hands"][1] == 10


def test_quick_first_turn_on_the_own_train():
    rejects(game(MX, 4, body="""
        round 12-12 lead 1   ; 3
        2 play @mx           ; 4
    """), 4, "on a first turn only their own train may be played")


def test_quick_double_to_satisfy():
    text = game(MX, 4, body=MXFIRST + "2 play double   ; 8")
    st = state(text)
    assert st["to_move"] == 2 and st["open_double"] is None and st["hands"][1] == 10
    rejects(text + "2 play @mx\n", 9, "must be satisfied first")
    st = state(text + "2 play\n")
    assert st["to_move"] == 3 and st["hands"][1] == 9
    # the obligation passes on, onto the double's train
    text2 = text + "2 draw\n2 pass\n"
    assert state(text2)["markers"] == [2]
    rejects(text2 + "3 play\n", 11,
            "the double just played on seat 2's train must be satisfied first")
    st = state(text2 + "3 play @2\n")
    assert st["to_move"] == 4 and st["markers"] == [2]


def test_quick_double_cannot_start_a_train():
    # A new train must match the station 12-12; the only double that does
    # is the station itself, so no double starts a train.
    rejects(game(MX, 4, body="""
        round 12-12 lead 1   ; 3
        2 play double        ; 4
    """), 4, "station")
    rejects(game(MX, 4, body=MXFIRST + "2 play double @mx   ; 8"), 8, "station")


def test_quick_double_cannot_cover_a_double():
    # The only double with a 5 end is 5-5 itself: a double is never covered
    # by another double, so at most one is ever unsatisfied.
    rejects(game(MX, 4, body=MXFIRST + """
        2 play double        ; 8
        2 play double        ; 9
    """), 9, "double")


def test_quick_markers():
    text = game(MX, 4, body=MXFIRST + """
        2 draw               ; 8
        2 pass               ; 9
    """)
    assert state(text)["markers"] == [2]
    st = state(text + "3 play @2\n4 play\n1 play\n2 play\n")
    assert st["markers"] == []
    rejects(text + "3 play @4\n", 10,
            "seat 3 cannot play a tile on seat 4's train: it carries no marker")
