"""The firmware tests' fixtures; their helpers are in fwkit.py (a module of
its own: two folders' conftest.py cannot both be imported as `conftest`)."""

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
    from pipkeeper.sim import unix as sim
    return sim.build_tree(ROOT, str(tmp_path_factory.mktemp("mpy")))
