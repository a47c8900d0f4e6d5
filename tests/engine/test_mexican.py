"""Preset `mexican-train` (seed 002): the station, thirteen rounds, own
trains and the shared Mexican train, the first turn, doubles to satisfy
(the same player plays again; the obligation passes on), markers, out on a
double. The number in a body line's trailing comment is its line."""

from _check import game, rejects, report, state

R = "mexican-train"

# Every seat's first turn: a train each from the station.
FIRST = """
round 12-12 lead 1   ; 3
2 play 12-5          ; 4
3 play 12-3          ; 5
4 play 12-8          ; 6
1 play 12-6          ; 7  the leader's first turn comes last
"""


def test_deal_and_the_station():
    st = state(game(R, 4, body="round 12-12 lead 1"))
    assert st["hands"] == [11, 12, 12, 12]
    assert st["yard"] == 43 and st["drawable"] == 43
    assert st["to_move"] == 2
    assert st["trains"] == {"1": None, "2": None, "3": None, "4": None, "mx": None}
    assert st["markers"] == [] and st["open_double"] is None
    assert st["trains_needed"] == 0 and st["toes_needed"] == 0


def test_thirteen_rounds_from_12_12():
    rejects(game(R, 4, body="round 11-11 lead 1   ; 3"), 3,
            "this round starts with 12-12, not 11-11")
    body = ""
    for d in range(12, -1, -1):
        body += "round %d-%d lead 2\nscore 0 1 2 3\n" % (d, d)
    rep = report(game(R, 4, body=body))
    assert len(rep["rounds"]) == 13 and rep["rounds"][-1]["double"] == 0
    assert rep["over"] is True and rep["totals"] == [0, 13, 26, 39] and rep["winners"] == [1]


def test_hunt_for_the_station():
    st = state(game(R, 4, body="round 12-12 lead 3 hunt 1 2 3"))
    assert st["hands"] == [13, 13, 12, 12]
    assert st["yard"] == 40 and st["to_move"] == 4


def test_first_turn_only_on_the_own_train():
    rejects(game(R, 4, body="""
        round 12-12 lead 1   ; 3
        2 play 12-5 @mx      ; 4
    """), 4, "seat 2 cannot play 12-5 on the Mexican train: on a first turn only their own train")
    rejects(game(R, 4, body="""
        round 12-12 lead 1   ; 3
        2 play 12-5 @3       ; 4
    """), 4, "seat 2 cannot play 12-5 on seat 3's train: on a first turn only their own train")
    rejects(game(R, 4, body="""
        round 12-12 lead 1   ; 3
        2 play 12-5          ; 4
        3 play 12-3          ; 5
        4 play 12-8          ; 6
        1 play 12-6 @mx      ; 7
    """), 7, "on a first turn only their own train")


def test_a_train_starts_from_the_station():
    rejects(game(R, 4, body="""
        round 12-12 lead 1   ; 3
        2 play 5-3           ; 4
    """), 4, "seat 2 cannot play 5-3 on their own train: a new train must match the station 12-12")
    st = state(game(R, 4, body=FIRST))
    assert st["trains"] == {"1": 6, "2": 5, "3": 3, "4": 8, "mx": None}
    assert st["hands"] == [10, 11, 11, 11] and st["to_move"] == 2


def test_explicit_own_train():
    st = state(game(R, 4, body="""
        round 12-12 lead 1
        2 play 12-5 @2
    """))
    assert st["trains"]["2"] == 5


def test_no_tile_twice_and_never_the_station():
    rejects(game(R, 4, body="""
        round 12-12 lead 1   ; 3
        2 play 12-12         ; 4
    """), 4, "seat 2 cannot play 12-12: 12-12 is the centre double")
    rejects(game(R, 4, body="""
        round 12-12 lead 1   ; 3
        2 draw 12-12         ; 4
    """), 4, "12-12 is the centre double")
    rejects(game(R, 4, body="""
        round 12-12 lead 1   ; 3
        2 play 12-5          ; 4
        3 play 5-12          ; 5
    """), 5, "seat 3 cannot play 5-12: 12-5 is already on the table")
    rejects(game(R, 4, body=FIRST + "2 play 12-5 @mx   ; 8"), 8, "12-5 is already on the table")
    rejects(game(R, 4, body="round 12-12 lead 1\n2 play 13-12   ; 4"), 4,
            "it is not in a double-12 set")


def test_the_mexican_train():
    st = state(game(R, 4, body=FIRST + "2 play 12-7 @mx"))
    assert st["trains"]["mx"] == 7 and st["to_move"] == 3
    st = state(game(R, 4, body=FIRST + "2 play 12-7 @mx\n3 play 7-1 @mx"))
    assert st["trains"]["mx"] == 1
    rejects(game(R, 4, body=FIRST + """
        2 play 12-7 @mx      ; 8
        3 play 12-1 @mx      ; 9
    """), 9, "seat 3 cannot play 12-1 on the Mexican train: its end shows 7")
    rejects(game(R, 4, body=FIRST + "2 play 5-1 @mx    ; 8"), 8,
            "a new train must match the station 12-12")


