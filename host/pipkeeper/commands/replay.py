"""pipkeeper replay: validate and score game records."""

import json

import click

from pipkeeper.errors import PipkeeperError
from pipkeeper.files import read_limited
from pipkeeper.library.sheet import print_sheet
from pipkeeper.library.store import MAX_RECORD
from pipkeeper.library.tables import terminal_console


def _load_engine():
    try:
        from shared_engine import dgn
    except ImportError as exc:
        raise PipkeeperError("the game engine is not available ({})".format(exc))
    return dgn


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


def game_report(game):
    """The FORMAT.md report dict of a Game (`Game.report()`, or `report.report(game)`)."""
    method = getattr(game, "report", None)
    if callable(method):
        return method()
    from shared_engine.report import report

    return report(game)


def replay_text(dgn, text):
    """(report, warnings, tags) of a record; raises dgn.RecordError on an illegal event."""
    game = dgn.replay(text)
    return game_report(game), record_warnings(dgn, game, text), getattr(game, "tags", None)


@click.command()
@click.option("--json", "as_json", is_flag=True,
              help="Print the report object (FORMAT.md) instead of the score sheet, one line per "
                   "file, with its \"file\"; a file that cannot be replayed gets {\"file\", "
                   "\"error\": {\"line\", \"message\"}}.")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
def command(as_json, files):
    """Validate and score game records (DGN files; `-` reads stdin).

    Prints each game's score sheet: the rounds, the totals, the winner and
    the tie-break that decided it, and the state of a round in progress.
    The first illegal event of a file is reported as FILE:LINE: message and
    the exit status is 1.
    """
    dgn = _load_engine()
    failed = False
    for i, path in enumerate(files):
        name = "<stdin>" if path == "-" else path
        try:
            text = read_record_text(path)
            report, warnings, tags = replay_text(dgn, text)
        except (NotText, dgn.RecordError) as exc:
            line = getattr(exc, "line", None)
            message = getattr(exc, "message", None) or str(exc)
            where = name if line is None else "{}:{}".format(name, line)
            click.echo("{}: {}".format(where, message), err=True)
            _json_error(as_json, name, line, message)
            failed = True
            continue
        except PipkeeperError as exc:
            click.echo("pipkeeper: {}".format(exc.message), err=True)
            _json_error(as_json, name, None, _without(exc.message, path))
            failed = True
            continue
        for warning in warnings:
            click.echo("{}: warning: {}".format(name, warning), err=True)
        if as_json:
            click.echo(json.dumps(dict({"file": name}, **report), ensure_ascii=False))
        else:
            if len(files) > 1:
                click.echo("{}==> {} <==".format("\n" if i else "", name))
            print_sheet(report, tags, terminal_console())
    if failed:
        raise click.exceptions.Exit(1)


def _json_error(as_json, name, line, message):
    """With --json, a file that cannot be replayed has its line too: an
    error object (FORMAT.md, "The replay report"), so that a program reading
    one line per file sees every file it named."""
    if as_json:
        click.echo(json.dumps({"file": name, "error": {"line": line, "message": message}},
                              ensure_ascii=False))


def _without(message, path):
    """The message without the file's name it starts with (the error
    object names the file already)."""
    return message[len(path) + 2:] if message.startswith(path + ": ") else message
