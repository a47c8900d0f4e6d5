"""A Badger 2040 / 2040 W on Pimoroni's MicroPython build: its ``badger2040``
module drives the panel (PicoGraphics), the update speeds, the power latch
and the early-boot record of the button that woke the board.

Our screens draw into the shared MONO_HLSB framebuffer; here it is transposed
into PicoGraphics' own 1-bit buffer (the same column layout the UC8151
takes, 1 = white) and shown with one ``update()``: ``UPDATE_NORMAL`` for a
full refresh, ``UPDATE_FAST`` for the quick ones.
"""

import badger2040 as _bd

from firmware.board import Board, BUF_SIZE
from firmware.columns import to_columns

_CODES = (
    ("A", _bd.BUTTON_A), ("B", _bd.BUTTON_B), ("C", _bd.BUTTON_C),
    ("UP", _bd.BUTTON_UP), ("DOWN", _bd.BUTTON_DOWN),
)


class BadgerBoard(Board):
    name = "badger2040"

    def __init__(self):
        self.flash_root = "/"
        self._b = _bd.Badger2040()
        disp = self._b.display
        try:
            self._cols = memoryview(disp)          # PicoGraphics' own buffer
            if len(self._cols) < BUF_SIZE:
                raise TypeError
        except TypeError:
            self._cols = bytearray(BUF_SIZE)
            disp.set_framebuffer(self._cols)
        self._wake = None
        for name, pin in _CODES:
            if _bd.pressed_to_wake(pin):
                self._wake = name
                break
        self._down = set(self.buttons_pressed())
        self._speed = None

    def wake_button(self):
        return self._wake

    def buttons_pressed(self):
        pins = _bd.BUTTONS
        return tuple(n for n, p in _CODES if pins[p].value())

    def wait_press(self):
        import time
        while True:
            held = self.buttons_pressed()
            for name in held:
                if name not in self._down:
                    self._down = set(held)
                    return name
            self._down = set(held)
            time.sleep_ms(10)

    def update(self, buf, full=False):
        to_columns(buf, self._cols, 0xFF)
        speed = _bd.UPDATE_NORMAL if full else _bd.UPDATE_FAST
        if speed != self._speed:
            self._b.set_update_speed(speed)
            self._speed = speed
        self._b.update()

    def halt(self):
        # On battery this cuts the power. On USB Pimoroni's turn_off() returns
        # once a button is pressed; wait_press() then sees it held.
        _bd.reset_pressed_to_wake()
        self._down = set()
        self._b.halt()

    def on_usb(self):
        # VBUS sense: a GPIO on the 2040 (from its profile), the wireless
        # chip's WL_GPIO2 on the 2040 W (its profile has None there).
        try:
            from machine import Pin
            from firmware.board import load_profile
            w = getattr(_bd, "is_wireless", None)
            prof = load_profile("badger2040w" if w is not None and w() else "badger2040")
            if prof.PIN_VBUS_DETECT is None:
                return bool(Pin("WL_GPIO2", Pin.IN).value())
            return bool(Pin(prof.PIN_VBUS_DETECT, Pin.IN).value())
        except Exception:
            return True
