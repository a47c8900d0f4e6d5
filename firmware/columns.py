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

Viper where the port has the native emitters (the RP2040 ports do), plain
Python otherwise.
"""

from firmware.board import WIDTH, STRIDE


def _transpose_py(src, dst, invert, first, step):
    # Plain Python: slow (a loop per pixel), only for ports without viper.
    for x in range(WIDTH):
        sb = x >> 3
        sh = 7 - (x & 7)
        o = x * 16
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
    def _transpose_viper(src: ptr8, dst: ptr8, invert: int, first: int, step: int):
        # 8x8 blocks: 8 rows of one source byte column become 8 columns of
        # one destination byte row, a bit-matrix transpose done on two
        # 32-bit words (three swap steps: 1, 2 and 4 bits apart) instead of
        # a loop per pixel; 592 blocks, about 1 ms on the RP2040.
        m1 = uint(0xAA) | (uint(0xAA) << 16)
        m2 = uint(0xCCCC)
        m4 = uint(0xF0F0) | (uint(0xF0F0) << 16)
        n4 = uint(0x0F0F) | (uint(0x0F0F) << 16)
        inv = uint(invert)
        for sb in range(37):
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
                o = sb * 128 + yb   # x = sb*8 + k -> byte x*16 + yb
                dst[o] = (t >> 24) ^ inv
                dst[o + 16] = (t >> 16) ^ inv
                dst[o + 32] = (t >> 8) ^ inv
                dst[o + 48] = t ^ inv
                dst[o + 64] = (y >> 24) ^ inv
                dst[o + 80] = (y >> 16) ^ inv
                dst[o + 96] = (y >> 8) ^ inv
                dst[o + 112] = y ^ inv

    _transpose = _transpose_viper
except Exception:  # CPython, or a port built without the native emitters
    _transpose = _transpose_py


def to_columns(src, dst, invert):
    _transpose(src, dst, invert, 0, STRIDE)


def to_gates(src, dst, invert):
    _transpose(src, dst, invert, 127 * STRIDE, -STRIDE)
