"""The panel's own picture layout from our framebuffer (boards with a real
UC8151 panel import this; the simulated board does not).

``to_columns(src, dst, invert)``: the UC8151 (and Pimoroni's PicoGraphics
1-bit "Y" buffer) stores the 296x128 picture column by column: byte
``x*16 + y//8`` holds pixels (x, y..y+7), the top pixel in the top bit,
1 = white. Our framebuffer (firmware.board) is row by row with 1 = ink,
hence the transpose and ``invert=0xFF``. Viper where the port has the
native emitters (the RP2040 ports do), plain Python otherwise.
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
                p = yb * 296 + sb   # yb * 8 rows * 37 bytes
                x = (uint(src[p]) << 24) | (uint(src[p + 37]) << 16) | (
                    uint(src[p + 74]) << 8) | uint(src[p + 111])
                y = (uint(src[p + 148]) << 24) | (uint(src[p + 185]) << 16) | (
                    uint(src[p + 222]) << 8) | uint(src[p + 259])
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

    to_columns = _columns_viper
except Exception:  # CPython, or a port built without the native emitters
    to_columns = _columns_py
