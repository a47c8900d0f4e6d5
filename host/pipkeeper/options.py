"""Options shared by the board and library commands, spelled once; the
command group they hang in (one for `pipkeeper`, one for `pipkeeper bench`)."""

import json

import click

from pipkeeper.board.ports import ENV_VAR
from pipkeeper.errors import PipkeeperError
from pipkeeper.library.store import DB_ENV
from pipkeeper.wording import did_you_mean

port_option = click.option(
    "--port", "-p", metavar="PORT", default=None,
    help="Serial port of the board (default: ${}, else the board found by USB id).".format(ENV_VAR))

db_option = click.option(
    "--db", metavar="FILE", default=None,
    help="The library file (default: ${}, else library.sqlite3 in your data folder).".format(DB_ENV))

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")


def as_usage(check, *args):
    """``check(*args)``, a check of what the user typed: its refusal (a
    PipkeeperError) is a command used wrongly, one line with the command's
    help named and exit status 2, as the README says of usage errors."""
    try:
        return check(*args)
    except PipkeeperError as exc:
        raise click.UsageError(exc.message) from None


def check_build(ctx, param, value):
    """The callback of a --board option: a build of hardware/profiles/
    (None stays None), refused as a usage error with the nearest names."""
    if value is None:
        return value
    from pipkeeper.board import flash
    try:
        return flash.check_build(value)
    except PipkeeperError as exc:
        raise click.UsageError(exc.message, ctx) from None


def printable(text):
    """Text from a board or a record, safe to print on a terminal: control
    characters (an escape sequence in a player's name) become '?', and so
    does a byte of a file's name that is not UTF-8 (Python's lone surrogate)."""
    return "".join("?" if (ord(c) < 32 or 0x7F <= ord(c) < 0xA0 or 0xD800 <= ord(c) < 0xE000) else c
                   for c in str(text))


NO_GAMES = "no games yet: `pipkeeper sync` pulls them from the board"


def answered(data, as_json, nothing):
    """The first answer of every listing command: with --json, `data` as
    one line of JSON; with nothing to list, the sentence `nothing`. True
    when that answered (the command is done), False when the listing is
    for a person and not empty."""
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False))
        return True
    if not data:
        click.echo(nothing)
        return True
    return False


class Group(click.Group):
    """A click group whose help lists each command's first sentence whole
    (wrapped to the terminal, where click cuts it at one line with "..."),
    and which answers a mistyped command with the names nearest to it."""

    def format_commands(self, ctx, formatter):
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit=1000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def resolve_command(self, ctx, args):
        name = click.utils.make_str(args[0])
        if (not ctx.resilient_parsing and not name.startswith("-")
                and self.get_command(ctx, name) is None):
            raise click.UsageError("no such command {!r}{}".format(
                name, self._help_hint(ctx, args) if name == "help"
                else did_you_mean(name, self.list_commands(ctx))), ctx)
        return super().resolve_command(ctx, args)

    def _help_hint(self, ctx, args):
        """`pipkeeper help [COMMAND]`, as git has it: the help is --help."""
        path = ctx.command_path
        if len(args) > 1 and self.get_command(ctx, args[1]) is not None:
            path += " " + args[1]
        return "; did you mean `{} --help`?".format(path)

# -- the library's games: which ones (league and export), and completing a number -----

def complete_game(ctx, param, incomplete):
    """Shell completion of a game (`show`, `forget`, `export --game`): the
    library's game numbers, with the [Game] id and players as their help.
    Completion never fails aloud: no library, no numbers."""
    from click.shell_completion import CompletionItem
    from pipkeeper.library.store import Library

    try:
        with Library(ctx.params.get("db"), read_only=True) as library:
            games = library.games()
    except Exception:
        return []
    items = []
    for g in games:
        number = str(g["id"])
        if number.startswith(incomplete):
            about = "{} {}".format(g["game_id"] or g["file"], ", ".join(g["players"]))
            items.append(CompletionItem(number, help=printable(about)))
    return items


def _date(ctx, param, value):
    return value.date() if value is not None else None


def game_filters(command):
    """--since, --until, --rules, --event, --player, --game: the games a
    league or an export takes (pipkeeper.library.league.Filters)."""
    from shared_engine import presets

    options = [
        click.option("--since", type=click.DateTime(formats=["%Y-%m-%d"]), callback=_date, metavar="DATE",
                     help="Games on or after DATE (YYYY-MM-DD; a record's [Date], else the day the "
                          "library first had it)."),
        click.option("--until", type=click.DateTime(formats=["%Y-%m-%d"]), callback=_date, metavar="DATE",
                     help="Games on or before DATE."),
        click.option("--rules", type=click.Choice(presets.NAMES), default=None,
                     help="Games of this preset only."),
        click.option("--event", metavar="NAME", default=None,
                     help="Games whose [Event] is NAME (compared as names are: case and spelling)."),
        click.option("--player", "players", metavar="NAME", multiple=True,
                     help="Games NAME sat at (repeat: games they all sat at)."),
        click.option("--game", "games", metavar="GAME", multiple=True, type=int,
                     shell_complete=complete_game, help="Only game number GAME (repeatable)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def filters_of(since, until, rules, event, players, games):
    from pipkeeper.library.league import Filters
    return Filters(since=since, until=until, rules=rules, event=event, players=players, games=games)
