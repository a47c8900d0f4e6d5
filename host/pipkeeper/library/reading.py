"""Reading a game record's bytes as `pipkeeper replay` does: UTF-8 checked
line by line, the engine's replay, and the warnings (a torn last line).
The replay command, `show` and the power-cut judge all read records this
way, so what one of them calls clean the others do too."""

from pipkeeper.files import read_limited
# NotText and decode_record live in derive (the library flags such a record
# with replay's own sentence); replay and the power-cut judge take them here.
from pipkeeper.library.derive import NotText, decode_record, game_report  # noqa: F401
from pipkeeper.library.store import MAX_RECORD


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
