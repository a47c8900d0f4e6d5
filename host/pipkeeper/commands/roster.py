"""pipkeeper roster: the player names and default options on the board."""

import click

from pipkeeper import i18n
from pipkeeper.board import link, roster
from pipkeeper.options import answered, as_usage, json_option, port_option
from pipkeeper.wording import counted


@click.command()
@click.argument("names", nargs=-1)
@port_option
@click.option("--rules", default=None, help="Default preset (chickenfoot, chickenfoot-cross, ...).")
@click.option("--tracking", type=click.Choice(roster.TRACKING), default=None, help="Default tracking level.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A default option of RULES.md (repeatable), e.g. start_trains=5; "
                   "idle=N: the minutes the board on battery waits asleep during a game "
                   "before it switches off (0 to 60, 0: after every press; default 5); "
                   "refresh=clean|fast: the screen, fast leaves out the full refresh inside a "
                   "round (default clean).")
@click.option("--lang", default=None, type=click.Choice(i18n.LANGS),
              help="The board's language: en, cy (Welsh), ga (Irish), sv (Swedish), mn (Mongolian), fa (Persian).")
@json_option
def command(names, port, rules, tracking, options, lang, as_json):
    """Push player NAMES and default options to the board; with none, show the board's roster.

    Names given replace the board's list; options given are added to its
    defaults. The file is written atomically on the board.
    """
    # what was typed, checked before the board is touched: a refusal is a usage error
    if names:
        names = as_usage(roster.check_names, names)
    defaults = as_usage(roster.check_defaults, rules, tracking, as_usage(roster.parse_options, options))
    if lang:
        defaults["lang"] = roster.check_lang(lang)
    with link.connect(port) as board:
        current = roster.read(board)
        if names or defaults:
            current = roster.merge(current, names, defaults)
            size = roster.push(board, current)
            settings = {k: defaults[k] for k in ("lang", "idle", "refresh") if k in defaults}
            if settings:
                roster.push_settings(board, settings)
            if not as_json:
                click.echo("roster written to the board ({})".format(counted(size, "byte")))
    if answered(current, as_json, "the board has no roster: it uses its built-in one"):
        return
    click.echo("players: {}".format(", ".join(current.get("names") or []) or "(none)"))
    for key, value in sorted((current.get("defaults") or {}).items()):
        if key == "options":
            for k, v in sorted(value.items()):
                click.echo("option {} = {}".format(k, v))
        else:
            click.echo("{}: {}".format(key, value))
