"""1-bit bitmaps of text as the board blits them: the font they are drawn
from (DejaVu Sans Bold: the Bitstream Vera licence with public-domain
DejaVu changes; Debian's fonts-dejavu-core) and an image's inked rows in
the board's layout. The board's fonts (board/fontgen.py) and the
languages' packs (i18n/render.py) share them.
"""

import os

FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
    "/Library/Fonts/DejaVuSans-Bold.ttf",
)


def find_font(path=None):
    if path:
        return path
    for p in FONT_CANDIDATES:
        if os.path.exists(p):
            return p
    raise SystemExit("DejaVuSans-Bold.ttf not found: install fonts-dejavu-core or pass --font")


def inked_rows(img, width):
    """(first inked row, rows, their bits): a 1-bit image's rows from its
    first inked one to its last, ``width`` pixels each, MONO_HLSB (rows
    padded to whole bytes, 1 = ink), as the board blits them."""
    px = img.load()
    h = img.size[1]
    stride = (width + 7) // 8
    inked = [y for y in range(h) if any(px[x, y] for x in range(width))]
    top = inked[0] if inked else 0
    bottom = inked[-1] + 1 if inked else 0
    data = bytearray()
    for y in range(top, bottom):
        row = bytearray(stride)
        for x in range(width):
            if px[x, y]:
                row[x >> 3] |= 0x80 >> (x & 7)
        data += row
    return top, bottom - top, bytes(data)
