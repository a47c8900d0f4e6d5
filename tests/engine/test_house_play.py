"""The house rules that change the play (RULES.md, "Each rule exactly";
issue 31): drawn_tile until, voluntary_pass, no_draw_end, double_cover
own, first_turn_run, call_last_tile and skip_missing_doubles, each against
the same record without it. The number in a body line's trailing comment
is its line."""

from shared_engine import facts, variants
from shared_engine.engine import CAUGHT

from _check import game, rejects, report, replay, state

CF = "chickenfoot"
MX = "mexican-train"
CROSS = "chickenfoot-cross"


# -- drawn_tile until, voluntary_pass ---------------------------------------------

def test_drawn_tile_until_draws_on_while_the_tile_does_not_fit():
    # chickenfoot, 2 players: seat 1 plays on the centre, seat 2 draws
    body = """
        round 9-9 lead 1     ; 4
        1 play 9-4           ; 5
        2 draw               ; 6
        2 draw               ; 7
    """
    rejects(game(CF, 2, {}, body), 6, "seat 2 has already drawn this turn")
    st = state(game(CF, 2, {"drawn_tile": "until"}, body))
    assert st["hands"][1] == 23 and st["to_move"] == 2 and st["drew"]
    # a pass while tiles may be drawn is refused: they draw on
    rejects(game(CF, 2, {"drawn_tile": "until"}, body + "2 pass   ; 8"), 8,
            "seat 2 cannot pass: they draw until a tile fits")
    # a drawn tile known to fit stops the drawing: it must be played
    known = """
        round 9-9 lead 1     ; 4
        1 play 9-4           ; 5
        2 draw 6-3           ; 6
        2 draw 9-1           ; 7  fits the centre
        2 draw               ; 8
    """
    rejects(game(CF, 2, {"drawn_tile": "until"}, known), 8,
            "seat 2 cannot draw: the drawn tile 9-1 fits and must be played")
    assert state(game(CF, 2, {"drawn_tile": "until"}, known.replace("2 draw   ", "2 play 9-1")
                      .replace("2 draw               ; 8", "2 play 9-1")))["to_move"] == 1


def test_voluntary_pass_lets_a_player_who_could_play_draw_and_pass():
    # seat 2's hand is known and holds a 9: without the rule it must play
    body = """
        round 9-9 lead 1     ; 5
        hand 2 9-2 %s        ; 6
        1 play 9-4           ; 7
        2 draw               ; 8
    """ % " ".join(["3-1", "3-2", "4-1", "4-2", "4-3", "5-1", "5-2", "5-3", "5-4", "6-1",
                    "6-2", "6-3", "6-4", "6-5", "7-1", "7-2", "7-3", "7-4", "7-5", "7-6"])
    rejects(game(CF, 2, {"hand_size": "21"}, body), 7, "seat 2 cannot draw: they can play 9-2")
    opts = {"hand_size": "21", "voluntary_pass": "yes"}
    st = state(game(CF, 2, opts, body + "2 pass"))
    assert st["to_move"] == 1 and st["hands"][1] == 22
    # and a drawn tile that fits may be passed by
    fits = "round 9-9 lead 1\n1 play 9-4\n2 draw 9-8\n2 pass   ; 6\n"
    rejects(game(CF, 2, {}, fits), 6, "the drawn tile 9-8 fits and must be played")
    assert state(game(CF, 2, {"voluntary_pass": "yes"}, fits))["to_move"] == 1


# -- no_draw_end -----------------------------------------------------------------------

# chickenfoot, 2 players, double-6, 13 tiles each: one tile in the yard,
# two stay there: nothing may be drawn from the start.
CLOSED = {"set": "6", "hand_size": "13"}


def test_no_draw_end_ends_the_round_at_the_first_pass_with_nothing_to_draw():
    st = state(game(CF, 2, CLOSED, "round 6-6 lead 1\n1 pass\n"))
    assert st["to_move"] == 2 and not st["awaiting_score"]
    opts = dict(CLOSED, no_draw_end="yes")
    st = state(game(CF, 2, opts, "round 6-6 lead 1\n1 pass\n"))
    assert st["awaiting_score"] and st["blocked"] and st["to_move"] is None
    rejects(game(CF, 2, opts, "round 6-6 lead 1  ; 6\n1 pass  ; 7\n2 pass  ; 8\n"), 8,
            "the round is over")


# -- double_cover own (Mexican Train) ------------------------------------------------------

# two players, seat 1 places the station; seat 2 lays 5-5 on its own train
# and cannot cover it (after 4 tag lines: body from line 5)
LAID = """
round 12-12 lead 1   ; 5
2 play 12-5          ; 6
1 play 12-4          ; 7
2 play 5-5           ; 8
2 draw               ; 9
2 pass               ; 10
"""


