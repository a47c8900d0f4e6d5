"""A small driver for the UC8151 e-ink controller (296x128, black and white).

For upstream MicroPython on a Badger 2040 or a Pico with an Inky Pack, where
Pimoroni's PicoGraphics is not there. The bus and pins are passed in (from
the board profile), as micropython-lib's ssd1306 does; the driver only knows
the controller's commands. It takes the picture in the controller's own
column layout (see ``firmware.columns.to_columns``): 4,736 bytes, byte
``x*16 + y//8`` holds pixels (x, y..y+7), top pixel in the top bit, 1 = white.

Three kinds of update (issue 33):
- fast, with the old picture: DTM1 gets the picture the panel shows, DTM2
  the new one, and the register waveform (firmware/waveform.py) drives
  only the pixels that change, 8 frames at 100 Hz: the unchanged ones are
  not driven at all, so no static pixel collects DC;
- full, with the old picture: the same drive of the changed pixels, then a
  charge-neutral cleaning flash of every pixel (1.7 s);
- full without it (the board does not know what the panel shows: its first
  picture, after a power cut): the panel's own waveform from OTP (slow,
  ~4.5 s, clears ghosts), whatever DTM1 holds. A fast update is never made
  without the old picture: DTM1 would hold noise, and the waveform would
  drive pixels by the wrong table.

Written from the controller's command set (UC8151 datasheet); the sequence
follows the datasheet's "typical operating flow": reset, power settings,
booster soft start, power on, panel settings, resolution, data, refresh,
power off. The device tests run it on an emulated RP2040 whose panel is
modelled from the SPI stream, refresh by refresh and pixel by pixel
(host/pipkeeper/sim/rp2040/js/panel.mjs).
"""

from micropython import const

from firmware.epd import Panel, wait_idle, wait_refresh
from firmware import waveform

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


class UC8151(Panel):
    def __init__(self, spi, cs, dc, rst, busy, busy_level=0):
        Panel.__init__(self, spi, cs, dc, rst, busy, busy_level)

    def wait(self, timeout_ms=10000):
        wait_idle(self.busy, self.busy_level, timeout_ms, "the e-ink panel (UC8151)")

    def reset(self):
        self.hard_reset()
        self.wait()

    def _setup(self, registers, full):
        """Reset, power and panel settings; with ``registers`` the waveform
        from the LUT registers (``full`` or fast), else the panel's own."""
        self.reset()
        if registers:
            # 10 V on the pixels (the measured waveform's; VCOM at its DC default)
            self._cmd(_PWR, bytes((0x03, 0x00, waveform.VOLTS_10, waveform.VOLTS_10, 0x1E)))
        else:
            self._cmd(_PWR, b"\x03\x00\x2b\x2b\x1e")
        self._cmd(_BTST, b"\x17\x17\x17")
        self._cmd(_PSR, bytes((_PSR_REG if registers else _PSR_OTP,)))
        self._cmd(_PLL, bytes((waveform.PLL_100HZ,)))
        self._cmd(_TRES, b"\x80\x01\x28")      # 128 sources, 296 gates
        if not registers:
            self._cmd(_VDCS, b"\x12")
        self._cmd(_CDI, b"\x97")
        if registers:
            tables = waveform.luts(full)
            for i in range(5):
                self._cmd(_LUT_VCOM + i, tables[i])
        self._cmd(_PON)
        self.wait()

    def show(self, columns, fast=False, old=None):
        """Show ``columns`` (4,736 bytes, controller layout, or a
        firmware.columns.Frame); ``old``: the picture the panel shows now,
        the same way, or None where it is not known (then a full refresh
        from OTP, ``fast`` or not)."""
        registers = old is not None
        full = not (fast and registers)
        self._setup(registers, full)
        if registers:
            self._cmd(_DTM1, old)
        self._cmd(_DTM2, columns)
        self._cmd(_DRF)
        wait_refresh(self.busy, self.busy_level, waveform.ms(full) if registers else 4700,
                     "the e-ink panel (UC8151)")
        self._cmd(_POF)
        self.wait()

    def sleep(self):
        self._cmd(_DSLP, b"\xa5")
        self.reset_start()     # asleep until the next reset: begin it now
