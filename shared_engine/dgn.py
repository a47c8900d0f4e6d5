"""The game record (DGN, FORMAT.md): read and write it, replay it.

This is the only module that knows text. It imports the engine, never the
reverse. Converters come in pairs: ``parse_event(line)`` / ``format_event(ev)``,
``read(text)`` / ``write(tags, events)``, and a record written by ``write``
reads back to the same events.

Errors are ``RecordError`` (a ``ValueError``) carrying the line number and a
sentence a player understands; ``str(e)`` is ``line N: message``.
"""

from shared_engine import tiles
from shared_engine.engine import (
    Game, IllegalEvent, ROUND, HAND, PLAY, DRAW, PASS, BLOCKED, SCORE, REDEAL,
    UNDO, END, UNKNOWN, DOUBLE, MEXICAN,
)

# Tags written first, in this order; any others follow in the order read.
TAG_ORDER = ("Rules", "Players", "Set", "Option", "Game", "Date", "Event")

TORN = "the last line has no line end (a write cut short): it was ignored"


class RecordError(ValueError):
    """A record that cannot be read or replayed, at ``line`` (or None)."""

    def __init__(self, line, message):
        ValueError.__init__(self, message)
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
        self.events = []     # (line number, event)
        self.warnings = []

    def tag(self, name):
        """The values of the first tag ``name``, or None."""
        for k, v in self.tags:
            if k == name:
                return v
        return None

    def options(self):
        """The game's options as the engine takes them (``Set`` included)."""
        opts = {}
        for k, v in self.tags:
            if k == "Option":
                if len(v) != 2:
                    raise RecordError(None, "an Option tag takes a name and a value")
                opts[v[0]] = v[1]
            elif k == "Set":
                if len(v) != 1:
                    raise RecordError(None, "the Set tag takes one value")
                opts["set"] = v[0]
        return opts

    def new_game(self):
        """A fresh engine Game for this record's tags."""
        rules = self.tag("Rules")
        if not rules or len(rules) != 1:
            raise RecordError(None, "the record needs one [Rules \"...\"] tag")
        players = self.tag("Players")
        if not players:
            raise RecordError(None, "the record needs a [Players \"...\" ...] tag")
        try:
            return Game(rules[0], players, self.options())
        except ValueError as e:
            if isinstance(e, RecordError):
                raise
            raise RecordError(None, str(e))


# -- tiles and seats ------------------------------------------------------------

def _num(word, what):
    if not word.isdigit():
        raise ValueError("%s must be a number, not %r" % (what, word))
    return int(word)


def _tile(word):
    a, sep, b = word.partition("-")
    if not sep or not a.isdigit() or not b.isdigit():
        raise ValueError("%r is not a tile (write tiles as 9-4)" % word)
    return int(a), int(b)


# -- one event -------------------------------------------------------------------

