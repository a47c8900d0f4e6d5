"""A list to choose from: set-up pages, the game menu, history, options.

view keys:
    title     the header line; ``right``: small text at its right (optional)
    items     rows: a text (a string or a message), or a list [label, value]
    cursor    index of the highlighted row
    note      a sentence under the list (optional), e.g. why something is
              refused; wrapped over as many lines as it needs (the list
              gives them room)
    labels    (A, B, C, UP, DOWN)

The list scrolls so that the cursor is always visible; the marks that say
more rows lie above or below sit in the UP/DOWN strip, between the two
labels, where they cannot run into them.
"""

from firmware import text
from firmware.screens import ui

# A row is as tall as the ink of a line in the mid font (HEIGHT), from an
# accent over a capital (Å, Ŵ) or a Persian گ to a descender (g, y) or a
# Persian word's dots: text drawn at the row's top stays inside it, so the
# highlight neither cuts a descender of its own nor hides one of the row
# above (15 rows did both).
_ROW = 18


def draw(view, fb):
    ui.clear(fb)
    mid = text.font("mid")
    wmax = ui.SIDE_X - 4
    right = view.get("right")
    ui.header(fb, text.fit(view["title"], None, wmax - (text.width(right, None) if right else 0)),
              right, labels=view.get("labels"))
    items = view["items"]
    mirror = text.LANG is not None and text.LANG.rtl
    cur = view.get("cursor", 0)
    note = view.get("note")
    notes = text.wrap(note, None, ui.SIDE_X - 14) if note else ()
    top_y = 12
    bottom = ui.BAR_Y - 1 - 10 * len(notes) - (2 if notes else 0)
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
        # a label too long for the mid font (a long name in it) in the
        # small one, cut only if even that is too long
        f = mid if text.width(label, mid) <= wmax - vw - 3 else None
        yy = y if f else y + 5
        if mirror:      # right to left: the label from the right edge, its value left
            text.draw(fb, text.fit(label, f, wmax - vw - 3), vw + 3, yy, f, c)
            if value:
                text.draw(fb, value, 3, y, mid, c)
        else:
            text.draw(fb, text.fit(label, f, wmax - vw - 3), 3, yy, f, c)
            if value:
                text.right(fb, value, wmax, y, mid, c)
        y += _ROW
    if first > 0:
        fb.text("^", ui.W - 11, 14, 1)
    if first + rows < len(items):
        fb.text("v", ui.W - 11, ui.BAR_Y - 22, 1)
    y = bottom + 3
    for line in notes:
        text.draw(fb, line, 2, y)
        y += 10
    ui.buttons(fb, view.get("labels"))
