"""Corrections: ``fix ROUND SEAT PIPS`` sets one seat's pips in an earlier
scored round, checked as the score line was (ruling 5), counted by the
preset (0-0 worth 50, positive scoring), with totals, winners and the
report following it; ``undo`` retracts it; it needs only the round's
result, so it works rounds later, after a checkpoint, and on a board that
keeps two rounds of undo. The number in a body line's trailing comment is
its line."""

from _check import game, rejects, report, replay, events
from shared_engine import checkpoint, dgn
from shared_engine import report as _report
from shared_engine.engine import FIX, Game, pack, unpack

CF = "chickenfoot"
ONE = {"hand_size": "1"}

# chickenfoot, 4 players of 1 tile: seat 1 goes out at once (round 9-9), then
# seat 2 in round 8-8.
TWO = """
round 9-9 lead 1     ; 4
1 play 9-4           ; 5  out
score 0 3 5 7        ; 6
round 8-8 lead 2     ; 7
2 play 8-1           ; 8  out
score 4 0 2 6        ; 9
"""


def test_fix_reads_and_writes_back():
    for line, ev in (("fix 3 2 17", (FIX, 3, 2, 17, 0)), ("fix 1 4 0+DB", (FIX, 1, 4, 0, 1))):
        assert dgn.parse_event(line) == ev
        assert dgn.format_event(ev) == line
        assert unpack(pack(ev)) == ev
    for bad in ("fix 3 2", "fix 3 2 17 4", "fix x 2 17", "fix 3 2 -1"):
        try:
            dgn.parse_event(bad)
        except ValueError:
            continue
        raise AssertionError("%r was read" % bad)


def test_fix_sets_the_pips_and_the_totals_follow():
    rep = report(game(CF, 4, ONE, TWO + "fix 1 3 9"))
    assert rep["rounds"][0]["scores"] == [0, 3, 9, 7]
    assert rep["rounds"][0]["pips"] == [0, 3, 9, 7]
    assert rep["totals"] == [4, 3, 11, 13]
    assert rep["rounds"][0]["corrected"] == [3]
    assert rep["rounds"][0]["original"] == {"scores": [0, 3, 5, 7], "pips": [0, 3, 5, 7],
                                            "holds_double_blank": []}
    assert rep["rounds"][1]["corrected"] == [] and rep["rounds"][1]["original"] is None


def test_the_original_is_the_score_line_after_two_fixes():
    rep = report(game(CF, 4, ONE, TWO + "fix 1 3 9\nfix 1 4 8\nfix 1 3 10"))
    r = rep["rounds"][0]
    assert r["pips"] == [0, 3, 10, 8] and r["corrected"] == [3, 4]
    assert r["original"]["pips"] == [0, 3, 5, 7]
    # corrected back to the score line: no longer marked
    rep = report(game(CF, 4, ONE, TWO + "fix 1 3 9\nfix 1 3 5"))
    assert rep["rounds"][0]["corrected"] == [] and rep["rounds"][0]["original"] is None
    assert rep["totals"] == [4, 3, 7, 13]


def test_a_seat_that_went_out_keeps_0():
    rejects(game(CF, 4, ONE, TWO + "fix 1 1 2     ; 10"), 10,
            "seat 1 went out: their score must be 0, not 2")
    rejects(game(CF, 4, ONE, TWO + "fix 2 2 0+DB  ; 10"), 10,
            "seat 2 went out: they hold no tiles, so no 0-0")
    assert report(game(CF, 4, ONE, TWO + "fix 1 1 0"))["totals"] == [4, 3, 7, 13]


def test_a_value_the_engine_can_prove_wrong_is_refused():
    # Round 9-9: 9-9 and 9-4 are on the table, so one tile makes at most 17 pips.
    rejects(game(CF, 4, ONE, TWO + "fix 1 2 18  ; 10"), 10,
            "seat 2's hand of 1 tile makes at most 17, not 18")
    # Without the +DB mark the one tile is not 0-0: at least 1 pip.
    rejects(game(CF, 4, ONE, TWO + "fix 1 2 0   ; 10"), 10,
            "seat 2's hand of 1 tile makes at least 1, not 0")
    # Only one seat holds 0-0.
    rejects(game(CF, 4, ONE, TWO + "fix 1 2 0+DB\nfix 1 3 0+DB  ; 11"), 11,
            "seat 3 cannot hold 0-0: seat 2 does")
    rejects(game(CF, 4, ONE, TWO + "fix 3 2 4   ; 10"), 10, "there is no scored round 3")
    rejects(game(CF, 4, ONE, TWO + "fix 0 2 4   ; 10"), 10, "there is no scored round 0")
    rejects(game(CF, 4, ONE, TWO + "fix 1 5 4   ; 10"), 10, "there is no seat 5")


KNOWN = """
round 9-9 lead 1     ; 4
hand 1 9-4           ; 5
hand 2 5-3           ; 6
hand 3 6-1           ; 7
hand 4 0-0           ; 8
1 play 9-4           ; 9  out
score 0 8 7 0+DB     ; 10
round 8-8 lead 2     ; 11
"""


