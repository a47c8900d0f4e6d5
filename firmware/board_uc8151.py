"""Upstream MicroPython on a UC8151 board (Badger 2040 / 2040 W without
Pimoroni's build, or a Pico with a Pico Inky Pack): the project's own
driver (firmware/uc8151.py) and plain ``machine.Pin`` buttons, every pin from
the board profile (hardware/profiles/<name>.py).

Power: where the profile has a power latch (the Badger), it is driven high at
boot to keep the board on and low in ``halt()`` to cut the power; on USB the
board stays up and ``halt()`` returns. Upstream MicroPython has no early
wake capture in C, so ``pipkeeper flash`` writes a /boot.py
(host/pipkeeper/bootfile.py) that sets the latch and notes the buttons held
about 20 ms after power-on; ``wake_button()`` is the first of those, or
without that file the button still held when the firmware starts.
"""

import time
from machine import Pin, SPI

from firmware.board import Board, BUF_SIZE
from firmware.columns import to_columns


class UC8151Board(Board):
    def __init__(self, profile):
        if profile.DISPLAY_CONTROLLER != "UC8151":
            raise ValueError("no driver for the %s controller" % profile.DISPLAY_CONTROLLER)
        self.name = profile.NAME
        self.flash_root = "/"
        self._latch = None
        if profile.PIN_POWER_LATCH is not None:
            self._latch = Pin(profile.PIN_POWER_LATCH, Pin.OUT, value=1)
        pulls = {"up": Pin.PULL_UP, "down": Pin.PULL_DOWN}
        self._buttons = []
        for label, gpio, pull, high in profile.BUTTONS:
            pin = Pin(gpio, Pin.IN, pulls.get(pull))
            self._buttons.append((label, pin, 1 if high else 0))
        vbus = profile.PIN_VBUS_DETECT
        self._vbus = Pin(vbus, Pin.IN) if vbus is not None else None
        spi = SPI(profile.SPI_ID, baudrate=profile.SPI_BAUD,
                  sck=Pin(profile.SPI_SCK), mosi=Pin(profile.SPI_MOSI))
        from firmware.uc8151 import UC8151
        self._panel = UC8151(
            spi, Pin(profile.PIN_CS, Pin.OUT, value=1), Pin(profile.PIN_DC, Pin.OUT),
            Pin(profile.PIN_RST, Pin.OUT, value=1), Pin(profile.PIN_BUSY, Pin.IN),
            profile.BUSY_LEVEL)
        self._cols = bytearray(BUF_SIZE)
        self._panel.reset_start()    # /boot.py may have begun it already
        import sys
        early = sys.modules.get("pk_boot")     # noted by /boot.py
        held = self.buttons_pressed()
        woke = early if early else held
        self._wake = woke[0] if woke else None
        self._down = set(held) | set(woke)

    def wake_button(self):
        return self._wake

    def buttons_pressed(self):
        return tuple(b[0] for b in self._buttons if b[1].value() == b[2])

    def wait_press(self):
        # A press is a button going down after it was up; 20 ms debounce.
        while True:
            held = self.buttons_pressed()
            for name in held:
                if name not in self._down:
                    time.sleep_ms(20)
                    if name in self.buttons_pressed():
                        self._down = set(held)
                        return name
            self._down = set(held)
            time.sleep_ms(10)

    def prepare(self):
        self._panel.reset_end()

    def update(self, buf, full=False):
        to_columns(buf, self._cols, 0xFF)
        self._panel.show(self._cols, fast=not full)

    def halt(self):
        self._panel.sleep()
        if self._latch is not None:
            time.sleep_ms(50)
            self._latch.value(0)     # on battery the power goes here
            time.sleep_ms(200)
            self._latch.value(1)     # still running: we are on USB

    def on_usb(self):
        if self._vbus is not None:
            return bool(self._vbus.value())
        return True
