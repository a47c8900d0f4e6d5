"""The board's /boot.py, written by `pipkeeper flash` from the board's
profile (hardware/profiles/<name>.py).

MicroPython runs /boot.py about 20 ms after power-on, before /main.py
imports anything. On a board that powers itself through a latch (the
Badger 2040 on battery) a press only keeps the power on while the button is
held: the firmware's own latch, set once its modules are loaded, came 160 ms
or more after power-on, so a quick tap was lost. Here the latch is driven
high and the buttons held at that moment are noted first thing, with
nothing imported but ``machine``; the firmware reads them as the button
that woke the board (``sys.modules["pk_boot"]``, a tuple of labels).

Pimoroni's Badger build latches in C and records the wake buttons itself
(its ``wakeup`` module); there the launcher owns /boot.py and we write none.
"""

HEADER = "# Written by `pipkeeper flash` for the %s build: latch the power and note the\n" \
         "# buttons held, before anything else loads (host/pipkeeper/board/bootfile.py).\n"


def boot_py(profile):
    """The text of /boot.py for ``profile`` (a module of hardware/profiles)."""
    lines = [HEADER % profile.NAME, "from machine import Pin\n"]
    if profile.PIN_POWER_LATCH is not None:
        lines.append("Pin(%d, Pin.OUT, value=1)\n" % profile.PIN_POWER_LATCH)
    # The panel's reset line low: the firmware lets it go when it starts to
    # draw, so the 10 ms pulse costs the press nothing (firmware/uc8151.py).
    lines.append("Pin(%d, Pin.OUT, value=0)\n" % profile.PIN_RST)
    held = []
    for label, gpio, pull, high in profile.BUTTONS:
        p = {"up": "Pin.PULL_UP", "down": "Pin.PULL_DOWN"}.get(pull, "None")
        held.append("(%r, Pin(%d, Pin.IN, %s).value() == %d)" % (label, gpio, p, 1 if high else 0))
    lines.append("import sys\n")
    lines.append("sys.modules['pk_boot'] = tuple(b[0] for b in (%s) if b[1])\n" % ", ".join(held))
    lines.append("del Pin, sys\n")
    return "".join(lines)
