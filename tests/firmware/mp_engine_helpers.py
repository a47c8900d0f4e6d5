# The engine's helper a press applies with, and the reserve, on the
# MicroPython unix port (not collected by pytest):
#   micropython -X heapsize=160K mp_engine_helpers.py MPY_TREE WORKDIR fix|score
# test_fault_steps.py runs each. A file of its own (mp_faults.py's reasons:
# the test's code is compiled into the 160 KB heap the firmware has).
#
# Issue 32: on a cold boot, A on a fix's score entry showed "MemoryError:
# memory allocation failed, allocating 640 bytes" (random presses, seed
# 2041, press 651): Game.apply imports its helper for a fix
# (shared_engine/corrections.py), whose names needed the next block of
# MicroPython's table of names (640 entries), and on the boot's fragmented
# heap only the reserve's room held 7 KB in one piece; but the engine's
# apply ran outside Heap.roomy, which lets the reserve go. Here the
# helper's import runs out of memory for as long as the reserve is held,
# on a boot whose engine has not imported it: the press is recorded all
# the same, with no error screen.

import builtins
import gc
import sys
sys.path.insert(0, sys.argv[1])
WORK = sys.argv[2]
CASES = {
    "fix": ("corrections", {"s": "fix", "r": 0, "i": 1, "v": 15, "o": 1}, "fix 1 2 15"),
    "score": ("scoring", {"s": "score", "i": 2, "p": [30, 35, 40], "d": [0, 0, 0], "v": 40, "b": 0},
              "score 30 35 40"),
}
helper, ui, event = CASES[sys.argv[3]]

from firmware import app  # noqa: E402
from firmware.board import Board  # noqa: E402
from firmware.storage import Storage  # noqa: E402


class _Board(Board):
    flash_root = WORK
    name = "test"

    def prepare(self):
        pass

    def update(self, buf, full=False, old=None):
        pass


st = Storage(WORK)
st.ensure_dirs()
path = st.path("games", "0001.dgn")
with open(path, "w") as f:
    f.write('[Rules "chickenfoot"]\n[Players "Ann" "Bob" "Cy"]\n[Tracking "quick"]\n'
            'round 9-9 lead 1\nscore 0 12 30\nround 8-8 lead 2\n')
st.set_current(path)
a = app.App(_Board())
a.boot()
a.set_ui(ui)
sys.modules.pop("shared_engine." + helper, None)
gc.collect()
# (held at the boot on a board's fresh heap; this one holds the test's
# own code too, compiled from source, and its top is scattered)
a.heap.hold()
assert a.heap.reserve is not None
orig = builtins.__import__
tries = []


def needs_room(name, *args):
    wanted = name == "shared_engine." + helper
    for x in args:          # (the fromlist of `from shared_engine import ...`)
        wanted = wanted or (isinstance(x, tuple) and helper in x)
    if wanted and ("shared_engine." + helper) not in sys.modules:
        tries.append(a.heap.reserve is not None)
        if a.heap.reserve is not None:
            raise MemoryError("memory allocation failed, allocating 640 bytes")
    return orig(name, *args)


builtins.__import__ = needs_room
try:
    a.press("A")
finally:
    builtins.__import__ = orig
assert a.ui.get("s") != "err", a.ui
assert tries[0] and not tries[-1], tries
lines = [x for x in open(path).read().split("\n") if x and x[0] != "["]
assert lines[-1] == event, lines
print("ok")
