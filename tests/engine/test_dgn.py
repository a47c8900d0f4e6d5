"""The record reader and writer (FORMAT.md): tags, escapes, comments, blank
lines, a tag after an event, a torn last line, the round trip
write(read(x)) for every event kind, and syntax errors with their line
numbers."""

from shared_engine import dgn
from shared_engine.engine import (
    ROUND, HAND, PLAY, DRAW, PASS, BLOCKED, SCORE, REDEAL, UNDO, END,
    UNKNOWN, DOUBLE, MEXICAN,
)
from shared_engine import tiles

from _check import rejects, game, replay, report, state, events, raises

HEAD = '[Rules "chickenfoot"]\n[Players "Ann" "Bob" "Cy" "Di"]\n'


def bad_line(line, fragment):
    """``line`` as line 4 of a record (after round 9-9 on line 3) must be
    refused by the reader at line 4."""
    text = HEAD + "round 9-9 lead 1\n" + line + "\n"
    e = raises(dgn.RecordError, dgn.read, text)
    assert e.line == 4, (line, e.line, str(e))
    assert fragment in str(e), (line, fragment, str(e))
    assert str(e).startswith("line 4: ")


# -- tags --------------------------------------------------------------------------

def test_tags_are_read_in_order():
    text = ('[Rules "mexican-train"]\n'
            '[Players "Ann" "Bob" "Cy"]\n'
            '[Set "9"]\n'
            '[Option "hand_size" "10"]\n'
            '[Game "b1c2-0007"]\n'
            '[Date "2026-12-02"]\n'
            '[Event "Thursday club"]\n'
            '[Venue "Ann\'s kitchen"]   ; unknown tags are kept\n'
            "round 9-9 lead 2\n")
    rec = dgn.read(text)
    assert rec.tag("Rules") == ["mexican-train"]
    assert rec.tag("Players") == ["Ann", "Bob", "Cy"]
    assert rec.tag("Venue") == ["Ann's kitchen"]
    assert rec.tag("Nothing") is None
    assert rec.options() == {"set": "9", "hand_size": "10"}
    assert [k for k, v in rec.tags] == ["Rules", "Players", "Set", "Option", "Game",
                                       "Date", "Event", "Venue"]
    g = replay(text)
    assert g.players == ["Ann", "Bob", "Cy"] and g.rules.top == 9 and g.rules.hand_size == 10
    assert state(text)["hands"] == [10, 9, 10]


def test_tag_escapes():
    text = ('[Rules "chickenfoot"]\n'
            '[Players "Ann \\"the Ace\\"" "B\\\\b"]\n'
            '[Event "say \\"hi\\" \\\\ bye"]\n')
    rec = dgn.read(text)
    assert rec.tag("Players") == ['Ann "the Ace"', "B\\b"]
    assert rec.tag("Event") == ['say "hi" \\ bye']
    # and written back the same way
    out = dgn.write(rec.tags, [])
    assert out == text
    assert dgn.format_tag("Event", ['a"b\\c']) == '[Event "a\\"b\\\\c"]'


def test_tag_errors_have_line_numbers():
    cases = (
        ('[Event "a\\nb"]', "only"),            # \n is not an escape
        ('[Event "abc"', "not closed with ]"),
        ("[Event abc]", "double-quoted"),
        ('[Event "abc]', "not closed"),
        ('[ "abc"]', "needs a name"),
        ('[Event "a"] extra', "unexpected text after tag"),
    )
    for line, fragment in cases:
        text = '[Rules "chickenfoot"]\n\n' + line + '\n[Players "A" "B"]\n'
        e = raises(dgn.RecordError, dgn.read, text)
        assert e.line == 3, (line, e.line)
        assert fragment in e.message, (line, e.message)


def test_tag_after_an_event_is_refused():
    text = game("chickenfoot", 4, body="""
        round 9-9 lead 1      ; 3
        1 play 9-4            ; 4
        [Event "late"]        ; 5
    """)
    rejects(text, 5, "tags come before the first event")


def test_missing_rules_or_players():
    rejects('[Players "A" "B"]\nround 9-9 lead 1\n', None, "[Rules")
    rejects('[Rules "chickenfoot"]\nround 9-9 lead 1\n', None, "[Players")
    rejects('[Rules "poker"]\n[Players "A" "B"]\nround 9-9 lead 1\n', None, "unknown rules")


