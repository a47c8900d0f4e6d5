"""The board's fast line reader (shared_engine/dgn.py ``_fast_line``, native
code on MicroPython) against the general parser, line for line: the same
event (and its engine.pack), or the general parser's error where the fast
one declines; and a file's replay in chunks against the same record's
replay line by line.

On CPython there is no native emitter and the general parser reads every
line; on MicroPython (the unix port here, the RP2040 on the board) the fast
path must exist and agree."""

import os
import sys
from array import array

from shared_engine import dgn, engine, report
from shared_engine.simulate import Simulation, to_board, to_quick

from _digest import digest

MICROPYTHON = sys.implementation.name == "micropython"


def _outcome(fn, line):
    try:
        return fn(line)
    except ValueError as e:
        return "error: %s" % e


def _lines():
    """Every form format_event writes for plays, draws and passes (seats of
    one and two digits, pips of one and two, trains by seat and @mx), and
    each of them broken: cut short, with a blank more, a letter changed, a
    comment's leftovers, another line end."""
    tiles = [b"", b" 9-4", b" 0-0", b" 12-10", b" 3-12", b" 09-4", b" 123-4", b" 9-", b" -4",
             b" 9--4", b" 9-4x", b" double"]
    trains = [b"", b" @1", b" @9", b" @10", b" @12", b" @0", b" @mx", b" @MX", b" @", b" @1x",
              b" @05", b" @100"]
    k = 0
    for seat in (b"0", b"1", b"3", b"9", b"10", b"x"):
        for verb in (b"play", b"draw", b"pass", b"plays", b"pla"):
            for t in tiles:
                for tr in trains:
                    line = seat + b" " + verb + t + tr + b"\n"
                    yield line
                    k += 1
                    if k % 7 == 0:     # a generator, not a list: the board's heap is 160 KB
                        yield line[:-1]                        # no line end (a comment cut it)
                        yield line[:-1] + b" \n"               # a blank before the end
                        yield line.replace(b" ", b"  ", 1)     # two blanks
                        yield line[:-1] + b"\r\n"              # another line end
                        yield line[:len(line) // 2] + b"\n"    # cut short
    for line in (b"3 play 9-4\n", b"round 9-9 lead 1\n", b"undo\n", b"1\n", b"\n"):
        yield line


def test_the_fast_path_exists_where_there_is_native_code():
    assert (dgn._FAST is not None) == MICROPYTHON


def test_the_fast_path_reads_every_line_as_the_general_parser_does():
    seen = 0
    for line in _lines():
        fast = _outcome(dgn._parse, line)
        general = _outcome(dgn._parse_words, line)
        assert fast == general, (line, fast, general)
        if MICROPYTHON and dgn._fast_line(line, 0, len(line), dgn._FAST) > 0:
            assert dgn._FAST[6] == len(line), line
            assert dgn._FAST[5] == engine.pack(general), (line, general)
        seen += 1
    assert seen > 2000


def test_the_fast_path_takes_the_lines_a_board_writes():
    if not MICROPYTHON:
        return
    for ev in [(dgn.PLAY, 3, 9, 4, None), (dgn.PLAY, 8, 12, 10, 2), (dgn.PLAY, 1, -1, -1, 0),
               (dgn.PLAY, 2, -1, -1, None), (dgn.DRAW, 4, -1, -1), (dgn.DRAW, 4, 11, 3),
               (dgn.PASS, 9), (dgn.PLAY, 5, 6, 6, 11)]:
        line = (dgn.format_event(ev) + "\n").encode()
        assert dgn._fast_line(line, 0, len(line), dgn._FAST) == ev[0], line
        assert dgn._FAST[5] == engine.pack(ev) and dgn._FAST[6] == len(line), line
        assert dgn._parse(line) == ev
        assert dgn._fast_line(line, 0, len(line) - 1, dgn._FAST) == -1, line


# -- a file's replay in chunks ------------------------------------------------------
#
# dgn.replay_lines reads a file (anything with readinto) in chunks, the lines
# _fast_line takes applied with Game.step, the others read one by one the
# general way; lines from anything else go the general way only. Both must
# give the same game, warnings and line count, or the same error at the
# same line. On CPython _fast_line takes no line, so there the chunks and
# the lines that straddle them are what is tested; on MicroPython the fast
# lines too. Records go through files, a line at a time, as on the board
# (whose 160 KB heap runs these tests too).

# Files of this run only (several runs may share the folder).
_RUN = "".join("%02x" % b for b in os.urandom(4))
FULL = "_fast_full_%s.dgn" % _RUN   # a simulated game's record
PATH = "_fast_test_%s.dgn" % _RUN   # the record changed


class _Enough(Exception):
    pass


def _record(rules, n, seed, conv=None, limit=150):
    """The first ``limit`` events of a simulated game, written to FULL as
    ``conv`` (to_board, to_quick) turns them into what the board or quick
    tracking writes."""
    out = open(FULL, "w")
    sim = Simulation(rules, ["P%d" % (i + 1) for i in range(n)], seed, keep_events=False)
    sim.game.keep_rounds = 2
    for line in dgn.lines(sim.tags, ()):
        out.write(line)

    def write(sim, ev):
        for e in (conv((ev,)) if conv else (ev,)):
            out.write(dgn.format_event(e) + "\n")
        if sim.count >= limit:
            raise _Enough()
    sim.on_event = write
    try:
        sim.run()
    except _Enough:
        pass
    out.close()


def _changed(change):
    """FULL's lines through ``change(i, line)`` (a list of lines, each
    with its line end or not) to PATH; i counts FULL's lines from 0."""
    out = open(PATH, "wb")
    i = 0
    for line in open(FULL, "rb"):
        for x in change(i, line):
            out.write(x)
        i += 1
    out.close()


def _replayed(from_file):
    f = open(PATH, "rb")
    try:
        g = dgn.replay_lines(f if from_file else (line for line in f), 2)
    except dgn.RecordError as e:
        return ("error", e.line, str(e))
    finally:
        f.close()
    # digests of the report and the history: two of each, whole, strain the
    # unix port's 160 KB heap
    return (digest(report.report(g)), digest(list(g.history)), g.lines, g.warnings, g.tags)


def _same_both_ways(chunk=None):
    by_lines = _replayed(False)
    keep = dgn.Scanner.chunk
    if chunk:
        dgn.Scanner.chunk = chunk
    try:
        from_file = _replayed(True)
    finally:
        dgn.Scanner.chunk = keep
    assert from_file == by_lines, (chunk, from_file[:3], by_lines[:3])
    return from_file


_LAST = 140   # a line among the record's last (150 events, less a hand or two, and 3 tags)

CHANGES = (
    lambda i, line: [line],
    lambda i, line: [b";x\n", line] if i == 0 else [line],                 # chunks cut lines
    lambda i, line: [b";" + b"x" * 7 + b"\n", line] if i == 0 else [line],  # elsewhere
    lambda i, line: [b";" + b"x" * 30 + b"\n", line] if i == 0 else [line],
    lambda i, line: [b";" + b"long " * 70 + b"\n", line] if i == 0 else [line],   # > a chunk
    lambda i, line: [line[:-1] + b"\r\n"] if 0 <= i < 5 else [line],          # another line end
    lambda i, line: [b"\n  ; a comment\n", line] if i in (3, 9) else [line],
    lambda i, line: [b"3 play 9-\n", line] if i == 20 else [line],             # a bad line
    lambda i, line: [] if i == 20 else [line],                                  # an event refused
    lambda i, line: [b'[Event "late"]\n', line] if i == 20 else [line],     # a tag after events
    lambda i, line: [line, b"3 play 9"] if i == _LAST else [line],             # a torn last line
    lambda i, line: [line[:-1]] if i == _LAST else [line] if i < _LAST else [],  # no last line end
    lambda i, line: ([line, b"round 9-9 lead 1\n\xff\n"] if i == _LAST       # not UTF-8
                     else [line] if i < _LAST else []),
)


def test_a_file_replays_as_its_lines_do():
    seen = 0
    try:
        for rules, n, seed, conv in (("mexican-train", 8, 3, to_board),
                                     ("mexican-train", 4, 5, to_quick),
                                     ("chickenfoot", 4, 7, None),
                                     ("chicken-scratch", 3, 2, to_board)):
            _record(rules, n, seed, conv)
            for change in CHANGES:
                _changed(change)
                for chunk in (None, 16, 61):
                    _same_both_ways(chunk)
                seen += 1
        for text in (b"", b'[Rules "chickenfoot"]\n[Players "A" "B"]\n'):
            out = open(PATH, "wb")
            out.write(text)
            out.close()
            _same_both_ways()
    finally:
        for p in (FULL, PATH):
            try:
                os.remove(p)
            except OSError:
                pass
    assert seen == 4 * len(CHANGES)


def test_a_file_of_the_board_replays_its_plays_fast():
    # the history holds the packs _fast_line gave, as Game.apply's pack() would
    try:
        _record("mexican-train", 6, 11, to_board, 400)
        f = open(FULL, "rb")
        g = dgn.replay_lines(f)
        f.close()
        f = open(FULL, "rb")
        hist = iter(g.history)      # compared a line at a time: no list of the packs
        k = 0
        for line in f:
            if line[0] != 91:
                assert next(hist) == engine.pack(dgn.parse_event(line)), line
                k += 1
        f.close()
        assert next(hist, None) is None
        assert g.lines == k + 3
    finally:
        os.remove(FULL)


def test_the_fast_path_finds_lines_in_a_buffer():
    if not MICROPYTHON:
        return
    o = dgn._FAST
    buf = bytearray(b"[Rules \"x\"]\n3 play 12-10 @2\n4 draw\n5 pass\n6 play 9-")
    assert dgn._fast_line(buf, 0, len(buf), o) == 0 and o[6] == 12
    assert dgn._fast_line(buf, 12, len(buf), o) == dgn.PLAY and o[6] == 28
    assert list(o[:6]) == [dgn.PLAY, 3, 12, 10, 2, engine.pack((dgn.PLAY, 3, 12, 10, 2))]
    assert dgn._fast_line(buf, 28, len(buf), o) == dgn.DRAW and o[6] == 35
    assert o[5] == engine.pack((dgn.DRAW, 4, -1, -1))
    assert dgn._fast_line(buf, 35, len(buf), o) == dgn.PASS and o[6] == 42
    assert o[5] == engine.pack((dgn.PASS, 5))
    assert dgn._fast_line(buf, 42, len(buf), o) == -1          # not all there
    assert dgn._fast_line(buf, 12, 20, o) == -1                # the buffer's end comes first


# -- Game.step, the replay's way into the engine ----------------------------------


def _as_ints(ev):
    k = ev[0]
    t = ev[4] if k == dgn.PLAY else None
    a, b = (ev[2], ev[3]) if k != dgn.PASS else (0, 0)
    return array("i", (k, ev[1], a, b, -1 if t is None else t, engine.pack(ev)))


def _refusal(fn, *args):
    try:
        fn(*args)
    except engine.IllegalEvent as e:
        return e.args
    return None


def _others(ev, n):
    """Events near ``ev``, most of them refused: another seat, the tile
    turned round, other trains, a draw or a pass instead."""
    s = ev[1]
    other = s % n + 1
    out = [(dgn.PASS, s), (dgn.DRAW, s, -1, -1), (dgn.PASS, other), (dgn.DRAW, other, 3, 2)]
    if ev[0] == dgn.PLAY:
        a, b, t = ev[2], ev[3], ev[4]
        out += [(dgn.PLAY, other, a, b, t), (dgn.PLAY, s, b, a, t), (dgn.PLAY, s, a, b, 0),
                (dgn.PLAY, s, a, b, other), (dgn.PLAY, s, a, b, n + 1), (dgn.PLAY, s, 30, 1, t),
                (dgn.PLAY, s, -2, -2, t), (dgn.PLAY, s, -1, -1, t)]
    return out


def test_step_is_apply():
    # every play, draw and pass of simulated games through Game.step on one
    # game and Game.apply on another, and events near each of them: the
    # same refusal (the state unchanged) or the same acceptance (then undone)
    for rules, n, seed, conv in (("mexican-train", 5, 4, to_board),
                                 ("mexican-train", 3, 9, to_quick),
                                 ("chickenfoot", 3, 6, None)):
        sim = Simulation(rules, ["P%d" % (i + 1) for i in range(n)], seed, keep_events=False)
        by_apply = engine.Game(rules, sim.names, sim.options)
        by_step = engine.Game(rules, sim.names, sim.options)
        tried = [0, 0]

        def follow(sim, ev):
            for e in (conv((ev,)) if conv else (ev,)):
                if e[0] in (dgn.PLAY, dgn.DRAW, dgn.PASS):
                    if tried[0] % 5 == 0:
                        before = report.state(by_apply)
                        for x in _others(e, n):
                            got = _refusal(by_step.step, x[0], _as_ints(x))
                            assert got == _refusal(by_apply.apply, x), (x, got)
                            if got is None:
                                tried[1] += 1
                                by_step.apply((dgn.UNDO,))
                                by_apply.apply((dgn.UNDO,))
                            assert report.state(by_step) == before, x
                    tried[0] += 1
                    by_step.step(e[0], _as_ints(e))
                else:
                    by_step.apply(e)
                by_apply.apply(e)
            if sim.count >= 300:
                raise _Enough()
        sim.on_event = follow
        try:
            sim.run()
        except _Enough:
            pass
        assert report.report(by_step) == report.report(by_apply)
        assert len(by_step.history) == len(by_apply.history)
        for x, y in zip(by_step.history, by_apply.history):   # no list of them: the heap
            assert x == y
        assert tried[1], "no event near the game's was accepted"
