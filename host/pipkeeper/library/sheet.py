"""The score sheet of a game, for a person to read.

`format_sheet(report)` takes the dict of FORMAT.md "The replay report" (what
`Game.report()` returns) and gives the text `pipkeeper replay` and
`pipkeeper show` print:

    chickenfoot: Ann, Bob, Cy, Di

    round   Ann  Bob   Cy   Di
    9-9      0*   12   81    4
    8-8     16    0*   23   35
    -----  ---  ---  ---  ---
    total   16   12  104   39

    * went out
    game in progress

A cell a `fix` line corrected carries `~` instead, and a line under the
table says what it was: `~ corrected: 8-8 Bob 0 (was 10)`.

Only keys of FORMAT.md are required; optional ones (`tie_break`,
`stopped`, `next_double`) are shown when present.

That text is what every pipe, file and golden test gets, so its columns
are laid out here, by hand: the one-character marker after each score keeps
the digits aligned, which rich (it strips a cell's trailing blank) cannot
reproduce. On a terminal `print_sheet` has rich draw the same sheet.
"""

import click

from pipkeeper.wording import counted


def _double(pips):
    if pips is None:
        return "?"
    return "{0}-{0}".format(pips)


def _names(report, isolate=False):
    """The players' names; ``isolate``: each name written right to left
    between Unicode's isolates (pipkeeper.i18n.isolated), for a terminal
    that orders text both ways. Plain text (a pipe, a file) has no such
    invisible marks for a script to trip on."""
    from pipkeeper.i18n import isolated
    players = report.get("players") or []
    return [isolated(str(p)) if isolate else str(p) for p in players]


def _seat_name(names, seat):
    if isinstance(seat, int) and 1 <= seat <= len(names):
        return names[seat - 1]
    return "seat {}".format(seat)


def _join_names(names, seats):
    return ", ".join(_seat_name(names, s) for s in seats)


def _table(rows):
    """Right-aligned columns (the first left-aligned), two spaces apart,
    measured in terminal cells (a name in any script: pipkeeper.i18n.cells)."""
    from pipkeeper.i18n import cells as width
    widths = [0] * max(len(r) for r in rows)
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], width(cell))
    out = []
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            pad = " " * (widths[i] - width(cell))
            cells.append(cell + pad if i == 0 else pad + cell)
        out.append("  ".join(cells).rstrip())
    return out


def _marker(rnd, seat):
    """`*` for the seat that went out, `~` for a corrected one, else None."""
    if rnd.get("out") == seat:
        return "*"
    if seat in (rnd.get("corrected") or ()):
        return "~"
    return None


def correction_lines(report, isolate=False):
    """`~ corrected: 8-8 Bob 0 (was 10)`, one line per corrected cell (the
    report's `corrected` and `original`, FORMAT.md)."""
    names = _names(report, isolate)
    lines = []
    for rnd in report.get("rounds") or []:
        original = rnd.get("original") or {}
        was = original.get("scores") or []
        for seat in rnd.get("corrected") or ():
            scores = rnd.get("scores") or []
            now = scores[seat - 1] if seat - 1 < len(scores) else "?"
            before = was[seat - 1] if seat - 1 < len(was) else "?"
            lines.append("~ corrected: {} {} {} (was {})".format(
                _double(rnd.get("double")), _seat_name(names, seat), now, before))
    return lines


def score_table(report):
    """The rounds as rows headed by their double, the players as columns.

    Returns (lines, any_out). Every player cell ends in one marker character,
    `*` for the seat that went out, `~` for a score a `fix` corrected and a
    space otherwise, so the digits of a column stay aligned.
    """
    names = _names(report)
    rounds = report.get("rounds") or []
    totals = list(report.get("totals") or [])
    any_out = False
    rows = [["round"] + [n + " " for n in names]]
    for rnd in rounds:
        scores = rnd.get("scores") or []
        out = rnd.get("out")
        cells = []
        for seat in range(1, len(names) + 1):
            value = scores[seat - 1] if seat - 1 < len(scores) else ""
            mark = _marker(rnd, seat) or " "
            any_out = any_out or out == seat
            cells.append(str(value) + mark)
        rows.append([_double(rnd.get("double"))] + cells)
    totals += [""] * (len(names) - len(totals))
    total_row = ["total"] + [str(t) + " " for t in totals]
    from pipkeeper.i18n import cells
    width = [max(cells(r[i]) for r in rows + [total_row]) for i in range(len(names) + 1)]
    rows.append(["-" * width[0]] + ["-" * (w - 1) + " " for w in width[1:]])
    rows.append(total_row)
    return _table(rows), any_out


def winner_line(report, isolate=False):
    """`winner: Ann`, `winners: Ann, Bob (shared)`, with the tie-break if any."""
    names = _names(report, isolate)
    winners = report.get("winners") or []
    if not report.get("over"):
        return "game in progress"
    if not winners:
        return "game over: no winner"
    tie_break = report.get("tie_break")
    who = _join_names(names, winners)
    if len(winners) == 1:
        line = "winner: " + who
        if tie_break:
            line += " (tie broken by {})".format(tie_break)
    else:
        line = "winners: " + who
        if tie_break and tie_break != "shared":
            line += " (shared after the tie-break: {})".format(tie_break)
        else:
            line += " (shared)"
    if report.get("stopped"):
        line += "; the game was stopped before its last round"
    return line


def _trains_text(names, trains):
    parts = []
    for key in sorted(trains, key=lambda k: (k == "mx", int(k) if str(k).isdigit() else 0)):
        end = trains[key]
        label = "Mexican" if key == "mx" else _seat_name(names, int(key))
        parts.append("{} {}".format(label, "-" if end is None else end))
    return ", ".join(parts)


