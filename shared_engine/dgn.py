"""The game record (DGN, FORMAT.md): read and write it, replay it.

This is the only module that knows text. It imports the engine, never the
reverse. Converters come in pairs: ``parse_event(line)`` / ``format_event(ev)``,
``read(text)`` / ``write(tags, events)``, and a record written by ``write``
reads back to the same events.

Errors are ``RecordError`` (a ``ValueError``) carrying the line number and a
sentence a player understands; ``str(e)`` is ``line N: message``.
"""

from array import array

from shared_engine import tiles
from shared_engine.presets import find_preset
from shared_engine.engine import (
    Game, IllegalEvent, ROUND, HAND, PLAY, DRAW, PASS, BLOCKED, SCORE, REDEAL,
    UNDO, END, FIX, CAUGHT, UNKNOWN, DOUBLE, MEXICAN,
)

# Tags written first, in this order; any others follow in the order read.
# The writer's order of tags. [Tracking] and [Lang] (the language the board
# showed the game in, docs/FORMAT.md) change nothing in a replay; the reader
# keeps every tag, known or not (Record.tag).
TAG_ORDER = ("Rules", "Players", "Set", "Option", "Tracking", "Lang", "Game", "Date", "Event")

TORN = "the last line has no line end (a write cut short): it was ignored"


class RecordError(ValueError):
    """A record that cannot be read or replayed, at ``line`` (or None)."""

    def __init__(self, line, message):
        super().__init__(message)
        self.line = line
        self.message = message

    def __str__(self):
        if self.line is None:
            return self.message
        return "line %d: %s" % (self.line, self.message)


class Record:
    """A record as read: tags, events with their line numbers, warnings."""

    def __init__(self):
        self.tags = []       # (name, [values]) in file order
        self.tag_lines = []  # the line number of each tag
        self.events = []     # (line number, event)
        self.warnings = []

    def tag(self, name):
        """The values of the first tag ``name``, or None."""
        for k, v in self.tags:
            if k == name:
                return v
        return None

    def line(self, name, key=None):
        """The line of the first tag ``name`` (an Option tag: the one for
        ``key``), or None: a bad tag is reported where it is written. (No
        names of its own beyond ``tag_lines``: each new name costs the
        board's heap a little, in MicroPython's table of names.)"""
        for i in range(len(self.tag_lines)):
            k, v = self.tags[i]
            if k == name and (key is None or (v and v[0] == key)):
                return self.tag_lines[i]
        return None

    def options(self):
        """The game's options as the engine takes them (``Set`` included)."""
        opts = {}
        for k, v in self.tags:
            if k == "Option":
                if len(v) != 2:
                    raise RecordError(self.line(k, v[0] if v else None),
                                      "an Option tag takes a name and a value")
                opts[v[0]] = v[1]
            elif k == "Set":
                if len(v) != 1:
                    raise RecordError(self.line(k), "the Set tag takes one value")
                opts["set"] = v[0]
        return opts

    def new_game(self):
        """A fresh engine Game for this record's tags."""
        rules = self.tag("Rules")
        if not rules or len(rules) != 1:
            raise RecordError(self.line("Rules"), "the record needs one [Rules \"...\"] tag")
        try:
            find_preset(rules[0])      # a mistyped preset is the first thing to fix
        except ValueError as e:
            raise RecordError(self.line("Rules"), str(e))
        players = self.tag("Players")
        if not players:
            raise RecordError(self.line("Players"), "the record needs a [Players \"...\" ...] tag")
        opts = self.options()
        try:
            return Game(rules[0], players, opts)
        except ValueError as e:
            if isinstance(e, RecordError):
                raise
            # the tag the refusal is about: an option it names first
            # ("start_trains must be...", "unknown option 'x'"), else the
            # players (too few, too many for the rules)
            from shared_engine import house
            raise RecordError(house.blame(self, str(e), opts), str(e))


