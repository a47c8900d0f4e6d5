"""The fault path on the MicroPython unix port (mp_faults.py): a fault at
each step of a press, on a full heap and as a flash error, is told to
players and logged, and the next press recovers (issue 22)."""

import os
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = [l.split("(")[0][len("def t_"):] for l in open(os.path.join(HERE, "mp_faults.py"))
         if l.startswith("def t_")]


@pytest.mark.parametrize("name", NAMES)
def test_on_micropython(tmp_path, mpy_tree, name):
    from pipkeeper.paths import micropython_binary
    r = subprocess.run([micropython_binary(), "-X", "heapsize=160K", os.path.join(HERE, "mp_faults.py"),
                        mpy_tree, str(tmp_path), name], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr
