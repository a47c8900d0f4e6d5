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
    """A column's header, alignment (`left` or `right`), terminal style,
    whether a terminal too narrow for the table may wrap its cells (names,
    lists) or must keep them whole on one line (identifiers a user types
    back, numbers), and where it holds players' names, which such a
    terminal may cut short with an ellipsis: ``names`` "header" (a score
    sheet's column: the name heads numbers) or "cells" (a list of names)."""

    def __init__(self, header, justify="left", style=None, wrap=True, names=None):
        self.header = header
        self.justify = justify
        self.style = style
        self.wrap = wrap
        self.names = names


def _cell(value):
    return value if isinstance(value, Text) else Text(str(value))


# The fewest cells a name is cut to: two letters and the ellipsis.
_SHORTEST = 3
_ISOLATES = "\u2068\u2069"


def abbreviated(word, width):
    """``word`` in at most ``width`` terminal cells: whole if it fits, else
    its start and an ellipsis ("Konstan…"; a Persian name's start, read
    from the right, the ellipsis at its left). The marks around it stay: a
    bidi isolate (pipkeeper.i18n.isolated) and the comma of a list; a cut
    never ends on a joiner or splits a letter from its accents."""
    if cell_len(word) <= width:
        return word
    head = word[:1] if word[:1] == _ISOLATES[0] else ""
    tail = ""
    core = word[len(head):]
    while core and core[-1] in _ISOLATES[1] + ",":
        tail = core[-1] + tail
        core = core[:-1]
    room = width - 1 - cell_len(tail)
    cut = ""
    for c in core:
        if cell_len(cut + c) > room:
            break
        cut += c
    cut = cut.rstrip("\u200c\u200d ")
    return head + cut + "\u2026" + tail


def _widest_line(text):
    """The cells of a cell's widest line (a header may be given in lines)."""
    return max(cell_len(line) for line in text.plain.split("\n"))


def _cut(value, width):
    """A cell with each of its words in at most ``width`` cells."""
    cell = _cell(value)
    plain = cell.plain
    short = " ".join(abbreviated(w, width) for w in plain.split(" "))
    return cell if short == plain else Text(short, style=cell.style)


class _Fitted:
    """A table's cells made to fit a terminal: the headers, rows and footer
    (names cut short where they had to be), each column's least width, and
    the blank between two columns (_GAP, or one where two did not fit)."""

    def __init__(self, headers, rows, footer, widths, gap):
        self.headers, self.rows, self.footer, self.widths, self.gap = headers, rows, footer, widths, gap

    @property
    def width(self):
        return sum(self.widths) + self.gap * (len(self.widths) - 1)


def _fit(columns, rows, footer, width):
    """The cells to draw on a terminal ``width`` cells wide. Where the table
    is wider than that with every word whole, the headers of columns whose
    cells stay on one line (figures: "29.0 ± 8.2") go over two lines or
    more, a word a line ("avg" over "total"); where that is still too wide,
    the names its columns hold (Column.names) are cut, the longest first,
    to as few cells as make it fit (not fewer than their column's numbers,
    nor _SHORTEST); where even that is too wide, the columns stand one
    blank apart instead of two."""
    body = [[_cell(c) for c in row] for row in rows]
    foot = [_cell(c) for c in footer] if footer is not None else None
    headers = [_cell(col.header) for col in columns]

    def words(texts):
        return [cell_len(w) for t in texts for w in t.plain.split()] or [0]

    def measure(split):
        need, floor = [], []
        for i, col in enumerate(columns):
            cells = [row[i] for row in body] + ([foot[i]] if foot else [])
            whole = [headers[i]] + cells
            if col.wrap:
                need.append(max(words(whole)))
            else:
                head = words([headers[i]]) if split else [_widest_line(headers[i])]
                need.append(max(head + [_widest_line(t) for t in cells]))
            kept = cells if col.names == "header" else [headers[i]] if col.names == "cells" else whole
            floor.append(max(words(kept) + [_SHORTEST]) if col.names else need[-1])
        return need, floor

    for gap in (_GAP, 1):
        room = width - gap * (len(columns) - 1)
        need, floor = measure(False)
        split = sum(need) > room
        if split:
            need, floor = measure(True)
        # the widest names give first: every named column at most `level` cells
        level = max(need)
        while level > 0 and sum(max(f, min(n, level)) for n, f in zip(need, floor)) > room:
            level -= 1
        limit = [max(f, min(n, level)) for n, f in zip(need, floor)]
        if sum(limit) <= room:
            break
    for i, col in enumerate(columns):
        if split and not col.wrap and _widest_line(headers[i]) > limit[i]:
            headers[i] = _broken(headers[i], limit[i])
        if limit[i] < need[i]:
            if col.names == "header":
                headers[i] = _cut(headers[i], limit[i])
            else:
                for row in body:
                    row[i] = _cut(row[i], limit[i])
    return _Fitted(headers, body, foot, limit, gap)


def _broken(header, width):
    """A header over as many lines as it needs to be at most ``width`` cells
    wide, broken between its words (a column whose cells never wrap: rich
    would not wrap its header either)."""
    lines = [""]
    for word in header.plain.split():
        if lines[-1] and cell_len(lines[-1] + " " + word) > width:
            lines.append(word)
        else:
            lines[-1] = (lines[-1] + " " + word).strip()
    return Text("\n".join(lines), style=header.style)


def _table(columns, rows, footer, fitted=None):
    """rich's Table: plain (``fitted`` None), or for a terminal, ``fitted``
    a _Fitted."""
    terminal = fitted is not None
    if terminal:
        headers, rows, footer, widths = fitted.headers, fitted.rows, fitted.footer, fitted.widths
        table = Table(box=box.SIMPLE, header_style="bold", footer_style="bold",
                      show_footer=footer is not None, show_edge=False, pad_edge=False,
                      collapse_padding=True, padding=(0, fitted.gap - 1))
    else:
        headers, widths = [_cell(col.header) for col in columns], [None] * len(columns)
        table = Table(box=None, show_header=True, header_style="none", pad_edge=False,
                      show_edge=False, padding=(0, 1))
    for i, col in enumerate(columns):
        # on a terminal never narrower than its longest word, which rich
        # would drop (_fit cut the names that would not fit)
        table.add_column(headers[i], justify=col.justify,
                         no_wrap=not (terminal and col.wrap), overflow="ellipsis", min_width=widths[i],
                         style=col.style if terminal else None,
                         footer=footer[i] if (terminal and footer is not None) else "")
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
    console.print(_table(columns, rows, footer), crop=False)
    return [line.rstrip() for line in out.getvalue().split("\n")[:-1]]


def show(columns, rows, footer=None, console=None):
    """Print the table: drawn on `console` (a terminal console), else as
    plain lines on stdout."""
    if console is None:
        click.echo("".join(line + "\n" for line in plain(columns, rows, footer)), nl=False)
        return
    fitted = _fit(columns, rows, footer, console.width)
    table = _table(columns, None, None, fitted)
    # rich leaves out whole columns when even their narrowest does not fit;
    # rather let the terminal wrap a line than hide a column.
    if fitted.width > console.width:
        console.width = fitted.width
    console.print(table, crop=False)
