"""Checkpoints: the whole engine state as plain JSON data (lists in a fixed
order, no keys), so the board can restore a game in the same time at round
13 as at round 1.

Only the board and the tests use this module; the laptop replays records.

On battery every press is a cold boot. Replaying a whole record per press
grows with the game; restoring a checkpoint and replaying only the lines
after it does not. The checkpoint says how many bytes of the record it
covers and carries a CRC of the last bytes it covers and one of its own
text: a checkpoint that is missing, stale (the record was changed before
that point) or corrupt (a write cut short) is detected and rebuilt from a
full replay, never trusted blindly.

The undo history and the round marks travel in the checkpoint too, so an
``undo`` right after a restore works exactly as after a full replay.
"""

import json
import sys

try:
    from binascii import crc32
except ImportError:  # pragma: no cover - both interpreters have it
    from zlib import crc32

from shared_engine.engine import Game, Round, Log, SCORE

VERSION = 4   # 3: lists in a fixed order, no keys; 4: a result's bounds and original
_STREAMS_BYTES = sys.implementation.name == "micropython"
TAIL = 256  # bytes of the record, before the covered length, that the CRC covers

# The Round's state, in the order the checkpoint keeps it (its JSON has no
# keys: each string the board parses costs it a look-up among MicroPython's
# interned names, ~0.5 ms with the firmware loaded, and these names are
# interned once, with this module).
_ROUND = ("double", "lead", "hunt", "hands", "known", "exact", "any_known", "table",
          "yard", "to_move", "drew", "drawn", "passes", "ended", "out", "moves", "quick",
          "centre_left", "ends", "foot", "toes")
_ROUND_TRAINS = ("trains", "markers", "had_turn", "od_train", "od_pip")   # trains layout


def snapshot(game):
    """The game's whole state as JSON-able data: lists in a fixed order."""
    r = game.round
    rd = None
    if r is not None:
        names = _ROUND + _ROUND_TRAINS if hasattr(r, "trains") else _ROUND
        if len(r.__dict__) != len(names):
            raise ValueError("the round has state the checkpoint does not know: %s"
                             % sorted(k for k in r.__dict__ if k not in names))
        rd = [len(r.table)]
        for k in names:
            v = getattr(r, k)
            if k == "table":
                v = _ids(v)
            elif k == "known":
                v = [list(h) for h in v]
            elif isinstance(v, (list, tuple)):
                v = list(v)
            rd.append(v)
    return [
        game.rules.name, game.players, [[k, v] for k, v in _options(game).items()],
        game.totals, [_result(x) for x in game.results], game.used, game.over,
        game.stopped, game.redeals, game.keep_rounds, game.base,
        # In the Log's chunks: no long list to build on the board's heap.
        [[_item(x) for x in chunk] for chunk in game.history.chunks],
        [[at, _mark(m, game.results)] for at, m in game.marks],
        rd,
    ]


def _ids(table):
    """The ids of the tiles on the table, in a list allocated once at its
    size (a growing list needs a larger free block at each step)."""
    out = [0] * sum(table)
    i = 0
    for t in range(len(table)):
        if table[t]:
            out[i] = t
            i += 1
    return out


def restore(data):
    """A Game from ``snapshot`` data."""
    (rules, players, options, totals, results, used, over, stopped, redeals, keep_rounds,
     base, history, marks, rd) = data
    opts = {}
    for k, v in options:
        opts[k] = v
    g = Game(rules, players, opts)
    g.totals = list(totals)
    g.results = [_unresult(x) for x in results]
    g.used = list(used)
    g.over = over
    g.stopped = stopped
    g.redeals = redeals
    g.keep_rounds = keep_rounds
    g.base = base
    g.history = Log()
    for chunk in history:
        for x in chunk:
            g.history.append(_unitem(x))
    g.marks = [(at, _unmark(m, g.results)) for at, m in marks]
    if rd is not None:
        r = Round(None, 0, 0, ())
        names = _ROUND + _ROUND_TRAINS if len(rd) > len(_ROUND) + 1 else _ROUND
        if len(rd) != len(names) + 1:
            raise ValueError("the checkpoint's round is of another shape")
        for i in range(len(names)):
            setattr(r, names[i], rd[i + 1])
        table = bytearray(rd[0])
        for t in r.table:
            table[t] = 1
        r.table = table
        r.hunt = tuple(r.hunt)
        g.round = r
    return g


