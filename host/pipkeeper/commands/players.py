"""pipkeeper players: the library's players, renamed and joined."""

import click

from pipkeeper.library.players import Players
from pipkeeper.library.store import Library
from pipkeeper.options import NO_GAMES, Group, answered, db_option, json_option, printable


@click.group(cls=Group, invoke_without_command=True)
@db_option
@json_option
@click.pass_context
def command(ctx, db, as_json):
    """List the players (names with their games); `rename` and `merge` them.

    A player is a name, the same on every board: names are compared as
    people write them (case, the Unicode spellings of one letter, Persian
    joiners and Arabic or Persian yeh and kaf; docs/PRODUCT.md). A rename
    or a merge is kept in the library and changes no record.
    """
    if ctx.invoked_subcommand is not None:
        return
    with Library(db, read_only=True) as library:
        rows = Players.of(library).listing()
    if answered(rows, as_json, NO_GAMES):
        return
    from pipkeeper.library.tables import Column, show, terminal_console

    columns = [Column("player", style="bold"), Column("games", justify="right", wrap=False),
               Column("written")]
    show(columns, [[printable(r["player"]), str(r["games"]),
                    printable(", ".join(w for w in r["spellings"] if w != r["player"]))] for r in rows],
         console=terminal_console())


def _change(db, what, *names):
    with Library(db, read_only=True) as library:     # no library: said, and none made
        rows = getattr(Players.of(library), what)(*names)
    with Library(db) as library:
        library.set_player_names(rows)
        return Players.of(library)


@command.command("rename")
@click.argument("old")
@click.argument("new")
@db_option
def rename(old, new, db):
    """Show player OLD as NEW from now on, in every game (no record changes)."""
    db = db or click.get_current_context().parent.params["db"]
    players = _change(db, "rename", old, new)
    click.echo("{} is now {}".format(printable(old), printable(players.shown(new))))


@command.command("merge")
@click.argument("alias")
@click.argument("name")
@db_option
def merge(alias, name, db):
    """Count player ALIAS as NAME: "Anne" joined to "Ann" (no record changes).

    Refused when both sat at one game: two people, not one.
    """
    db = db or click.get_current_context().parent.params["db"]
    players = _change(db, "merge", alias, name)
    click.echo("{} is now counted as {}".format(printable(alias), printable(players.shown(name))))
