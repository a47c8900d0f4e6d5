"""What every screen shares: the button labels and the header.

The Badger's A B C sit under the screen's bottom edge, UP and DOWN on its
right edge; labels are drawn next to them. ``labels`` in a view is a tuple
(A, B, C, UP, DOWN) of short words, None where a button does nothing.
"""

from firmware import text

W = 296
H = 128
_STRIDE = 37        # bytes a row of the frame (firmware/board.py STRIDE)
BAR = 13            # height of the A/B/C bar at the bottom
BAR_Y = H - BAR
SIDE = 42           # width of the UP/DOWN strip on the right
SIDE_X = W - SIDE
_CX = (49, 148, 247)
UP_RIGHT = W - 14   # where the UP label ends, left of its arrow


def clear(fb):
    text.clear(fb)


def rule(fb, x, y, w, a=0, b=W):
    """A rule ``w`` pixels long from x, y, drawn after the text above it,
    with a pixel of paper either side of that text's ink on its row and the
    rows next to it, in the columns a..b (where text may reach down to it).
    Why: a language's small text reaches below the 8-pixel font's line
    (Persian's dots under its letters, descenders), and on the rule its
    dots merged into the line (issue 32), as an underline skips a
    descender's ink. Eight columns at a time, in the frame's bytes; a
    stand-in for a frame that lends none (the layout tests') gets a plain
    rule."""
    try:
        m = memoryview(fb)
    except TypeError:
        m = None
    first = a >> 3
    ink = []            # each byte's ink on the three rows, before the rule
    own = []            # and on the rule's row itself (kept)
    if m is not None:
        for bx in range(first, (b + 7) >> 3):
            r = m[y * _STRIDE + bx]
            own.append(r)
            ink.append(m[(y - 1) * _STRIDE + bx] | r | m[(y + 1) * _STRIDE + bx])
    fb.hline(x, y, w, 1)
    for i in range(len(ink)):
        v = ink[i]
        near = v | (v << 1) | (v >> 1)
        if i and ink[i - 1] & 1:
            near |= 0x80
        if i + 1 < len(ink) and ink[i + 1] & 0x80:
            near |= 1
        if near:
            j = y * _STRIDE + first + i
            m[j] = (m[j] & ~near & 0xFF) | own[i]


def buttons(fb, labels):
    """The A/B/C labels in the bottom bar, UP/DOWN ones on the right."""
    if not labels:
        return
    for i in range(3):
        s = labels[i] if i < len(labels) else None
        if s:
            w = text.width(s, None) + 6
            x = _CX[i] - w // 2
            fb.fill_rect(x, BAR_Y + 1, w, BAR - 1, 1)
            text.draw(fb, s, x + 3, BAR_Y + 3, None, 0)
    up = labels[3] if len(labels) > 3 else None
    down = labels[4] if len(labels) > 4 else None
    if up:
        _arrow(fb, W - 7, 4, True)
        text.right(fb, text.fit(up, None, 40), UP_RIGHT, 2)
    if down:
        _arrow(fb, W - 7, BAR_Y - 9, False)
        text.right(fb, text.fit(down, None, 40), W - 14, BAR_Y - 10)
    rule(fb, 0, BAR_Y - 1, W, W - 56 if down else W, W - 14)


def _arrow(fb, cx, y, up):
    # a small filled triangle pointing at the button
    for i in range(5):
        w = 2 * i + 1
        yy = y + i if up else y + 4 - i
        fb.hline(cx - i, yy, w, 1)


def header(fb, left, right=None, width=SIDE_X - 8, labels=None):
    """A line of small text at the top, with a rule under it; ``labels``
    (the view's): the header ends 4 pixels before the UP label, which is as
    wide as 40 pixels in some languages ("dadwn", Welsh for undo)."""
    up = labels[3] if labels and len(labels) > 3 else None
    if up:
        width = min(width, UP_RIGHT - text.width(text.fit(up, None, 40), None) - 4)
    text.draw(fb, left, 1, 1)
    if right:
        text.right(fb, right, width - 1, 1)
    rule(fb, 0, 10, width, 0, width)


def tile(a, b):
    return "%d-%d" % (a, b)