def test_known_hands_are_checked_rounds_later():
    rejects(game(CF, 4, ONE, KNOWN + "fix 1 2 9     ; 12"), 12, "seat 2's hand counts 8, not 9")
    rejects(game(CF, 4, ONE, KNOWN + "fix 1 4 0     ; 12"), 12, "seat 4 holds 0-0")
    rejects(game(CF, 4, ONE, KNOWN + "fix 1 3 7+DB  ; 12"), 12, "seat 3 cannot hold 0-0: seat 4 does")


def test_double_blank_bonus_follows_the_preset():
    opts = {"hand_size": "1", "double_blank_50": "yes"}
    rep = report(game(CF, 4, opts, TWO + "fix 1 4 0+DB"))
    assert rep["rounds"][0]["scores"] == [0, 3, 5, 50]
    assert rep["rounds"][0]["holds_double_blank"] == [4]
    assert rep["rounds"][0]["original"]["holds_double_blank"] == []
    assert rep["totals"] == [4, 3, 7, 56]
    rep = report(game(CF, 4, ONE, TWO + "fix 1 4 0+DB"))
    assert rep["rounds"][0]["scores"] == [0, 3, 5, 0]


def test_positive_scoring_shares_the_corrected_pot():
    # mexican-train, positive scoring: the seat that went out takes the others' pips.
    # (hands of 1: seat 3 leads and places the 6-6, seat 1 plays and is out)
    body = """
    round 6-6 lead 3
    1 play 6-3
    score 0 10 0
    """
    opts = {"set": "6", "hand_size": "1", "positive_scoring": "yes"}
    rep = report(game("mexican-train", 3, opts, body))
    assert rep["rounds"][0]["scores"] == [10, 0, 0]
    rep = report(game("mexican-train", 3, opts, body + "fix 1 2 11"))
    assert rep["rounds"][0]["scores"] == [11, 0, 0] and rep["totals"] == [11, 0, 0]
    assert rep["rounds"][0]["original"]["scores"] == [10, 0, 0]
    assert rep["rounds"][0]["corrected"] == [2]


def test_a_game_over_is_corrected_and_its_winner_changes():
    over = game(CF, 4, ONE, TWO + "end")
    rep = report(over)
    assert rep["over"] and rep["winners"] == [2]       # totals 4, 3, 7, 13
    rep = report(over + "fix 2 1 1\n")
    assert rep["over"] and rep["totals"] == [1, 3, 7, 13] and rep["winners"] == [1]
    # (a game over after its last round: test_fix_simulated.py)


def test_undo_retracts_a_fix():
    text = game(CF, 4, ONE, TWO + "fix 1 3 9\nundo")
    rep = report(text)
    assert rep["totals"] == [4, 3, 7, 13] and rep["rounds"][0]["corrected"] == []
    # the fix was the last event, so undo reaches it even on the board
    g = Game(CF, ["A", "B", "C", "D"], ONE)
    g.keep_rounds = 2
    for ev in events(game(CF, 4, ONE, TWO + "round 7-7 lead 3\nfix 1 3 9\nundo\nundo")):
        g.apply(ev)
    assert g.totals == [4, 3, 7, 13] and g.round is None
    # and an undo after the fix takes back the event before, the fix staying
    rep = report(game(CF, 4, ONE, TWO + "fix 1 3 9\nround 7-7 lead 3\nundo"))
    assert rep["totals"] == [4, 3, 11, 13] and rep["state"] is None


def test_fix_of_a_round_the_board_no_longer_keeps():
    body = TWO + "round 7-7 lead 3\n3 play 7-2\nscore 1 2 0 3\nround 6-6 lead 4\n"
    g = Game(CF, ["A", "B", "C", "D"], ONE)
    g.keep_rounds = 2
    for ev in events(game(CF, 4, ONE, body)):
        g.apply(ev)
    assert g.base > 0                   # round 9-9's events are gone
    g.apply((FIX, 1, 2, 17, 0))
    assert g.results[0][3] == (0, 17, 5, 7) and g.totals == [5, 19, 7, 16]
    rejects(game(CF, 4, ONE, body + "fix 1 2 18"), None, "makes at most 17, not 18")
    g.apply((FIX, 1, 2, 3, 0))
    assert g.totals == [5, 5, 7, 16]


def test_a_checkpoint_keeps_the_bounds_and_the_original():
    g = replay(game(CF, 4, ONE, TWO + "fix 1 3 9"))
    again = checkpoint.restore(checkpoint.snapshot(g))
    assert _report.report(again) == _report.report(g)
    for h in (g, again):
        for ev, why in (((FIX, 1, 2, 18, 0), "at most 17"), ((FIX, 1, 1, 1, 0), "went out")):
            try:
                h.apply(ev)
            except ValueError as e:
                assert why in str(e), str(e)
            else:
                raise AssertionError("%r applied" % (ev,))
    again.apply((FIX, 1, 3, 5, 0))
    assert again.results[0][6] is None and again.totals == [4, 3, 7, 13]
