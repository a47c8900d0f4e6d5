"""Options shared by the board and library commands, spelled once."""

import json

import click

from pipkeeper.board.ports import ENV_VAR
from pipkeeper.library.store import DB_ENV

port_option = click.option(
    "--port", "-p", metavar="PORT", default=None,
    help="Serial port of the board (default: ${}, else the board found by USB id).".format(ENV_VAR))

db_option = click.option(
    "--db", metavar="FILE", default=None,
    help="The library file (default: ${}, else library.sqlite3 in your data folder).".format(DB_ENV))

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")


def printable(text):
    """Text from a board or a record, safe to print on a terminal: control
    characters (an escape sequence in a player's name) become '?'."""
    return "".join("?" if (ord(c) < 32 or 0x7F <= ord(c) < 0xA0) else c for c in str(text))


NO_GAMES = "no games yet: `pipkeeper sync` pulls them from the board"


def answered(data, as_json, nothing):
    """The first answer of every listing command: with --json, `data` as
    one line of JSON; with nothing to list, the sentence `nothing`. True
    when that answered (the command is done), False when the listing is
    for a person and not empty."""
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False))
        return True
    if not data:
        click.echo(nothing)
        return True
    return False
