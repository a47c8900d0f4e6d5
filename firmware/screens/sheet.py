"""The score sheet: one column per player, one row per round, totals.

Shown after each round, at the end of a game and from history.

view keys:
    title     header, e.g. "After round 3 of 10"; ``right``: small text
    names     player names in seat order
    rows      [(label, [score, ...]), ...] rounds in order, label e.g. "9-9";
              ``ROWS`` of them are shown at once
              (firmware/sheet_pages.py)
    top       optional: the first round shown (None: the last ones);
              where rounds are left out, the rule after the labels is a
              scroll bar
    totals    running total per seat
    mark      seats to highlight in the totals (leaders or winners)
    fixed     [[row, seat index], ...] cells a correction changed: a small
              corner mark, as spreadsheets mark a cell with a note (optional)
    cursor    [row, seat index or None] while a fix is being chosen: the
              row, or the one cell, drawn inverted, and kept in view (optional)
    labels    (A, B, C, UP, DOWN)
"""

from firmware import text
from firmware.screens import ui
from firmware.sheet_pages import ROWS, first_row

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# (const: no names for the board's table of interned names)
_NAMES_Y = const(13)
_ROW_H = const(9)
_FIRST_Y = const(25)        # _NAMES_Y + 12
_TOTALS_Y = const(103)      # ui.BAR_Y - 12


def _label(label, short):
    """A round's label: its double ("12-12"), or where the columns are
    crowded its number alone ("12"), as a paper sheet heads a round."""
    return label[:label.find("-")] if short and "-" in label else label


def draw(view, fb):
    ui.clear(fb)
    labels = view.get("labels")
    # the table ends 6 pixels before DOWN's label, beside its totals row
    down = labels[4] if labels and len(labels) > 4 else None
    wmax = ui.SIDE_X - 2
    if down:
        wmax = min(wmax, ui.W - 14 - text.width(text.fit(down, None, 40), None) - 6)
    ui.header(fb, text.fit(view["title"], None, wmax - 40), view.get("right"), labels=labels)
    names = view["names"]
    n = len(names)
    rows = view["rows"]
    tot = text.width(("Tot",), None)
    short = False
    lw = 0
    for short in (False, True):
        lw = tot
        for label, _ in rows:
            lw = max(lw, text.width(_label(label, short), None))
        lw += 5             # the labels and "Tot", 2 pixels, the rule
        if (wmax - lw) // n >= 30:      # a 3-digit number and room either side
            break
    cw = (wmax - lw) // n
    y = _NAMES_Y
    for i in range(n):
        text.centre(fb, text.fit(names[i], None, cw - 2), lw + i * cw + cw // 2, y)
    ui.rule(fb, 0, y + 9, wmax, 0, wmax)
    cursor = view.get("cursor")
    first = first_row(rows, view.get("top"), cursor)
    fixed = view.get("fixed") or ()
    y = _FIRST_Y
    for k in range(first, min(len(rows), first + ROWS)):
        label, scores = rows[k]
        on = cursor is not None and cursor[0] == k
        cell = cursor[1] if on else None
        if on and cell is None:
            fb.fill_rect(0, y - 1, wmax, _ROW_H, 1)
        # (text's, not framebuf's own: a language's own digits, Persian's)
        text.draw(fb, _label(label, short), 0, y, None, 0 if on and cell is None else 1)
        for i in range(n):
            s = "%d" % scores[i]
            cx = lw + i * cw + cw // 2
            w = text.width(s, None)
            ink = 1
            if on and (cell is None or cell == i):
                ink = 0
                if cell == i:
                    fb.fill_rect(cx - w // 2 - 2, y - 1, w + 4, _ROW_H, 1)
            text.centre(fb, s, cx, y, None, ink)
            if [k, i] in fixed:
                _corner(fb, min(cx + (w + 1) // 2 + 1, cx + cw // 2 - 4), y - 1, ink)
        y += _ROW_H
    ty = _TOTALS_Y
    fb.hline(0, ty - 2, wmax, 1)
    text.draw(fb, ("Tot",), 0, ty)
    mark = view.get("mark") or ()
    totals = view["totals"]
    for i in range(n):
        s = "%d" % totals[i]
        cx = lw + i * cw + cw // 2
        if (i + 1) in mark:
            w = min(8 * len(s) + 4, cw - 2)
            fb.fill_rect(cx - w // 2, ty - 1, w, 10, 1)
            text.centre(fb, s, cx, ty, None, 0)
        else:
            text.centre(fb, s, cx, ty)
    # the columns ruled as on a paper sheet, dotted: at 8 players the
    # totals' digits ran into one another ("349359369379")
    for i in range(1, n):
        x = lw + i * cw - 1
        for yy in range(_NAMES_Y, ty + 9, 2):
            fb.pixel(x, yy, 1)
    _scroll_bar(fb, lw - 3, len(rows), first)
    ui.buttons(fb, labels)


def _scroll_bar(fb, x, total, first):
    """The rule after the rounds' labels, from the names to the totals; where
    not every round is shown, thicker over the part of the rounds in view
    (a scroll bar: where the rows shown are among them all)."""
    top = _NAMES_Y
    h = _TOTALS_Y + 8 - top
    fb.vline(x, top, h, 1)
    if total > ROWS:
        a = top + h * first // total
        b = top + h * (first + ROWS) // total
        fb.fill_rect(x - 1, a, 3, max(3, b - a), 1)


def _corner(fb, x, y, c):
    """The mark of a corrected cell: a small triangle at the top right of
    its number (kept inside its column)."""
    for i in range(4):
        fb.hline(x + i, y + i, 4 - i, c)
