"""What the library computes from a game record (the record stays the truth).

`derive(data)` replays the DGN bytes with the shared engine and returns the
facts the library keeps in its query tables: the report (FORMAT.md), tags,
and per seat the numbers `pipkeeper stats` adds up. Everything here can be
recomputed from the record at any time, which is what `Library.rebuild()`
does when `VERSION` changes (a new engine, a new statistic).

A record the engine rejects is not an error here: it comes back with
`status == "rejected"` and the engine's sentence, so sync keeps it verbatim.
"""

from pipkeeper.errors import PipkeeperError
from shared_engine import dgn, engine

try:  # the report lives beside the engine; `Game.report()` may wrap it
    from shared_engine.report import report as _report
except ImportError:  # pragma: no cover
    _report = None

# Bump when anything derived changes: the library rebuilds its tables.
# 2: the report's rounds say which seats a `fix` corrected and the original.
# 3: a record that is not UTF-8 text is flagged, as `replay` refuses it.
VERSION = 3


class NotText(PipkeeperError):
    """A line of the record is not UTF-8: reported at its line number
    (DECISIONS.md), as `FILE:LINE: message` like an illegal event."""

    def __init__(self, line, message):
        PipkeeperError.__init__(self, message)
        self.line = line


def decode_record(data):
    """The text of a record's bytes; NotText naming the first line that is
    not UTF-8 (and the byte within it, counted from 1)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1
        raise NotText(data.count(b"\n", 0, exc.start) + 1,
                      "this line is not UTF-8 text (byte {} of the line)".format(exc.start - start + 1))


class Derived:
    def __init__(self):
        self.status = "ok"        # ok | rejected
        self.error = None         # the engine's sentence, for a rejected record
        self.error_line = None
        self.game_id = None       # the [Game] tag
        self.tags = {}            # first value(s) of each tag
        self.report = None        # FORMAT.md's replay report (None if rejected early)
        self.seats = []           # one dict per seat, see _seat_stats
        self.warnings = []


def game_report(game):
    rep = getattr(game, "report", None)
    if callable(rep):
        return rep()
    return _report(game)


def _text(data):
    if isinstance(data, str):
        return data
    return data.decode("utf-8", "replace")


def _tags(text):
    """Tags straight from the text, even when the record fails to replay."""
    tags = {}
    for line in text.split("\n"):
        line = line.strip()
        if not line.startswith("["):
            if line and not line.startswith(";"):
                break
            continue
        try:
            name, values = dgn.parse_tag(line)
        except Exception:
            continue
        tags.setdefault(name, values)
    return tags


def tags_of(data):
    """The record's tags (first values by name), whether or not it replays."""
    return _tags(_text(data))


def derive(data):
    """Replay `data` (bytes or str) and collect the library's facts about it."""
    d = Derived()
    text = _text(data)
    d.tags = _tags(text)
    gid = d.tags.get("Game")
    d.game_id = gid[0] if gid else None
    if not isinstance(data, str):
        try:
            decode_record(data)
        except NotText as exc:       # replay's verdict, word for word, not a garbled game
            d.status, d.error_line, d.error = "rejected", exc.line, exc.message
            return d
    try:
        game, feet = _replay_counting_feet(text)
    except Exception:
        # The canonical verdict, word for word what `pipkeeper replay` says.
        try:
            game = dgn.replay(text)
            feet = None
        except dgn.RecordError as exc:
            d.status = "rejected"
            d.error_line = getattr(exc, "line", None)
            d.error = getattr(exc, "message", None) or str(exc)
            return d
        except Exception as exc:  # an engine bug must not lose the record either
            d.status = "rejected"
            d.error = "the engine failed on this record ({}: {})".format(type(exc).__name__, exc)
            return d
    d.report = game_report(game)
    d.warnings = list(getattr(game, "warnings", []) or [])
    d.seats = _seat_stats(game, d.report, feet or [0] * len(d.report["players"]))
    return d


def _replay_counting_feet(text):
    """Replay once, counting chicken feet started per seat on the way.

    A foot starts with a play after which the round wants more toes than
    before. `undo` retracts the latest event still standing, so a stack of
    "who started one" per event follows it. Any failure falls back to
    `dgn.replay` for the exact error, so this never changes a verdict.
    """
    rec = dgn.read(text)
    game = rec.new_game()
    stack = []
    for _no, ev in rec.events:
        if ev[0] == engine.UNDO:
            game.apply(ev)
            if stack:
                stack.pop()
            continue
        before = _toes(game)
        game.apply(ev)
        stack.append(ev[1] if ev[0] == engine.PLAY and _toes(game) > before else None)
    game.warnings = rec.warnings
    game.tags = rec.tags
    feet = [0] * game.n
    for seat in stack:
        if seat is not None:
            feet[seat - 1] += 1
    return game, feet


def _toes(game):
    r = game.round
    return getattr(r, "toes", 0) if r is not None else 0


def _seat_stats(game, report, feet):
    n = len(report["players"])
    rounds = report["rounds"]
    winners = report["winners"] if report["over"] else []
    seats = []
    for s in range(n):
        scores = [r["scores"][s] for r in rounds]
        seats.append({
            "seat": s + 1,
            "player": report["players"][s],
            "total": report["totals"][s],
            "won": 1 if (s + 1) in winners else 0,
            "rounds": len(scores),
            "round_score_sum": sum(scores),
            "rounds_out": sum(1 for r in rounds if r.get("out") == s + 1),
            "feet_started": feet[s],
        })
    return seats
