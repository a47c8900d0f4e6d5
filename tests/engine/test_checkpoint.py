"""Checkpoints: restore from a checkpoint plus the record's tail gives the
same state as a full replay, for every preset's simulated games, at every
round boundary and in between; a stale or corrupt checkpoint is detected and
the game rebuilt by a full replay. Runs on CPython and MicroPython: records
and checkpoints go through files, line by line, as on the board."""

import json
import gc
import os

from shared_engine import checkpoint, dgn, report
from shared_engine.engine import ROUND, UNDO
from shared_engine.simulate import Simulation

# Files of this run only (several runs may share the folder).
_RUN = "".join("%02x" % b for b in os.urandom(4))
FULL = "_cp_full_%s.dgn" % _RUN   # the whole simulated game
PATH = "_cp_test_%s.dgn" % _RUN   # its first events: the board's record
CP = "_cp_test_%s.cp" % _RUN

GAMES = (
    ("chickenfoot", 3, 5),
    ("chickenfoot-cross", 4, 6),
    ("chicken-scratch", 3, 7),
    ("mexican-train", 4, 8),
)


def _simulate(rules, n, seed):
    """Play a game, its record written to FULL as it goes (no event list is
    kept: the heap is the board's). Returns the indices of its round lines
    and the number of events."""
    out = open(FULL, "w")
    rounds = []
    count = [0]

    def on_event(sim, ev):
        if ev[0] == ROUND:
            rounds.append(count[0])
        out.write(dgn.format_event(ev) + "\n")
        count[0] += 1

    sim = Simulation(rules, ["A", "B", "C", "D"][:n], seed, ["greedy"] * n,
                     on_event=on_event, keep_events=False)
    # The board's two rounds of undo: the whole game's history (a long
    # Mexican Train's 1,400 events) would take the 160K heap's margin.
    sim.game.keep_rounds = 2
    for line in dgn.lines(sim.tags, ()):
        out.write(line)
    sim.run()
    out.close()
    return rounds, count[0]


def _write(upto):
    """PATH: FULL's tags and first ``upto`` events. Returns (bytes, lines)."""
    out = open(PATH, "w")
    n = 0
    lines = 0
    for line in open(FULL):
        if line[0] != "[":
            if n == upto:
                break
            n += 1
        out.write(line)
        lines += 1
    out.close()
    return os.stat(PATH)[6], lines


def _checkpoint_at(upto):
    """Write the checkpoint of the game after ``upto`` events to CP."""
    size, lines = _write(upto)
    f = open(PATH, "rb")
    game = dgn.replay_lines(f, keep_rounds=2)
    out = open(CP, "w+b")
    checkpoint.write(game, f, size, lines, out)
    out.close()
    f.close()


def _resume(use_checkpoint=True):
    f = open(PATH, "rb")
    cp = open(CP, "rb") if use_checkpoint else None
    try:
        return checkpoint.resume(f, cp)
    finally:
        f.close()
        if cp is not None:
            cp.close()


def _full():
    f = open(PATH, "rb")
    try:
        return dgn.replay_lines(f, keep_rounds=2)
    finally:
        f.close()


def _same(a, b):
    assert report.state(a) == report.state(b)
    assert a.totals == b.totals
    assert a.over == b.over
    assert a.winners() == b.winners()


def _cleanup():
    for p in (FULL, PATH, CP):
        try:
            os.remove(p)
        except OSError:
            pass


def test_restore_equals_full_replay_everywhere():
    got = full = None
    for rules, n, seed in GAMES:
        # Each game and each checkpoint start on a collected heap: at the
        # board's 160K, the pieces the last restore left (a board boots
        # afresh for each) are not the next one's to pay; the last
        # checkpoint's two games are let go first (they held the heap
        # the next simulation scattered itself around).
        got = full = None
        gc.collect()
        rounds, total = _simulate(rules, n, seed)
        # Every round boundary, and points in between.
        for at in rounds + list(range(3, total, 97)):
            got = full = None
            gc.collect()
            _checkpoint_at(at)
            _write(min(total, at + 17))  # the record grew after the checkpoint
            got, why = _resume()
            assert why is None, (rules, at, why)
            assert got.tail == min(total, at + 17) - at
            full = _full()
            _same(got, full)
            assert got.lines == full.lines
            # Undo behaves the same after a restore as after a full replay.
            for _ in range(3):
                e1 = e2 = None
                try:
                    got.apply((UNDO,))
                except ValueError as e:
                    e1 = str(e)
                try:
                    full.apply((UNDO,))
                except ValueError as e:
                    e2 = str(e)
                assert e1 == e2
                _same(got, full)
    _cleanup()


