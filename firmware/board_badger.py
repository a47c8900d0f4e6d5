"""A Badger 2040 / 2040 W on Pimoroni's MicroPython build (1.23 and later):
its ``badger2040`` module drives the panel (PicoGraphics), the update speeds,
the power latch and the early-boot record of the button that woke the board.

Our screens draw into the shared MONO_HLSB framebuffer; here it is transposed
into PicoGraphics' own 1-bit buffer (the same column layout the UC8151
takes, 1 = white) and shown with one ``update()``: ``UPDATE_NORMAL`` for a
full refresh (Pimoroni waits 4.7 s for it), ``UPDATE_FAST`` for the quick
ones (0.9 s), the speeds hardware/profiles/badger2040.py gives.

Wake: Pimoroni's ``wakeup`` module runs before MicroPython starts. It drives
the power latch high about 0.4 ms after power-on and records the buttons
held then and 5 ms later; ``woken_by_button()`` and ``pressed_to_wake()``
read that record, so a tap that is over before our code runs still counts
(upstream MicroPython has no such record: board_machine only sees a button
still held).

Power: ``halt()`` is Pimoroni's ``turn_off()``: the latch goes low and, on
battery with no button down, the power with it. ``turn_off()`` returns when
a button is down: on USB the next press, on battery a button still held
from the last press (it powers the board until it is let go).
"""

import badger2040 as _bd

from firmware.board import Board, BUF_SIZE
from firmware.columns import to_columns

_CODES = (
    ("A", _bd.BUTTON_A), ("B", _bd.BUTTON_B), ("C", _bd.BUTTON_C),
    ("UP", _bd.BUTTON_UP), ("DOWN", _bd.BUTTON_DOWN),
)


def woken_by():
    """The button whose press powered the board up: from the wakeup record
    (taken 0.4 ms after power-on), else a button still held now (what
    upstream MicroPython can see; it also covers a build whose record is
    empty); None after a plain power-on or a reset."""
    if _bd.woken_by_button():
        for name, pin in _CODES:
            if _bd.pressed_to_wake(pin):
                return name
    pins = _bd.BUTTONS
    for name, pin in _CODES:
        if pins[pin].value():
            return name
    return None


class BadgerBoard(Board):
    name = "badger2040"

    def __init__(self):
        self.flash_root = "/"
        self._wake = woken_by()          # before the panel's set-up takes its time
        self._b = _bd.Badger2040()
        disp = self._b.display
        try:
            self._cols = memoryview(disp)          # PicoGraphics' own buffer
            if len(self._cols) < BUF_SIZE:
                raise TypeError
        except TypeError:
            self._cols = bytearray(BUF_SIZE)
            disp.set_framebuffer(self._cols)
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
        """Cut the power (battery), or wait for the next press (USB).

        A button held since before the press just handled is not a new
        press: it keeps a battery board powered until it is let go (the
        latch is already low by then), and on USB the wait goes on past it.
        A button pressed since is one, and ends the wait (at once if it is
        already down); the latch is then driven high again, so that the
        press it starts keeps its power to the end whatever the buttons do."""
        import time
        _bd.reset_pressed_to_wake()
        held = set(self.buttons_pressed())
        down = held & self._down
        if held == down:
            self._b.halt()
            while True:
                held = set(self.buttons_pressed())
                if held - down:
                    break
                down = held
                time.sleep_ms(10)
        self._b.keepalive()
        self._down = down

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
