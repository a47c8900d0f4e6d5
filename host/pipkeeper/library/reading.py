"""Reading a game record's bytes as `pipkeeper replay` does: UTF-8 checked
line by line, the engine's replay, and the warnings (a torn last line).
The replay command, `show` and the power-cut judge all read records this
way, so what one of them calls clean the others do too."""

from pipkeeper.errors import PipkeeperError
from pipkeeper.files import read_limited
from pipkeeper.library.derive import game_report
from pipkeeper.library.store import MAX_RECORD


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


def read_record_text(path):
    """The text of a DGN file (`-` is stdin); PipkeeperError if unreadable
    or too big, NotText if a line is not UTF-8."""
    return decode_record(read_limited(path, MAX_RECORD, "game record"))


def record_warnings(dgn, game, text):
    """Warnings about the record (a torn last line), whichever object has them."""
    warnings = getattr(game, "warnings", None)
    if warnings is None:
        try:
            warnings = dgn.read(text).warnings
        except Exception:  # the replay succeeded; a second read is only for warnings
            warnings = []
    return list(warnings or [])


def replay_text(dgn, text):
    """(report, warnings, tags) of a record; raises dgn.RecordError on an illegal event."""
    game = dgn.replay(text)
    return game_report(game), record_warnings(dgn, game, text), getattr(game, "tags", None)