# -- one event -------------------------------------------------------------------
#
# Events are parsed from bytes: on MicroPython every new str is looked up in
# the interned-string table (a linear search, the costliest step of a parse),
# bytes are not. Error paths decode for their messages; the common path
# allocates only the split and the event tuple.

def _text(b):
    """A word of a line, for a refusal: as text, and cut to its first 32
    bytes where it is longer than 40 (a 1 MB token is not echoed whole,
    issue 32), at a character's start."""
    if len(b) > 40:
        i = 32
        while i and isinstance(b, bytes) and (b[i] & 0xC0) == 0x80:
            i -= 1
        return "%s... (%d bytes)" % (_text(b[:i]), len(b))
    return b.decode() if isinstance(b, bytes) else b


def _num(word, what):
    """A number of at most 4 digits (no score, seat or round needs more: a
    double-18 set holds 3,420 pips)."""
    if not word.isdigit():
        raise ValueError("%s must be a number, not %r" % (what, _text(word)))
    if len(word) > 4:
        raise ValueError("%s must be a number of at most 4 digits, not %r" % (what, _text(word)))
    return int(word)


def _token(x):
    """A seat's number on a score or fix line without the house rules'
    marks: (pips, 0/1 holds 0-0); pips -1 where it has other marks
    (``+BE2``...), which shared_engine/marks.py reads, loaded only for
    such a line."""
    if x.endswith(b"+DB"):
        p = x[:-3]
        if p.isdigit():
            return _num(p, "a score"), 1
    elif x.isdigit():
        return _num(x, "a score"), 0
    elif b"+" in x or not x[:1].isdigit():
        return -1, 0
    return _num(x, "a score"), 0


def _tile(word):
    """b"9-4" to 9 << 5 | 4 (an int: no tuple to allocate)."""
    if len(word) == 3 and word[1] == 45:
        a = word[0] - 48
        b = word[2] - 48
        if 0 <= a <= 9 and 0 <= b <= 9:
            return a << 5 | b
    a, sep, b = word.partition(b"-")
    if not sep or not a.isdigit() or not b.isdigit() or len(a) > 2 or len(b) > 2:
        raise ValueError("%r is not a tile (write tiles as 9-4)" % _text(word))
    return int(a) << 5 | int(b)


def parse_event(line):
    """One event line (str or bytes, comment already cut) to an event tuple."""
    return _parse(line.encode() if isinstance(line, str) else line)


