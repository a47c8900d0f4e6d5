"""Power cuts at every block write: the firmware on LittleFS (VfsLfs2) over
a RAM block device inside the unix port (mp_flash.py). After a cut at the
k-th block operation (and halfway through it), a copy of the flash is
mounted and the board boots: every acknowledged press is in the record, the
record replays, the screen is sane. Also measures blocks written a press."""

import json
import os
import subprocess

import pytest

from planner import plan_game

HERE = os.path.dirname(os.path.abspath(__file__))


def _run(tmp_path, presses, mpy_tree, cuts="all", heap="16M"):
    from pipkeeper.paths import micropython_binary
    pf = tmp_path / "presses.txt"
    pf.write_text("\n".join(presses))
    r = subprocess.run([micropython_binary(), "-X", "heapsize=" + heap,
                        os.path.join(HERE, "mp_flash.py"), str(pf), mpy_tree, str(cuts)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_power_cut_at_every_block_write(tmp_path, mpy_tree):
    # set-up included: a whole short game of well over 100 presses
    presses, evs, p = plan_game("chickenfoot", 3, 5, "quick", {"rounds": "9 8"})
    assert len(presses) >= 100
    res = _run(tmp_path, presses, mpy_tree)
    assert res["failures"] == [], res["failures"][:3]
    assert res["cuts"] > 2 * len(presses)
    assert res["blocks_per_press_mean"] <= 2
    assert res["updates"] == len(presses) + 1


@pytest.mark.slow
def test_power_cuts_in_a_long_full_tracking_game(tmp_path, mpy_tree):
    presses, evs, p = plan_game("mexican-train", 4, 2, "full", {"rounds": "12 11 10"})
    every = int(os.environ.get("PIPKEEPER_CUT_EVERY", "7"))
    res = _run(tmp_path, presses, mpy_tree, cuts=every, heap="32M")
    assert res["failures"] == [], res["failures"][:3]
    assert res["blocks_per_press_mean"] <= 2
