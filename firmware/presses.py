"""Button presses on upstream MicroPython, never lost, and the sleep between
them on a board that has no power latch.

A press is the edge its button makes going down. The RP2040 latches every
GPIO edge in IO_BANK0's raw interrupt registers (INTR0-3, RP2040 datasheet
2.19.6.2) whether or not an interrupt is enabled, so the edge of a tap is
kept even while the board is busy drawing, or asleep: ``next()`` reads and
clears those latches, and a tap of a millisecond counts as well as a long
press.

Bounce: a switch makes several edges within a few ms. After a press is
taken, its button's edges count for nothing until the button has been seen
up and has stayed quiet for QUIET_MS (the edges of its release bounce too).

Sleep (``wait(low_power)``): with no press latched, machine.lightsleep()
with no time-out, which on the rp2 port stops the crystal oscillator (the
RP2040's DORMANT state: every clock stopped, RAM kept, about 0.9 mA for a
Pico from USB, the commit that added it in MicroPython says). Only a GPIO
edge enabled in DORMANT_WAKE_INTE0-3 can end it, and the port enables none
of ours, so we set the buttons' press edges there first, with VBUS rising
(a USB cable plugged in wakes the board to serve its serial port). An edge
that comes between the check and the sleep is latched already, and a
latched wake edge ends the sleep at once: nothing falls in between. USB
stops in DORMANT, so on USB power the wait is a short time.sleep_ms poll
of the latches instead.
"""

from micropython import const
import time
import machine

_IO_BANK0 = const(0x40014000)
_INTR0 = const(0x0F0)
_DORMANT_WAKE_INTE0 = const(0x160)
_EDGE_LOW = const(4)
_EDGE_HIGH = const(8)
QUIET_MS = 30
POLL_MS = 10


def _reg(base, gpio):
    return _IO_BANK0 + base + (gpio >> 3) * 4


class Presses:
    """``buttons``: [(label, Pin, active level, gpio)], in the app's order."""

    def __init__(self, buttons, vbus_gpio=None):
        self.buttons = buttons
        self.vbus = vbus_gpio
        self.held = 0          # buttons pressed and not yet seen up (bit per button)
        self.up_at = [time.ticks_ms() - QUIET_MS] * len(buttons)
        self.queue = []        # presses taken, not yet handed out
        for i, b in enumerate(buttons):
            if b[1].value() == b[2]:
                self.held |= 1 << i     # held at boot: the wake press, or a stuck button
            self._take_edge(b)          # an edge from the pin's own set-up is no press
        self.sleeps = 0        # DORMANT sleeps so far (for the tests' and bench's eyes)

    def _edge_bit(self, b):
        return (_EDGE_HIGH if b[2] else _EDGE_LOW) << ((b[3] & 7) * 4)

    def _take_edge(self, b):
        """Whether ``b`` has a press edge latched; clears it (write 1 to clear)."""
        bit = self._edge_bit(b)
        reg = _reg(_INTR0, b[3])
        if machine.mem32[reg] & bit:
            machine.mem32[reg] = bit
            return True
        return False

    def _scan(self):
        now = time.ticks_ms()
        for i, b in enumerate(self.buttons):
            edge = self._take_edge(b)
            down = b[1].value() == b[2]
            m = 1 << i
            if self.held & m:
                if not down:
                    self.held &= ~m
                    self.up_at[i] = now
                continue          # edges while held, and the release's, are bounce
            if edge and time.ticks_diff(now, self.up_at[i]) >= QUIET_MS:
                self.queue.append(b[0])
                if down:
                    self.held |= m
                else:
                    self.up_at[i] = now   # a tap already over: its release was now or sooner

    def next(self):
        """The next press taken, or None."""
        if not self.queue:
            self._scan()
        return self.queue.pop(0) if self.queue else None

    def wait(self, low_power):
        """Block until there is a press; return it."""
        while True:
            p = self.next()
            if p is not None:
                return p
            if low_power():
                self.sleep()
            else:
                time.sleep_ms(POLL_MS)

    def _wake_mask(self, on):
        regs = {}
        for b in self.buttons:
            r = _reg(_DORMANT_WAKE_INTE0, b[3])
            regs[r] = regs.get(r, 0) | self._edge_bit(b)
        if self.vbus is not None:
            r = _reg(_DORMANT_WAKE_INTE0, self.vbus)
            regs[r] = regs.get(r, 0) | (_EDGE_HIGH << ((self.vbus & 7) * 4))
        for r, bits in regs.items():
            v = machine.mem32[r]
            machine.mem32[r] = (v | bits) if on else (v & ~bits)

    def sleep(self):
        """DORMANT until a press edge (or USB power) arrives."""
        if self.vbus is not None:
            self._take_vbus_edge()
        self._wake_mask(True)
        try:
            # A press latched since the last scan wakes the sleep at once.
            machine.lightsleep()
        finally:
            self._wake_mask(False)
        self.sleeps += 1

    def _take_vbus_edge(self):
        bit = _EDGE_HIGH << ((self.vbus & 7) * 4)
        machine.mem32[_reg(_INTR0, self.vbus)] = bit