# The lines a board writes on nearly every press, read by their bytes in
# native code where MicroPython has it (the RP2040 ports do). On the board a
# line through the general parser below (split, a test a word) costs about
# 290 us, the most of a replay; here about 20, the call included. Only the
# exact forms that ``format_event`` writes are taken:
#     S play | S play A-B | S play A-B @T | S play @T | S play @mx
#     S draw | S draw A-B | S pass
# with S a seat of one digit, A, B and T of one or two; anything else (a
# word more or less, a blank too many, a comment, a line the laptop wrote
# differently) reads 0 and goes the general way, which also says what is
# wrong with it. Its result is always the general parser's: tests/engine/
# test_dgn_fast.py holds them side by side on MicroPython.
#
# ``_fast_line(buf, i, end, out)`` reads the line that starts at buf[i], in
# a buffer filled up to ``end``: -1 when no line end comes before ``end``
# (the line is not all there); else the index after its "\n" goes to
# out[6] and the result is the event's kind, its items in out[1:5] (target
# -1: none) and its ``engine.pack`` in out[5]: what the replay of a file
# hands the engine (``Game.step``), with no bytes, tuple or pack() of the
# line allocated or computed; or 0 for a line to read the general way.
# Without native code (CPython) every line goes the general way: the plain
# version only finds the line's end, so the replay's buffer handling runs
# (and is tested) on both interpreters.
#
# Mind the size of the native version. Frozen into the image, native code
# for ARMv6-M (the RP2040's Cortex-M0+) lands at a 2-byte aligned address
# (MicroPython's mpy-tool), but the emitter's jumps of more than 2 KB load
# their offset with a PC-relative load that assumes 4-byte alignment: such
# a jump then lands anywhere and the board crashes. Every ``return`` jumps
# to the function's end, so none may come more than 2 KB before it: the
# line's kind is worked out before the first one. (The longest jump here is
# 1,756 bytes, in objdump of mpy-cross -march=armv6m's code; the previous
# version's was 2,024.)
_FAST = None   # _fast_line's out: kind, seat, a, b, target, pack, next (native only)
try:
    import micropython

    @micropython.viper
    def _fast_line(buf: ptr8, i: int, end: int, out: ptr32) -> int:
        # No return before the line's kind is known: see above.
        n = i
        while n < end and buf[n] != 10:
            n += 1
        kind = 0
        s = 0
        if n < end and n - i >= 6 and buf[i + 1] == 32:
            s = buf[i] - 48
            c2 = buf[i + 2]
            c3 = buf[i + 3]
            c4 = buf[i + 4]
            c5 = buf[i + 5]
            if s < 1 or s > 9:
                kind = 0
            elif ((c2 ^ 112) | (c3 ^ 108) | (c4 ^ 97) | (c5 ^ 121)) == 0:          # play
                kind = 3
            elif ((c2 ^ 100) | (c3 ^ 114) | (c4 ^ 97) | (c5 ^ 119)) == 0:        # draw
                kind = 4
            elif ((c2 ^ 112) | (c3 ^ 97) | (c4 ^ 115) | (c5 ^ 115)) == 0 and n - i == 6:  # pass
                kind = 5
        if n >= end:
            return -1
        out[6] = n + 1
        if kind == 0:
            return 0
        # The line is buf[i:n] and buf[n] its "\n": a read up to n needs no
        # other bound, and the "\n" is no digit, blank, "-" or "@".
        a = -1
        b = -1
        t = -1
        p = i + 6
        if p < n:
            if buf[p] != 32 or buf[p + 1] == 10:
                return 0
            p += 1
            c = buf[p] - 48
            if 0 <= c and c <= 9:                 # a tile: A-B
                a = c
                p += 1
                c = buf[p] - 48
                if 0 <= c and c <= 9:
                    a = a * 10 + c
                    p += 1
                if buf[p] != 45 or buf[p + 1] == 10:
                    return 0
                b = buf[p + 1] - 48
                if b < 0 or b > 9:
                    return 0
                p += 2
                c = buf[p] - 48
                if 0 <= c and c <= 9:
                    b = b * 10 + c
                    p += 1
                if p < n:
                    if buf[p] != 32 or buf[p + 1] == 10:
                        return 0
                    p += 1
            if p < n:                             # a train: @T or @mx
                if kind != 3 or buf[p] != 64 or buf[p + 1] == 10:
                    return 0
                p += 1
                if buf[p] == 109 and buf[p + 1] == 120 and buf[p + 2] == 10:
                    t = 0
                else:
                    t = buf[p] - 48
                    if t < 1 or t > 9:
                        return 0
                    c = buf[p + 1]
                    if c != 10:
                        c -= 48
                        if c < 0 or c > 9 or buf[p + 2] != 10:
                            return 0
                        t = t * 10 + c
        out[0] = kind
        out[1] = s
        out[2] = a
        out[3] = b
        out[4] = t
        if kind == 3:        # engine.pack of the event
            if t < 0:
                t = 31
            out[5] = (((((a + 2) << 5 | (b + 2)) << 5 | t) << 5 | s) << 4) | 3
        elif kind == 4:
            out[5] = ((((a + 2) << 5 | (b + 2)) << 5 | s) << 4) | 4
        else:
            out[5] = (s << 4) | 5
        return kind

    _FAST = array("i", bytes(28))
except (ImportError, SyntaxError, NameError, AttributeError):
    # CPython, or a MicroPython without the native emitters: every line
    # goes the general way; this finds the line's end.
    def _fast_line(buf, i, end, out):
        j = buf.find(b"\n", i, end)
        if j < 0:
            return -1
        out[6] = j + 1
        return 0


