"""pipkeeper import: records into the library from files, folders and libraries."""

import json

import click

from pipkeeper.errors import PipkeeperError
from pipkeeper.library.intake import import_paths
from pipkeeper.library.store import Library
from pipkeeper.options import db_option, json_option, printable
from pipkeeper.progress import human


@click.command()
@click.argument("paths", nargs=-1, required=True, metavar="FILE...", type=click.Path())
@db_option
@json_option
def command(paths, db, as_json):
    """Take game records into the library from files, as sync takes them from a board.

    FILE is a record (a sheet typed by hand, a .dgn), a folder of records,
    a simulated board's folder (`pipkeeper sim --dir DIR`: its games are
    filed under that board, as `sync` files them), or a library (a
    `pipkeeper backup`, another laptop's library: merged). The same checks
    as sync: a record the engine rejects is kept and flagged; the same game
    twice is kept once; a file that grew is the same game grown. A file that
    cannot be taken (too big, not a file, an unsafe name) is named in one
    line and the others are still taken; the exit status is then 1.
    """
    with Library(db) as library:
        results = import_paths(library, paths)
    entries = [t for _path, _board, taken in results for t in taken]
    if as_json:
        click.echo(json.dumps([{k: printable(v) if isinstance(v, str) else v for k, v in t.as_dict().items()}
                               for t in entries], ensure_ascii=False))
    else:
        _report(results)
    refused = sum(1 for t in entries if t.action == "refused")
    if refused:
        raise PipkeeperError("{} of {} refused (the others were taken)".format(
            refused, _count(len(entries), "file")))


def _count(n, what):
    return "{} {}{}".format(n, what, "" if n == 1 else "s")


def _report(results):
    for path, board, taken in results:
        for t in taken:
            if t.action in ("new", "grown", "replaced"):
                click.echo("{:<8} {:<20} {:>9}  #{}{}".format(
                    t.action, printable(t.name), human(t.size), t.record_id,
                    "  FLAGGED" if t.status == "rejected" else ""))
        for t in taken:
            if t.message:
                click.echo(("refused: " if t.action == "refused" else "") + printable(t.message))
        counts = [(sum(1 for t in taken if t.action == a), a)
                  for a in ("new", "grown", "replaced", "same", "refused")]
        counts.append((sum(1 for t in taken if t.status == "rejected"), "flagged"))
        said = ", ".join("{} {}".format(n, w) for n, w in counts if n) or "no records"
        where = printable(path) + (" ({})".format(printable(board)) if board and board.startswith("sim-")
                                   else "")
        click.echo("{} from {}".format(said, where))
