"""`pipkeeper sim --rp2040`: the board on an emulated RP2040, with the same
interface as the unix-port ``pipkeeper.sim.unix.Sim`` (``start``, ``press``,
``frames``, ``close``), so the sim command, the tests and the benchmarks
drive either.

- The flash is one file, ``DIR/flash.img`` (2 MB, as on the Badger and the
  Pico), kept between runs. The MicroPython image is laid over it at each
  power-on; on a blank flash MicroPython formats its LittleFS itself. A
  flash without the scorer gets it the way a person would put it there:
  ``pipkeeper flash`` over the board's USB serial (``install``).
- Presses are the button's GPIO held for ``hold_ms`` of emulated time.
  On USB the board lives through the whole run; a press is done when the
  panel has shown a frame and nothing more went to it for a while.
- ``power_cycle`` is the battery. A board with a power latch (the Badger)
  has power only while a button is held or the firmware holds its latch
  high: a press powers it on (or wakes it, when it sleeps with its latch
  held), and is done when the firmware cuts its own power or, during a
  game, goes to sleep in the RP2040's SLEEP state (machine.lightsleep(ms)):
  ``asleep``; ``idle_out()`` lets the minutes pass to its idle time-out,
  ``cut()`` takes its power. A board without one (the Pico builds) stays on, its switch on, and
  sleeps between presses in the RP2040's DORMANT state: each press is given
  once the chip has gone dormant (it must wake the board), and is done when
  the panel has shown its frame and gone quiet.
- Frames are decoded from the panel's SPI stream by the emulator
  (js/emulator.mjs), never read from the firmware's memory.
- ``--serial``: the board's USB serial is served on a pty (``SerialPort``),
  the board running at most as fast as real time.
"""

import os

from pipkeeper.closing import Closing
from pipkeeper.errors import PipkeeperError
from pipkeeper.sim.panel import Frame
from pipkeeper.sim.relay import PortRelay
from pipkeeper.sim.rp2040.emulator import Emulator, board_pins
from pipkeeper.sim.unix import board_id

BUTTONS = ("A", "B", "C", "UP", "DOWN")
FLASH_FILE = "flash.img"
HOLD_MS = 250          # a deliberate press at the table (shorter taps: bench device)
BOOT_MS = 15000        # the longest a power-on may take to show its first frame
PRESS_MS = 15000       # likewise for one press
IDLE_MS = 400          # no panel traffic for this long after a frame: the press is done
IDLE_OUT_MS = 61 * 60 * 1000   # the longest idle time-out (60 minutes) and its power-off
# A player's next press comes a moment after the last picture, not the
# instant the board falls asleep: a board asleep takes its next press this
# long after (a release seen late, while the flash was written with the
# interrupts off, starts its 30 ms of bounce late: firmware/presses.py).
NEXT_PRESS_MS = 100


def profile_module(name):
    from hardware import profiles
    return profiles.load(name)


