"""pipkeeper export: the library as CSV, JSON or an HTML report."""

import click

from pipkeeper.files import write_atomically
from pipkeeper.library import export
from pipkeeper.library.store import Library
from pipkeeper.options import db_option
from pipkeeper.wording import counted


@click.command()
@click.option("--format", "fmt", type=click.Choice(export.FORMATS), default="html", show_default=True,
              help="csv: a row per player per round; json: reports and records; html: a report page.")
@click.option("--output", "-o", metavar="FILE", default=None,
              help="Write to FILE (whole or not at all) instead of standard output.")
@db_option
def command(fmt, output, db):
    """Export the library: score sheets, score-progression charts and player statistics."""
    with Library(db, read_only=True) as library:
        text = export.export(library, fmt)
    if output:
        write_atomically(output, text)
        click.echo("wrote {} ({})".format(output, counted(len(text.encode("utf-8")), "byte")))
    else:
        click.echo(text, nl=False)
