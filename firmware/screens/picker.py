"""The tile picker (full tracking): which tile was played, in one or two presses.

The app splits the candidates (legal tiles not yet on the table, the likely
ones first) into up to four groups, on A, B, C and DOWN; a group of one tile
is picked at once, a larger group opens as the next level. UP goes back.

view keys:
    title     header, e.g. "Ann plays"; ``right``: small text (e.g. "on 4")
    groups    [(tiles, ...) for A, B, C, DOWN]: each a tuple of tile texts
              ("9-4", "12-5 mx"), empty where the button has nothing
    labels    (A, B, C, UP, DOWN)
"""

from firmware import text
from firmware.screens import ui

_COLW = 84


def _group(fb, tiles, x, y, w, h, big, mid):
    if not tiles:
        return
    fb.rect(x, y, w, h, 1)
    if len(tiles) == 1 and text.width(tiles[0], big) <= w - 4:
        text.centre(fb, tiles[0], x + w // 2, y + (h - big.HEIGHT) // 2 - 2, big)
        return
    f = mid if mid is not None and len(tiles) * mid.HEIGHT <= h - 2 else None
    lh = text.height(f) + (0 if f else 2)
    # a tile and its train ("12-5 mx") too wide for the column: on two
    # lines rather than cut, the tiles then parted by a dotted rule
    parts = [(t,) if text.width(t, f) <= w - 4 else tuple(t.split()) for t in tiles]
    split = False
    for p in parts:
        split = split or len(p) > 1
    gap = 3 if split else 0
    bottom = y + h - 1
    yy = y + 2
    for k in range(len(parts)):
        need = len(parts[k]) * lh
        more = len(parts) - k - 1
        if yy + need > bottom or (more and yy + need + gap + lh > bottom):
            # what does not fit is counted, never left out unsaid (a box
            # that says 12 showed 9 tiles: issue 32)
            text.centre(fb, "+%d" % (more + 1), x + w // 2, yy, f)
            return
        if k and gap:
            for xx in range(x + 4, x + w - 4, 2):
                fb.pixel(xx, yy - 2, 1)
        for part in parts[k]:
            text.centre(fb, text.fit(part, f, w - 4), x + w // 2, yy, f)
            yy += lh
        yy += gap


def draw(view, fb):
    ui.clear(fb)
    big = text.font("big")
    mid = text.font("mid")
    ui.header(fb, view["title"], view.get("right"), labels=view.get("labels"))
    groups = view["groups"]
    top = 13
    h = ui.BAR_Y - 2 - top
    for i in range(3):
        if i < len(groups):
            _group(fb, groups[i], i * (_COLW + 1), top, _COLW, h, big, mid)
    if len(groups) > 3 and groups[3]:
        # DOWN's group sits in the strip on the right, above the arrow
        _group(fb, groups[3], ui.SIDE_X, 40, ui.SIDE, ui.BAR_Y - 52, big, None)
    ui.buttons(fb, view.get("labels"))