def test_a_play_must_match_the_train_end():
    rejects(game(R, 4, body=FIRST + "2 play 6-1   ; 8"), 8,
            "seat 2 cannot play 6-1 on their own train: its end shows 5")


def test_no_play_on_another_train_without_a_marker():
    rejects(game(R, 4, body=FIRST + "2 play 3-1 @3   ; 8"), 8,
            "seat 2 cannot play 3-1 on seat 3's train: it carries no marker")
    rejects(game(R, 4, body=FIRST + "2 play 5-1 @7   ; 8"), 8, "there is no train of seat 7")


def test_markers():
    text = game(R, 4, body=FIRST + """
        2 draw               ; 8
        2 pass               ; 9  marks seat 2's train
        3 play 5-1 @2        ; 10 others may play on it
    """)
    st = state(text)
    assert st["markers"] == [2] and st["trains"]["2"] == 1
    st = state(text + "4 play 8-2\n1 play 6-4\n2 play 1-9\n")
    assert st["markers"] == [] and st["trains"]["2"] == 9   # playing on it removes it
    # a pass with tiles in the yard must draw first
    rejects(text + "4 pass\n", 11, "seat 4 cannot pass: they must draw first")


def test_a_double_earns_another_play():
    st = state(game(R, 4, body=FIRST + "2 play 5-5"))
    assert st["to_move"] == 2 and st["open_double"] == 5 and st["hands"][1] == 10
    assert st["trains"]["2"] == 5
    st = state(game(R, 4, body=FIRST + "2 play 5-5\n2 play 5-9"))
    assert st["to_move"] == 3 and st["open_double"] is None and st["hands"][1] == 9
    # the second play may follow a fresh draw
    st = state(game(R, 4, body=FIRST + "2 play 5-5\n2 draw 5-2\n2 play 5-2"))
    assert st["to_move"] == 3 and st["open_double"] is None and st["trains"]["2"] == 2


def test_a_double_must_be_satisfied_first():
    rejects(game(R, 4, body=FIRST + """
        2 play 5-5           ; 8
        2 play 12-7 @mx      ; 9
    """), 9, "seat 2 cannot play 12-7 on the Mexican train: the double 5-5 on seat 2's "
             "train must be satisfied first")


def test_the_obligation_passes_on():
    text = game(R, 4, body=FIRST + """
        2 play 5-5           ; 8
        2 draw               ; 9
        2 pass               ; 10 marks seat 2's train
    """)
    st = state(text)
    assert st["to_move"] == 3 and st["open_double"] == 5 and st["markers"] == [2]
    rejects(text + "3 play 3-1\n", 11,
            "seat 3 cannot play 3-1 on their own train: the double 5-5 on seat 2's train "
            "must be satisfied first")
    text2 = text + "3 draw\n3 pass\n"
    st = state(text2)
    assert st["to_move"] == 4 and st["open_double"] == 5 and st["markers"] == [2, 3]
    st = state(text2 + "4 play 5-4 @2\n")
    assert st["open_double"] is None and st["trains"]["2"] == 4 and st["to_move"] == 1


def test_a_double_on_the_mexican_train():
    text = game(R, 4, body=FIRST + """
        2 play 12-7 @mx      ; 8
        3 play 7-7 @mx       ; 9
        3 draw               ; 10
        3 pass               ; 11
    """)
    st = state(text)
    assert st["open_double"] == 7 and st["to_move"] == 4 and st["markers"] == [3]
    rejects(text + "4 play 8-1\n", 12,
            "the double 7-7 on the Mexican train must be satisfied first")
    st = state(text + "4 play 7-1 @mx\n")
    assert st["open_double"] is None and st["trains"]["mx"] == 1


def test_a_drawn_tile_that_fits_must_be_played():
    rejects(game(R, 4, body=FIRST + """
        2 draw 12-7          ; 8
        2 pass               ; 9
    """), 9, "seat 2 cannot pass: the drawn tile 12-7 fits and must be played")


def test_out_on_a_double_ends_the_round():
    text = game(R, 2, {"hand_size": "3"}, """
        round 12-12 lead 1   ; 4
        2 play 12-5          ; 5
        1 play 12-4          ; 6
        2 play 5-3           ; 7
        1 play 4-4           ; 8  seat 1's last tile, a double
    """)
    st = state(text)
    assert st["awaiting_score"] is True and st["out"] == 1 and st["to_move"] is None
    assert st["hands"] == [0, 1]
    rejects(text + "1 play 4-2\n", 9, "the round is over")
    rep = report(text + "score 0 9\n")
    assert rep["rounds"][0]["out"] == 1 and rep["totals"] == [0, 9]
