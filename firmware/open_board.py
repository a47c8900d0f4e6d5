"""Which board this firmware runs on, chosen once at start-up.

Apart from board.py because the board classes (board_sim, board_badger,
board_machine) import board.py's ``Board`` and constants: the choice, which
needs all of them, lives above them so that none imports it back.

- the MicroPython unix port (the laptop's sim and the tests): ``SimBoard``;
- ``/board.txt`` empty, ``badger2040`` or ``badger2040w`` and Pimoroni's
  ``badger2040`` module present: ``BadgerBoard`` (Pimoroni's build);
- otherwise upstream MicroPython's ``machine`` with the project's own panel
  drivers, ``MachineBoard``, with the pins of the profile named in
  ``/board.txt`` (written by ``pipkeeper flash --board NAME``; default
  ``badger2040``).
"""

from firmware.board import load_profile, read_setting


def open_board():
    """The board this firmware runs on (see the module docstring)."""
    import sys
    if sys.platform in ("linux", "darwin"):
        from firmware.board_sim import SimBoard
        return SimBoard()
    choice = read_setting("/", "board.txt", "")
    if choice in ("", "badger2040", "badger2040w"):
        try:
            import badger2040  # noqa: F401  (Pimoroni's build)
        except ImportError:
            pass
        else:
            from firmware.board_badger import BadgerBoard
            return BadgerBoard()
    from firmware.board_machine import MachineBoard
    return MachineBoard(load_profile(choice or "badger2040"))
