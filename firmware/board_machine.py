"""Upstream MicroPython on any build of hardware/profiles/: the Badger 2040
/ 2040 W without Pimoroni's build, a Pico with a Pico Inky Pack (UC8151), a
Pico with a Waveshare Pico-ePaper-2.9 (SSD1680). Every pin comes from the
board profile; the panel driver is the profile's DISPLAY_CONTROLLER
(firmware/uc8151.py, firmware/ssd1680.py), buttons are plain
``machine.Pin`` inputs whose press edges the chip latches
(firmware/presses.py).

Power:
- a profile with a power latch (the Badgers): driven high at boot to keep
  the board on, low in ``halt()`` to cut the power; on USB the board stays
  up and ``halt()`` returns. On battery during a game it keeps the latch
  high and sleeps (``wait_press(ms)``: machine.lightsleep(ms), the RP2040's
  SLEEP state, woken by a button's interrupt or the time-out;
  firmware/presses.py says why not DORMANT), the panel in deep sleep with
  its reset begun, as ``halt()`` leaves it. The 2040 W on upstream
  MicroPython cannot see VBUS (its sense is on the wireless chip), so it
  counts as on USB and never dozes: every press there is a cold boot, as
  before. Upstream MicroPython has no early wake capture
  in C, so ``pipkeeper flash`` writes a /boot.py (host/pipkeeper/board/bootfile.py)
  that sets the latch and notes the buttons held about 20 ms after power-on;
  ``wake_button()`` is the first of those, or without that file the button
  still held when the firmware starts;
- no latch (the Pico builds): the board stays on between presses and, on
  battery (VBUS low), waits for the next one in the RP2040's DORMANT state
  (machine.lightsleep(), woken by the press itself: firmware/presses.py).

The profile is checked at boot: the first panel update must see the panel's
BUSY line move. If it does not (another build's pins, nothing wired there),
the board shows an error screen saying so (drawn blind, BUSY ignored) and
takes no presses, so that nothing is recorded on a board that cannot show
it; ``pipkeeper flash --board NAME`` sets the right build.
"""

import time
from machine import Pin, SPI

from firmware.board import Board, HEAP_PROBE
from firmware.epd import PanelError

_SCRATCH1 = 0x40058010       # WATCHDOG SCRATCH1-3 (RP2040 datasheet 4.7.6)
_SCRATCH2 = 0x40058014
_SCRATCH3 = 0x40058018


