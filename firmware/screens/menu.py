"""A list to choose from: set-up pages, the game menu, history, options.

view keys:
    title     the header line; ``right``: small text at its right (optional)
    items     rows: a text (a string or a message), or a list [label, value]
    cursor    index of the highlighted row
    note      a line under the list (optional), e.g. why something is refused
    labels    (A, B, C, UP, DOWN)

The list scrolls so that the cursor is always visible.
"""

from firmware import text
from firmware.screens import ui

_ROW = 15


def draw(view, fb):
    ui.clear(fb)
    mid = text.font("mid")
    wmax = ui.SIDE_X - 4
    right = view.get("right")
    ui.header(fb, text.fit(view["title"], None, wmax - (text.width(right, None) if right else 0)),
              right)
    items = view["items"]
    mirror = text.LANG is not None and text.LANG.rtl
    cur = view.get("cursor", 0)
    note = view.get("note")
    top_y = 12
    bottom = ui.BAR_Y - (12 if note else 1)
    rows = (bottom - top_y) // _ROW
    first = 0
    if cur >= rows:
        first = cur - rows + 1
    y = top_y
    for i in range(first, min(len(items), first + rows)):
        it = items[i]
        if isinstance(it, list):
            label, value = it
        else:
            label, value = it, None
        c = 1
        if i == cur:
            fb.fill_rect(0, y, wmax + 2, _ROW, 1)
            c = 0
        vw = text.width(value, mid) + 6 if value else 0
        if mirror:      # right to left: the label from the right edge, its value left
            text.draw(fb, text.fit(label, mid, wmax - vw), vw, y - 1, mid, c)
            if value:
                text.draw(fb, value, 3, y - 1, mid, c)
        else:
            text.draw(fb, text.fit(label, mid, wmax - vw), 3, y - 1, mid, c)
            if value:
                text.right(fb, value, wmax, y - 1, mid, c)
        y += _ROW
    if first > 0:
        fb.text("^", ui.SIDE_X - 10, 12, 1)
    if first + rows < len(items):
        fb.text("v", ui.SIDE_X - 10, bottom - 8, 1)
    if note:
        text.draw(fb, text.fit(note, None, ui.SIDE_X - 10), 2, ui.BAR_Y - 10)
    ui.buttons(fb, view.get("labels"))
