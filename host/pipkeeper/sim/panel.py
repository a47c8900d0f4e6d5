"""The board's framebuffer on the laptop: PNG files and terminal pictures.

A frame is 4,736 bytes: 296x128 pixels, MONO_HLSB (rows of 37 bytes, the
leftmost pixel in the top bit), bit 1 = ink. ``to_image`` makes a Pillow
image (white paper, black ink, like the panel); ``to_terminal`` draws it with
Unicode braille characters (2x4 pixels a character, or 4x8 at half size).
"""

WIDTH = 296
HEIGHT = 128
STRIDE = 37
FRAME_BYTES = STRIDE * HEIGHT


class Frame:
    """One panel update, as a simulated board reports it: ``data`` the
    frame's bytes, ``full`` a full (not fast) refresh, ``index`` its number
    since the board started, ``t`` the emulator's clock (ms) for the
    emulated RP2040 (None on the unix port). On the emulated RP2040
    ``data`` is the picture the panel shows once the refresh is over (its
    model, js/panel.mjs), ``refresh_ns`` how long BUSY held, and ``panel``
    the refresh's report (what it drove, pixel by pixel: the model's
    counts); None on the unix port, which has no panel."""

    def __init__(self, data, full, index, t=None, words=None, refresh_ns=None, panel=None):
        self.data = data
        self.full = full
        self.index = index
        self.t = t
        self.words = words      # what the screens wrote on it (unix port, when asked)
        self.refresh_ns = refresh_ns
        self.panel = panel


def pixel(frame, x, y):
    return (frame[y * STRIDE + (x >> 3)] >> (7 - (x & 7))) & 1


def to_image(frame, scale=1, border=0):
    """A Pillow image of the frame: mode "L", paper white, ink black."""
    from PIL import Image

    if len(frame) != FRAME_BYTES:
        raise ValueError("a frame is %d bytes, not %d" % (FRAME_BYTES, len(frame)))
    # Pillow's "1" raw decoder reads MSB-first rows with 1 = white: invert.
    img = Image.frombytes("1", (WIDTH, HEIGHT), bytes(b ^ 0xFF for b in frame)).convert("L")
    if scale != 1:
        img = img.resize((WIDTH * scale, HEIGHT * scale), Image.NEAREST)
    if border:
        from PIL import ImageOps
        img = ImageOps.expand(img, border=border, fill=160)
    return img


def save_png(frame, path, scale=2):
    to_image(frame, scale=scale, border=0).save(path, format="PNG")


_DOTS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08),
         (1, 1, 0x10), (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))


def to_terminal(frame, half=False):
    """The frame as lines of braille characters (ink = dot).

    Full size is 148 columns by 32 lines; ``half`` is 74 by 16, each dot
    standing for a 2x2 block (inked when any of its pixels is)."""
    step = 2 if half else 1
    cols = WIDTH // (2 * step)
    rows = HEIGHT // (4 * step)
    out = []
    for r in range(rows):
        line = []
        for c in range(cols):
            bits = 0
            for dx, dy, bit in _DOTS:
                x0 = (c * 2 + dx) * step
                y0 = (r * 4 + dy) * step
                on = 0
                for yy in range(y0, y0 + step):
                    for xx in range(x0, x0 + step):
                        on |= pixel(frame, xx, yy)
                if on:
                    bits |= bit
            line.append(chr(0x2800 + bits))
        out.append("".join(line))
    return out