def test_double_cover_own_binds_only_the_seat_that_laid_the_double():
    opts = {"rounds": "12"}
    rejects(game(MX, 2, opts, LAID + "1 play 4-3   ; 10"), 10,
            "the double 5-5 on seat 2's train must be satisfied first")
    own = {"rounds": "12", "double_cover": "own"}
    st = state(game(MX, 2, own, LAID + "1 play 4-3"))
    assert st["to_move"] == 2 and st["open_double"] is None and st["markers"] == [2]
    # the double stays open to anyone who may play on that train (marked)
    st = state(game(MX, 2, own, LAID + "1 play 5-3 @2"))
    assert st["trains"]["2"] == 3
    # left uncovered, it is seat 2's double left unsatisfied
    g = replay(game(MX, 2, own, LAID + "1 play 4-3"))
    assert facts.known(g)[facts.UNSATISFIED] == (0, 1)
    g = replay(game(MX, 2, own, LAID + "1 play 5-3 @2"))
    assert facts.known(g)[facts.UNSATISFIED] == (0, 0)


# -- first_turn_run (Mexican Train) -------------------------------------------------------

RUN = {"rounds": "12", "first_turn_run": "yes"}


def test_first_turn_run_keeps_the_turn_until_a_pass():
    body = """
        round 12-12 lead 1   ; 5
        2 play 12-5          ; 6
        2 play 5-3           ; 7
    """
    rejects(game(MX, 2, {"rounds": "12"}, body), 6, "seat 2 cannot play: it is seat 1's turn")
    st = state(game(MX, 2, RUN, body))
    assert st["to_move"] == 2 and st["run"] == 2 and st["trains"]["2"] == 3
    # only their own train, no draw, and a pass ends the run with no marker
    rejects(game(MX, 2, RUN, body + "2 play 3-1 @mx   ; 8"), 8,
            "on a first turn only their own train may be played")
    rejects(game(MX, 2, RUN, body + "2 draw   ; 8"), 8,
            "seat 2 has played this turn: a pass ends their first-turn run")
    st = state(game(MX, 2, RUN, body + "2 pass\n"))
    assert st["to_move"] == 1 and st["run"] is None and st["markers"] == [] and st["yard"] == 67
    # the next turn is one tile again
    rejects(game(MX, 2, RUN, body + "2 pass\n1 play 12-4\n1 pass\n2 play 3-1\n2 play 1-0   ; 12"),
            12, "it is seat 1's turn")


def test_a_double_in_a_run_is_covered_before_the_run_goes_on():
    body = """
        round 12-12 lead 1   ; 5
        2 play 12-5          ; 6
        2 play 5-5           ; 7
    """
    st = state(game(MX, 2, RUN, body))
    assert st["run"] is None and st["open_double"] == 5 and st["to_move"] == 2
    st = state(game(MX, 2, RUN, body + "2 play 5-2\n"))
    assert st["run"] == 2 and st["open_double"] is None
    # quick tracking keeps the run too: seat 2 runs, then seat 1
    quick = "round 12-12 lead 1\n2 play\n2 play\n2 pass\n1 play\n"
    st = state(game(MX, 2, RUN, quick))
    assert st["to_move"] == 1 and st["run"] == 1


# -- call_last_tile ------------------------------------------------------------------------

CALL = {"hand_size": "2", "call_last_tile": "1"}


def test_a_player_caught_not_calling_their_last_tile_draws():
    body = """
        round 9-9 lead 1     ; 5
        1 play 9-4           ; 6  seat 1 holds one tile
        2 play 9-2           ; 7
        1 caught             ; 8
    """
    rejects(game(CF, 4, {"hand_size": "2"}, body), 7,
            "this game has no penalty for a last tile not called (call_last_tile is 0)")
    st = state(game(CF, 4, CALL, body))
    assert st["hands"] == [2, 1, 2, 2] and st["to_move"] == 3
    rejects(game(CF, 4, CALL, body.replace("1 caught", "3 caught")), 8,
            "seat 3 holds 2 tiles: only a last tile is called")
    rejects(game(CF, 4, CALL, body + "1 caught   ; 9"), 9, "seat 1 holds 2 tiles")
    # Mexican Train's two, the tiles named where known
    rep = report(game(CF, 4, dict(CALL, call_last_tile="2"),
                      body.replace("1 caught", "1 caught 5-3 6-1") + "score 20 8 9 10\n"))
    st = rep["rounds"][0]
    assert st["facts"]["missed_calls"] == [1, 0, 0, 0]
    from shared_engine import dgn
    assert dgn.parse_event("1 caught 5-3 6-1")[0] == CAUGHT
    assert dgn.format_event((CAUGHT, 3, ())) == "3 caught"


