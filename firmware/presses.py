"""Button presses on MicroPython's ``machine``, never lost, and the sleep
between them.

A press is the edge its button makes going down. The RP2040 latches every
GPIO edge in IO_BANK0's raw interrupt registers (INTR0-3, RP2040 datasheet
2.19.6.2) whether or not an interrupt is enabled, so the edge of a tap is
kept even while the board is busy drawing, or asleep, and a tap of a
millisecond counts as well as a long press.

Bounce: a switch makes several edges within a few ms. After a press is
taken, its button's edges count for nothing until the button has been seen
up and has stayed quiet for QUIET_MS (the edges of its release bounce too).

Two sleeps, for two kinds of board (``timed``):

- No power latch (the Pico builds): nothing to cut, so no time-out to keep.
  The board waits in DORMANT (machine.lightsleep() with no time-out: the
  rp2 port stops the crystal oscillator, every clock stops, RAM is kept;
  about 0.9 mA for a Pico from USB, the commit that added it says). Only a
  GPIO edge enabled in DORMANT_WAKE_INTE0-3 ends it, and the port enables
  none of ours, so we set the buttons' press edges there first, with VBUS
  rising (a USB cable plugged in wakes the board to serve its serial port).
  An edge that comes between the check and the sleep is latched already,
  and a latched wake edge ends the sleep at once. The edges are read from
  INTR (``next``).
- A power latch (the Badgers, on battery during a game): the board must
  wake on the next press and also after IDLE minutes, to cut its power.
  DORMANT cannot be timed on a Badger: with the crystal stopped no clock
  runs at all (nothing drives GPIN, the 2040 has no RTC chip), so nothing
  but a button could end it. machine.lightsleep(ms) is the chip's SLEEP
  state instead (ports/rp2/modmachine.c): clk_sys from the 12 MHz crystal,
  the PLLs off, every clock gated but the timer's, the core in WFI until
  the timer's alarm or an interrupt; on a Pico 0.99 mA (Peter Hinch) to
  1.5 mA (the commit), micropython PR #8832; hardware/power_figures.py.

Interrupts (``timed``). SLEEP ends on an interrupt, and a pin's interrupt
is enabled only by a Pin.irq with a handler (DORMANT_WAKE plays no part;
micropython issue #7035, projectgus, 2024-12). So each button has a hard
handler on both its edges (``_noter``). MicroPython's own GPIO interrupt
(machine_pin.c ``gpio_irq``) clears every edge latched in INTR, of every
pin, each time it runs, and enabling a pin's irq clears that pin's
(pico-sdk ``gpio_set_irq_enabled``): with interrupts on INTR tells nothing,
so the handlers keep the whole story, and they are set once here and left
on. A handler debounces as it goes, with each edge's own time: a press is
a going-down edge of a button that has been up and quiet for QUIET_MS, and
is noted in ``hits`` (a bit per button). Not in ``next``: asleep, or while
drawing, nobody looks at the buttons, and a release seen only then started
its quiet late, so the next press, made as the board fell asleep, was
taken for bounce and lost. A handler runs late too while interrupts are
off (MicroPython turns them off to write the flash, 45 ms a sector
erased): a press within 30 ms of a release that fell in such a write is
still taken for its bounce.

The check and the sleep are one step with interrupts off
(``machine.disable_irq``, the check, lightsleep, ``enable_irq``: the
Cortex-M idle pattern): an edge after the check stays pending in the NVIC,
a pending interrupt ends WFI even while masked, also one pending before
the WFI (ARMv6-M B1.5.19), and its handler runs once interrupts are on.

VBUS rising has a handler too: a USB cable plugged in while the board
sleeps wakes it, and it waits awake while USB powers it. Asleep, the USB
clock is stopped; a host that enumerates the board (100 ms after the cable
goes in) while it still slept would find no device and give up until the
cable is plugged in again. The port restarts the USB clock it stopped when
a light sleep ends (clocks_extra.c, runtime_init_clocks_optional_usb).

On USB power the wait is a short time.sleep_ms poll instead (USB needs its
clocks).
"""

from micropython import const
import time
import machine

from firmware.board import IDLE

_IO_BANK0 = const(0x40014000)
_INTR0 = const(0x0F0)
_DORMANT_WAKE_INTE0 = const(0x160)
_EDGE_LOW = const(4)
_EDGE_HIGH = const(8)
QUIET_MS = 30
POLL_MS = 10
# One light sleep at most: the rp2 port refuses 72 minutes and more (its
# timer alarm); a longer wait is several.
_LONGEST_MS = const(3600000)


def _reg(base, gpio):
    return _IO_BANK0 + base + (gpio >> 3) * 4


