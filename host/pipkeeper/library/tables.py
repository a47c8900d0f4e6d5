"""Tables for people (`games`, `stats`, the score sheet), drawn by rich.

One description of a table, two renderings, both by rich's `Table`:

- on a terminal: a rule under the header and above the footer, the header
  in bold, names and numbers coloured, cells measured by their width on
  screen (wide characters included) and fitted to the terminal;
- anywhere else (a pipe, a file, CI): plain text that scripts and golden
  tests can rely on, the same on every machine: no colour, no box, columns
  two spaces apart, never wrapped or cut to a terminal's width, no trailing
  blanks. It is what `pipkeeper` printed before rich drew its tables.

`--json` never comes here.
"""

import io
import sys

import click
from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

# Between two columns on a terminal: a blank of padding and the box's blank rule.
_GAP = 2
# Plain text is never wrapped: a line as wide as its table.
_PLAIN_WIDTH = 100000


def terminal_console(stream=None):
    """A rich Console on `stream` (stdout) if it is a terminal, else None.

    rich decides, so its own switches work as documented: FORCE_COLOR or
    TTY_COMPATIBLE=1 draws for a terminal through a pipe, TTY_COMPATIBLE=0
    prints plain text on a terminal.
    """
    console = Console(file=stream or sys.stdout, highlight=False, markup=False, emoji=False)
    return console if console.is_terminal else None


class Column:
    """A column's header, alignment (`left` or `right`), terminal style, and
    whether a terminal too narrow for the table may wrap its cells (names,
    lists) or must keep them whole on one line (identifiers a user types
    back, numbers)."""

    def __init__(self, header, justify="left", style=None, wrap=True):
        self.header = header
        self.justify = justify
        self.style = style
        self.wrap = wrap


def _cell(value):
    return value if isinstance(value, Text) else Text(str(value))


def _table(columns, rows, footer, terminal):
    if terminal:
        table = Table(box=box.SIMPLE, header_style="bold", footer_style="bold",
                      show_footer=footer is not None, show_edge=False, pad_edge=False,
                      collapse_padding=True)
    else:
        table = Table(box=None, show_header=True, header_style="none", pad_edge=False,
                      show_edge=False, padding=(0, 1))
    for i, col in enumerate(columns):
        whole = None
        if terminal:
            texts = [_cell(c).plain for c in
                     [col.header] + [row[i] for row in rows] + ([footer[i]] if footer else [])]
            if not col.wrap:
                texts = [t.replace(" ", "_") for t in texts]
            # never narrower than its longest word (rich would drop it)
            whole = max(cell_len(word) for t in texts for word in t.split() or [""])
        table.add_column(_cell(col.header), justify=col.justify,
                         no_wrap=not (terminal and col.wrap), overflow="fold", min_width=whole,
                         style=col.style if terminal else None,
                         footer=_cell(footer[i]) if (terminal and footer is not None) else "")
    for row in rows:
        table.add_row(*[_cell(c) if terminal else Text(_cell(c).plain) for c in row])
    if footer is not None and not terminal:
        table.add_row(*[Text(_cell(c).plain) for c in footer])
    return table


def plain(columns, rows, footer=None):
    """The table as plain lines (no newline at their ends)."""
    out = io.StringIO()
    console = Console(file=out, width=_PLAIN_WIDTH, force_terminal=False, no_color=True,
                      color_system=None, highlight=False, markup=False, emoji=False,
                      legacy_windows=False, _environ={})
    console.print(_table(columns, rows, footer, terminal=False), crop=False)
    return [line.rstrip() for line in out.getvalue().split("\n")[:-1]]


def show(columns, rows, footer=None, console=None):
    """Print the table: drawn on `console` (a terminal console), else as
    plain lines on stdout."""
    if console is None:
        click.echo("".join(line + "\n" for line in plain(columns, rows, footer)), nl=False)
        return
    table = _table(columns, rows, footer, terminal=True)
    # rich leaves out whole columns when even their narrowest does not fit;
    # rather let the terminal wrap a line than hide a column.
    least = sum(c.min_width or 0 for c in table.columns) + _GAP * (len(columns) - 1)
    if least > console.width:
        console.width = least
    console.print(table, crop=False)
