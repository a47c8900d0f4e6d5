"""pipkeeper games: list the games in the library."""

import json

import click

from pipkeeper.library import Library
from pipkeeper.options import db_option, json_option, printable


def state_of(g):
    if g["status"] == "rejected":
        return "FLAGGED"
    if g["over"]:
        return "over"
    return "in play"


@click.command()
@db_option
@json_option
@click.option("--all", "show_all", is_flag=True, help="Include duplicates of games listed once.")
def command(db, as_json, show_all):
    """List the games in the library, oldest first.

    A FLAGGED game is a record the engine rejects, kept verbatim; `pipkeeper
    show` names the line and the reason.
    """
    with Library(db) as library:
        games = library.games(include_hidden=show_all)
    if as_json:
        click.echo(json.dumps(games, ensure_ascii=False))
        return
    if not games:
        click.echo("no games yet: `pipkeeper sync` pulls them from the board")
        return
    rows = [("#", "game", "rules", "players", "rounds", "state", "winner")]
    for g in games:
        rows.append(tuple(printable(c) for c in (
            str(g["id"]), g["game_id"] or g["file"], g["rules"] or "?", ", ".join(g["players"]) or "?",
            "" if g["rounds"] is None else str(g["rounds"]), state_of(g), ", ".join(g["winners"]))))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        click.echo("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