class Presses:
    """``buttons``: [(label, Pin, active level, gpio)], in the app's order;
    ``vbus_gpio``: VBUS sense, to wake on a USB cable (None: not seen);
    ``timed``: sleep in SLEEP with a time-out, woken by interrupts (a board
    with a power latch), else in DORMANT (see the module's docstring)."""

    def __init__(self, buttons, vbus_gpio=None, timed=False):
        self.buttons = buttons
        self.vbus = vbus_gpio
        self.timed = timed
        self.held = 0          # buttons pressed and not yet seen up (bit per button)
        self.up_at = [time.ticks_ms() - QUIET_MS] * len(buttons)
        self.queue = []        # presses taken, not yet handed out
        self.hits = 0          # presses the interrupts noted (timed), bit per button
        for i, b in enumerate(buttons):
            if b[1].value() == b[2]:
                self.held |= 1 << i     # held at boot: the wake press, or a stuck button
            self._take_edge(b)          # an edge from the pin's own set-up is no press
        self.down = self.held  # (timed) the buttons down as the interrupts last saw them
        if timed:
            for i, b in enumerate(buttons):
                self._noter(i, b)
            if vbus_gpio is not None:
                bit = 1 << len(buttons)

                def usb(pin):
                    self.hits |= bit    # no press: it only wakes the board
                machine.Pin(vbus_gpio).irq(handler=usb, trigger=machine.Pin.IRQ_RISING, hard=True)
        self.sleeps = 0        # sleeps so far (for the tests' and bench's eyes)

    def _noter(self, i, b):
        """Button ``b``'s hard interrupt handler, on both its edges: a
        going-down edge (also one among several the handler finds latched
        together) of a button up and quiet for QUIET_MS is a press, noted in
        ``hits``; the level then says whether it is down, and when it is up
        its quiet starts now. Nothing it does allocates (small ints, a list,
        a tuple and attributes that exist), as a hard handler must: its
        state is one tuple, as calling a closure over more than four names
        takes a block of the heap for them (py/objclosure.c)."""
        pin = b[1]
        flags = [None]
        c = (self, 1 << i, pin, b[2], machine.Pin.IRQ_RISING if b[2] else machine.Pin.IRQ_FALLING,
             self.up_at, flags, i)

        def note(p):
            self, m, pin, level, rise, up_at, flags, i = c
            now = time.ticks_ms()
            if flags[0]() & rise and not self.down & m and time.ticks_diff(now, up_at[i]) >= QUIET_MS:
                self.hits |= m
            if pin.value() == level:
                self.down |= m
            else:
                self.down &= ~m
                up_at[i] = now
        # (its flags bound once, before the handler can run: a method looked
        # up in the handler would allocate)
        flags[0] = pin.irq().flags
        pin.irq(handler=note, trigger=machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING, hard=True)

    def _take_hits(self):
        st = machine.disable_irq()
        h = self.hits
        self.hits = 0
        machine.enable_irq(st)
        return h

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
        if self.timed:
            hits = self._take_hits()      # debounced by the handlers already
            for i, b in enumerate(self.buttons):
                if hits & (1 << i):
                    self.queue.append(b[0])
            return
        now = time.ticks_ms()
        for i, b in enumerate(self.buttons):
            m = 1 << i
            edge = self._take_edge(b)
            down = b[1].value() == b[2]
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

    def pending(self):
        """Whether a press has come that is not handed out yet."""
        if not self.queue:
            self._scan()
        return bool(self.queue)

    def wait(self, low_power, ms=None):
        """Block until there is a press; return it. With ``ms``: IDLE once
        ``ms`` have passed without one. Asleep while ``low_power()``."""
        end = None if ms is None else time.ticks_add(time.ticks_ms(), ms)
        while True:
            p = self.next()
            if p is not None:
                return p
            left = None
            if end is not None:
                left = time.ticks_diff(end, time.ticks_ms())
                if left <= 0:
                    return IDLE
            if low_power():
                self.sleep(left)
            else:
                time.sleep_ms(POLL_MS if left is None else min(POLL_MS, left))

    def sleep(self, ms=None):
        """Asleep until a press edge (or USB power) arrives; with ``timed``,
        also until ``ms`` have passed."""
        if self.timed:
            self._light(ms)
        else:
            self._dormant()
        self.sleeps += 1

    def _light(self, ms):
        ms = _LONGEST_MS if ms is None else min(ms, _LONGEST_MS)
        if ms < 2:
            return      # (the port busy-waits so short a sleep: with interrupts off, never)
        st = machine.disable_irq()
        try:
            if not self.hits:
                machine.lightsleep(ms)
        finally:
            machine.enable_irq(st)

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

    def _dormant(self):
        """DORMANT until a press edge (or USB power) arrives."""
        if self.vbus is not None:
            self._take_vbus_edge()
        self._wake_mask(True)
        try:
            # A press latched since the last scan wakes the sleep at once.
            machine.lightsleep()
        finally:
            self._wake_mask(False)

    def _take_vbus_edge(self):
        bit = _EDGE_HIGH << ((self.vbus & 7) * 4)
        machine.mem32[_reg(_INTR0, self.vbus)] = bit
