"""The score sheet formatter, on hand-made reports (no engine needed)."""

from pipkeeper.library.sheet import format_sheet, state_lines, winner_line

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def report(**changes):
    base = {
        "rules": "chickenfoot", "players": PLAYERS,
        "rounds": [
            {"double": 9, "scores": [0, 12, 81, 4], "out": 1},
            {"double": 8, "scores": [16, 0, 23, 135], "out": 2},
            {"double": 7, "scores": [16, 10, 23, 35], "out": None},
        ],
        "totals": [32, 22, 127, 174], "over": False, "winners": [], "state": None,
    }
    base.update(changes)
    return base


def test_rounds_are_rows_players_are_columns():
    assert format_sheet(report()) == """\
chickenfoot: Ann, Bob, Cy, Di

round  Ann   Bob    Cy    Di
9-9      0*   12    81     4
8-8     16     0*   23   135
7-7     16    10    23    35
-----  ---   ---   ---   ---
total   32    22   127   174
* went out

game in progress
"""


def test_two_digit_doubles_and_long_names_keep_columns_straight():
    text = format_sheet(report(
        rules="mexican-train", players=["Anneliese", "Bo"],
        rounds=[{"double": 12, "scores": [0, 7], "out": 1}], totals=[0, 7]))
    assert "round  Anneliese   Bo" in text
    assert "12-12          0*   7" in text


def test_winner_alone():
    assert winner_line(report(over=True, winners=[2])) == "winner: Bob"


def test_winner_by_tie_break():
    line = winner_line(report(over=True, winners=[1], tie_break="most rounds won"))
    assert line == "winner: Ann (tie broken by most rounds won)"


def test_shared_win():
    assert winner_line(report(over=True, winners=[1, 3])) == "winners: Ann, Cy (shared)"
    assert winner_line(report(over=True, winners=[1, 3], tie_break="shared")) == \
        "winners: Ann, Cy (shared)"


def test_stopped_game():
    line = winner_line(report(over=True, winners=[2], stopped=True))
    assert line == "winner: Bob; the game was stopped before its last round"


def test_between_rounds_names_the_next_double():
    assert format_sheet(report(next_double=6)).endswith("game in progress\nnext round: 6-6\n")


def test_chicken_foot_state():
    lines = state_lines(report(state={
        "round": 6, "to_move": 2, "hands": [5, 7, 3, 9], "yard": 20, "drawable": 19,
        "trains_needed": 1, "toes_needed": 2, "open_ends": [1, 3, 6, 6],
        "trains": None, "markers": [], "open_double": 6, "awaiting_score": False}))
    assert lines == [
        "round 6-6 in progress: Bob to play",
        "  hands: Ann 5, Bob 7, Cy 3, Di 9",
        "  yard: 20 (19 may be drawn)",
        "  1 more train to start; chicken foot on 6-6 needs 2 more toes",
        "  open ends: 1 3 6 6",
    ]


def test_mexican_train_state_awaiting_score():
    lines = state_lines(report(players=["Ann", "Bob", "Cy"], state={
        "round": 12, "to_move": None, "hands": [0, 7, 3], "yard": 20, "drawable": 20,
        "trains_needed": 0, "toes_needed": 0, "open_ends": None,
        "trains": {"1": 5, "2": None, "3": 7, "mx": 12}, "markers": [2, 3],
        "open_double": 5, "awaiting_score": True}))
    assert lines == [
        "round 12-12 is over: waiting for the scores",
        "  hands: Ann 0, Bob 7, Cy 3",
        "  yard: 20",
        "  double 5-5 to satisfy",
        "  trains: Ann 5, Bob -, Cy 7, Mexican 12",
        "  markers: Bob, Cy",
    ]


def test_no_round_yet():
    text = format_sheet(report(rounds=[], totals=[0, 0, 0, 0]))
    assert "no round scored yet" in text


def test_tags_under_the_title():
    text = format_sheet(report(), tags=[("Rules", ["chickenfoot"]), ("Event", ["Club"]),
                                        ("Game", ["b1-1"])])
    assert text.splitlines()[1] == "Club, game b1-1"


def test_a_corrected_cell_is_marked_and_says_what_it_was():
    rounds = report()["rounds"]
    rounds[2] = dict(rounds[2], scores=[16, 10, 20, 35], corrected=[3],
                     original={"scores": [16, 10, 23, 35], "pips": [16, 10, 23, 35],
                               "holds_double_blank": []})
    rounds[0] = dict(rounds[0], corrected=[], original=None)
    text = format_sheet(report(rounds=rounds, totals=[32, 22, 124, 174]))
    lines = text.splitlines()
    row = [x for x in lines if x.startswith("7-7")][0]
    assert row.split() == ["7-7", "16", "10", "20~", "35"]
    assert "~ corrected: 7-7 Cy 20 (was 23)" in lines
    # the marker keeps the digits aligned: the column's numbers end where they did
    rows = [x for x in lines if x[:3] in ("9-9", "8-8", "7-7")]
    assert len({x.index(x.split()[3]) + len(x.split()[3].rstrip("*~")) for x in rows}) == 1
    assert format_sheet(report()).count("~") == 0
