"""The game record (DGN, FORMAT.md): read and write it, replay it.

This is the only module that knows text. It imports the engine, never the
reverse. Converters come in pairs: ``parse_event(line)`` / ``format_event(ev)``,
``read(text)`` / ``write(tags, events)``, and a record written by ``write``
reads back to the same events.

Errors are ``RecordError`` (a ``ValueError``) carrying the line number and a
sentence a player understands; ``str(e)`` is ``line N: message``.
"""

from shared_engine import tiles
from shared_engine.presets import find_preset
from shared_engine.engine import (
    Game, IllegalEvent, ROUND, HAND, PLAY, DRAW, PASS, BLOCKED, SCORE, REDEAL,
    UNDO, END, FIX, UNKNOWN, DOUBLE, MEXICAN,
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
            msg = str(e)
            line = self.line("Players")
            for k in opts:
                if msg.startswith(k) or repr(k) in msg:
                    line = self.line("Set") if k == "set" else self.line("Option", k)
                    break
            raise RecordError(line, msg)


# -- one event -------------------------------------------------------------------
#
# Events are parsed from bytes: on MicroPython every new str is looked up in
# the interned-string table (a linear search, the costliest step of a parse),
# bytes are not. Error paths decode for their messages; the common path
# allocates only the split and the event tuple.

def _text(b):
    return b.decode() if isinstance(b, bytes) else b


def _num(word, what):
    if not word.isdigit():
        raise ValueError("%s must be a number, not %r" % (what, _text(word)))
    return int(word)


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


def _parse(line):
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
        raise ValueError("unknown action %r: a seat plays, draws or passes" % _text(verb))
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
            hunt = tuple(_num(x, "a hunting seat") for x in w[5:])
        return (ROUND, t >> 5, lead, hunt)
    if head == b"score":
        if n < 2:
            raise ValueError("a score line lists the pips left in each hand")
        pips = []
        db = []
        for x in w[1:]:
            d = 0
            if x.endswith(b"+DB"):
                x = x[:-3]
                d = 1
            pips.append(_num(x, "a score"))
            db.append(d)
        return (SCORE, tuple(pips), tuple(db))
    if head == b"fix":
        if n != 4:
            raise ValueError("write a correction as: fix ROUND SEAT PIPS")
        x = w[3]
        d = 0
        if x.endswith(b"+DB"):
            x = x[:-3]
            d = 1
        return (FIX, _num(w[1], "a round"), _num(w[2], "a seat"), _num(x, "a score"), d)
    if head == b"hand":
        if n < 3:
            raise ValueError("write a hand as: hand SEAT 9-4 3-2 ...")
        seat = _num(w[1], "a seat")
        ids = []
        for x in w[2:]:
            t = _tile(x)
            if t >> 5 > tiles.MAX_SET or t & 31 > tiles.MAX_SET:
                raise ValueError("%s is not a tile of any set" % _text(x))
            ids.append(tiles.tile_id(t >> 5, t & 31))
        return (HAND, seat, tuple(ids))
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
    if k == SCORE:
        return "score " + " ".join(
            ("%d+DB" if d else "%d") % p for p, d in zip(ev[1], ev[2]))
    if k == FIX:
        return ("fix %d %d %d+DB" if ev[4] else "fix %d %d %d") % (ev[1], ev[2], ev[3])
    if k == HAND:
        return "hand %d %s" % (ev[1], " ".join(tiles.name(t) for t in ev[2]))
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
            raise ValueError("tag %s is not closed with ]" % name)
        c = line[i]
        if c == "]":
            rest = line[i + 1:].strip()
            if rest and rest[0] != ";":
                raise ValueError("unexpected text after tag %s" % name)
            return name, values
        if c != '"':
            raise ValueError("tag %s: values are double-quoted" % name)
        i += 1
        buf = []
        while True:
            if i >= n:
                raise ValueError("tag %s: a value is not closed with \"" % name)
            c = line[i]
            if c == "\\":
                if i + 1 >= n or line[i + 1] not in '"\\':
                    raise ValueError("tag %s: only \\\" and \\\\ are escapes" % name)
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
    board."""

    def __init__(self):
        self.tags = []
        self.tag_lines = []
        self.warnings = []
        self.no = 0

    def events(self, lines):
        in_tags = True
        no = self.no
        for raw in lines:
            no += 1
            self.no = no
            if isinstance(raw, str):
                raw = raw.encode()
            if raw[-1] != 10:  # no "\n": the last line, cut short
                if raw.strip():
                    self.warnings.append("line %d: %s" % (no, TORN))
                return
            try:
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
                in_tags = False
                ev = _parse(raw)
            except ValueError as e:
                raise RecordError(no, str(e))
            except UnicodeError:
                raise RecordError(no, "the line is not UTF-8 text")
            yield ev


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
