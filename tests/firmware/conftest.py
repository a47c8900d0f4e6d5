"""Shared helpers for the firmware tests: plan presses (planner.py), run
them on the real firmware in the simulated board, read the record back."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for p in (ROOT, os.path.join(ROOT, "host"), HERE):
    if p not in sys.path:
        sys.path.insert(0, p)


@pytest.fixture(scope="session")
def mpy_tree(tmp_path_factory):
    """The firmware compiled once for the whole session."""
    from pipkeeper import sim
    return sim.build_tree(ROOT, str(tmp_path_factory.mktemp("mpy")))


def run_presses(flash_dir, presses, mpy_tree, power_cycle=False, every=None):
    """Play ``presses`` on a simulated board; return the Sim (its .frames).
    ``every(i, button, frames)`` is called after each press."""
    from pipkeeper import sim
    s = sim.Sim(str(flash_dir), power_cycle=power_cycle, src=mpy_tree)
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