def _parse(line):
    o = _FAST
    if o is not None:
        n = len(line)
        k = _fast_line(line, 0, n, o)
        if k > 0 and o[6] == n:      # the "\n" found is the line's last byte
            if k == PLAY:
                t = o[4]
                return (PLAY, o[1], o[2], o[3], None if t < 0 else t)
            if k == DRAW:
                return (DRAW, o[1], o[2], o[3])
            return (PASS, o[1])
    return _parse_words(line)


def _parse_words(line):
    """The general parser: any event line, or ValueError saying what is wrong."""
    w = line.split()
    n = len(w)
    if not n:
        raise ValueError("empty event")
    head = w[0]
    if head.isdigit():
        seat = int(head)
        if n < 2:
            raise ValueError("seat %d does what? (play, draw or pass)" % seat)
        verb = w[1]
        if verb == b"play":
            a = b = UNKNOWN
            target = None
            i = 2
            if n > 2 and w[2][0] != 64:  # not "@"
                t = w[2]
                if len(t) == 3 and t[1] == 45 and 48 <= t[0] <= 57 and 48 <= t[2] <= 57:
                    a = t[0] - 48  # "9-4", the common case, without a call
                    b = t[2] - 48
                elif t == b"double":
                    a = b = DOUBLE
                else:
                    t = _tile(t)
                    a = t >> 5
                    b = t & 31
                i = 3
            if i < n and w[i][0] == 64:
                t = w[i][1:]
                if t == b"mx":
                    target = MEXICAN
                else:
                    target = _num(t, "a train")
                    if target == MEXICAN:
                        raise ValueError("there is no train @0: write @mx or a seat")
                i += 1
            if i != n:
                raise ValueError("unexpected %r after play" % _text(w[i]))
            return (PLAY, seat, a, b, target)
        if verb == b"draw":
            if n == 2:
                return (DRAW, seat, UNKNOWN, UNKNOWN)
            if n == 3:
                t = _tile(w[2])
                return (DRAW, seat, t >> 5, t & 31)
            raise ValueError("unexpected %r after draw" % _text(w[3]))
        if verb == b"pass":
            if n != 2:
                raise ValueError("unexpected %r after pass" % _text(w[2]))
            return (PASS, seat)
        if verb == b"caught":
            return (CAUGHT, seat, _ids(w[2:]))
        raise ValueError("unknown action %r: a seat plays, draws, passes or is caught" % _text(verb))
    if head == b"round":
        if n < 4 or w[2] != b"lead":
            raise ValueError("write a round as: round 9-9 lead 2")
        t = _tile(w[1])
        if t >> 5 != t & 31:
            raise ValueError("a round starts with a double, not %s" % _text(w[1]))
        lead = _num(w[3], "the leading seat")
        hunt = ()
        if n > 4:
            if w[4] != b"hunt" or n == 5:
                raise ValueError("after the lead only: hunt SEAT ...")
            h = [0] * (n - 5)     # at its size: tuple() of a generator grows a list
            for i in range(5, n):
                h[i - 5] = _num(w[i], "a hunting seat")
            hunt = tuple(h)
        return (ROUND, t >> 5, lead, hunt)
    if head == b"score":
        if n < 2:
            raise ValueError("a score line lists the pips left in each hand")
        pips = []
        db = []
        for j in range(1, n):
            p, d = _token(w[j])
            if p < 0:       # marks of the house rules: shared_engine/marks.py reads the line
                from shared_engine import marks
                return marks.score(w, _num, _text)
            pips.append(p)
            db.append(d)
        return (SCORE, tuple(pips), tuple(db))
    if head == b"fix":
        if n != 4:
            raise ValueError("write a correction as: fix ROUND SEAT PIPS")
        p, d = _token(w[3])
        if p < 0:
            from shared_engine import marks
            return marks.fix(w, _num, _text)
        return (FIX, _num(w[1], "a round"), _num(w[2], "a seat"), p, d)
    if head == b"hand":
        if n < 3:
            raise ValueError("write a hand as: hand SEAT 9-4 3-2 ...")
        return (HAND, _num(w[1], "a seat"), _ids(w[2:]))
    if n == 1:
        if head == b"blocked":
            return (BLOCKED,)
        if head == b"undo":
            return (UNDO,)
        if head == b"redeal":
            return (REDEAL,)
        if head == b"end":
            return (END,)
    raise ValueError("unknown event %r" % _text(line.strip()))