def parse_event(line):
    """One event line (comment already stripped) to an event tuple."""
    w = line.split()
    if not w:
        raise ValueError("empty event")
    head = w[0]
    if head.isdigit():
        seat = int(head)
        if len(w) < 2:
            raise ValueError("seat %d does what? (play, draw or pass)" % seat)
        verb = w[1]
        n = len(w)
        if verb == "play":
            a = b = UNKNOWN
            target = None
            i = 2
            if i < n and w[i][0] != "@":
                if w[i] == "double":
                    a = b = DOUBLE
                else:
                    a, b = _tile(w[i])
                i += 1
            if i < n and w[i][0] == "@":
                t = w[i][1:]
                target = MEXICAN if t == "mx" else _num(t, "a train")
                if target == MEXICAN and t != "mx":
                    raise ValueError("there is no train @0: write @mx or a seat")
                i += 1
            if i != n:
                raise ValueError("unexpected %r after play" % w[i])
            return (PLAY, seat, a, b, target)
        if verb == "draw":
            if n == 2:
                return (DRAW, seat, UNKNOWN, UNKNOWN)
            if n == 3:
                a, b = _tile(w[2])
                return (DRAW, seat, a, b)
            raise ValueError("unexpected %r after draw" % w[3])
        if verb == "pass":
            if n != 2:
                raise ValueError("unexpected %r after pass" % w[2])
            return (PASS, seat)
        raise ValueError("unknown action %r: a seat plays, draws or passes" % verb)
    n = len(w)
    if head == "round":
        if n < 4 or w[2] != "lead":
            raise ValueError("write a round as: round 9-9 lead 2")
        a, b = _tile(w[1])
        if a != b:
            raise ValueError("a round starts with a double, not %s" % w[1])
        lead = _num(w[3], "the leading seat")
        hunt = ()
        if n > 4:
            if w[4] != "hunt" or n == 5:
                raise ValueError("after the lead only: hunt SEAT ...")
            hunt = tuple(_num(x, "a hunting seat") for x in w[5:])
        return (ROUND, a, lead, hunt)
    if head == "score":
        if n < 2:
            raise ValueError("a score line lists the pips left in each hand")
        pips = []
        db = []
        for x in w[1:]:
            d = 0
            if x.endswith("+DB"):
                x = x[:-3]
                d = 1
            pips.append(_num(x, "a score"))
            db.append(d)
        return (SCORE, tuple(pips), tuple(db))
    if head == "hand":
        if n < 3:
            raise ValueError("write a hand as: hand SEAT 9-4 3-2 ...")
        seat = _num(w[1], "a seat")
        ids = []
        for x in w[2:]:
            a, b = _tile(x)
            if a > tiles.MAX_SET or b > tiles.MAX_SET:
                raise ValueError("%s is not a tile of any set" % x)
            ids.append(tiles.tile_id(a, b))
        return (HAND, seat, tuple(ids))
    if n == 1:
        if head == "blocked":
            return (BLOCKED,)
        if head == "undo":
            return (UNDO,)
        if head == "redeal":
            return (REDEAL,)
        if head == "end":
            return (END,)
    raise ValueError("unknown event %r" % line.strip())


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
    i = line.find(";")
    if i >= 0:
        line = line[:i]
    return line.strip()


def lines_of(text):
    """The lines of a text, each with its line end, without building a list
    (a 2,000-line record split at once would not fit the board's heap)."""
    i = 0
    n = len(text)
    while i < n:
        j = text.find("\n", i)
        if j < 0:
            yield text[i:]
            return
        yield text[i:j + 1]
        i = j + 1


def scan(lines, warnings):
    """Yield (line number, tag or None, event or None) for each meaningful
    line of a record given as lines with their line ends (a file object
    will do). A last line without its line end is a write cut short: it is
    skipped and a warning appended to ``warnings``."""
    in_tags = True
    no = 0
    for raw in lines:
        no += 1
        if raw[-1:] != "\n":
            if raw.strip():
                warnings.append("line %d: %s" % (no, TORN))
            return
        s = raw.strip()
        if not s or s[0] == ";":
            continue
        try:
            if s[0] == "[":
                if not in_tags:
                    raise ValueError("tags come before the first event")
                yield no, parse_tag(s), None
                continue
            in_tags = False
            yield no, None, parse_event(strip_comment(s))
        except ValueError as e:
            raise RecordError(no, str(e))


def read(text):
    """Parse a record's text (tags, events, warnings); replay nothing."""
    rec = Record()
    for no, tag, ev in scan(lines_of(text), rec.warnings):
        if tag is not None:
            rec.tags.append(tag)
        else:
            rec.events.append((no, ev))
    return rec


def replay_lines(lines, keep_rounds=None):
    """Replay a record given as lines (a file object will do), one line at
    a time: the Game, or RecordError at the first bad line. Tags go to
    ``game.tags``, warnings to ``game.warnings``. Memory stays flat however
    long the game: no list of events is built here, and the engine keeps
    the history of ``keep_rounds`` rounds for undo (None: all)."""
    rec = Record()
    game = None
    last = 1
    for no, tag, ev in scan(lines, rec.warnings):
        last = no
        if tag is not None:
            rec.tags.append(tag)
            continue
        if game is None:
            game = _new_game(rec, no, keep_rounds)
        try:
            game.apply(ev)
        except IllegalEvent as e:
            raise RecordError(no, str(e))
    if game is None:
        game = _new_game(rec, last, keep_rounds)
    game.warnings = rec.warnings
    game.tags = rec.tags
    return game


def _new_game(rec, line, keep_rounds):
    try:
        game = rec.new_game()
    except RecordError as e:
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
