"""pipkeeper games: list the games in the library."""

import click

from pipkeeper.library.store import Library, is_imported
from pipkeeper.options import NO_GAMES, answered, db_option, json_option, printable


# How a terminal shows a game's state (plain text shows the word alone).
STATE_STYLES = {"FLAGGED": "bold red", "over": "green", "in play": "yellow"}


def source_of(g):
    """Where a game came from: a simulated board, files (`import`), a board."""
    return "sim" if g["simulated"] else "file" if is_imported(g["board"]) else "board"


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

    "from" tells a simulated board's games (`pipkeeper sim`) from a real
    board's, and both from records taken from files (`pipkeeper import`). A FLAGGED game is a record the engine rejects, kept verbatim;
    `pipkeeper show` names the line and the reason; `pipkeeper forget`
    removes a game.
    """
    with Library(db, read_only=True) as library:
        games = library.games(include_hidden=show_all)
    if answered(games, as_json, NO_GAMES):
        return
    from pipkeeper.library.tables import Column, show, terminal_console
    from rich.text import Text

    console = terminal_console()
    columns = [Column("#", style="dim", wrap=False), Column("game", style="bold", wrap=False),
               Column("from", wrap=False), Column("rules", wrap=False), Column("players", names="cells"),
               Column("rounds", justify="right" if console else "left", wrap=False),
               Column("state", wrap=False), Column("winner", style="bold green", names="cells")]
    rows = []
    for g in games:
        state = state_of(g)
        rows.append([printable(c) for c in (
            g["id"], g["game_id"] or g["file"], source_of(g),
            g["rules"] or "?", ", ".join(g["players"]) or "?",
            "" if g["rounds"] is None else g["rounds"])]
            + [Text(state, style=STATE_STYLES.get(state)), printable(", ".join(g["winners"]))])
    show(columns, rows, console=console)