def test_an_unknown_preset_is_reported_before_a_missing_players_tag():
    """A mistyped [Rules] is the error to fix first: naming the missing
    [Players] tag instead sends the reader after the wrong line."""
    msg = rejects('[Rules "nope"]\nround 9-9 lead 1\n', 1, "unknown rules 'nope'")
    for name in ("chickenfoot", "chickenfoot-cross", "chicken-scratch", "mexican-train"):
        assert name in msg, (name, msg)
    assert "Players" not in msg, msg


def test_a_bad_tag_is_reported_at_its_own_line():
    """The line of the tag at fault, not of the first event (or the last
    line) after it: a [Rules] tag on line 1 is line 1."""
    rejects('[Rules "nope"]\n[Players "A" "B"]\nround 9-9 lead 1\n', 1, "unknown rules")
    rejects('[Rules "nope"]\n[Players "A" "B"]\n', 1, "unknown rules")
    rejects('[Event "x"]\n\n[Rules "nope"]\n[Players "A" "B"]\n1 draw\n', 3, "unknown rules")
    rejects('[Rules "chickenfoot"]\n[Players "A"]\n[Event "x"]\nround 9-9 lead 1\n', 2,
            "at least 2 players")
    rejects('[Rules "chickenfoot"]\n[Players "A" "B"]\n[Option "start_trains" "77"]\n'
            '[Event "x"]\nround 9-9 lead 1\n', 3, "start_trains")
    rejects('[Rules "chickenfoot"]\n[Players "A" "B"]\n[Option "tie_break" "coin"]\n'
            '[Option "nonsense" "1"]\n[Event "x"]\nround 9-9 lead 1\n', 4, "nonsense")
    rejects('[Rules "chickenfoot"]\n[Set "7"]\n[Players "A" "B"]\n[Event "x"]\n'
            'round 9-9 lead 1\n', 2, "set must be")
    rejects('[Rules "chickenfoot"]\n[Players "A" "B"]\n[Option "x"]\nround 9-9 lead 1\n', 3,
            "takes a name and a value")
    # no tag to blame: where the game starts, as before
    rejects('[Rules "chickenfoot"]\n[Event "x"]\nround 9-9 lead 1\n', 3, "[Players")


# -- comments and blank lines -------------------------------------------------------

def test_comments_and_blank_lines_are_ignored_but_counted():
    text = (HEAD +                             # lines 1-2
            "\n"                               # 3
            "; a comment line\n"               # 4
            "   ; an indented comment\n"       # 5
            "round 9-9 lead 1   ; Ann leads\n"  # 6
            "\n"                               # 7
            "1 play 9-4;no space before it\n"  # 8
            "   \n"                            # 9
            "2 play 9-3 ; Bob\n"               # 10
            "\t\n"                             # 11
            "2 play 9-2\n")                    # 12: not Bob's turn
    rec = dgn.read(text)
    assert [no for no, ev in rec.events] == [6, 8, 10, 12]
    assert rec.events[1][1] == (PLAY, 1, 9, 4, None)
    rejects(text, 12, "seat 2 cannot play: it is seat 3's turn")


def test_crlf_line_ends_are_read():
    text = HEAD.replace("\n", "\r\n") + "round 9-9 lead 1\r\n1 play 9-4\r\n"
    assert state(text)["trains_needed"] == 3


# -- a torn last line ------------------------------------------------------------------

def test_torn_last_line_is_ignored_with_a_warning():
    text = HEAD + "round 9-9 lead 1\n1 play 9-4\n2 play 9-"   # line 5 cut short
    g = replay(text)
    assert g.to_move == 2
    assert len(g.warnings) == 1
    assert g.warnings[0].startswith("line 5: ")
    assert "ignored" in g.warnings[0]
    rep = report(text)
    assert rep["warnings"] == g.warnings
    assert rep["state"]["trains_needed"] == 3


def test_torn_last_line_is_not_checked():
    # What was cut short may be anything: it is not an error.
    text = HEAD + "round 9-9 lead 1\n4 play 7-7 @junk"
    g = replay(text)
    assert g.to_move == 1 and len(g.warnings) == 1
    assert dgn.read(text).warnings == g.warnings


def test_whole_lines_give_no_warning():
    text = HEAD + "round 9-9 lead 1\n"
    assert replay(text).warnings == []
    assert report(text)["warnings"] == []


# -- events: parse and format ----------------------------------------------------------

