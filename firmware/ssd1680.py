"""A small driver for the SSD1680 e-ink controller of the Waveshare
Pico-ePaper-2.9 (296x128, black and white).

Written from Solomon Systech's SSD1680 datasheet (command table) and
Waveshare's notes for the module (pins, reset timing, its 2.9" panel's
sizes); the sequence of a differential update is the one the panel makers
document for this controller class (GxEPD2's GDEM029T94 notes agree). The
bus is firmware.epd's ``Panel``.

The picture comes in the controller's own layout (``firmware.columns.
to_gates``): 296 gate lines of 16 bytes, a line's first byte holding its
first 8 source pixels in its top bit, 1 = white. With data entry mode X
then Y increasing (0x11 = 0x03) and a window of the whole RAM, the bytes go
in that order.

Two RAMs: 0x24 is the picture to show, 0x26 the one the panel shows now.
- full update (round boundaries, screens that change everything, the
  count of erased pixels: firmware/picture.py): both RAMs get the
  picture, the panel's own full waveform from OTP (display mode 1) flashes
  every pixel, about 2 s;
- fast (partial) update, every other press: the picture goes to 0x24 and
  display mode 2 drives only the pixels where it differs from 0x26, about
  0.3 s; the picture then goes to 0x26 too, for the next one.
After each update the controller goes to deep sleep mode 1 (0x10 = 0x01),
which keeps both RAMs: the previous picture survives until the next press,
and only a hardware reset wakes the controller, so every update starts
with one. After a power-on the RAMs hold nothing known: the first update
is a full one, unless the app gives the picture the panel shows (the
board's resting picture after a cold boot, firmware/picture.py), which
goes to 0x26 first.

BUSY is high while the controller works; every wait has a time-out
(``firmware.epd``).
"""

from micropython import const
import time

from firmware.epd import Panel, PanelError, wait_idle, wait_refresh

_DRIVER_OUTPUT = const(0x01)
_DEEP_SLEEP = const(0x10)
_DATA_ENTRY = const(0x11)
_SW_RESET = const(0x12)
_TEMP_SENSOR = const(0x18)
_ACTIVATE = const(0x20)
_UPDATE_CTRL1 = const(0x21)
_UPDATE_CTRL2 = const(0x22)
_RAM_NEW = const(0x24)      # "BW" RAM: the picture to show
_RAM_OLD = const(0x26)      # "RED" RAM: on a black/white panel, the picture shown
_BORDER = const(0x3C)
_RAM_X = const(0x44)
_RAM_Y = const(0x45)
_RAM_X_AT = const(0x4E)
_RAM_Y_AT = const(0x4F)

# Display update control 2: clock on, analog on, load temperature, load the
# LUT from OTP, display (mode 1 or 2), analog off, clock off.
_FULL = const(0xF7)         # display mode 1: the full waveform
_FAST = const(0xFF)         # display mode 2: only pixels that change

_WHAT = "the e-ink panel (SSD1680)"


class SSD1680(Panel):
    RESET_LOW_MS = 2

    def __init__(self, spi, cs, dc, rst, busy, busy_level=1, full_ms=2000, fast_ms=300):
        Panel.__init__(self, spi, cs, dc, rst, busy, busy_level)
        self.full_ms = full_ms
        self.fast_ms = fast_ms
        self.primed = False      # RAM 0x26 holds what the panel shows
        self.asleep = False

    def _idle(self, timeout_ms=1000):
        if self.busy is None:
            time.sleep_ms(10)
        else:
            wait_idle(self.busy, self.busy_level, timeout_ms, _WHAT)

    def reset(self):
        """Hardware reset (the only way out of deep sleep; RAM is kept),
        then the software reset, which sets every register to its default."""
        self.hard_reset()
        self._idle()
        self._cmd(_SW_RESET)
        time.sleep_ms(10)
        self._idle()
        self.asleep = False

    def _setup(self):
        self.reset()
        self._cmd(_DRIVER_OUTPUT, b"\x27\x01\x00")   # 296 gate lines, G0 first
        self._cmd(_DATA_ENTRY, b"\x03")              # X then Y, both increasing
        self._cmd(_RAM_X, b"\x00\x0f")               # bytes 0-15: 128 sources
        self._cmd(_RAM_Y, b"\x00\x00\x27\x01")       # lines 0-295
        self._cmd(_BORDER, b"\x05")                  # border follows white
        self._cmd(_UPDATE_CTRL1, b"\x00\x80")        # sources S8-S167 (the panel's 128)
        self._cmd(_TEMP_SENSOR, b"\x80")             # the built-in sensor

    def _write(self, ram, picture):
        self._cmd(_RAM_X_AT, b"\x00")
        self._cmd(_RAM_Y_AT, b"\x00\x00")
        self._cmd(ram, picture)

    def show(self, picture, fast=False, old=None):
        """Show ``picture`` (4,736 bytes, controller layout, or a
        firmware.columns.Frame); then deep sleep. ``old``: the picture the
        panel shows, the same way, or None where it is not known: after a
        power-on (the RAMs hold noise) the old RAM gets it first, so that
        the board's first press can be a fast update too (issue 33)."""
        prime = fast and not self.primed and old is not None
        fast = fast and (self.primed or prime)
        self._setup()
        if prime:
            self._write(_RAM_OLD, old)
        self._write(_RAM_NEW, picture)
        if not fast:
            self._write(_RAM_OLD, picture)
        self._cmd(_UPDATE_CTRL2, bytes((_FAST if fast else _FULL,)))
        self._cmd(_ACTIVATE)
        try:
            wait_refresh(self.busy, self.busy_level, self.fast_ms if fast else self.full_ms, _WHAT)
        except PanelError:
            self.primed = False
            raise
        if fast:
            self._write(_RAM_OLD, picture)
        self.primed = True
        self.sleep()

    def sleep(self):
        """Deep sleep mode 1: RAM kept, BUSY high until the next reset."""
        if not self.asleep:
            self._cmd(_DEEP_SLEEP, b"\x01")
            self.asleep = True
