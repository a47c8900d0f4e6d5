"""The score sheet: one column per player, one row per round, totals.

Shown after each round, at the end of a game and from history.

view keys:
    title     header, e.g. "After round 3 of 10"; ``right``: small text
    names     player names in seat order
    rows      [(label, [score, ...]), ...] rounds in order, label e.g. "9-9";
              only the last rows that fit are shown
    totals    running total per seat
    mark      seats to highlight in the totals (leaders or winners)
    fixed     [[row, seat index], ...] cells a correction changed: a small
              corner mark, as spreadsheets mark a cell with a note (optional)
    cursor    [row, seat index or None] while a fix is being chosen: the
              row, or the one cell, drawn inverted, and kept in view (optional)
    labels    (A, B, C, UP, DOWN)
    house     the house rules in play, one message (firmware/words.py
              ``house_line``), or None: a line under the header (History)
"""

from firmware import text
from firmware.screens import ui


def draw(view, fb):
    ui.clear(fb)
    wmax = ui.SIDE_X - 2
    ui.header(fb, text.fit(view["title"], None, wmax - 40), view.get("right"),
              labels=view.get("labels"))
    names = view["names"]
    n = len(names)
    lw = 34
    cw = (wmax - lw) // n
    y = 13
    house = view.get("house")
    if house:
        from firmware.screens import house_line
        y = house_line.draw(fb, house, y, wmax, 1)
    top = y
    for i in range(n):
        text.centre(fb, text.fit(names[i], None, cw - 2), lw + i * cw + cw // 2, y)
    fb.hline(0, y + 9, wmax, 1)
    rows = view["rows"]
    room = (ui.BAR_Y - 13 - (y + 11)) // 9
    cursor = view.get("cursor")
    first = len(rows) - room if room > 0 else len(rows)
    if cursor and cursor[0] < first:
        first = cursor[0]
    if first < 0:
        first = 0
    fixed = view.get("fixed") or ()
    y += 12
    for k in range(first, min(len(rows), first + room) if room > 0 else first):
        label, scores = rows[k]
        on = cursor is not None and cursor[0] == k
        cell = cursor[1] if on else None
        if on and cell is None:
            fb.fill_rect(0, y - 1, wmax, 9, 1)
        fb.text(label[:4], 0, y, 0 if on and cell is None else 1)
        for i in range(n):
            s = "%d" % scores[i]
            cx = lw + i * cw + cw // 2
            w = text.width(s, None)
            ink = 1
            if on and (cell is None or cell == i):
                ink = 0
                if cell == i:
                    fb.fill_rect(cx - w // 2 - 2, y - 1, w + 4, 9, 1)
            text.centre(fb, s, cx, y, None, ink)
            if [k, i] in fixed:
                _corner(fb, min(cx + (w + 1) // 2 + 1, cx + cw // 2 - 4), y - 1, ink)
        y += 9
    ty = ui.BAR_Y - 12
    fb.hline(0, ty - 2, wmax, 1)
    text.draw(fb, ("Tot",), 0, ty)
    mark = view.get("mark") or ()
    totals = view["totals"]
    for i in range(n):
        s = "%d" % totals[i]
        cx = lw + i * cw + cw // 2
        if (i + 1) in mark:
            w = 8 * len(s) + 4
            fb.fill_rect(cx - w // 2, ty - 1, w, 10, 1)
            text.centre(fb, s, cx, ty, None, 0)
        else:
            text.centre(fb, s, cx, ty)
    fb.vline(lw - 3, top, ty - top + 8, 1)
    ui.buttons(fb, view.get("labels"))


def _corner(fb, x, y, c):
    """The mark of a corrected cell: a small triangle at the top right of
    its number (kept inside its column)."""
    for i in range(4):
        fb.hline(x + i, y + i, 4 - i, c)
