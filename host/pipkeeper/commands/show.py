"""pipkeeper show: one game's score sheet, from the library."""

import json

import click

from pipkeeper.errors import PipkeeperError
from pipkeeper.library.store import Library
from pipkeeper.options import complete_game, db_option, json_option, printable


@click.command()
@click.argument("game", shell_complete=complete_game)
@db_option
@json_option
@click.option("--dgn", "as_dgn", is_flag=True, help="Print the record itself (DGN), verbatim.")
def command(game, db, as_json, as_dgn):
    """Print the score sheet of GAME (its number in `pipkeeper games`, its [Game] id or file name).

    The sheet is made from the stored record, exactly as `pipkeeper replay`
    makes it from the file.
    """
    from pipkeeper.commands.replay import _load_engine, replay_text
    from pipkeeper.library.sheet import print_sheet
    from pipkeeper.library.tables import terminal_console

    with Library(db, read_only=True) as library:
        rec = library.find(game)
    if as_dgn:
        out = click.get_binary_stream("stdout")    # verbatim: bytes that are not UTF-8 too
        out.write(rec["dgn"])
        out.flush()
        return
    if rec["status"] == "rejected":
        where = "line {}: ".format(rec["error_line"]) if rec["error_line"] else ""
        raise PipkeeperError("game {} ({}) is flagged: {}{} (`--dgn` prints the record)".format(
            rec["id"], printable(rec["name"]), where, rec["error"]))
    dgn = _load_engine()
    report, warnings, tags = replay_text(dgn, rec["dgn"].decode("utf-8", "replace"))
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False))
        return
    print_sheet(report, tags, terminal_console())