def _ids(words):
    """Tile words to tile ids (a hand, a caught seat's draws), in bytes
    made at their size (a hand of 60 tiles, grown a tile at a time, is a
    block of 1 KB on the unix port's heap)."""
    ids = bytearray(len(words))
    for i in range(len(words)):
        x = words[i]
        t = _tile(x)
        if t >> 5 > tiles.MAX_SET or t & 31 > tiles.MAX_SET:
            raise ValueError("%s is not a tile of any set" % _text(x))
        ids[i] = tiles.tile_id(t >> 5, t & 31)
    return tuple(ids)


def format_event(ev):
    """The DGN line of an event tuple (no line end)."""
    k = ev[0]
    if k == PLAY:
        a = ev[2]
        s = "%d play" % ev[1]
        if a == DOUBLE:
            s += " double"
        elif a >= 0:
            s += " %d-%d" % (a, ev[3])
        t = ev[4]
        if t is not None:
            s += " @mx" if t == MEXICAN else " @%d" % t
        return s
    if k == DRAW:
        if ev[2] >= 0:
            return "%d draw %d-%d" % (ev[1], ev[2], ev[3])
        return "%d draw" % ev[1]
    if k == PASS:
        return "%d pass" % ev[1]
    if k == ROUND:
        s = "round %d-%d lead %d" % (ev[1], ev[1], ev[2])
        if ev[3]:
            s += " hunt " + " ".join(str(x) for x in ev[3])
        return s
    if k == SCORE or k == FIX:
        if len(ev) > (3 if k == SCORE else 5):
            from shared_engine import marks
            return marks.line(ev)
        if k == FIX:
            return ("fix %d %d %d+DB" if ev[4] else "fix %d %d %d") % (ev[1], ev[2], ev[3])
        return "score " + " ".join(("%d+DB" if d else "%d") % p for p, d in zip(ev[1], ev[2]))
    if k == HAND:
        return "hand %d %s" % (ev[1], " ".join(tiles.name(t) for t in ev[2]))
    if k == CAUGHT:
        from shared_engine import variants
        return variants.line(ev)
    if k == BLOCKED:
        return "blocked"
    if k == UNDO:
        return "undo"
    if k == REDEAL:
        return "redeal"
    if k == END:
        return "end"
    raise ValueError("unknown event kind %r" % (k,))


# -- tags --------------------------------------------------------------------------

def parse_tag(line):
    """``[Name "v1" "v2"]`` (a comment may follow) to (name, [values])."""
    i = 1
    n = len(line)
    while i < n and line[i] not in ' \t"]':
        i += 1
    name = line[1:i]
    if not name:
        raise ValueError("a tag needs a name: [Name \"value\"]")
    values = []
    while True:
        while i < n and line[i] in " \t":
            i += 1
        if i >= n:
            raise ValueError("tag %s is not closed with ]" % _text(name))
        c = line[i]
        if c == "]":
            rest = line[i + 1:].strip()
            if rest and rest[0] != ";":
                raise ValueError("unexpected text after tag %s" % _text(name))
            return name, values
        if c != '"':
            raise ValueError("tag %s: values are double-quoted" % _text(name))
        i += 1
        buf = []
        while True:
            if i >= n:
                raise ValueError("tag %s: a value is not closed with \"" % _text(name))
            c = line[i]
            if c == "\\":
                if i + 1 >= n or line[i + 1] not in '"\\':
                    raise ValueError("tag %s: only \\\" and \\\\ are escapes" % _text(name))
                buf.append(line[i + 1])
                i += 2
                continue
            if c == '"':
                i += 1
                break
            buf.append(c)
            i += 1
        values.append("".join(buf))