def _options(game):
    opts = {}
    for k, v in game.rules.options.items():
        if v is not None:
            opts[k] = v
    return opts


def _result(x):
    double, counted, out, pips, db, bounds, orig = x
    return [double, list(counted), out, list(pips), list(db),
            None if bounds is None else list(bounds),   # ints: no string to intern
            None if orig is None else [list(orig[0]), list(orig[1]), list(orig[2])]]


def _unresult(x):
    bounds = x[5]
    orig = x[6]
    return (x[0], tuple(x[1]), x[2], tuple(x[3]), tuple(x[4]),
            None if bounds is None else bytes(bounds),
            None if orig is None else (tuple(orig[0]), tuple(orig[1]), tuple(orig[2])))


def _mark(m, results):
    """A round mark as JSON: of its scored rounds, those that are the
    game's own (the same tuple: no fix since) are written as 0, so each
    round is in the checkpoint once, not once per mark (a smaller file
    to read in one block, fewer lists to parse)."""
    rs = m[1]
    out = [0] * len(rs)
    for i in range(len(rs)):
        x = rs[i]
        if not (i < len(results) and results[i] is x):
            out[i] = _result(x)
    return [m[0], out, m[2], m[3], m[4], m[5]]


def _unmark(m, done):
    """A round mark from ``_mark``: its rounds written as 0 share the
    game's tuples (``done``), as they did when the checkpoint was made."""
    rs = m[1]
    out = [None] * len(rs)
    for i in range(len(rs)):
        x = rs[i]
        out[i] = done[i] if x == 0 else _unresult(x)
    return (list(m[0]), out, list(m[2]), m[3], m[4], m[5])


def _item(x):
    """A history item (packed int, packed bytes, or a score tuple) as JSON:
    an int, a list of ints (bytes) or a pair of lists (a score). No
    strings: each string the board parses costs it a look-up in
    MicroPython's table of interned names."""
    if isinstance(x, int):
        return x
    if isinstance(x, bytes):
        return list(x)
    return [list(x[1]), list(x[2])]


def _unitem(x):
    if isinstance(x, int):
        return x
    if len(x) == 2 and isinstance(x[0], list):
        return (SCORE, tuple(x[0]), tuple(x[1]))
    return bytes(x)


# -- the checkpoint file --------------------------------------------------------
#
# "CRC32 in 8 hex digits\n" then the JSON body, written to the stream piece by
# piece (json.dump) and read back with json.load: the body can be several
# kilobytes, more than a fragmented board heap may hold as one string.

def tail_crc(f, length):
    """CRC of the last TAIL bytes before ``length`` in the open record ``f``."""
    start = length - TAIL if length > TAIL else 0
    f.seek(start)
    return crc32(f.read(length - start))


# A CRC pass reads the file into one buffer: a write allocates it before the
# snapshot, when the app has just collected the heap, because after the dump
# a fragmented board heap may hold no free block even that large (a checkpoint
# failed so, at 513 bytes, on a long Mexican Train game on USB).
CHUNK = 256


def _crc_from(f, at, buf=None):
    """CRC and size of an open file's bytes from ``at`` to its end, read
    into ``buf`` (a bytearray; a fresh one of CHUNK bytes by default)."""
    if buf is None:
        buf = bytearray(CHUNK)
    view = memoryview(buf)
    f.seek(at)
    crc = 0
    size = 0
    while True:
        n = f.readinto(buf)
        if not n:
            return crc, size
        crc = crc32(view[:n], crc)
        size += n


