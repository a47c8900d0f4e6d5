"""The simulated board: the firmware on the MicroPython unix port.

The host (``pipkeeper sim``, host/pipkeeper/sim/unix.py) starts the unix port with
the board's flash mounted as ``/`` and hands it two channels as inherited
file descriptors, named by environment variables:

- ``PIPKEEPER_SIM_BUTTONS``: fd to read presses from, one button name a line
  (``A`` ``B`` ``C`` ``UP`` ``DOWN``); end of file means "no more presses".
- ``PIPKEEPER_SIM_PANEL``: fd to write panel records to. A record is one tag
  byte, then its payload:
  ``F`` + 4,736 framebuffer bytes: a full refresh;
  ``P`` + 4,736 bytes: a fast (partial) update;
  ``I``: the board finished a press and waits for the next one;
  ``S`` + 4 bytes (little-endian): on battery during a game, the board
  keeps its power and sleeps until the next press or that many ms;
  ``H``: the board cut its power (battery: the process then exits);
  ``L``, ``C``, ``T``, ``X``: the words drawn on the frame that follows,
  as they are drawn, only with ``PIPKEEPER_SIM_TEXT=1``
  (firmware/board_sim_words.py: a module of its own, loaded only then, so
  that a sim without it holds no more of the heap than a board).
  The framebuffer is MONO_HLSB, 296x128, bit 1 = ink.
- ``PIPKEEPER_SIM_WAKE``: the button that woke the board (power-cycle mode:
  one process per press), empty for a plain power-on.
- ``PIPKEEPER_SIM_BATTERY``: "1" when on battery: ``halt()`` ends the
  process, as the real board cuts its power. Otherwise the board is on USB:
  ``halt()`` returns and the next press comes from the buttons channel.
  On battery during a game the board dozes (``wait_press(ms)``, after
  ``S``): the next line of the buttons channel is the next press, the line
  ``IDLE`` the time-out (the board draws its resting screen, halts), and
  the end of the channel a host that gives this power-on no more presses
  (as `pipkeeper sim --power-cycle`, one process a press: a power cut while
  it sleeps; the next press is a cold boot).

Without the variables (a bare ``micropython`` run, tests) presses come from
nowhere (``wait_press`` returns None) and updates are only counted.
"""

import os
import sys

from firmware.board import Board, BUTTONS, IDLE


def _fd(name):
    v = os.getenv(name)
    if v is None or v == "":
        return None
    return int(v)


class SimBoard(Board):
    name = "sim"
    picture_file = "/.sim-picture"      # in the sim's folder, not its heap (firmware/picture.py)

    def __init__(self):
        self.flash_root = "/"
        fd = _fd("PIPKEEPER_SIM_BUTTONS")
        self._buttons = open(fd, "rb") if fd is not None else None
        fd = _fd("PIPKEEPER_SIM_PANEL")
        self._panel = open(fd, "wb") if fd is not None else None
        wake = os.getenv("PIPKEEPER_SIM_WAKE") or None
        self._wake = wake if wake in BUTTONS else None
        self._battery = os.getenv("PIPKEEPER_SIM_BATTERY") == "1"
        self.updates = 0
        self.last_full = None
        # PIPKEEPER_SIM_TEXT=1: the words of each screen go out with its
        # frame (firmware/board_sim_words.py).
        self._words = None
        if self._panel is not None and os.getenv("PIPKEEPER_SIM_TEXT") == "1":
            from firmware.board_sim_words import Words
            self._words = Words(self._panel)

    def wake_button(self):
        return self._wake

    def wait_press(self, ms=None):
        f = self._buttons
        if f is None:
            return None
        if ms is not None:
            self._tag(b"S" + int(ms).to_bytes(4, "little"))
        while True:
            line = f.readline()
            if not line:
                return None
            name = line.strip().decode()
            if name in BUTTONS:
                return name
            if ms is not None and name == "IDLE":
                return IDLE
            # anything else (a blank line, garbage) is not a press

    def dozes(self):
        return self._battery and self._buttons is not None

    def prepare(self):
        if self._words is not None:
            self._words.start()

    def update(self, buf, full=False, old=None):
        self.updates += 1
        self.last_full = full

        p = self._panel
        if p is not None:
            if self._words is not None and not self._words.whole():
                p.write(b"X")
            p.write(b"F" if full else b"P")
            p.write(buf)


    def idle(self):
        self._tag(b"I")

    def cuts_power(self):
        return self._battery

    def halt(self):
        if self._battery:
            self._tag(b"H")
            sys.exit(0)

    def on_usb(self):
        return not self._battery

    def _tag(self, t):
        p = self._panel
        if p is not None:
            p.write(t)
