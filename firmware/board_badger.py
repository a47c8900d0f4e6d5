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

Presses and the sleep during a game: what Pimoroni's API allows. The
``badger2040`` module gives the latch (``turn_on``/``turn_off``, the
object's ``keepalive``/``halt``), the buttons as ``machine.Pin`` objects
(``BUTTONS``) and the wake record; it has no sleep and no timer: its
``sleep_for`` needs the 2040 W's RTC and powers the board off (the RTC's
alarm powers it on again), and on the 2040 it raises. Under it is
MicroPython's rp2 port (1.23 on Pimoroni's v1.23.0-1), whose
``machine.lightsleep(ms)`` and ``Pin.irq`` are there: so the board takes its
presses from ``firmware/presses.py`` on Pimoroni's own pins, the edges
noted by interrupts (a tap is never lost, also while the board draws), and
during a game on battery sleeps as the upstream build does, latch held, until
the next press or the idle time-out. The 2040 W sees VBUS only through its
wireless chip (WL_GPIO2), which no interrupt comes from: a cable plugged in
while it sleeps is seen at the next press or at the time-out.
"""

import machine

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
        self._speed = None
        self._vbus = _vbus_pin()
        from firmware.presses import Presses
        pins = _bd.BUTTONS
        self.presses = Presses([(n, pins[p], 1, p) for n, p in _CODES],
                               self._vbus[1], timed=hasattr(machine, "lightsleep"))

    def wake_button(self):
        return self._wake

    def buttons_pressed(self):
        pins = _bd.BUTTONS
        return tuple(n for n, p in _CODES if pins[p].value())

    def wait_press(self, ms=None):
        return self.presses.wait(self._low_power, ms)

    def dozes(self):
        return self.presses.timed and not self.on_usb()

    def _low_power(self):
        return self.presses.timed and not self.on_usb()

    def update(self, buf, full=False, old=None):
        to_columns(buf, self._cols, 0xFF)
        speed = _bd.UPDATE_NORMAL if full else _bd.UPDATE_FAST
        if speed != self._speed:
            self._b.set_update_speed(speed)
            self._speed = speed
        self._b.update()

    def halt(self):
        """Cut the power (battery), or wait for the next press (USB).

        A press that came since the last one was handed out (its edge is
        noted: firmware/presses.py) skips the cut: it keeps its power to
        the end whatever the buttons do. Else ``turn_off()``: on battery the
        power goes now, or when a button still held from the press just
        handled is let go; on USB, or with that button held, the wait goes
        on until a new press comes. The latch is then driven high again."""
        import time
        _bd.reset_pressed_to_wake()
        if not self.presses.pending():
            self._b.halt()
            while not self.presses.pending():
                time.sleep_ms(10)
        self._b.keepalive()

    def cuts_power(self):
        return not self.on_usb()

    def on_usb(self):
        pin = self._vbus[0]
        if pin is None:
            return True
        return bool(pin.value())


def _vbus_pin():
    """(the VBUS sense Pin, its GPIO for an interrupt, or None): a GPIO on
    the 2040 (from its profile), the wireless chip's WL_GPIO2 on the 2040 W
    (its profile has None there); (None, None) where neither can be read
    (the board then counts as on USB)."""
    try:
        from firmware.board import load_profile
        w = getattr(_bd, "is_wireless", None)
        prof = load_profile("badger2040w" if w is not None and w() else "badger2040")
        if prof.PIN_VBUS_DETECT is None:
            return machine.Pin("WL_GPIO2", machine.Pin.IN), None
        return machine.Pin(prof.PIN_VBUS_DETECT, machine.Pin.IN), prof.PIN_VBUS_DETECT
    except Exception:
        return None, None
