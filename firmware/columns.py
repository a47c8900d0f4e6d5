"""The panel's own picture layout from our framebuffer (boards with a real
UC8151 panel import this; the simulated board does not).

``to_columns(src, dst, invert)``: the UC8151 (and Pimoroni's PicoGraphics
1-bit "Y" buffer) stores the 296x128 picture column by column: byte
``x*16 + y//8`` holds pixels (x, y..y+7), the top pixel in the top bit,
1 = white. Our framebuffer (firmware.board) is row by row with 1 = ink,
hence the transpose and ``invert=0xFF``. Viper where the port has the
native emitters (the RP2040 ports do: ~40k simple steps, a few ms), plain
Python otherwise.
"""

from firmware.board import WIDTH, STRIDE


def _columns_py(src, dst, invert):
    # Plain Python: slow (a loop per pixel), only for ports without viper.
    for x in range(WIDTH):
        sb = x >> 3
        sh = 7 - (x & 7)
        o = x * 16
        for yb in range(16):
            v = 0
            p = yb * 8 * STRIDE + sb
            for i in range(8):
                v = (v << 1) | ((src[p] >> sh) & 1)
                p += STRIDE
            dst[o + yb] = v ^ invert


try:
    import micropython

    @micropython.viper
    def _columns_viper(src: ptr8, dst: ptr8, invert: int):
        for x in range(296):
            sb = x >> 3
            sh = 7 - (x & 7)
            o = x * 16
            for yb in range(16):
                v = 0
                p = yb * 296 + sb   # yb * 8 rows * 37 bytes
                for i in range(8):
                    v = (v << 1) | ((src[p] >> sh) & 1)
                    p += 37
                dst[o + yb] = v ^ invert

    to_columns = _columns_viper
except Exception:  # CPython, or a port built without the native emitters
    to_columns = _columns_py
