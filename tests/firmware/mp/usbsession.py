"""The firmware on USB power, for the fault-test scripts that run a whole
session in one process (powercut.py resume, random_presses.py, usbpower.py).
A module of its own, not part of flashsim: the one-press-a-process runs
(onepress.py) import flashsim on the firmware's own 160K heap, where every
byte of harness shifts the firmware's objects.
"""


def usb_session(board, wait_press, state):
    """``firmware.app.main(board)`` as on USB power: a plain power-on, then
    one App takes every press ``wait_press()`` hands out (None ends it).
    ``state["app"]`` is that App from its creation on, for ``wait_press``
    to look at. Returns what main returns (the App)."""
    from firmware import app as fapp

    board.wait_press = wait_press
    Base = fapp.App

    class Noted(Base):
        def __init__(self, board, *args):
            Base.__init__(self, board, *args)
            state["app"] = self

    fapp.App = Noted
    try:
        return fapp.main(board)
    finally:
        fapp.App = Base