def state_lines(report, isolate=False):
    """A short summary of the round in progress (or awaiting its score)."""
    state = report.get("state")
    if not state:
        return []
    names = _names(report, isolate)
    lines = []
    double = _double(state.get("round"))
    if state.get("awaiting_score"):
        lines.append("round {} is over: waiting for the scores".format(double))
    else:
        to_move = state.get("to_move")
        if to_move is None:
            lines.append("round {} in progress".format(double))
        else:
            lines.append("round {} in progress: {} to play".format(double, _seat_name(names, to_move)))
    hands = state.get("hands")
    if hands:
        lines.append("  hands: " + ", ".join(
            "{} {}".format(_seat_name(names, i + 1), n) for i, n in enumerate(hands)))
    yard = state.get("yard")
    if yard is not None:
        drawable = state.get("drawable")
        text = "  yard: {}".format(yard)
        if drawable is not None and drawable != yard:
            text += " ({} may be drawn)".format(drawable)
        lines.append(text)
    needs = []
    trains_needed = state.get("trains_needed") or 0
    if trains_needed:
        needs.append("{} to start".format(counted(trains_needed, "more train")))
    toes = state.get("toes_needed") or 0
    open_double = state.get("open_double")
    if toes:
        needs.append("chicken foot on {} needs {}".format(_double(open_double), counted(toes, "more toe")))
    elif open_double is not None:
        needs.append("double {} to satisfy".format(_double(open_double)))
    if needs:
        lines.append("  " + "; ".join(needs))
    open_ends = state.get("open_ends")
    if open_ends:
        lines.append("  open ends: " + " ".join(str(p) for p in open_ends))
    trains = state.get("trains")
    if trains:
        lines.append("  trains: " + _trains_text(names, trains))
    markers = state.get("markers")
    if markers:
        lines.append("  markers: " + _join_names(names, markers))
    return lines


def _tag(tags, name):
    for key, values in tags or ():
        if key == name and values:
            return " ".join(values) if isinstance(values, (list, tuple)) else str(values)
    return None


def _head_lines(report, tags, isolate=False):
    """The title (rules: players) and what the tags say about the game."""
    lines = ["{}: {}".format(report.get("rules", "?"), ", ".join(_names(report, isolate)))]
    about = []
    for name, label in (("Event", ""), ("Date", ""), ("Game", "game ")):
        value = _tag(tags, name)
        if value:
            about.append(label + value)
    if about:
        lines.append(", ".join(about))
    return lines


def _tail_lines(report, isolate=False):
    """The winner, then the round in progress or the next round's double."""
    lines = [winner_line(report, isolate)]
    state = state_lines(report, isolate)
    if state:
        lines += state
    elif not report.get("over") and report.get("next_double") is not None:
        lines.append("next round: " + _double(report["next_double"]))
    return lines


def format_sheet(report, tags=None):
    """The whole sheet as one string ending in a newline.

    `tags` are the record's (name, values) pairs, if known: the Event, Date
    and Game tags go under the title.
    """
    lines = _head_lines(report, tags) + [""]
    if report.get("rounds"):
        table, any_out = score_table(report)
        lines += table
        if any_out:
            lines.append("* went out")
        lines += correction_lines(report)
    else:
        lines.append("no round scored yet")
    lines.append("")
    lines += _tail_lines(report)
    return "\n".join(lines) + "\n"


def print_sheet(report, tags=None, console=None):
    """Print the sheet: `format_sheet`'s text, or drawn by rich on
    `console` (a terminal console, see `tables.terminal_console`)."""
    if console is None:
        click.echo(format_sheet(report, tags), nl=False)
        return
    from rich.text import Text

    from pipkeeper.library import tables

    head = _head_lines(report, tags, isolate=True)
    console.print(Text(head[0], style="bold"))
    for line in head[1:]:
        console.print(Text(line, style="dim"))
    console.print()
    if report.get("rounds"):
        columns, rows, footer, any_out = _terminal_table(report)
        tables.show(columns, rows, footer, console=console)
        if any_out:
            console.print(Text("* went out", style="dim"))
        for line in correction_lines(report, isolate=True):
            console.print(Text(line, style="dim"))
    else:
        console.print("no round scored yet")
    console.print()
    tail = _tail_lines(report, isolate=True)
    console.print(Text(tail[0], style="bold green" if report.get("winners") else "bold"))
    for line in tail[1:]:
        console.print(Text(line))


def _terminal_table(report):
    """The score table for rich: the marker of the seat that went out comes
    before its score (`*0`), and of a corrected one (`~12`), so the digits
    stay aligned without a trailing blank; the winners' totals stand out."""
    from rich.text import Text

    from pipkeeper.library.tables import Column

    names = _names(report, isolate=True)
    winners = report.get("winners") or []
    columns = [Column("round", style="dim")] + [Column(n, justify="right", names="header") for n in names]
    rows, any_out = [], False
    for rnd in report.get("rounds") or []:
        scores = rnd.get("scores") or []
        cells = [_double(rnd.get("double"))]
        for seat in range(1, len(names) + 1):
            value = str(scores[seat - 1]) if seat - 1 < len(scores) else ""
            mark = _marker(rnd, seat)
            if mark == "*":
                any_out = True
                cells.append(Text("*" + value, style="bold"))
            elif mark:
                cells.append(Text(mark + value, style="italic"))
            else:
                cells.append(value)
        rows.append(cells)
    totals = list(report.get("totals") or [])
    totals += [""] * (len(names) - len(totals))
    footer = ["total"] + [Text(str(t), style="bold green" if seat in winners else "bold")
                          for seat, t in enumerate(totals, 1)]
    return columns, rows, footer, any_out
