"""Helpers for the firmware tests: run planned presses on the real firmware
in the simulated board, read the record back."""

import os


def run_presses(flash_dir, presses, mpy_tree, power_cycle=False, every=None, heap=None):
    """Play ``presses`` on a simulated board (``heap``: its size, the
    board's by default); return the Sim (its .frames).
    ``every(i, button, frames)`` is called after each press."""
    from pipkeeper.sim import unix as sim
    s = sim.Sim(str(flash_dir), power_cycle=power_cycle, src=mpy_tree, heap=heap or sim.HEAP)
    try:
        s.start()
        for i, b in enumerate(presses):
            got = s.press(b)
            if every is not None:
                every(i, b, got)
    finally:
        s.close()
    return s


def record_of(flash_dir):
    """The current game's DGN text on the simulated board."""
    cur = open(os.path.join(str(flash_dir), "pipkeeper", "current")).read().strip().lstrip("/")
    with open(os.path.join(str(flash_dir), cur)) as f:
        return f.read()
