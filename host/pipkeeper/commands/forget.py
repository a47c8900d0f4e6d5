"""pipkeeper forget: remove a game from the library."""

import sys
import time

import click

from pipkeeper.errors import PipkeeperError
from pipkeeper.library.store import BIN_DAYS, Library
from pipkeeper.options import complete_game, db_option, printable
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
@click.argument("game", required=False, shell_complete=complete_game)
@db_option
@click.option("--yes", "-y", is_flag=True, help="Forget without asking.")
@click.option("--undo", is_flag=True,
              help="Take back the game forgotten last (or GAME, its number then), with its copies.")
@click.option("--list", "as_list", is_flag=True, help="List the games forgotten that --undo can take back.")
def command(game, db, yes, undo, as_list):
    """Forget GAME (its number in `pipkeeper games`, its [Game] id or file name).

    The record and the copies of it the library keeps as duplicates go, in
    one transaction; statistics and exports no longer count it. A board that
    still holds the file keeps it, and sync leaves it there unless it grows
    (a game played on). Asks first, unless --yes.

    What forget removes is kept for 30 days: `forget --undo` takes the
    last one back (`--undo GAME` another; `--list` lists them), with its
    number where no game has taken it since.
    """
    if undo and as_list:
        raise click.UsageError("--undo or --list, not both")
    if as_list:
        _list(db)
        return
    if undo:
        _undo(db, game)
        return
    if game is None:
        raise click.UsageError("missing argument 'GAME'")
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


def _list(db):
    with Library(db, read_only=True) as library:
        binned = library.binned()
    if not binned:
        click.echo("no game forgotten in the last {} days".format(BIN_DAYS))
        return
    for b in binned:
        what = "{}: {}".format(b["rules"], ", ".join(b["players"])) if b["status"] == "ok" else "FLAGGED"
        click.echo(printable("game {} ({}; {}){}: forgotten {}, kept until {}".format(
            b["game"], b["game_id"] or b["file"], what,
            " and {}".format(counted(b["copies"], "duplicate")) if b["copies"] else "",
            _day(b["forgotten"]), _day(b["until"]))))


def _undo(db, game):
    if game is not None and not str(game).strip().isdigit():
        raise click.UsageError("--undo takes the number the game had (see `pipkeeper forget --list`)")
    with Library(db, read_only=True):     # no library: said, and none made
        pass
    with Library(db) as library:
        back = library.restore(int(game) if game is not None else None)
        rec = library.record(back[0][1])
    old, new = back[0]
    said = describe(rec)
    moved = "" if old == new else " (its number {} is another game's now)".format(old)
    copies = len(back) - 1
    click.echo("took back {}{}{}".format(said, moved, " and {} of it".format(counted(copies, "duplicate")) if copies else ""))


def _day(t):
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))
