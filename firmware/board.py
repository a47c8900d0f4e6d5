"""The thin wall between the app and the hardware.

The app only ever talks to a ``Board``:

- ``wake_button()``: the button whose press powered the board up (a
  battery board cuts its own power where nobody is waiting for it, so the
  next press is a cold boot), or None after a plain power-on or reset.
- ``wait_press(ms=None)``: block until the next press and return its name,
  one of ``BUTTONS``; None means "no more presses" (the simulated board at
  the end of its input), and the app then returns. With ``ms`` (asked only
  of a board that ``dozes()``): ``IDLE`` once ``ms`` have passed with no
  press, the board asleep meanwhile with its power kept.
- ``dozes()``: whether the board, as it is powered now, can keep its power
  between presses and sleep, woken by the next press or by a timer: a board
  with a power latch, on battery (firmware/presses.py says how, and why
  not in DORMANT). The app asks it to during a game (App.awake_ms); on USB
  the board stays up anyway, and a board without a latch has no power to
  cut and sleeps in DORMANT without a time-out.
- ``buttons_pressed()``: the buttons held right now (a tuple of names).
- ``prepare()``: a panel update is coming soon (the app is about to draw);
  a board whose panel takes time to wake starts waking it.
- ``update(buf, full=False, old=None)``: exactly one panel update showing
  ``buf``, the 4,736-byte MONO_HLSB framebuffer of the 296x128 screen (bit 1 =
  ink, rows of 37 bytes, the leftmost pixel in the top bit). ``full`` asks
  for a slow, clean refresh (round boundaries, ghosting); otherwise a fast
  one. ``old`` is the picture the panel shows now, the same way (the app
  keeps it: firmware/picture.py), or None where it is not known; the app
  never asks for a fast update without it. A panel that drives by the old
  picture and the new (the UC8151's DTM1 and DTM2, the SSD1680's two RAMs)
  drives only the pixels that change. Raises when the panel did not take
  the frame; the app's picture (firmware/picture.py) tries once more, full,
  and hands a second failure to the app's error screen.
- ``halt()``: on battery, cut the power (never returns); on USB power it
  returns and the app waits for the next press, behaving the same. A
  battery board halts on the screens that wait for no one (set-up,
  History, a game's end) and after IDLE minutes asleep during a game.
- ``cuts_power()``: whether ``halt()`` now will cut the power (a board with
  a latch, on battery): the app then notes the picture it leaves on the
  panel, for the next cold boot (firmware/picture.py).
- ``on_usb()``: True when powered from USB (best effort).
- ``flash_root``: the folder that is the board's flash ("/" on a board).

Which board: ``firmware.app.open_board()`` picks the simulated board on the
unix port, Pimoroni's ``badger2040`` module when the firmware has it, and
otherwise upstream MicroPython's ``machine`` with the project's own panel
drivers (firmware/board_machine.py) and the pins of a profile from
``hardware/profiles/`` (named in ``/board.txt``). It is not here so that the
board classes, which import this module, are never imported by it.

Drawing never happens here: screens draw into the framebuffer; this module
owns pins, refresh and power only.
"""

try:
    from micropython import const
except ImportError:  # CPython (tests)
    def const(x):
        return x

WIDTH = const(296)
HEIGHT = const(128)
STRIDE = const(37)          # bytes per row of the MONO_HLSB framebuffer
BUF_SIZE = const(4736)      # STRIDE * HEIGHT
BUTTONS = ("A", "B", "C", "UP", "DOWN")
# WATCHDOG SCRATCH1's word with which a bench asks a board for its heap after
# each press ("PHHP": firmware/board_machine.py idle, pipkeeper.bench.device).
HEAP_PROBE = const(0x50484850)
IDLE = "idle"       # what wait_press(ms) returns when ms have passed with no press

# The profile constants the board reads (firmware/board_machine.py) from
# hardware/profiles/<name>.py; the hardware tests check every profile against
# this tuple.
REQUIRED_PROFILE_KEYS = (
    "NAME", "DISPLAY_CONTROLLER", "WIDTH", "HEIGHT",
    "SPI_ID", "SPI_SCK", "SPI_MOSI", "SPI_BAUD",
    "PIN_CS", "PIN_DC", "PIN_RST", "PIN_BUSY",
    "BUSY_LEVEL", "BUTTONS", "PIN_POWER_LATCH", "PIN_VBUS_DETECT", "PIN_LED",
    "PANEL_UPDATE_MS", "PANEL_FULL_UPDATE_MS",
)


class Board:
    """The interface, with the behaviour every board shares."""

    flash_root = "/"
    name = "board"
    # Where the app keeps the panel's picture off the heap (firmware/
    # picture.py), or None: in the heap, as a board does. The unix-port sim
    # keeps it in a file of its folder: its heap is the tests' stand-in.
    picture_file = None

    def wake_button(self):
        return None

    def buttons_pressed(self):
        return ()

    def wait_press(self, ms=None):
        raise NotImplementedError

    def dozes(self):
        return False

    def prepare(self):
        pass

    def update(self, buf, full=False, old=None):
        raise NotImplementedError

    def halt(self):
        pass

    def cuts_power(self):
        return False

    def on_usb(self):
        return True

    def idle(self):
        """Called when the app has finished a press (before halt)."""


def read_setting(root, name, default=None):
    try:
        with open(root.rstrip("/") + "/" + name) as f:
            v = f.read().strip()
        return v or default
    except OSError:
        return default


def load_profile(name):
    """Import hardware/profiles/<name>.py and check it has what we need."""
    mod = __import__("hardware.profiles." + name, None, None, ("x",))
    missing = [k for k in REQUIRED_PROFILE_KEYS if not hasattr(mod, k)]
    if missing:
        raise ValueError("board profile %s lacks %s" % (name, ", ".join(missing)))
    return mod