def test_a_catch_draws_only_what_the_yard_still_has():
    # chicken-scratch, two players of 5: seat 2 draws all but one of the
    # 18 tiles (drawn_tile until), then seat 1 plays down to one tile
    opts = {"call_last_tile": "2", "drawn_tile": "until"}
    body = "round 6-6 lead 1\n" + "2 draw\n" * 17 + "2 play\n1 play\n2 play\n1 play\n2 play\n1 play\n"
    st = state(game("chicken-scratch", 2, opts, body + "1 caught\n"))
    assert st["hands"][0] == 2 and st["yard"] == 0
    # with nothing left to draw the catch is written and costs nothing
    st = state(game("chicken-scratch", 2, opts, body.replace("2 draw\n" * 17, "2 draw\n" * 18)
                    + "1 caught\n"))
    assert st["hands"][0] == 1 and st["yard"] == 0


# -- skip_missing_doubles -------------------------------------------------------------------

SKIP = {"skip_missing_doubles": "yes", "rounds": "9 8 7 6"}


def test_a_round_opens_on_the_first_double_somebody_holds():
    body = """
        round 9-9 lead 1     ; 5
        score 0 10 20        ; 6
        round 7-7 lead 2     ; 7  nobody held 8-8
    """
    rejects(game(CROSS, 3, {"rounds": "9 8 7 6"}, body), 6, "this round starts with 8-8, not 7-7")
    g = replay(game(CROSS, 3, SKIP, body))
    assert variants.doubles_left(g) == [8, 7, 6] and g.next_double() == 8
    # the skipped double comes first again
    rep = report(game(CROSS, 3, SKIP, body + """
        score 5 0 10
        round 8-8 lead 3
        score 1 2 0
        round 6-6 lead 1 hunt 2 3 1
        score 0 4 4
    """))
    assert [r["double"] for r in rep["rounds"]] == [9, 7, 8, 6] and rep["over"]
    assert [r["facts"]["skipped"] for r in rep["rounds"]] == [[], [8], [], []]
    # a hunt is for the first double still to open a round
    rejects(game(CROSS, 3, SKIP, body + "score 5 0 10\nround 6-6 lead 1 hunt 3 1   ; 9"), 9,
            "a hunt is for 8-8")
    rejects(game(CROSS, 3, SKIP, body + "score 5 0 10\nround 9-9 lead 1   ; 9"), 9,
            "9-9 does not open a round now: 8-8, 6-6 still do")


def test_a_known_hand_holding_a_skipped_double_is_refused():
    hand = "7-7 8-8 1-0 2-0 3-0 4-0 5-0"
    rejects(game(CROSS, 3, SKIP, """
        round 9-9 lead 1     ; 5
        score 0 10 20        ; 6
        round 7-7 lead 2     ; 7
        hand 2 %s            ; 8
    """ % hand), 8, "seat 2 holds 8-8: the round starts with the first double still to open a round")


def test_skip_is_not_a_rule_of_chickenfoot_or_scratch():
    rejects(game(CF, 3, {"skip_missing_doubles": "yes"}, "round 9-9 lead 1"), 3,
            "skip_missing_doubles is a rule of chickenfoot-cross and mexican-train only")


# -- what score entry asks --------------------------------------------------------------------

def test_score_entry_asks_only_what_the_engine_does_not_know():
    opts = {"blank_end": "5", "doubles_count_double": "yes", "open_train": "10",
            "unsatisfied_double": "10", "double_out": "50", "rounds": "12"}
    full = game(MX, 2, opts, "round 12-12 lead 1\n2 play 12-5\n1 play 12-4\n")
    want = facts.ASK_PIPS | facts.ASK_DB | facts.ASK_BLANK_ENDS | facts.ASK_DOUBLES_PIPS
    assert facts.ask(replay(full)) == (want, want)
    quick = game(MX, 2, opts, "round 12-12 lead 1\n2 play\n1 play\n")
    assert facts.ask(replay(quick)) == (want, want)
    paper = facts.ask(replay(game(MX, 2, opts, "round 12-12 lead 1\n")))
    told = facts.ASK_OPEN_TRAIN | facts.ASK_UNSATISFIED | facts.ASK_WENT_OUT | facts.ASK_OUT_ON_DOUBLE
    assert paper == (want | told, want | told)
    # 0-0 on the table: not asked
    g = replay(game(CF, 2, {}, "round 9-9 lead 1\n1 play 9-0\n2 play 9-8\n1 play 0-0\n"))
    assert facts.ask(g) == (facts.ASK_PIPS, facts.ASK_PIPS)
