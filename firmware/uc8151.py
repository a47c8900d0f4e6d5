"""A small driver for the UC8151 e-ink controller (296x128, black and white).

For upstream MicroPython on a Badger 2040 or a Pico with an Inky Pack, where
Pimoroni's PicoGraphics is not there. The bus and pins are passed in (from
the board profile), as micropython-lib's ssd1306 does; the driver only knows
the controller's commands. It takes the picture in the controller's own
column layout (see ``firmware.columns.to_columns``): 4,736 bytes, byte
``x*16 + y//8`` holds pixels (x, y..y+7), top pixel in the top bit, 1 = white.

Two kinds of update:
- full: the panel's own waveform from OTP (slow, ~2-4 s, clears ghosts);
- fast: a short waveform from registers (well under a second, may leave
  faint ghosts; the app asks for a full refresh now and then).

Written from the controller's command set (UC8151 datasheet); the sequence
follows the datasheet's "typical operating flow": reset, power settings,
booster soft start, power on, panel settings, resolution, data, refresh,
power off. The device tests run it on an emulated RP2040 whose panel is
decoded from the SPI stream (host/pipkeeper/sim/rp2040).
"""

from micropython import const
import time

from firmware.epd import Panel, wait_idle, wait_refresh

_PSR = const(0x00)    # panel setting
_PWR = const(0x01)    # power setting
_POF = const(0x02)    # power off
_PON = const(0x04)    # power on
_BTST = const(0x06)   # booster soft start
_DSLP = const(0x07)   # deep sleep
_DTM1 = const(0x10)   # data, "old" picture
_DRF = const(0x12)    # display refresh
_DTM2 = const(0x13)   # data, "new" picture
_LUT_VCOM = const(0x20)
_CDI = const(0x50)    # VCOM and data interval
_PLL = const(0x30)    # frame rate
_TRES = const(0x61)   # resolution
_VDCS = const(0x82)   # VCOM DC

# PSR bits: resolution 128x296 (10), LUT from register (1) or OTP (0),
# black/white mode, gate scan down and source shift right (the picture
# upright on the Badger and the Inky Pack, as Pimoroni's driver sets them;
# the emulated panel in tests/device checks it), booster on, no reset.
_PSR_OTP = const(0b10010111)
_PSR_REG = const(0b10110111)

# The fast waveform: one short phase that drives every pixel towards its new
# colour (to white with VDL, to black with VDH) whatever it showed before,
# so it needs no copy of the old picture: on battery every press is a cold
# boot and the old picture is gone from RAM.
# Each LUT is 7 groups of 6 bytes (level select of four phases, four frame
# counts, repeat); the VCOM LUT has two more bytes. Only group 0 is used.
_FRAMES = const(0x14)


def _lut(select, size):
    b = bytearray(size)
    b[0] = select
    b[1] = _FRAMES
    b[5] = 1
    return b


class UC8151(Panel):
    def __init__(self, spi, cs, dc, rst, busy, busy_level=0):
        Panel.__init__(self, spi, cs, dc, rst, busy, busy_level)

    def wait(self, timeout_ms=10000):
        wait_idle(self.busy, self.busy_level, timeout_ms, "the e-ink panel (UC8151)")

    def reset(self):
        self.hard_reset()
        self.wait()

    def _setup(self, fast):
        self.reset()
        self._cmd(_PWR, b"\x03\x00\x2b\x2b\x1e")
        self._cmd(_BTST, b"\x17\x17\x17")
        self._cmd(_PSR, bytes((_PSR_REG if fast else _PSR_OTP,)))
        self._cmd(_PLL, b"\x3a")
        self._cmd(_TRES, b"\x80\x01\x28")      # 128 sources, 296 gates
        self._cmd(_VDCS, b"\x12")
        self._cmd(_CDI, b"\x97")
        if fast:
            self._cmd(_LUT_VCOM, _lut(0x00, 44))       # VCOM held at DC level
            self._cmd(_LUT_VCOM + 1, _lut(0x80, 42))   # white -> white: VDL
            self._cmd(_LUT_VCOM + 2, _lut(0x80, 42))   # black -> white: VDL
            self._cmd(_LUT_VCOM + 3, _lut(0x40, 42))   # white -> black: VDH
            self._cmd(_LUT_VCOM + 4, _lut(0x40, 42))   # black -> black: VDH
        self._cmd(_PON)
        self.wait()

    def show(self, columns, fast=False):
        """Show ``columns`` (4,736 bytes, controller layout)."""
        self._setup(fast)
        self._cmd(_DTM2, columns)
        self._cmd(_DRF)
        wait_refresh(self.busy, self.busy_level, 900 if fast else 4700, "the e-ink panel (UC8151)")
        self._cmd(_POF)
        self.wait()

    def sleep(self):
        self._cmd(_DSLP, b"\xa5")
        self.reset_start()     # asleep until the next reset: begin it now
