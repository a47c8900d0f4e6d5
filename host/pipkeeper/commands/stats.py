"""pipkeeper stats: per-player statistics over the library."""

import json

import click

from pipkeeper.library import Library
from pipkeeper.options import db_option, json_option, printable

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
    with Library(db) as library:
        stats = library.stats()
    if as_json:
        click.echo(json.dumps(stats, ensure_ascii=False))
        return
    if not stats:
        click.echo("no games yet: `pipkeeper sync` pulls them from the board")
        return
    rows = [[label for _, label in COLUMNS]]
    for s in stats:
        rows.append([printable(s[k]) if k == "player" else "" if s[k] is None else ("{:.1f}".format(s[k]) if isinstance(s[k], float) else str(s[k]))
                     for k, _ in COLUMNS])
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]
    for r in rows:
        click.echo("  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i])
                             for i, c in enumerate(r)).rstrip())
