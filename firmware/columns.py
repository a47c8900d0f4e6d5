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

Viper where the port has the native emitters (the RP2040 ports do: ~40k
simple steps, a few ms), plain Python otherwise.
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
        for x in range(296):
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

    _transpose = _transpose_viper
except Exception:  # CPython, or a port built without the native emitters
    _transpose = _transpose_py


def to_columns(src, dst, invert):
    _transpose(src, dst, invert, 0, STRIDE)


def to_gates(src, dst, invert):
    _transpose(src, dst, invert, 127 * STRIDE, -STRIDE)
