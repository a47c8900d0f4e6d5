"""Checkpoints: the whole engine state as plain JSON data, so the board can
restore a game in the same time at round 13 as at round 1.

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

VERSION = 2   # 2: history items without keys
_STREAMS_BYTES = sys.implementation.name == "micropython"
TAIL = 256  # bytes of the record, before the covered length, that the CRC covers

_ROUND_LISTS = ("hands", "exact", "trains", "markers", "had_turn", "ends")


def snapshot(game):
    """The game's whole state as JSON-able data."""
    r = game.round
    rd = None
    if r is not None:
        rd = {}
        for k in r.__dict__:
            v = r.__dict__[k]
            if k == "table":
                v = [t for t in range(len(v)) if v[t]]
            elif k == "known":
                v = [list(h) for h in v]
            elif isinstance(v, (list, tuple)):
                v = list(v)
            rd[k] = v
        rd["ntiles"] = len(r.table)
    return {
        "rules": game.rules.name,
        "players": game.players,
        "options": _options(game),
        "totals": game.totals,
        "results": [_result(x) for x in game.results],
        "used": game.used,
        "over": game.over,
        "stopped": game.stopped,
        "redeals": game.redeals,
        "keep_rounds": game.keep_rounds,
        "base": game.base,
        # In the Log's chunks: no long list to build on the board's heap.
        "history": [[_item(x) for x in chunk] for chunk in game.history.chunks],
        "marks": [[at, _mark(m)] for at, m in game.marks],
        "round": rd,
    }


def restore(data):
    """A Game from ``snapshot`` data."""
    g = Game(data["rules"], data["players"], data["options"])
    g.totals = list(data["totals"])
    g.results = [_unresult(x) for x in data["results"]]
    g.used = list(data["used"])
    g.over = data["over"]
    g.stopped = data["stopped"]
    g.redeals = data["redeals"]
    g.keep_rounds = data["keep_rounds"]
    g.base = data["base"]
    g.history = Log()
    for chunk in data["history"]:
        for x in chunk:
            g.history.append(_unitem(x))
    g.marks = [(at, _unmark(m)) for at, m in data["marks"]]
    rd = data["round"]
    if rd is not None:
        r = Round(None, 0, 0, ())
        for k in rd:
            if k != "ntiles":
                setattr(r, k, rd[k])
        table = bytearray(rd["ntiles"])
        for t in rd["table"]:
            table[t] = 1
        r.table = table
        r.hunt = tuple(rd["hunt"])
        g.round = r
    return g


def _options(game):
    opts = {}
    for k, v in game.rules.options.items():
        if v is not None:
            opts[k] = v
    return opts


def _result(x):
    double, counted, out, pips, db = x
    return [double, list(counted), out, list(pips), list(db)]


def _unresult(x):
    return (x[0], tuple(x[1]), x[2], tuple(x[3]), tuple(x[4]))


def _mark(m):
    return [m[0], [_result(x) for x in m[1]], m[2], m[3], m[4], m[5]]


def _unmark(m):
    return (list(m[0]), [_unresult(x) for x in m[1]], list(m[2]), m[3], m[4], m[5])


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


def _crc_from(f, at):
    """CRC of an open file's bytes from ``at`` to its end, read in chunks."""
    f.seek(at)
    crc = 0
    size = 0
    while True:
        b = f.read(512)
        if not b:
            return crc, size
        crc = crc32(b, crc)
        size += len(b)


def write(game, f, length, lines, out):
    """Write the checkpoint of ``game`` to ``out`` (a file opened "w+b",
    then renamed into place by the caller): the game is the replay of the
    first ``length`` bytes (``lines`` lines) of the record open as ``f``."""
    out.write(b"00000000\n")
    data = {"v": VERSION, "length": length, "lines": lines,
            "tail": tail_crc(f, length), "state": snapshot(game)}
    if _STREAMS_BYTES:
        json.dump(data, out)  # MicroPython: straight into the file, piece by piece
    else:
        out.write(json.dumps(data).encode())  # CPython's json.dump writes str
    crc, _ = _crc_from(out, 9)
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
    if not isinstance(data, dict) or data.get("v") != VERSION:
        raise ValueError("the checkpoint is of another version")
    return data


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
