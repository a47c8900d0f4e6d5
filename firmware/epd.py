"""What both e-ink drivers share: the bus (``Panel``: commands with DC low,
their data with DC high, CS low around both) and waiting on BUSY.

A panel controller holds BUSY at its busy level (UC8151: low, SSD1680: high)
while it works. The drivers never wait blindly on a panel they can see:

- ``wait_idle``: until BUSY leaves the busy level, or ``PanelError`` after a
  time-out (a BUSY line stuck busy: the wrong pin, or no panel there);
- ``wait_refresh``: after a refresh command BUSY must first go busy (a
  refresh takes hundreds of milliseconds), then come back. A BUSY line that
  never moves means the profile does not match the board (another build's
  pin, nothing wired there), and says so rather than showing nothing.

``PanelError`` is an OSError whose text is a sentence for the error screen.
With ``busy`` None (a panel whose BUSY cannot be trusted, to show the error
screen that says so) the waits are the expected times instead.
"""

import time


class PanelError(OSError):
    pass


class Panel:
    """The pins of a panel controller; the bus and pins are passed in, as
    micropython-lib's ssd1306 does."""

    def __init__(self, spi, cs, dc, rst, busy, busy_level):
        self.spi = spi
        self.cs = cs
        self.dc = dc
        self.rst = rst
        self.busy = busy
        self.busy_level = busy_level
        self._cmd1 = bytearray(1)
        cs.value(1)

    # The hardware reset (low RESET_LOW_MS, then RESET_WAKE_MS to wake) is
    # split in two, so that its waits overlap the app's own work instead of
    # delaying the update: the line goes low early (after an update, when a
    # sleeping panel needs a reset to wake anyway; /boot.py does it on a cold
    # boot), high when the app starts drawing (``reset_end``, from the
    # board's ``prepare``), and ``hard_reset`` sleeps only what is left.
    RESET_LOW_MS = 10
    RESET_WAKE_MS = 10
    _low = None      # ticks_ms when the reset line went low
    _high = None     # ... and high again: the panel is waking

    def reset_start(self):
        self.rst.value(0)
        self._low = time.ticks_ms()
        self._high = None

    def reset_end(self):
        if self._high is not None:
            return
        if self._low is None:
            self.reset_start()
        _sleep_rest(self._low, self.RESET_LOW_MS)
        self.rst.value(1)
        self._high = time.ticks_ms()

    def hard_reset(self):
        self.reset_end()
        _sleep_rest(self._high, self.RESET_WAKE_MS)
        self._low = self._high = None

    def _cmd(self, c, data=None):
        """Command ``c``, and its data: bytes, or a picture made as it is
        sent (firmware.columns.Frame: its blocks one after the other)."""
        self.cs.value(0)
        self.dc.value(0)
        self._cmd1[0] = c
        self.spi.write(self._cmd1)
        if data:
            self.dc.value(1)
            if hasattr(data, "block"):
                for i in range(data.BLOCKS):
                    self.spi.write(data.block(i))
            else:
                self.spi.write(data)
        self.cs.value(1)


def _sleep_rest(since, ms):
    """Sleep what is left of ``ms`` milliseconds since ``since``."""
    left = ms - time.ticks_diff(time.ticks_ms(), since)
    if left > 0:
        time.sleep_ms(left)


def wait_idle(busy, level, timeout_ms, what="the e-ink panel"):
    t0 = time.ticks_ms()
    while busy.value() == level:
        if time.ticks_diff(time.ticks_ms(), t0) > timeout_ms:
            raise PanelError("%s stayed busy for over %d s: its BUSY line never came back"
                             % (what, timeout_ms // 1000))
        time.sleep_ms(2)


def wait_refresh(busy, level, expected_ms, what="the e-ink panel"):
    """BUSY busy within 200 ms of the refresh command, idle again within
    four times the expected refresh (at least 10 s)."""
    if busy is None:
        time.sleep_ms(expected_ms)
        return
    t0 = time.ticks_ms()
    while busy.value() != level:
        if time.ticks_diff(time.ticks_ms(), t0) > 200:
            raise PanelError("%s did not answer: its BUSY line never changed during a "
                             "refresh. Check the wiring, and that the board's build is "
                             "this one (pipkeeper flash --board NAME)" % what)
        time.sleep_ms(1)
    wait_idle(busy, level, max(10000, 4 * expected_ms), what)
