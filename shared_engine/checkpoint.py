"""Checkpoints: the whole engine state in a small file, so the board can
restore a game in the same time at round 13 as at round 1.

Only the board and the tests use this module; the laptop replays records.

On battery every press is a cold boot. Replaying a whole record per press
grows with the game; restoring a checkpoint and replaying only the lines
after it does not. The checkpoint says how many bytes of the record it
covers and carries a CRC of the last bytes it covers and one of its own
bytes: a checkpoint that is missing, stale (the record was changed before
that point) or corrupt (a write cut short) is detected and rebuilt from a
full replay, never trusted blindly.

The undo history and the round marks travel in the checkpoint too, so an
``undo`` right after a restore works exactly as after a full replay.

The file: a line with the CRC (8 hex digits) of all that follows it; a line
of JSON, the ``head``: lists in a fixed order, no keys, with what is small
or seldom there (the rules, the players and options, the flags, the round
marks' flags, the round's scalars); then the ``blob``: the bulk, packed with
struct (the totals, the doubles used, every scored round, the marks' totals,
the undo history, the round's tiles).
Why not all JSON (versions 1-5): the board's JSON reader costs about 3 us a
byte, whatever the bytes are, and the late game's 6 KB of JSON took 17 ms
to read and 11 more to turn into the engine's tuples; struct reads a
scored round in three calls. (Version 7 moved the marks' totals and
doubles out of the JSON: 300 bytes of it, 1 ms of the late game's boot.)
"""

import json
import sys
from struct import pack, unpack_from

try:
    from struct import error as _Unpacked     # CPython's struct.error is no ValueError
except ImportError:  # MicroPython raises ValueError
    _Unpacked = ValueError

try:
    from binascii import crc32
except ImportError:  # pragma: no cover - both interpreters have it
    from zlib import crc32

from shared_engine.engine import Game, Round, Log, SCORE, FIX
from shared_engine.presets import TRAINS

VERSION = 9   # 3: lists in a fixed order, no keys; 4: a result's bounds and original;
# 5: bounds in hex, the undo history as its chunks; 6: the bulk packed after a JSON head;
# 7: the doubles used and the round marks' totals in the blob;
# 8: the house rules: a scored round's facts, the round's out_double, caught,
# foot_by, laid and run (issue 31); 9: the options one flat list, name, value, ...
_STREAMS_BYTES = sys.implementation.name == "micropython"
TAIL = 256  # bytes of the record, before the covered length, that the CRC covers

# The Round's state in the head, in this order (no keys: each string the
# board parses costs it a look-up among MicroPython's interned names, and
# these names are interned once, with this module); its tiles (``table``,
# ``known``) are in the blob.
_ROUND = ("double", "lead", "hunt", "hands", "exact", "any_known",
          "yard", "to_move", "drew", "drawn", "passes", "ended", "out", "moves", "quick",
          "out_double", "caught", "centre_left", "ends", "foot", "toes")
_ROUND_TRAINS = ("trains", "markers", "had_turn", "od_train", "od_pip", "laid", "run")   # trains
_TILES = 2      # "table" and "known": the Round's state in the blob
_RESULT = "<bbhb"   # a scored round's double, who went out (-1: none), its bounds' length (-1: none),
# flags: 1 fixed (its original follows), 2 its facts follow (7 bytes a seat, house rules)


def snapshot(game):
    """The game's whole state: [head, pieces], ``head`` JSON-able lists in a
    fixed order, ``pieces`` the blob's bytes in the order ``restore`` takes
    them (the module's docstring has the layout). In pieces, not one block:
    on a board's heap after a long game the blob may find no block of its
    size (2 KB in the late game), its pieces always do."""
    head, pieces = _encode(game)
    return [head, list(pieces)]


