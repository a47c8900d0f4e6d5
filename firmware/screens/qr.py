"""A QR code of a game's final sheet, for a phone's camera
(firmware/flows/qr.py and firmware/flows/sheet_text.py make the text;
firmware/qr.py the symbol).

view keys:
    text      the code's text (a page of the sheet), bytes (UTF-8)
    symbol    a zeroed bytearray to build the symbol in (firmware/qr.py
              encode's ``into``; the flow allocates it first), or none
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

import framebuf

from firmware import qr as encoder
from firmware import text
from firmware.screens import ui

QUIET = 4       # the quiet zone, in modules (ISO/IEC 18004 5.3.8)


def draw(view, fb):
    ui.clear(fb)
    size, m = encoder.encode(view["text"], into=view.get("symbol"))
    room = ui.BAR_Y - 1
    scale = 3 if (size + 2 * QUIET) * 3 <= room else 2
    side = (size + 2 * QUIET) * scale
    x0 = QUIET * scale
    y0 = (room - side) // 2 + QUIET * scale
    w = size * scale
    buf = bytearray(((w + 7) >> 3) * scale)
    pic = framebuf.FrameBuffer(buf, w, scale, framebuf.MONO_HLSB)
    for y in range(size):
        encoder.row(m, size, y, scale, buf)
        fb.blit(pic, x0, y0 + y * scale)
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