EVERY_KIND = (
    ("round 9-9 lead 2", (ROUND, 9, 2, ())),
    ("round 12-12 lead 3 hunt 1 2 3", (ROUND, 12, 3, (1, 2, 3))),
    ("hand 2 9-4 3-2 0-0", (HAND, 2, (tiles.tile_id(9, 4), tiles.tile_id(3, 2), 0))),
    ("1 play 9-4", (PLAY, 1, 9, 4, None)),
    ("1 play 4-9", (PLAY, 1, 4, 9, None)),
    ("3 play 12-5 @mx", (PLAY, 3, 12, 5, MEXICAN)),
    ("3 play 5-1 @2", (PLAY, 3, 5, 1, 2)),
    ("2 play", (PLAY, 2, UNKNOWN, UNKNOWN, None)),
    ("2 play double", (PLAY, 2, DOUBLE, DOUBLE, None)),
    ("2 play @mx", (PLAY, 2, UNKNOWN, UNKNOWN, MEXICAN)),
    ("2 play double @4", (PLAY, 2, DOUBLE, DOUBLE, 4)),
    ("4 draw", (DRAW, 4, UNKNOWN, UNKNOWN)),
    ("4 draw 5-3", (DRAW, 4, 5, 3)),
    ("4 pass", (PASS, 4)),
    ("blocked", (BLOCKED,)),
    ("score 0 12 31+DB 4", (SCORE, (0, 12, 31, 4), (0, 0, 1, 0))),
    ("redeal", (REDEAL,)),
    ("undo", (UNDO,)),
    ("end", (END,)),
)


def test_parse_and_format_every_event_kind():
    for line, ev in EVERY_KIND:
        assert dgn.parse_event(line) == ev, line
        assert dgn.format_event(ev) == line, line


def test_round_trip_of_every_event_kind():
    tags = [("Rules", ["mexican-train"]), ("Players", ["A", "B", "C", "D"])]
    evs = [ev for line, ev in EVERY_KIND]
    text = dgn.write(tags, evs)
    want = '[Rules "mexican-train"]\n[Players "A" "B" "C" "D"]\n'
    for line, ev in EVERY_KIND:
        want += line + "\n"
    assert text == want
    rec = dgn.read(text)
    assert [ev for no, ev in rec.events] == evs
    assert rec.tags == tags
    assert dgn.write(rec.tags, [ev for no, ev in rec.events]) == text


def test_written_spacing_is_canonical():
    # Extra spaces and comments are not kept: the events are.
    text = HEAD + "round  9-9   lead 1 ; x\n1   play   9-4\nscore 0 1 2 3+DB\n"
    rec = dgn.read(text)
    out = dgn.write(rec.tags, [ev for no, ev in rec.events])
    assert out == HEAD + "round 9-9 lead 1\n1 play 9-4\nscore 0 1 2 3+DB\n"
    assert events(out) == events(text)


def test_write_puts_tags_in_a_stable_order():
    tags = [("Venue", ["home"]), ("Event", ["club"]), ("Option", ["rounds", "9"]),
            ("Date", ["2026-12-02"]), ("Players", ["A", "B"]), ("Game", ["g1"]),
            ("Set", ["9"]), ("Rules", ["chickenfoot"]), ("Zed", ["z"]),
            ("Option", ["drawn_tile", "may"])]
    text = dgn.write(tags, [(ROUND, 9, 1, ())])
    names = [line.split(" ")[0][1:] for line in text.split("\n") if line.startswith("[")]
    assert names == ["Rules", "Players", "Set", "Option", "Option", "Game", "Date",
                     "Event", "Venue", "Zed"]
    assert '[Option "rounds" "9"]\n[Option "drawn_tile" "may"]' in text
    # the written record reads back to the same tags (in the written order)
    # and the same game
    rec = dgn.read(text)
    assert sorted(rec.tags) == sorted(tags)
    assert dgn.write(rec.tags, [ev for no, ev in rec.events]) == text
    assert replay(text).rules.drawn_must is False


def test_round_trip_of_the_format_example():
    text = HEAD + """round 9-9 lead 1
1 play 9-4
2 draw
2 pass
3 play 9-2
4 draw
4 play 9-7
1 play 9-3
2 play 4-4
3 play 4-1
4 play 4-6
1 play 4-0
"""
    rec = dgn.read(text)
    assert dgn.write(rec.tags, [ev for no, ev in rec.events]) == text
    assert "".join(dgn.lines(rec.tags, [ev for no, ev in rec.events])) == text