def restore(data):
    """A Game from ``snapshot`` data: [head, blob], the blob its pieces (a
    list), its bytes (a memoryview of the file read) or the checkpoint file
    itself, open at the blob (``read`` on a heap too scattered for the file
    in one block)."""
    head, blob = data
    take = _reader(blob)
    (rules, players, options, nused, over, stopped, redeals, keep_rounds, base,
     nresults, chunks, odd, marks, rd) = head
    head = data = None
    opts = {}
    for i in range(0, len(options), 2):
        opts[options[i]] = options[i + 1]
    options = None  # (with the caller's ``pop``: every-rule games' 17 options, let go)
    g = Game(rules, players, opts, True)   # its options were checked when it began
    n = g.n
    fi = "<%di" % n
    g.totals = list(unpack_from(fi, take(4 * n), 0))
    g.used = list(take(nused))
    results = [None] * nresults
    for k in range(nresults):
        double, out, nb, flags = unpack_from(_RESULT, take(5), 0)
        b = take(9 * n)
        bounds = None if nb < 0 else bytes(take(nb))
        facts = bytes(take(7 * n)) if flags & 2 else None
        orig = None
        if flags & 1:
            o = take(9 * n)
            orig = (unpack_from(fi, o, 0), unpack_from(fi, o, 4 * n), tuple(o[8 * n:]),
                    bytes(take(7 * n)) if flags & 2 else None)
        results[k] = (double, unpack_from(fi, b, 0), None if out < 0 else out,
                      unpack_from(fi, b, 4 * n), tuple(b[8 * n:]), bounds, orig, facts)
    g.results = results
    ms = [None] * len(marks)
    for i in range(len(marks)):
        at, m = marks[i]
        totals = list(unpack_from(fi, take(4 * n), 0))
        ms[i] = (at, _unmark(m, results, totals, list(take(take(1)[0]))))
    g.marks = ms
    g.over = over
    g.stopped = stopped
    g.redeals = redeals
    g.keep_rounds = keep_rounds
    g.base = base
    log = Log()
    if chunks:
        log.chunks = [None] * len(chunks)
        for i in range(len(chunks)):
            c = chunks[i]
            log.chunks[i] = list(unpack_from(_CHUNK if c == 32 else "<%di" % c, take(4 * c), 0))
        log.tail = log.chunks[-1]
        for ci, i, x in odd:
            log.chunks[ci][i] = _unitem(x)
    g.history = log
    if rd is not None:
        r = Round(None, 0, 0, ())
        names = _ROUND + (_ROUND_TRAINS if g.rules.layout == TRAINS else ("foot_by",))
        if len(rd) != len(names) + 1:
            raise ValueError("the checkpoint's round is of another shape")
        for i in range(len(names)):
            setattr(r, names[i], rd[i + 1])
        r.hunt = tuple(r.hunt)
        table = bytearray(g.rules.tiles)
        for t in take(rd[0]):
            table[t] = 1
        r.table = table
        known = [None] * n
        for s in range(n):
            known[s] = list(take(take(1)[0]))
        r.known = known
        g.round = r
    return g


_CHUNK = "<32i"     # a full chunk of the undo history (engine.Log)


def _reader(blob):
    """``take(n)``: the blob's next ``n`` bytes, from its pieces (each
    piece is one take), its bytes, or the file open at it."""
    if isinstance(blob, list):
        it = iter(blob)

        def take(n):
            b = next(it)
            if len(b) != n:
                raise ValueError("the checkpoint's data is of another shape")
            return b
    elif hasattr(blob, "readinto"):
        def take(n):
            b = blob.read(n)
            if len(b) != n:
                raise ValueError("the checkpoint is cut short")
            return b
    else:
        at = [0]

        def take(n):
            a = at[0]
            if a + n > len(blob):
                raise ValueError("the checkpoint is cut short")
            at[0] = a + n
            return blob[a:a + n]
    return take


def _encode(game):
    """(head, pieces): the head, and a generator of the blob's pieces, one
    a take, in the order ``restore`` takes them (``write`` puts each in the
    file as it comes: neither the blob nor its pieces at once on the
    board's heap, which a checkpoint of the late game at 40 KB free found
    no room for)."""
    chunks = []
    odd = []
    hist = game.history.chunks
    for ci in range(len(hist)):
        c = hist[ci]
        chunks.append(len(c))
        for i in range(len(c)):
            if not isinstance(c[i], int):
                odd.append([ci, i, _item(c[i])])
    r = game.round
    rd = None
    if r is not None:
        names = _ROUND + (_ROUND_TRAINS if hasattr(r, "trains") else ("foot_by",))   # chicken-foot layouts
        if [k for k in r.__dict__ if k not in names and k not in ("table", "known")]:
            raise ValueError("the round has state the checkpoint does not know: %s"
                             % sorted(k for k in r.__dict__ if k not in names))
        rd = [sum(r.table)]
        for k in names:
            v = getattr(r, k)
            if isinstance(v, (list, tuple)):
                v = list(v)
            rd.append(v)
    opts = []
    for k, v in _options(game).items():
        opts += (k, v)      # one flat list: a pair a list cost the late boot 32 B an option
    head = [game.rules.name, game.players, opts,
            len(game.used), game.over, game.stopped, game.redeals, game.keep_rounds, game.base,
            len(game.results), chunks, odd,
            [[at, _mark(m, game.results)] for at, m in game.marks], rd]
    return head, _pieces(game)