def write(game, f, length, lines, out):
    """Write the checkpoint of ``game`` to ``out`` (a file opened "w+b",
    then renamed into place by the caller): the game is the replay of the
    first ``length`` bytes (``lines`` lines) of the record open as ``f``."""
    buf = bytearray(CHUNK)
    out.write(b"00000000\n")
    data = [VERSION, length, lines, tail_crc(f, length), snapshot(game)]
    if _STREAMS_BYTES:
        json.dump(data, out)  # MicroPython: straight into the file, piece by piece
    else:
        out.write(json.dumps(data).encode())  # CPython's json.dump writes str
    data = None
    crc, _ = _crc_from(out, 9, buf)
    out.seek(0)
    out.write(b"%08x" % crc)


def read(cp):
    """The checkpoint's data from an open checkpoint file ("rb"); ValueError
    when it is corrupt or of another version. The file is read in one call
    and parsed from memory (a few KB: a cold boot has them); a CRC pass and
    a parse from the file a byte at a time cost the board far more, and are
    the way only when the heap has no block that large."""
    try:
        raw = cp.read()
    except MemoryError:
        raw = None
    if raw is None:
        data = _read_streamed(cp)
    else:
        if len(raw) < 10 or raw[8] != 10:
            raise ValueError("the checkpoint is cut short")
        body = memoryview(raw)[9:]
        if crc32(body) != _want(raw):
            raise ValueError("the checkpoint's checksum does not match")
        data = json.loads(body if _STREAMS_BYTES else bytes(body))
        raw = body = None
    if not isinstance(data, list) or len(data) != 5 or data[0] != VERSION:
        raise ValueError("the checkpoint is of another version")
    return {"length": data[1], "lines": data[2], "tail": data[3], "state": data[4]}


def _want(head):
    """The CRC the checkpoint's first line states."""
    try:
        return int(head[:8], 16)
    except ValueError:
        raise ValueError("the checkpoint has no checksum")


def _read_streamed(cp):
    cp.seek(0)
    head = cp.read(9)
    if len(head) != 9 or head[8] != 10:
        raise ValueError("the checkpoint is cut short")
    want = _want(head)
    crc, size = _crc_from(cp, 9)
    if crc != want or not size:
        raise ValueError("the checkpoint's checksum does not match")
    cp.seek(9)
    return json.load(cp)


def resume(f, cp=None, keep_rounds=2):
    """Restore the game recorded in ``f`` (a record opened "rb"): from the
    checkpoint ``cp`` (an open file, or None) and the lines after it when
    the checkpoint is sound and matches the record, else by a full replay.

    Returns (game, why): ``why`` is None when the checkpoint served, else
    the reason it did not (the caller then writes a fresh one). ``game.lines``
    is the number of lines read, ``game.tail`` the events replayed after
    the checkpoint (None after a full replay).
    """
    from shared_engine import dgn

    why = "no checkpoint"
    if cp is not None:
        try:
            data = read(cp)
            length = data["length"]
            f.seek(0, 2)
            if f.tell() < length:
                raise ValueError("the record is shorter than the checkpoint")
            if tail_crc(f, length) != data["tail"]:
                raise ValueError("the record differs from the checkpoint")
            lines = data["lines"]
            game = restore(data["state"])
        except (ValueError, KeyError, TypeError, IndexError) as e:
            why = str(e) or "the checkpoint is unreadable"
        else:
            data = None  # the heap back before the tail is replayed
            f.seek(length)
            sc = dgn.Scanner()
            sc.no = lines
            tail = 0
            for ev in sc.events(f):
                try:
                    game.apply(ev)
                except ValueError as e:
                    raise dgn.RecordError(sc.no, str(e))
                tail += 1
            game.warnings = sc.warnings
            game.lines = sc.no
            game.tail = tail
            return game, None
    f.seek(0)
    game = dgn.replay_lines(f, keep_rounds)
    game.tail = None
    return game, why
