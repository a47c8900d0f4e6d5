"""pipkeeper stats: per-player statistics over the library."""

import click

from pipkeeper.library.store import Library
from pipkeeper.options import NO_GAMES, answered, db_option, json_option, printable

COLUMNS = (("player", "player"), ("games", "games"), ("wins", "wins"),
           ("average_round_score", "avg round"), ("rounds_out", "went out"),
           ("feet_started", "feet started"))


@click.command()
@db_option
@json_option
def command(db, as_json):
    """Per player: games, wins, average round score, rounds gone out, chicken feet started.

    Players are matched by name. Flagged records and duplicates are left out.
    """
    with Library(db, read_only=True) as library:
        stats = library.stats()
    if answered(stats, as_json, NO_GAMES):
        return
    from pipkeeper.library.tables import Column, show, terminal_console

    columns = [Column(label, justify="left" if key == "player" else "right",
                      style="bold" if key == "player" else None) for key, label in COLUMNS]
    rows = [[printable(s[k]) if k == "player" else _number(s[k]) for k, _ in COLUMNS] for s in stats]
    show(columns, rows, console=terminal_console())


def _number(value):
    if value is None:
        return ""
    return "{:.1f}".format(value) if isinstance(value, float) else str(value)
