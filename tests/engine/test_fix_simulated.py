"""Corrections in whole simulated games, on CPython and MicroPython: after
every scored round a ``fix`` of a seat in some scored round (up to that
one), with a value the round's bounds allow, and one they do not (refused,
nothing changed); the last one after the game is over. Then the record,
corrections and all, replays to the same report, from its text, on a
board's two rounds of undo, and from a checkpoint; and undoing each fix
gives back the game without it."""

import gc
import os
import sys

from shared_engine import checkpoint, corrections, dgn, report
from shared_engine.engine import FIX, SCORE, UNDO, Game
from shared_engine.simulate import Simulation, to_quick
from shared_engine.tiles import IllegalEvent

from _digest import digest


class Lcg:
    """The test's own numbers, apart from the simulator's (its game stays
    the one its seed names)."""

    def __init__(self, seed):
        self.x = seed * 2654435761 % 4294967296 or 1

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) % 2147483648
        return (self.x >> 8) % n


def _span(res, s, d):
    if res[5] is None:
        return None
    return corrections.span(res[5], s, d)[1:]


def _totals(g):
    t = [0] * g.n
    for res in g.results:
        for s in range(g.n):
            t[s] += res[1][s]
    return t


class Fixer:
    """After each score line, corrects one seat of a scored round."""

    def __init__(self, seed):
        self.rng = Lcg(seed)
        self.fixes = 0
        self.refused = 0

    def __call__(self, sim, ev):
        if ev[0] != SCORE:
            return
        g = sim.game
        rng = self.rng
        i = rng.below(len(g.results))
        res = g.results[i]
        s = rng.below(g.n)
        if res[2] == s:
            p, d = 0, 0                      # the seat that went out keeps 0
        else:
            d = res[4][s]
            span = _span(res, s, d)
            if span is None or span[0] > span[1]:
                p = res[3][s]
            else:
                lo, hi = span
                p = (lo, hi, (lo + hi) // 2, res[3][s])[rng.below(4)]
                before = report.report(g)
                try:
                    g.apply((FIX, i + 1, s + 1, hi + 1, d))
                except IllegalEvent:
                    self.refused += 1
                else:
                    raise AssertionError("fix to %d applied: at most %d" % (hi + 1, hi))
                assert report.report(g) == before
        sim.emit((FIX, i + 1, s + 1, p, d))
        self.fixes += 1
        assert g.totals == _totals(g)
        res = g.results[i]
        assert res[3][s] == p and res[4][s] == d


def _path():
    return "_fixed_%s.dgn" % "".join("%02x" % b for b in os.urandom(4))


class Recorder(Fixer):
    """Writes each event to the record as it comes (as the board does: no
    event list on the heap), then corrects after each score."""

    def __init__(self, seed, out):
        Fixer.__init__(self, seed)
        self.out = out

    def __call__(self, sim, ev):
        self.out.write(dgn.format_event(ev) + "\n")
        Fixer.__call__(self, sim, ev)


def _events(path):
    f = open(path, "rb")
    try:
        for ev in dgn.Scanner().events(f):
            yield ev
    finally:
        f.close()


def _replays(want, path):
    """The record replays to the live game's report (``want``, its
    digest): on the board's two rounds of undo, and from a checkpoint of
    that (on CPython also with the laptop's whole history)."""
    f = open(path, "rb")
    board = dgn.replay_lines(f, 2)
    f.close()
    assert digest(report.report(board)) == want
    data = checkpoint.snapshot(board)
    board = None
    gc.collect()
    restored = checkpoint.restore(data)
    data = None
    assert digest(report.report(restored)) == want
    restored = None
    if sys.implementation.name != "micropython":
        f = open(path, "rb")
        assert digest(report.report(dgn.replay_lines(f))) == want
        f.close()


def _undo_each_fix(rules, names, options, want, path):
    # the reports compared as digests: three of them do not fit the heap
    """Undo the last event after each fix: the game is the one without it."""
    g = Game(rules, names, options)
    g.keep_rounds = 2
    for ev in _events(path):
        if ev[0] == FIX:
            before = digest(report.report(g))
            g.apply(ev)
            g.apply((UNDO,))
            assert digest(report.report(g)) == before
        g.apply(ev)
    assert digest(report.report(g)) == want


def run(rules, n, seed):
    gc.collect()
    path = _path()
    out = open(path, "w")
    try:
        fixer = Recorder(seed, out)
        sim = Simulation(rules, ["P%d" % (i + 1) for i in range(n)], seed,
                         ["greedy", "random"] * n, on_event=fixer, keep_events=False)
        sim.game.keep_rounds = 2    # the board's
        for line in dgn.lines(sim.tags, ()):
            out.write(line)
        sim.run()
        g = sim.game
        assert g.over
        # one more after the game is over: its winner may change
        s = 0 if g.results[0][2] != 0 else 1
        sim.emit((FIX, 1, s + 1, g.results[0][3][s], g.results[0][4][s]))
        out.close()
        assert fixer.fixes == len(g.results)
        assert g.winners()[0]
        want = digest(report.report(g))
        totals = list(g.totals)
        names = sim.names
        options = sim.options
        sim = g = None          # the board's heap: one game at a time
        gc.collect()
        _replays(want, path)
        gc.collect()
        _undo_each_fix(rules, names, options, want, path)
        want = None
        gc.collect()
        # quick tracking: the same corrections on the same scores
        quick = Game(rules, names, options)
        quick.keep_rounds = 2
        for ev in _events(path):
            for q in to_quick((ev,)):
                quick.apply(q)
        assert quick.totals == totals
    finally:
        out.close()
        os.remove(path)
    return fixer


def test_chickenfoot_fixed_every_round():
    f = run("chickenfoot", 3, 51)
    assert f.refused > 0


def test_cross_fixed_every_round():
    run("chickenfoot-cross", 4, 52)


def test_scratch_fixed_every_round():
    run("chicken-scratch", 3, 53)


def test_mexican_fixed_every_round():
    run("mexican-train", 4, 54)
