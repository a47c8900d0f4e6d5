"""The panels' own picture layouts from our framebuffer (boards with a real
panel import this; the simulated board does not).

Our framebuffer (firmware.board) is row by row, 1 = ink. Both controllers
store the 296x128 picture as 296 lines of 16 bytes, one line a column of
the landscape picture, 1 = white (hence ``invert=0xFF``); they differ in
which end of a column comes first:

- ``to_columns(src, dst, invert)``: the UC8151 (and Pimoroni's PicoGraphics
  1-bit "Y" buffer): byte ``x*16 + y//8`` holds pixels (x, y..y+7), the top
  pixel in the top bit;
- ``to_gates(src, dst, invert)``: the SSD1680 of the Waveshare 2.9 module,
  whose first source is the bottom row of the landscape picture (as
  Waveshare's landscape mode sends it): byte ``x*16 + k`` holds pixels
  (x, 127-8k) down to (x, 120-8k), the first in the top bit.

Either layout comes whole (``to_columns``, ``to_gates``: into Pimoroni's
own buffer) or as a ``Frame``, 128 bytes at a time as a driver sends it.
Viper where the port has the native emitters (the RP2040 ports do), plain
Python otherwise.
"""

from firmware.board import STRIDE


def _block_py(src, dst, invert, first, step, sb, o0):
    # Plain Python: slow (a loop per pixel), only for ports without viper.
    for k in range(8):
        x = sb * 8 + k
        sh = 7 - k
        o = o0 + k * 16
        for yb in range(16):
            v = 0
            p = first + yb * 8 * step + sb
            for i in range(8):
                v = (v << 1) | ((src[p] >> sh) & 1)
                p += step
            dst[o + yb] = v ^ invert


try:
    import micropython

    @micropython.viper
    def _block_viper(src: ptr8, dst: ptr8, invert: int, first: int, step: int, sb: int, o0: int):
        # The 8 columns x = sb*8 .. sb*8+7 (one source byte column): 16
        # 8x8 blocks, each a bit-matrix transpose done on two 32-bit words
        # (three swap steps: 1, 2 and 4 bits apart) instead of a loop per
        # pixel; the whole frame's 592 blocks take about 1 ms on the RP2040.
        m1 = uint(0xAA) | (uint(0xAA) << 16)
        m2 = uint(0xCCCC)
        m4 = uint(0xF0F0) | (uint(0xF0F0) << 16)
        n4 = uint(0x0F0F) | (uint(0x0F0F) << 16)
        inv = uint(invert)
        for yb in range(16):
            p = first + yb * 8 * step + sb
            x = (uint(src[p]) << 24) | (uint(src[p + step]) << 16) | (
                uint(src[p + 2 * step]) << 8) | uint(src[p + 3 * step])
            p += 4 * step
            y = (uint(src[p]) << 24) | (uint(src[p + step]) << 16) | (
                uint(src[p + 2 * step]) << 8) | uint(src[p + 3 * step])
            t = (x ^ (x >> 7)) & m1
            x = x ^ t ^ (t << 7)
            t = (y ^ (y >> 7)) & m1
            y = y ^ t ^ (t << 7)
            t = (x ^ (x >> 14)) & m2
            x = x ^ t ^ (t << 14)
            t = (y ^ (y >> 14)) & m2
            y = y ^ t ^ (t << 14)
            t = (x & m4) | ((y >> 4) & n4)
            y = ((x << 4) & m4) | (y & n4)
            o = o0 + yb     # x = sb*8 + k -> byte o0 + k*16 + yb
            dst[o] = (t >> 24) ^ inv
            dst[o + 16] = (t >> 16) ^ inv
            dst[o + 32] = (t >> 8) ^ inv
            dst[o + 48] = t ^ inv
            dst[o + 64] = (y >> 24) ^ inv
            dst[o + 80] = (y >> 16) ^ inv
            dst[o + 96] = (y >> 8) ^ inv
            dst[o + 112] = y ^ inv

    _block = _block_viper
except Exception:  # CPython, or a port built without the native emitters
    _block = _block_py


BLOCKS = 37         # source byte columns: a frame goes out in 37 blocks of 128 bytes
COLUMNS = (0, STRIDE)                # the UC8151's layout: (first row, step)
GATES = (127 * STRIDE, -STRIDE)      # the SSD1680's: the bottom row first


def _transpose(src, dst, invert, first, step):
    for sb in range(BLOCKS):
        _block(src, dst, invert, first, step, sb, sb * 128)


def to_columns(src, dst, invert):
    _transpose(src, dst, invert, 0, STRIDE)


def to_gates(src, dst, invert):
    _transpose(src, dst, invert, 127 * STRIDE, -STRIDE)


class Frame:
    """The framebuffer ``src`` in a panel's layout (``COLUMNS``, ``GATES``),
    made 128 bytes at a time as the panel driver sends it (firmware/epd.py
    ``Panel._cmd``): the board then holds 128 bytes for it, not the whole
    4,736 of a second frame, which a late game's cold boot found no block
    for (issue 21: the scorer's own image draws in 40 KB of heap)."""

    BLOCKS = BLOCKS

    def __init__(self, layout, invert=0xFF):
        self.first, self.step = layout
        self.invert = invert
        self.src = None
        self.out = bytearray(128)

    def block(self, i):
        _block(self.src, self.out, self.invert, self.first, self.step, i, 0)
        return self.out
