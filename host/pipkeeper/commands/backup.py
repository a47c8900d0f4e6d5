"""pipkeeper backup: a copy of the library, safe while a sync runs."""

import click

from pipkeeper.library.backup import backup
from pipkeeper.library.store import Library
from pipkeeper.options import db_option


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@db_option
def command(file, db):
    """Copy the library to FILE, whole, even while a sync writes to it.

    SQLite's online backup: the copy is the library as it was at one
    instant. It is a library itself: `--db FILE` reads it, `pipkeeper
    import FILE` merges it into another. An older backup at FILE is
    replaced; any other file there is left alone.
    """
    with Library(db, read_only=True) as library:
        records = backup(library, file)
    click.echo("backed up {} record{} to {}".format(records, "" if records == 1 else "s", file))
