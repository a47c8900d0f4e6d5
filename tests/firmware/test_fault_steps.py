"""The fault path on the MicroPython unix port (mp_faults.py): a fault at
each step of a press, on a full heap and as a flash error, is told to
players and logged, and the next press recovers (issue 22)."""

import os
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
_SOURCE = open(os.path.join(HERE, "mp_faults.py")).read().splitlines()
NAMES = [l.split("(")[0][len("def t_"):] for l in _SOURCE if l.startswith("def t_")]
STEPS = "a_fault_at_each_step_of_a_press_and_the_next_press_recovers"
# that test's cases, each on a heap of its own (a board's own boot)
CASES = int([l for l in _SOURCE if l.startswith("STEP_CASES =")][0].split("=")[1].split("#")[0])
RUNS = [(n, None) for n in NAMES if n != STEPS] + [(STEPS, i) for i in range(CASES)]


def _run(script, *args):
    """``script`` (a file here) on the unix port's 160 KB heap: it ends "ok"."""
    from pipkeeper.paths import micropython_binary
    r = subprocess.run([micropython_binary(), "-X", "heapsize=160K", os.path.join(HERE, script)]
                       + [str(a) for a in args], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr


@pytest.mark.parametrize("name,case", RUNS, ids=["%s%s" % (n, "" if c is None else "-%d" % c)
                                                 for n, c in RUNS])
def test_on_micropython(tmp_path, mpy_tree, name, case):
    _run("mp_faults.py", mpy_tree, tmp_path, name, *(() if case is None else (case,)))


@pytest.mark.parametrize("event", ["fix", "score"])
def test_the_engines_helper_for_a_press_gets_the_reserve(tmp_path, mpy_tree, event):
    """Issue 32 (mp_engine_helpers.py): the helper Game.apply imports for a
    fix or a score, imported under Heap.roomy (heap.engine_for)."""
    _run("mp_engine_helpers.py", mpy_tree, tmp_path, event)