def _pieces(game):
    n = game.n
    fi = "<%di" % n
    yield pack(fi, *game.totals)
    yield bytes(game.used)
    for x in game.results:
        double, counted, out, pips, db, bounds, orig, facts = x
        yield pack(_RESULT, double, -1 if out is None else out,
                   -1 if bounds is None else len(bounds),
                   (0 if orig is None else 1) | (0 if facts is None else 2))
        yield pack(fi, *counted) + pack(fi, *pips) + bytes(db)
        if bounds is not None:
            yield bytes(bounds)
        if facts is not None:
            yield bytes(facts)
        if orig is not None:
            yield pack(fi, *orig[0]) + pack(fi, *orig[1]) + bytes(orig[2])
            if facts is not None:
                yield bytes(orig[3])
    for _, m in game.marks:
        yield pack(fi, *m[0])
        yield bytes((len(m[2]),))
        yield bytes(m[2])
    for c in game.history.chunks:
        for x in c:
            if not isinstance(x, int):
                c = [x if isinstance(x, int) else 0 for x in c]
                break
        yield pack(_CHUNK if len(c) == 32 else "<%di" % len(c), *c)
    r = game.round
    if r is not None:
        yield bytes(_ids(r.table))
        for h in r.known:
            yield bytes((len(h),))
            yield bytes(h)


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


def _options(game):
    """The game's options as its record gave them."""
    return game.rules.given


def _result(x):
    """A scored round as JSON: in a round mark, for the rare round that a
    fix changed since the mark (the others are the game's own, in the blob)."""
    double, counted, out, pips, db, bounds, orig, facts = x
    return [double, list(counted), out, list(pips), list(db),
            None if bounds is None else list(bounds),
            None if orig is None else [list(orig[0]), list(orig[1]), list(orig[2]),
                                       None if orig[3] is None else list(orig[3])],
            None if facts is None else list(facts)]


def _unresult(x):
    orig = x[6]
    # (no helper for "None, else its bytes": each name a module holds is one
    # more interned on the board)
    return (x[0], tuple(x[1]), x[2], tuple(x[3]), tuple(x[4]),
            None if x[5] is None else bytes(x[5]),
            None if orig is None else (tuple(orig[0]), tuple(orig[1]), tuple(orig[2]),
                                       None if orig[3] is None else bytes(orig[3])),
            None if x[7] is None else bytes(x[7]))


def _mark(m, results):
    """A round mark's head: its count of scored rounds, and of those the
    few that are not the game's own (a fix changed the round since the
    mark) as [index, round]; the others share the game's tuples, so each
    round is in the checkpoint once, not once per mark. Its totals and the
    doubles it had used are in the blob (``_pieces``)."""
    rs = m[1]
    own = []
    for i in range(len(rs)):
        x = rs[i]
        if not (i < len(results) and results[i] is x):
            own.append([i, _result(x)])
    return [len(rs), own, m[3], m[4], m[5]]


def _unmark(m, done, totals, used):
    """A round mark from ``_mark`` and its totals and doubles from the
    blob: its rounds share the game's tuples (``done``), as they did when
    the checkpoint was made, but for its own."""
    out = done[:m[0]]
    if len(out) < m[0]:     # (no mark has more rounds than the game: its own fill them)
        out += [None] * (m[0] - len(out))
    for i, x in m[1]:
        out[i] = _unresult(x)
    return (totals, out, used, m[2], m[3], m[4])


def _item(x):
    """A history item that is no packed int as JSON: packed bytes (a hand,
    a round or a caught line) a list of ints; a score [pips, db] or [pips,
    db, facts]; a fix with facts [FIX, round, seat, pips, db, facts]. No
    strings: each string the board parses costs it a look-up in
    MicroPython's table of interned names."""
    if isinstance(x, bytes):
        return list(x)
    if x[0] == FIX:
        return [FIX, x[1], x[2], x[3], x[4], list(x[5])]
    if len(x) > 3 and x[3] is not None:
        return [list(x[1]), list(x[2]), [None if c is None else list(c) for c in x[3]]]
    return [list(x[1]), list(x[2])]