class MachineBoard(Board):
    def __init__(self, profile):
        self.profile = profile
        self.name = profile.NAME
        self.flash_root = "/"
        self._latch = None
        if profile.PIN_POWER_LATCH is not None:
            self._latch = Pin(profile.PIN_POWER_LATCH, Pin.OUT, value=1)
        pulls = {"up": Pin.PULL_UP, "down": Pin.PULL_DOWN}
        buttons = []
        for label, gpio, pull, high in profile.BUTTONS:
            buttons.append((label, Pin(gpio, Pin.IN, pulls.get(pull)), 1 if high else 0, gpio))
        self._buttons = buttons
        vbus = profile.PIN_VBUS_DETECT
        self._vbus = Pin(vbus, Pin.IN) if vbus is not None else None
        self._panel = self._driver(profile)
        self._panel.reset_start()    # /boot.py may have begun it already
        # The frame in the panel's own layout, made as it is sent (no second
        # 4.7 KB buffer: a late game's cold boot found no block for one).
        from firmware.columns import Frame, COLUMNS, GATES
        layout = GATES if profile.DISPLAY_CONTROLLER == "SSD1680" else COLUMNS
        self._frame = Frame(layout)
        self._old = Frame(layout)    # the picture shown before (firmware/picture.py)
        self.broken = None           # the PanelError of the boot's check
        self._checked = False
        import sys
        early = sys.modules.get("pk_boot")     # noted by /boot.py
        held = self.buttons_pressed()
        woke = early if early else held
        self._wake = woke[0] if woke else None
        from firmware.presses import Presses
        self.presses = Presses(buttons, vbus, timed=self._latch is not None)

    @staticmethod
    def _driver(p):
        spi = SPI(p.SPI_ID, baudrate=p.SPI_BAUD, sck=Pin(p.SPI_SCK), mosi=Pin(p.SPI_MOSI))
        pins = (spi, Pin(p.PIN_CS, Pin.OUT, value=1), Pin(p.PIN_DC, Pin.OUT),
                Pin(p.PIN_RST, Pin.OUT, value=0), Pin(p.PIN_BUSY, Pin.IN), p.BUSY_LEVEL)
        if p.DISPLAY_CONTROLLER == "SSD1680":
            from firmware.ssd1680 import SSD1680
            return SSD1680(*pins, full_ms=p.PANEL_FULL_UPDATE_MS, fast_ms=p.PANEL_UPDATE_MS)
        if p.DISPLAY_CONTROLLER == "UC8151":
            from firmware.uc8151 import UC8151
            return UC8151(*pins)
        raise ValueError("no driver for the %s controller" % p.DISPLAY_CONTROLLER)

    def wake_button(self):
        return self._wake

    def buttons_pressed(self):
        return tuple(b[0] for b in self._buttons if b[1].value() == b[2])

    def wait_press(self, ms=None):
        if self.broken is not None:
            # The wrong build for this board: no press is taken (on USB the
            # host can still break in and flash the right profile).
            while True:
                time.sleep_ms(1000)
        if ms is not None:
            # Dozing: the panel goes to deep sleep as halt() leaves it, its
            # reset begun, so the next update waits no longer for it.
            self._panel.sleep()
        return self.presses.wait(self._low_power, ms)

    def dozes(self):
        return self._latch is not None and self.broken is None and not self.on_usb()

    def idle(self):
        """A press is done. Where a bench asked for it (WATCHDOG SCRATCH1
        set to ``HEAP_PROBE`` before the power-on: pipkeeper.bench.device's
        long run), the free heap after a collection goes to SCRATCH2 and
        the count of presses to SCRATCH3, for it to read off the chip: a
        board that stays up all evening must show no heap that grows. A
        real board's SCRATCH1 is 0 after a power-on."""
        import machine
        if machine.mem32[_SCRATCH1] == HEAP_PROBE:
            import gc
            gc.collect()
            machine.mem32[_SCRATCH2] = gc.mem_free()
            machine.mem32[_SCRATCH3] = machine.mem32[_SCRATCH3] + 1

    def _low_power(self):
        return not self.on_usb()

    def prepare(self):
        self._panel.reset_end()

    def update(self, buf, full=False, old=None):
        if self.broken is not None:
            # The boot's check failed and its screen says so: nothing drawn
            # over it (the app's second try, firmware/picture.py, included)
            raise self.broken
        self._frame.src = buf
        before = None
        if old is not None:
            # the picture the panel shows, made as it is sent as the new one is
            before = self._old
            before.src = old
        try:
            self._panel.show(self._frame, fast=not full, old=before)
        except PanelError as e:
            if self._checked:
                raise
            self._refuse(e, buf)
            raise
        self._checked = True

    def _refuse(self, e, buf):
        """The boot's check failed: say so on the screen, BUSY ignored (the
        whole PanelError goes to the log, as the app logs every fault)."""
        p = self.profile
        self.broken = e
        msg = ("The screen did not answer as the %s build expects (BUSY, GP%d). "
               "Check the wiring, or set the build: pipkeeper flash --board NAME" % (p.NAME, p.PIN_BUSY))
        try:
            import framebuf
            from firmware.screens import error
            fb = framebuf.FrameBuffer(buf, 296, 128, framebuf.MONO_HLSB)
            error.draw({"message": msg, "where": "board check", "labels": (None,) * 5}, fb)
            self._panel.busy = None
            self._panel.show(self._frame, fast=False)
        except Exception:
            pass

    def halt(self):
        self._panel.sleep()
        if self._latch is not None:
            time.sleep_ms(50)
            self._latch.value(0)     # on battery the power goes here
            time.sleep_ms(200)
            self._latch.value(1)     # still running: we are on USB

    def cuts_power(self):
        return self._latch is not None and not self.on_usb()

    def on_usb(self):
        if self._vbus is not None:
            return bool(self._vbus.value())
        return True
