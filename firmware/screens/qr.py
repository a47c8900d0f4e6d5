"""A QR code of a game's final sheet, for a phone's camera
(firmware/flows/qr.py makes the text; firmware/qr.py the symbol).

view keys:
    text      the code's text (a page of the sheet)
    page      "k/n" when the sheet takes several codes, else None
    hint      what to do, a message
    labels    (A, B, C, UP, DOWN)

The symbol sits at the left, above the buttons' bar, with its quiet zone
of four modules: 3 pixels a module where it fits (versions 1 to 3), else
2 (versions 4 to 6, 98 pixels with the quiet zone). Its text is encoded
here, as it is drawn. The encoder is loaded only with this screen, and let
go with it (firmware/heap.py SCREENS): a press on USB keeps the screen it
drew with, and the encoder through it, so that paging through the codes
does not load the encoder (and its native code) again at every press,
which scattered a tight heap. Nothing else imports the encoder.
"""

from firmware import qr as encoder
from firmware import text
from firmware.screens import ui

QUIET = 4       # the quiet zone, in modules (ISO/IEC 18004 5.3.8)


def draw(view, fb):
    ui.clear(fb)
    size, m = encoder.encode(view["text"].encode())
    room = ui.BAR_Y - 1
    scale = 3 if (size + 2 * QUIET) * 3 <= room else 2
    side = (size + 2 * QUIET) * scale
    x0 = QUIET * scale
    y0 = (room - side) // 2 + QUIET * scale
    _modules(fb, m, size, x0, y0, scale)
    left = side + 6
    wmax = ui.SIDE_X - 2 - left
    mid = text.font("mid")
    y = 8
    for line in text.wrap(view["hint"], mid, wmax)[:4]:
        text.draw(fb, line, left, y, mid)
        y += mid.HEIGHT
    page = view.get("page")
    if page:
        big = text.font("big")
        text.draw(fb, page, left, max(y + 6, ui.BAR_Y - 6 - big.HEIGHT), big)
    ui.buttons(fb, view.get("labels"))


def _modules(fb, m, size, x0, y0, scale):
    """The dark modules, a rectangle per run of them along a row."""
    for y in range(size):
        row = y * size
        x = 0
        while x < size:
            if m[row + x] & 1:
                start = x
                while x < size and m[row + x] & 1:
                    x += 1
                fb.fill_rect(x0 + start * scale, y0 + y * scale, (x - start) * scale, scale, 1)
            else:
                x += 1