def _quote(v):
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_tag(name, values):
    return "[%s %s]" % (name, " ".join(_quote(v) for v in values))


# -- whole records -----------------------------------------------------------------

def strip_comment(line):
    """The line (str or bytes) without its comment."""
    i = line.find(";" if isinstance(line, str) else b";")
    if i >= 0:
        line = line[:i]
    return line.strip()


def lines_of(text):
    """The lines of a text as bytes, each with its line end, without
    building a list (a 2,000-line record split at once would not fit the
    board's heap)."""
    data = text.encode() if isinstance(text, str) else text
    i = 0
    n = len(data)
    while i < n:
        j = data.find(b"\n", i)
        if j < 0:
            yield data[i:]
            return
        yield data[i:j + 1]
        i = j + 1


class Scanner:
    """Reads a record's lines (bytes, from a file opened "rb" or
    ``lines_of``; str lines are encoded) and yields its events one by one;
    tags go to ``tags`` as they come, the number of the line read last is
    ``no``. A last line without its line end is a write cut short: it is
    skipped and a warning appended to ``warnings``.

    The common line, an event with no comment, costs one test of its first
    and last bytes before it is parsed: this loop runs once a press on the
    board. (A file's full replay reads it in chunks instead, ``replay_file``,
    and brings only the lines its fast path does not take here, one at a
    time: ``in_tags`` carries over between the calls.)"""

    def __init__(self):
        self.tags = []
        self.tag_lines = []
        self.warnings = []
        self.no = 0
        self.in_tags = True   # no event line read yet: a tag may still come

    def events(self, lines):
        in_tags = self.in_tags
        no = self.no
        for raw in lines:
            no += 1
            self.no = no
            if raw[-1] != 10:  # a str line (encoded here), or the last line cut short
                if isinstance(raw, str):
                    raw = raw.encode()
                if raw[-1] != 10:
                    if raw.strip():
                        self.warnings.append("line %d: %s" % (no, TORN))
                    return
            try:
                if no == 1 and raw[:3] == b"\xef\xbb\xbf":
                    raw = raw[3:]     # a byte order mark, as Notepad writes one
                c = raw[0]
                if c <= 32:  # leading blanks, or a blank line
                    raw = raw.strip()
                    if not raw:
                        continue
                    c = raw[0]
                if c == 91:  # "[": a tag; a ";" inside its quotes is no comment
                    if not in_tags:
                        raise ValueError("tags come before the first event")
                    self.tags.append(parse_tag(raw.decode().strip()))
                    self.tag_lines.append(no)
                    continue
                c = raw.find(b";")
                if c >= 0:
                    raw = raw[:c]
                    if not raw.strip():
                        continue  # a comment line
                if in_tags:
                    in_tags = self.in_tags = False
                ev = _parse(raw)
            except ValueError as e:
                raise RecordError(no, str(e))
            except UnicodeError:
                raise RecordError(no, "the line is not UTF-8 text")
            yield ev


    # Bytes read at a time: a block any heap the board has can spare.
    chunk = 256

    def replay_file(self, f, rec, keep_rounds, game=None):
        """``replay_lines`` for a file: the Game (None when the record has
        no event); with ``game``, the file's lines from where it stands are
        applied to that game (a checkpoint's tail: shared_engine/checkpoint.py).
        The board's cold boot without a checkpoint replays the
        whole record this way. A line read from a file costs the board a
        bytes object, a tuple for its event (a block of two: a search of
        the heap) and the engine's pack() of it; here the file is read in
        chunks into one small buffer, and the lines ``_fast_line`` takes go
        to ``Game.step`` as ints. Every other line (tags, rounds, scores,
        comments, a line cut short, one longer than the buffer) goes
        through ``events`` as a line of its own, so the two ways read a
        record alike, line numbers and errors included.

        A method, and ``chunk`` a class attribute, rather than names of the
        module: dgn's 47 names fill MicroPython's table of 47 exactly, and
        with one name more (a table of 59) each collection on the board took
        6.8 ms instead of 2.3 (its 64-entry mark stack overflowed and the
        whole heap was scanned again), 4.5 ms of every press on USB."""
        buf = bytearray(self.chunk)
        mv = memoryview(buf)
        o = _FAST if _FAST is not None else array("i", bytes(28))
        fast = _fast_line
        step = None if game is None else game.step
        no = self.no
        i = end = 0
        try:
            while True:
                k = fast(buf, i, end, o)
                if k > 0 and step is not None:
                    no += 1
                    step(k, o)
                    i = o[6]
                    continue
                if k >= 0:                    # a whole line, the general way
                    j = o[6]
                    raw = bytes(mv[i:j])
                    i = j
                else:                         # the line is not all in the buffer
                    m = end - i
                    if m == len(buf):         # nor can it be: the rest from the file
                        raw = bytes(buf) + f.readline()
                        i = end = 0
                    else:
                        if m and i:
                            mv[:m] = mv[i:end]
                        i = 0
                        n = f.readinto(mv[m:])
                        end = m + n
                        if n:
                            continue
                        if not m:
                            break             # the end of the record
                        raw = bytes(mv[:m])   # its last line, with no line end
                        end = 0
                no += 1
                self.no = no - 1
                for ev in self.events((raw,)):
                    if game is None:
                        game = _new_game(rec, no, keep_rounds)
                        step = game.step
                    game.apply(ev)
        except IllegalEvent as e:
            self.no = no
            raise RecordError(no, str(e))
        self.no = no
        return game


