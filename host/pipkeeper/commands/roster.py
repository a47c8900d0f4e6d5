"""pipkeeper roster: the player names and default options on the board."""

import click

from pipkeeper import i18n
from pipkeeper.board import link, roster
from pipkeeper.options import answered, as_usage, json_option, port_option
from pipkeeper.wording import counted


@click.command()
@click.argument("names", nargs=-1)
@port_option
@click.option("--rules", default=None, metavar="NAME",
              help="A preset (chickenfoot, chickenfoot-cross, chicken-scratch, mexican-train): the "
                   "board's default; any other NAME is a named set of house rules (\"Thursday "
                   "club\") for the preset --preset names, with the --option values given, which "
                   "the board's House rules page offers.")
@click.option("--preset", default=None, metavar="PRESET",
              help="The preset of the named set --rules NAME (needed for a new set).")
@click.option("--remove-rules", "remove", default=None, metavar="NAME", help="Remove the named set NAME.")
@click.option("--tracking", type=click.Choice(roster.TRACKING), default=None, help="Default tracking level.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="An option of RULES.md (repeatable), e.g. start_trains=5 or a house rule such "
                   "as double_blank=25 (`pipkeeper rules` lists them all): a default, or with "
                   "--rules NAME one of that set's house rules; "
                   "idle=N: the minutes the board on battery waits asleep during a game "
                   "before it switches off (0 to 60, 0: after every press; default 5); "
                   "refresh=clean|fast: the screen, fast leaves out the full refresh inside a "
                   "round (default clean).")
@click.option("--lang", default=None, type=click.Choice(i18n.LANGS),
              help="The board's language: en, cy (Welsh), ga (Irish), sv (Swedish), mn (Mongolian), fa (Persian).")
@json_option
def command(names, port, rules, preset, remove, tracking, options, lang, as_json):
    """Push player NAMES and default options to the board; with none, show the board's roster.

    Names given replace the board's list; options given are added to its
    defaults. `--rules NAME --preset PRESET --option KEY=VALUE ...` names a
    set of house rules the board offers at set-up (given again, it is
    replaced). The file is written atomically on the board.
    """
    # what was typed, checked before the board is touched: a refusal is a usage error
    from shared_engine import presets
    set_name = None
    if rules is not None and rules not in presets.PRESETS:
        set_name, rules = as_usage(roster.check_set_name, rules), None     # a named set of house rules
        if preset is None and not options:
            # (no set to make or add to: a preset mistyped, most likely)
            raise click.UsageError(roster.unknown_rules(set_name))
        if tracking or lang:
            raise click.UsageError("--tracking and --lang are the board's defaults: push them apart "
                                   "from the rule set {!r}".format(set_name))
    elif preset is not None:
        raise click.UsageError("--preset goes with --rules NAME, a named set of house rules "
                               "(a preset's own name makes it the board's default)")
    if remove is not None and set_name is not None:
        raise click.UsageError("--remove-rules and --rules NAME: one at a time")
    if names:
        names = as_usage(roster.check_names, names)
    pairs = as_usage(roster.parse_options, options)
    if set_name is not None:
        defaults = as_usage(roster.check_defaults, None, None,
                            {k: v for k, v in pairs.items() if k in ("idle", "refresh")})
        for k in ("idle", "refresh"):
            pairs.pop(k, None)
        if preset is not None:
            as_usage(roster.check_set, set_name, preset, pairs)
    else:
        defaults = as_usage(roster.check_defaults, rules, tracking, pairs)
    if lang:
        defaults["lang"] = roster.check_lang(lang)
    with link.connect(port) as board:
        current = roster.read(board)
        changed = bool(names or defaults)
        if names or defaults:
            current = roster.merge(current, names, defaults)
        if set_name is not None:
            old = roster.find_set(current, set_name)
            if preset is None and old is None:
                raise click.UsageError(roster.unknown_rules(set_name))
            opts = dict(old["options"]) if old is not None and preset in (None, old["rules"]) else {}
            opts.update(pairs)
            current = roster.put_set(roster.merge(current), roster.check_set(
                set_name, preset or old["rules"], opts))
            changed = True
        if remove is not None:
            current = roster.remove_set(roster.merge(current), remove)
            changed = True
        if changed:
            size = roster.push(board, current)
            settings = {k: defaults[k] for k in ("lang", "idle", "refresh") if k in defaults}
            if settings or any(k in defaults for k in ("rules", "tracking", "options")):
                roster.push_settings(board, settings, defaults)
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
    for s in current.get("sets") or ():
        click.echo("rules {!r} ({}): {}".format(s["name"], s["rules"], ", ".join(
            "{}={}".format(k, v) for k, v in sorted(s["options"].items())) or "the preset's own"))
