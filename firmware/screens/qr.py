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

from firmware import text
from firmware.screens import ui
# The encoder last: the small modules loaded first find their room before
# its tables and native code scatter the heap. Loaded after it, ui (which
# grew by its rules' gaps, issue 32) found no 272 bytes in one piece on the
# unix port's 160K heap for the largest game in Persian (test_qr_sheet.py).
from firmware import qr as encoder

QUIET = 4       # the quiet zone, in modules (ISO/IEC 18004 5.3.8)


def draw(view, fb):
    ui.clear(fb)
    data = view["text"]
    size = encoder.size_of(encoder.choose(data)[0])
    room = ui.BAR_Y - 1
    scale = 3 if (size + 2 * QUIET) * 3 <= room else 2
    side = (size + 2 * QUIET) * scale
    # The words first, and their fonts' bitmaps let go (firmware/text.py
    # release, as the app does after a frame: 5.5 KB for the big font's
    # page number) before the symbol is made: the press's peak is the one
    # or the other, not both.
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
    text.release()
    size, m = encoder.encode(data, into=view.get("symbol"))
    x0 = QUIET * scale
    y0 = (room - side) // 2 + QUIET * scale
    w = size * scale
    buf = bytearray(((w + 7) >> 3) * scale)
    pic = framebuf.FrameBuffer(buf, w, scale, framebuf.MONO_HLSB)
    for y in range(size):
        _row(m, size, y, scale, buf)
        fb.blit(pic, x0, y0 + y * scale)


@micropython.viper
def _row(m: ptr8, size: int, y: int, scale: int, out: ptr8):
    # Row ``y`` of the symbol (firmware/qr.py: a byte a module, bit 0
    # dark) as a picture of ``scale`` pixels a module and ``scale`` rows,
    # MONO_HLSB (framebuf's and the panel's: rows of bytes, the leftmost
    # pixel the top bit; 1 dark): a call and a blit a row, where a
    # rectangle a run of modules cost the screen 28 ms on the board.
    stride = (size * scale + 7) >> 3
    for i in range(stride):
        out[i] = 0
    p = y * size
    px = 0
    for x in range(size):
        dark = m[p + x] & 1
        for a in range(scale):
            if dark:
                out[px >> 3] = out[px >> 3] | (0x80 >> (px & 7))
            px += 1
    for i in range(stride, stride * scale):
        out[i] = out[i - stride]