def _unitem(x):
    if isinstance(x[0], list):
        if len(x) == 2:
            return (SCORE, tuple(x[0]), tuple(x[1]))
        return (SCORE, tuple(x[0]), tuple(x[1]),
                tuple(None if c is None else tuple(c) for c in x[2]))
    if isinstance(x[-1], list):
        return (FIX, x[1], x[2], x[3], x[4], tuple(x[5]))
    return bytes(x)


# -- the checkpoint file --------------------------------------------------------

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
    head, pieces = _encode(game)
    head = [VERSION, length, lines, tail_crc(f, length), head]
    if _STREAMS_BYTES:
        json.dump(head, out)  # MicroPython: straight into the file, piece by piece
    else:
        out.write(json.dumps(head).encode())  # CPython's json.dump writes str
    head = None
    out.write(b"\n")
    for p in pieces:
        out.write(p)
    pieces = None
    crc, _ = _crc_from(out, 9, buf)
    out.seek(0)
    out.write(b"%08x" % crc)


def read(cp):
    """The checkpoint's data from an open checkpoint file ("rb"); ValueError
    when it is corrupt or of another version. The file is read in one call
    (a few KB: a cold boot has them) and its blob used in place; where the
    heap has no block that large (a long game on USB), it is checked and
    read piece by piece from the file, which must then stay open until the
    state is restored."""
    try:
        # At its size: read() to the end grows its buffer a block at a time
        # (the late game's 3.6 KB: a reallocation and a copy each, 0.6 ms).
        size = cp.seek(0, 2)
        cp.seek(0)
        raw = cp.read(size)
    except MemoryError:
        raw = None
    if raw is None:
        return _read_streamed(cp)
    if len(raw) < 10 or raw[8] != 10:
        raise ValueError("the checkpoint is cut short")
    body = memoryview(raw)[9:]
    if crc32(body) != _want(raw):
        raise ValueError("the checkpoint's checksum does not match")
    j = raw.find(b"\n", 9)
    if j < 0:
        raise ValueError("the checkpoint is cut short")
    return _data(json.loads(body[:j - 9] if _STREAMS_BYTES else bytes(body[:j - 9])),
                 body[j - 8:])


def _data(head, blob):
    if not isinstance(head, list) or len(head) != 5 or head[0] != VERSION:
        raise ValueError("the checkpoint is of another version")
    return {"length": head[1], "lines": head[2], "tail": head[3], "state": [head[4], blob]}


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
    return _data(json.loads(cp.readline()), cp)


def resume(f, cp=None, keep_rounds=2):
    """Restore the game recorded in ``f`` (a record opened "rb"): from the
    checkpoint ``cp`` (an open file, or None) and the lines after it when
    the checkpoint is sound and matches the record, else by a full replay.

    Returns (game, why): ``why`` is None when the checkpoint served, else
    the reason it did not (the caller then writes a fresh one). ``game.lines``
    is the number of lines read, ``game.tail`` the events replayed after
    the checkpoint (None after a full replay).
    """
    why = "no checkpoint"
    if cp is not None:
        try:
            data = read(cp)
            length = data["length"]
            size = f.seek(0, 2)
            if size < length:
                raise ValueError("the record is shorter than the checkpoint")
            if tail_crc(f, length) != data["tail"]:
                raise ValueError("the record differs from the checkpoint")
            lines = data["lines"]
            game = restore(data.pop("state"))   # (restore lets go of what it read)
        except (ValueError, KeyError, TypeError, IndexError, _Unpacked) as e:
            why = str(e) or "the checkpoint is unreadable"
        else:
            data = None  # the heap back before the tail is replayed
            game.warnings = []
            game.lines = lines
            # Only where lines follow the checkpoint is the record's reader
            # loaded: the board writes one a press, so a cold boot seldom
            # finds any, and on the stock image dgn.mpy is 10 KB of the heap
            # and some of the boot's longest loading (bench device:
            # cold_boot_ms_late).
            if size > length:
                f.seek(length)
                from shared_engine import dgn
                sc = dgn.Scanner()
                sc.no = lines
                sc.in_tags = False
                # the record's lines after the checkpoint, as a full replay reads
                # them (its fast reader takes the board's own lines)
                sc.replay_file(f, None, keep_rounds, game)
                game.warnings = sc.warnings
                game.lines = sc.no
            game.tail = game.lines - lines
            return game, None
    f.seek(0)
    from shared_engine import dgn
    game = dgn.replay_lines(f, keep_rounds)
    game.tail = None
    return game, why
