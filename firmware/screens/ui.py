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


def rule(fb, x, y, w, near=()):
    """A rule ``w`` pixels long from x, y, drawn after the text above it,
    with a pixel of paper either side of any of that text's ink on its row
    and the rows next to it, in the columns ``near`` ((a, b): where text
    may reach down to it). Why: a language's small text reaches below the
    8-pixel font's line (Persian's dots under its letters, descenders), and
    on the rule its dots merged into the line (issue 32), as an underline
    skips a descender's ink."""
    end = x + w
    near_ink = []       # columns with the text's ink near the rule: (column, on its row)
    for a, b in near:
        _ink_near(fb, y, max(a, x), min(b, end), near_ink)
    fb.hline(x, y, w, 1)
    for c, _ in near_ink:
        fb.hline(c - 1, y, 3, 0)
    for c, on in near_ink:
        if on:
            fb.pixel(c, y, 1)


def _ink_near(fb, y, a, b, out):
    """Add to ``out`` (column, ink on row y) for the columns a..b-1 with ink
    on rows y-1 to y+1. The frame's bytes are read eight columns at a time
    where it lends them (a FrameBuffer does; 0 for most, and English's
    8-pixel font never reaches a rule: a frame pays some 50 reads), pixel
    by pixel where one has ink."""
    try:
        m = memoryview(fb)
    except TypeError:
        m = None            # (the layout tests' stand-in for a frame)
    for bx in range(max(a, 0) >> 3, (min(b, W) + 7) >> 3):
        if m is not None:
            v = 0
            for r in (y - 1, y, y + 1):
                if 0 <= r < H:
                    v |= m[r * _STRIDE + bx]
            if not v:
                continue
        for c in range(max(a, bx << 3), min(b, (bx << 3) + 8)):
            on = fb.pixel(c, y)
            if on or fb.pixel(c, y - 1) or fb.pixel(c, y + 1):
                out.append((c, on))


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
    dx = W
    if down:
        _arrow(fb, W - 7, BAR_Y - 9, False)
        dx = text.right(fb, text.fit(down, None, 40), W - 14, BAR_Y - 10) - 40
    rule(fb, 0, BAR_Y - 1, W, ((dx, W - 14),))


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
    end = text.draw(fb, left, 1, 1)
    near = [(0, end + 1)]
    if right:
        near.append((width - 2 - text.width(right, None), width))
        text.right(fb, right, width - 1, 1)
    rule(fb, 0, 10, width, near)


def tile(a, b):
    return "%d-%d" % (a, b)
