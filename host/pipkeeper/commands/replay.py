"""pipkeeper replay: validate and score game records."""

import json

import click

from pipkeeper.errors import PipkeeperError
from pipkeeper.library.reading import NotText, read_record_text, replay_text
from pipkeeper.library.sheet import print_sheet
from pipkeeper.library.tables import terminal_console


def _load_engine():
    try:
        from shared_engine import dgn
    except ImportError as exc:
        raise PipkeeperError("the game engine is not available ({})".format(exc))
    return dgn


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