def test_a_checkpoint_of_the_whole_record_restores_without_the_reader():
    # The board writes a checkpoint a press, so its cold boot usually finds
    # nothing after it: the record's reader (dgn, the largest module) is
    # then not loaded (the stock image's late cold boot: docs/PERFORMANCE.md).
    import sys
    import shared_engine
    _simulate("mexican-train", 4, 3)
    _checkpoint_at(120)
    _write(120)
    kept = sys.modules.pop("shared_engine.dgn")
    delattr(shared_engine, "dgn")
    try:
        got, why = _resume()
        loaded = "shared_engine.dgn" in sys.modules
    finally:
        sys.modules["shared_engine.dgn"] = kept
        shared_engine.dgn = kept
    assert why is None and not loaded
    assert got.tail == 0 and got.warnings == []
    full = _full()
    _same(got, full)
    assert got.lines == full.lines
    # One line more, and the reader reads it.
    _write(121)
    got, why = _resume()
    assert why is None and got.tail == 1
    _same(got, _full())
    _cleanup()


def test_snapshot_restores_to_the_same_game():
    sim = Simulation("chicken-scratch", ["A", "B", "C"], 4, ["greedy"] * 3, keep_events=False)
    sim.game.keep_rounds = 2
    sim.run()
    g = sim.game
    head, pieces = checkpoint.snapshot(g)
    head = json.loads(json.dumps(head))         # the head is plain JSON
    blob = b"".join(pieces)
    for data in ([head, pieces], [head, memoryview(blob)]):
        again = checkpoint.restore(data)
        # The same history, whatever its chunks (compared item by item: a
        # long list would not fit the board's fragmented heap).
        assert len(again.history) == len(g.history)
        for x, y in zip(again.history, g.history):
            assert x == y
        assert checkpoint.snapshot(again) == [head, pieces]
        assert report.report(again) == report.report(g)


def test_corrupt_checkpoint_is_rebuilt():
    _simulate("chicken-scratch", 3, 9)
    _checkpoint_at(60)
    good = open(CP, "rb").read()
    _write(80)
    flipped = bytearray(good)
    flipped[3] = 48 if flipped[3] != 48 else 49  # one hex digit of the CRC
    for bad in (good[:-20], good[:9] + good[9:].replace(b"[", b"{", 1), b"", b"garbage\n",
                bytes(flipped)):
        out = open(CP, "wb")
        out.write(bad)
        out.close()
        got, why = _resume()
        assert why, bad
        assert got.tail is None
        _same(got, _full())
    got, why = _resume(use_checkpoint=False)
    assert why == "no checkpoint"
    _cleanup()


def test_stale_checkpoint_is_rebuilt():
    _simulate("chicken-scratch", 3, 9)
    _checkpoint_at(60)
    # The record was replaced by another game's (same tags, other deal)...
    _simulate("chicken-scratch", 3, 10)
    _write(90)
    got, why = _resume()
    assert why == "the record differs from the checkpoint"
    _same(got, _full())
    # ... or cut shorter than the checkpoint.
    _write(30)
    got, why = _resume()
    assert why == "the record is shorter than the checkpoint"
    assert got.tail is None
    _same(got, _full())
    _cleanup()


def test_a_round_keeps_the_house_rules_state_only_once_set_and_unknown_state_is_refused():
    # A stock round does not carry out_double and caught (the class's until
    # a house rule's play sets them: the board's heap); the checkpoint
    # writes them either way, and still refuses state it does not know.
    sim = Simulation("chicken-scratch", ["A", "B", "C"], 1, ["greedy"] * 3, keep_events=False)
    g = sim.game
    g.apply((ROUND, 6, 1, ()))
    r = g.round
    assert "caught" not in r.__dict__ and "out_double" not in r.__dict__
    head, pieces = checkpoint.snapshot(g)
    again = checkpoint.restore([head, pieces])
    assert again.round.caught is None and again.round.out_double is False
    r.caught = [0, 1, 0]
    head, pieces = checkpoint.snapshot(g)
    assert checkpoint.restore([head, pieces]).round.caught == [0, 1, 0]
    r.surprise = 1
    try:
        checkpoint.snapshot(g)
        raise AssertionError("unknown round state written")
    except ValueError:
        pass
