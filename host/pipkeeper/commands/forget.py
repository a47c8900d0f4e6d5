"""pipkeeper forget: remove a game from the library."""

import sys

import click

from pipkeeper.errors import PipkeeperError
from pipkeeper.library.store import Library
from pipkeeper.options import db_option, printable
from pipkeeper.wording import counted


def describe(rec):
    """One game in a few words, for the question and the answer."""
    report = rec.get("report") or {}
    what = [rec["game_id"] or rec["name"]]
    if report:
        what.append("{}: {}".format(report.get("rules"), ", ".join(report.get("players") or [])))
        rounds = len(report.get("rounds") or [])
        what.append(counted(rounds, "round"))
    else:
        what.append("FLAGGED")
    return printable("game {} ({})".format(rec["id"], "; ".join(what)))


def can_ask():
    """Whether there is a person at a terminal to answer the question."""
    return sys.stdin.isatty()


@click.command()
@click.argument("game")
@db_option
@click.option("--yes", "-y", is_flag=True, help="Forget without asking.")
def command(game, db, yes):
    """Forget GAME (its number in `pipkeeper games`, its [Game] id or file name).

    The record and the copies of it the library keeps as duplicates go, in
    one transaction; statistics and exports no longer count it. A board that
    still holds the file keeps it, and sync leaves it there unless it grows
    (a game played on). Asks first, unless --yes.
    """
    with Library(db, read_only=True) as library:
        rec = library.find(game)
    said = describe(rec)
    if not yes:
        if not can_ask():
            raise PipkeeperError("forget asks before it forgets {}: add --yes to forget it without "
                                 "asking".format(said))
        if not click.confirm("forget {}?".format(said), default=False):
            raise PipkeeperError("nothing forgotten")
    with Library(db) as library:
        ids = library.forget(rec["id"])
    copies = len(ids) - 1
    click.echo("forgot {}{}".format(said, " and {} of it".format(counted(copies, "duplicate"))
                                    if copies else ""))
