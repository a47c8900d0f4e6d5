"""pipkeeper rules: every option a table can set, its values, its default per preset, its source."""

import click

from pipkeeper.errors import PipkeeperError
from pipkeeper.library.house_rules import PRESETS, table
from pipkeeper.options import answered, json_option

# The presets' names in the defaults line, short.
SHORT = {"chickenfoot": "chickenfoot", "chickenfoot-cross": "cross",
         "chicken-scratch": "scratch", "mexican-train": "mexican"}


@click.command()
@click.argument("names", nargs=-1, metavar="[OPTION]...")
@json_option
def command(names, as_json):
    """List every option a table can set: its values, its default in each
    preset (`-` where it does not apply), what it does and where it comes
    from.

    `pipkeeper roster --option KEY=VALUE` sets one as the board's default;
    a record says it as `[Option "KEY" "VALUE"]` (docs/RULES.md has each
    rule exactly).
    """
    rows = table()
    if names:
        known = [r["option"] for r in rows]
        for n in names:
            if n not in known:
                import difflib
                near = difflib.get_close_matches(n, known, n=2, cutoff=0.6)
                raise PipkeeperError("no option {!r}{}".format(
                    n, "; did you mean {}?".format(" or ".join(near)) if near else ""))
        rows = [r for r in rows if r["option"] in names]
    if answered(rows, as_json, "no options"):
        return
    for i, r in enumerate(rows):
        if i:
            click.echo()
        click.echo("{}  {}".format(click.style(r["option"], bold=True), r["values"]))
        click.echo("  " + r["about"])
        click.echo("  defaults: " + ", ".join(
            "{} {}".format(SHORT[p], _shown(r, p)) for p in PRESETS))
        click.echo("  from: " + r["source"])


def _shown(row, preset):
    """The default in one preset: "-" where the option does not apply."""
    if preset not in row["applies"]:
        return "-"
    value = row["defaults"][preset]
    return "(from the set)" if value is None else value