class EmulatedBoard(Closing):
    def __init__(self, flash_dir, firmware=None, power_cycle=False, profile="badger2040",
                 bootrom=None, hold_ms=HOLD_MS, flash_timing=True, busy_stuck=None, bootsel_drive=None,
                 uid=None):
        self.dir = os.path.abspath(flash_dir)
        os.makedirs(self.dir, exist_ok=True)
        # Its flash chip's unique id (machine.unique_id(), the board's key in
        # the library and its games' [Game] ids): its own, kept in DIR as the
        # unix-port sim keeps its (DIR/.sim-board-id); ``uid`` names one, for
        # boards that stand for the same board (a power-cut sweep's copies).
        self.uid = uid or board_id(self.dir)
        self.power_cycle = power_cycle
        self.hold_ms = hold_ms
        self.profile = profile_module(profile)
        self.emu = Emulator(firmware, board_pins(self.profile),
                            flash_image=os.path.join(self.dir, FLASH_FILE),
                            bootrom=bootrom, usb=not power_cycle, flash_timing=flash_timing,
                            busy_stuck=busy_stuck, bootsel_drive=bootsel_drive, flash_uid=self.uid)
        # On battery: a latch board powers off after each press; one without
        # a latch sleeps (DORMANT) between presses.
        self.latched = power_cycle and self.profile.PIN_POWER_LATCH is not None
        self.sleeps = power_cycle and self.profile.PIN_POWER_LATCH is None
        self.firmware = self.emu.firmware
        self.frames = []
        self._seen = 0
        self.last = None        # the last run's report (times in ns)
        self._released = 0      # when the last tap's button is let go (emulated ns)
        self.free = False       # running freely (the serial port is served)

    # -- frames ------------------------------------------------------------------------

    def _new_frames(self):
        got = []
        for ev in self.emu.frames[self._seen:]:
            fr = Frame(ev["data"], ev["full"], len(self.frames), ev["t"],
                       refresh_ns=ev.get("refresh_ns"), panel=ev.get("panel"))
            self.frames.append(fr)
            got.append(fr)
        self._seen = len(self.emu.frames)
        return got

    # -- the board's life ----------------------------------------------------------------

    def has_scorer(self):
        """Whether the flash holds the scorer (/main.py and /lib/firmware),
        read from the LittleFS image itself."""
        from pipkeeper.board import flashfs
        self.emu.save()
        return flashfs.has_scorer(os.path.join(self.dir, FLASH_FILE))

    def install(self, log=None):
        """``pipkeeper flash`` onto this board over its serial port, then a
        reset (as a person presses reset after flashing)."""
        from pipkeeper.board import flash as flashmod
        from pipkeeper.board import link as linkmod
        self.emu.power(on=False)
        self.emu.power(usb=True)            # flashing is done on USB, also for a battery board
        try:
            with SerialPort(self) as port:
                with linkmod.connect(port.path, run_main=False) as link:
                    result = flashmod.flash(link, log=log, board=self.profile.NAME)
        finally:
            self.emu.power(on=False)
            self.emu.power(usb=not self.power_cycle)
            self.emu.save()
        return result

    def start(self):
        """Power on (USB), or on battery the plain power-on of a board that
        wakes with nothing pressed: the frame it restores."""
        if self.latched:
            self.emu.power(on=True)
            self.last = self.emu.run(BOOT_MS, until=("off", "sleep"), mark_spi=True)
        else:
            self.emu.power(on=True)
            self.last = self.emu.run(BOOT_MS, until=("idle",), idle_ms=IDLE_MS, mark_spi=True)
        return self._new_frames()

    def press(self, button, hold_ms=None):
        if button not in BUTTONS:
            raise PipkeeperError("%r is not a button" % button)
        hold = self.hold_ms if hold_ms is None else hold_ms
        if self.sleeps and not self.free:
            # The press must wake the board: it comes once the chip sleeps.
            went = self.emu.run(PRESS_MS, until=("dormant",))
            if not went["dormant"]:
                raise PipkeeperError("the emulated board did not go to sleep in %d s before %s" % (
                    PRESS_MS // 1000, button))
        if self.asleep and not self.free:
            # A player presses again once the last press is let go: a board
            # quicker than the press is held (an 80 ms refresh, issue 33)
            # sleeps with the button still down, and a tap then would be no
            # edge at all.
            held = max(0, (self._released - self.emu.t) / 1e6)
            self.emu.run(held + NEXT_PRESS_MS)
        t0 = self.emu.t
        self.emu.call("tap", name=button, hold_ms=hold)
        self._released = t0 + hold * 1e6
        if self.free:
            # Free running (the port is served): the press is done when the
            # board reports the panel idle after its frame.
            self.emu.wait_event("idle", PRESS_MS / 1000)
            return self._new_frames()
        if self.latched:
            self.last = self.emu.run(PRESS_MS, until=("off", "sleep"), mark_spi=True)
        else:
            self.last = self.emu.run(PRESS_MS, until=("idle",), idle_ms=IDLE_MS, mark_spi=True)
        self.last["t0"] = t0
        reason = self.last["reason"]
        # "time" with no frame: a press the board never saw (a lost tap).
        if reason == "break" or (reason == "time" and self.last["frames"]):
            raise PipkeeperError("the emulated board did not settle after %s in %d s (%s)" % (
                button, PRESS_MS // 1000, reason))
        return self._new_frames()

    @property
    def asleep(self):
        """A battery board with a latch that ended its last press asleep,
        its power kept (a game in play), not off."""
        return bool(self.latched and self.last and self.last["reason"] == "sleep" and self.emu.powered)

    def idle_out(self, ms=IDLE_OUT_MS):
        """The board asleep left alone: emulated minutes pass until it cuts
        its power at its idle time-out. The frames it drew first (its resting
        screen, where the UI was elsewhere)."""
        if not self.asleep:
            raise PipkeeperError("the emulated board is not asleep")
        self.last = self.emu.run(ms, until=("off",))
        if self.last["reason"] != "off":
            raise PipkeeperError("the emulated board did not switch itself off in %d minutes" % (ms // 60000))
        return self._new_frames()

    def cut(self):
        """A power cut (the battery taken out), awake or asleep."""
        self.emu.power(on=False)
        self.last = None

    def close(self):
        self.emu.close()


class SerialPort(PortRelay):
    """The emulated board's USB serial on a pty, while the board runs freely
    (at most as fast as real time). ``path`` is what a host opens.

    When the host lets go of the port with the board left in its REPL (as
    mpremote leaves it), the board is reset into the scorer, as a person
    would press reset after flashing."""

    def __init__(self, board, reset_on_close=False):
        import pty
        import tty
        self.board = board
        self.emu = board.emu
        self.reset_on_close = reset_on_close
        self.m, s = pty.openpty()
        tty.setraw(s)
        self.path = os.ttyname(s)
        if reset_on_close:
            os.close(s)             # the master reads EIO when the host lets go
            self._keep = None
        else:
            self._keep = s          # a port nobody has open must not read EIO
        self._init_relay(self.m)

    def __enter__(self):
        if not self.emu.powered:
            self.emu.power(on=True)
        self.emu.call("go", idle_ms=IDLE_MS)
        self.board.free = True
        self.emu.serial_sock.setblocking(False)
        self._start_relay()
        return self

    def _host_left(self):
        """The host closed the port: a board left in its REPL is reset into
        the scorer, as a person presses reset after flashing."""
        if self.repl and self.reset_on_close:
            self.emu.power(reset=True)
            # What the board printed before the reset (the banner that
            # answers the host's closing Ctrl-B) is in the socket already:
            # dropped, so that it does not mark the new board as in its REPL.
            while self._read_board():
                pass
            self._fresh()

    # -- the relay's hooks (pipkeeper.sim.relay) --
    def _board_fd(self):
        return self.emu.serial_sock

    def _read_board(self):
        try:
            return self.emu.serial_sock.recv(65536)
        except (BlockingIOError, OSError):
            return b""

    def _write_board(self, data):
        try:
            self.emu.serial_sock.sendall(data)
        except OSError:
            pass

    def __exit__(self, *exc):
        self._stop_relay()
        self.emu.call("pause")
        self.board.free = False
        for fd in (self.m, self._keep):
            if fd is None:
                continue
            try:
                os.close(fd)
            except OSError:
                pass