def read(text):
    """Parse a record's text (tags, events, warnings); replay nothing."""
    rec = Record()
    sc = Scanner()
    for ev in sc.events(lines_of(text)):
        rec.events.append((sc.no, ev))
    rec.tags = sc.tags
    rec.tag_lines = sc.tag_lines
    rec.warnings = sc.warnings
    return rec


def replay_lines(lines, keep_rounds=None):
    """Replay a record given as lines (a file opened "rb" will do), one line
    at a time: the Game, or RecordError at the first bad line. Tags go to
    ``game.tags``, warnings to ``game.warnings``. Memory stays flat however
    long the game: no list of events is built here, and the engine keeps
    the history of ``keep_rounds`` rounds for undo (None: all)."""
    sc = Scanner()
    rec = Record()
    rec.tags = sc.tags
    rec.tag_lines = sc.tag_lines
    game = None
    if hasattr(lines, "readinto"):
        game = sc.replay_file(lines, rec, keep_rounds)
    else:
        for ev in sc.events(lines):
            if game is None:
                game = _new_game(rec, sc.no, keep_rounds)
            try:
                game.apply(ev)
            except IllegalEvent as e:
                raise RecordError(sc.no, str(e))
    if game is None:
        game = _new_game(rec, sc.no or 1, keep_rounds)
    game.warnings = sc.warnings
    game.tags = sc.tags
    game.lines = sc.no
    return game


def _new_game(rec, line, keep_rounds):
    try:
        game = rec.new_game()
    except RecordError as e:
        if e.line is None:   # no tag to blame (one missing): where the game starts
            e.line = line
        raise
    game.keep_rounds = keep_rounds
    return game


def replay(text, keep_rounds=None):
    """Read and replay a record's text: the Game, or RecordError at the
    first bad line."""
    return replay_lines(lines_of(text), keep_rounds)


def lines(tags, events):
    """A record's lines, each with its line end: tags in a stable order,
    then one event a line. Write them to a file one at a time on the board
    (a whole record's text would not fit its heap)."""
    for name in TAG_ORDER:
        for k, v in tags:
            if k == name:
                yield format_tag(k, v) + "\n"
    for k, v in tags:
        if k not in TAG_ORDER:
            yield format_tag(k, v) + "\n"
    for ev in events:
        yield format_event(ev) + "\n"


def write(tags, events):
    """A record's text: the lines of ``lines`` joined."""
    return "".join(lines(tags, events))
