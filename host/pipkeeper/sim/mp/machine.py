"""The unix port's ``machine`` with the one thing a board has that it lacks:
``unique_id()``, here the simulated board's own id (PIPKEEPER_SIM_ID, hex,
kept in the sim's folder by the laptop: pipkeeper.sim.unix.board_id).
Runs inside ``micropython``; the sim's bootstrap imports it first, so the
firmware (its [Game] ids) and the link (the board the library files games
under) read the id as on a board: ``machine.unique_id()``.

``machine`` is one of MicroPython's extensible built-in modules: a file of
that name found first on sys.path is imported instead, and the built-in
stays reachable as ``umachine``.
"""

import binascii
import os

from umachine import *  # noqa: F401,F403 (the port's own machine)

_ID = binascii.unhexlify(os.getenv("PIPKEEPER_SIM_ID") or "")


def unique_id():
    return _ID
