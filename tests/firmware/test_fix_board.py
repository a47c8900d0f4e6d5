"""Fixing a past score on the board (issue 24): the presses a fix takes,
measured over a scripted set of fixes (the planner's fewest presses, the
firmware's own flows on CPython); a game corrected on the simulated board
(the real firmware, MicroPython unix port, 160 KB heap) replays on the
laptop to the same sheet; a fix undone on the board is undone in the record.
"""

import statistics

from fwkit import record_of, run_presses
from planner import plan_game
from shared_engine import dgn
from shared_engine import report as _report
from shared_engine.corrections import span
from shared_engine.engine import FIX, ROUND, SCORE, UNDO

DELTAS = (1, -2, 3, 5, -1, 10, -3, 2, -5, 4)


class Fixes:
    """The scripted set: after round k (k >= 2) is scored, a table finds a
    miscount in round k - 1, one seat a time in turn (never the one who
    went out), off by a few pips (DELTAS, kept within what the engine
    allows); with ``mid_round`` found once the next round is under way
    instead (from the menu's sheet). ``undo``: the first fix is undone and
    made again."""

    def __init__(self, mid_round=False, undo=False, every=1):
        self.mid_round = mid_round
        self.undo = undo
        self.every = every
        self.made = []
        self.scores = 0

    def __call__(self, game, ev):
        if ev[0] == SCORE:
            self.scores += 1
        when = ROUND if self.mid_round else SCORE
        if ev[0] != when or len(game.results) < 2 or game.over and self.mid_round:
            return ()
        if self.scores % self.every:
            return ()
        r = len(game.results) - 2
        res = game.results[r]
        n = len(self.made)
        for j in range(game.n):
            s = (n + j) % game.n
            lo, hi = 0, 1 << 20
            if res[5] is not None:
                k, lo, hi = span(res[5], s, res[4][s])
            if s != res[2] and lo < hi:
                break
        else:
            return ()
        old = res[3][s]
        new = max(lo, min(hi, old + DELTAS[n % len(DELTAS)]))
        if new == old:
            new = old + 1 if old < hi else old - 1
        fix = (FIX, r + 1, s + 1, new, res[4][s])
        self.made.append(fix)
        if self.undo and n == 0:
            return (fix, (UNDO,), fix)
        return (fix,)


def _presses_per_fix(planner):
    return [n for ev, n in planner.per_event if ev[0] == FIX]


def test_presses_per_fix(capsys):
    counts = []
    for rules, seed in (("chickenfoot", 3), ("mexican-train", 5), ("chicken-scratch", 7),
                        ("chickenfoot-cross", 9)):
        f = Fixes()
        _, evs, p = plan_game(rules, 4, seed, "quick", fixes=f)
        counts += _presses_per_fix(p)
    mid = []
    for rules, seed in (("chickenfoot", 3), ("mexican-train", 5)):
        _, evs, p = plan_game(rules, 4, seed, "quick", fixes=Fixes(mid_round=True))
        mid += _presses_per_fix(p)
    med = statistics.median(counts)
    with capsys.disabled():
        print("\npresses per fix from the round summary: median %s, min %d, max %d over %d fixes; "
              "mid-round from the menu's sheet: median %s over %d"
              % (med, min(counts), max(counts), len(counts), statistics.median(mid), len(mid)))
    assert len(counts) >= 30
    assert med <= 8


def _sheet(text):
    from pipkeeper.library.sheet import format_sheet
    return format_sheet(_report.report(dgn.replay(text)))


def test_a_game_corrected_on_the_board_replays_to_the_same_sheet(tmp_path, mpy_tree):
    from firmware.core import sheet_rows
    from pipkeeper.library.sheet import format_sheet
    f = Fixes(undo=True)
    presses, evs, p = plan_game("chickenfoot", 3, 4, "quick", options={"rounds": "9 8 7 6 5"},
                                fixes=f)
    assert len(f.made) >= 4 and p.ctx.game.over
    counts = []
    run_presses(tmp_path, presses, mpy_tree, every=lambda i, b, got: counts.append(len(got)))
    assert set(counts) == {1}           # one panel update a press
    text = record_of(tmp_path)
    assert [e for _, e in dgn.read(text).events] == evs
    lines = text.splitlines()
    assert "undo" in lines and sum(1 for x in lines if x.startswith("fix ")) == len(f.made) + 1
    # the laptop's sheet of the board's record is the sheet of the game planned
    want = p.ctx.game
    rep = _report.report(dgn.replay(text))
    assert format_sheet(rep) == format_sheet(_report.report(want))
    assert rep["totals"] == want.totals
    # and the board's own sheet: the same scores, the same corrected cells
    rows, fixed = sheet_rows(want)
    assert [list(r[1]) for r in rows] == [r["scores"] for r in rep["rounds"]]
    assert sorted(tuple(x) for x in fixed) == sorted(
        (i, s - 1) for i, r in enumerate(rep["rounds"]) for s in r["corrected"])
    assert fixed
