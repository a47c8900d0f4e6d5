"""A real board: finding it, the link over USB serial, flash, sync, BOOTSEL and
UF2 images, mpy-cross, and the helper that runs on the board (onboard/).
"""