def test_round_trip_through_the_engine():
    # A game with undo, redeal, quick plays, known draws and a score:
    # written, read back and replayed, it reaches the same report.
    text = game("chickenfoot", 4, body="""
        round 9-9 lead 1
        1 play 9-4
        2 draw 9-5
        2 play 9-5
        3 play
        undo
        3 play 9-2
        4 play 9-7
        1 play double
        2 play
        3 play
        4 play
        1 draw
        1 pass
        score 50 60 70 80
        round 8-8 lead 2 hunt 1 2
        redeal
        round 8-8 lead 3
        end
    """)
    rec = dgn.read(text)
    again = dgn.write(rec.tags, [ev for no, ev in rec.events])
    assert again == text
    assert report(again) == report(text)


# -- syntax errors: the reader names the line -------------------------------------------

def test_syntax_errors():
    bad_line("1", "seat 1 does what?")
    bad_line("1 jump", "unknown action 'jump'")
    bad_line("1 play 94", "'94' is not a tile")
    bad_line("1 play 9-x", "is not a tile")
    bad_line("1 play 9-4 now", "unexpected 'now' after play")
    bad_line("1 play 9-4 @0", "no train @0")
    bad_line("1 play 9-4 @two", "a train must be a number")
    bad_line("1 draw 9-4 5-3", "unexpected '5-3' after draw")
    bad_line("1 draw four", "is not a tile")
    bad_line("1 pass 2", "unexpected '2' after pass")
    bad_line("round 9-8 lead 1", "a round starts with a double, not 9-8")
    bad_line("round 9-9 1", "write a round as: round 9-9 lead 2")
    bad_line("round 9-9 lead one", "the leading seat must be a number")
    bad_line("round 9-9 lead 1 hunt", "after the lead only: hunt SEAT")
    bad_line("round 9-9 lead 1 hunted 1", "after the lead only: hunt SEAT")
    bad_line("round 9-9 lead 1 hunt x", "a hunting seat must be a number")
    bad_line("score", "a score line lists the pips")
    bad_line("score 1 x 3 4", "a score must be a number, not 'x'")
    bad_line("score 1 -2 3 4", "a score must be a number")
    bad_line("score 1 2+db 3 4", "unknown mark +db (the marks: +DB +BE +DP +OT +UD +OD +OUT)")
    bad_line("hand 1", "write a hand as: hand SEAT")
    bad_line("hand one 9-4", "a seat must be a number")
    bad_line("hand 1 19-2", "19-2 is not a tile of any set")
    bad_line("blocked now", "unknown event")
    bad_line("undo 2", "unknown event")
    bad_line("frobnicate", "unknown event 'frobnicate'")


def test_the_first_bad_line_is_reported():
    # Line 4 is illegal for the engine, line 5 cannot be read: the reader
    # alone stops at line 5, the replay at line 4, the first bad line.
    text = HEAD + "round 9-9 lead 1\n3 play 9-4\n1 play nine\n"
    e = raises(dgn.RecordError, dgn.read, text)
    assert e.line == 5
    rejects(text, 4, "it is seat 1's turn")


# -- the replay report (FORMAT.md) -------------------------------------------------

STATE_KEYS = ("round", "to_move", "hands", "yard", "drawable", "trains_needed",
              "toes_needed", "open_ends", "trains", "markers", "open_double",
              "awaiting_score")


def test_report_keys():
    rep = report(HEAD + "round 9-9 lead 1\nscore 0 1 2 3\nround 8-8 lead 2\n")
    for k in ("rules", "players", "rounds", "totals", "over", "winners", "state"):
        assert k in rep, k
    assert rep["rules"] == "chickenfoot" and rep["players"] == ["Ann", "Bob", "Cy", "Di"]
    r0 = rep["rounds"][0]
    assert r0["double"] == 9 and r0["scores"] == [0, 1, 2, 3] and r0["out"] is None
    assert rep["totals"] == [0, 1, 2, 3] and rep["over"] is False and rep["winners"] == []
    for k in STATE_KEYS:
        assert k in rep["state"], k
    assert rep["state"]["round"] == 8 and rep["state"]["to_move"] == 2
    mx = report('[Rules "mexican-train"]\n[Players "A" "B"]\nround 12-12 lead 1\n2 play 12-5\n')
    for k in STATE_KEYS:
        assert k in mx["state"], k
    assert mx["state"]["trains"] == {"1": None, "2": 5, "mx": None}
    assert mx["state"]["markers"] == [] and mx["state"]["open_ends"] is None
    assert report(HEAD)["state"] is None
