"""pipkeeper export: the library as CSV, JSON or an HTML report, or the league as a page."""

import click

from pipkeeper.files import write_atomically
from pipkeeper.library import export
from pipkeeper.library.store import Library
from pipkeeper.options import db_option, filters_of, game_filters
from pipkeeper.wording import counted


@click.command()
@click.option("--format", "fmt", type=click.Choice(export.FORMATS), default="html", show_default=True,
              help="csv: a row per player per round; json: reports and records; html: a report page.")
@click.option("--league", is_flag=True,
              help="The league as a page (with --format html): the table, each player's rating "
                   "over time, head to head, the best nights.")
@click.option("--min-games", type=click.IntRange(min=0), default=0, metavar="N",
              help="With --league: list only the players with N games or more.")
@game_filters
@click.option("--output", "-o", metavar="FILE", default=None,
              help="Write to FILE (whole or not at all) instead of standard output.")
@db_option
def command(fmt, league, min_games, since, until, rules, event, players, games, output, db):
    """Export the library: score sheets, score-progression charts and player statistics.

    The filters choose the games (--game, --since/--until, --player,
    --rules, --event); the player statistics are the league's over the
    finished games among them (`pipkeeper stats`).
    """
    filters = filters_of(since, until, rules, event, players, games)
    with Library(db, read_only=True) as library:
        text = export.export(library, fmt, filters, league=league, min_games=min_games)
    if output:
        write_atomically(output, text)
        click.echo("wrote {} ({})".format(output, counted(len(text.encode("utf-8")), "byte")))
    else:
        click.echo(text, nl=False)
