"""Random presses in power-cycle mode (every press a cold boot): never a
crash, one panel update a press, and the record always replays.

PIPKEEPER_RANDOM_PRESSES sets the count (10,000 for the full run; CI runs
fewer); PIPKEEPER_RANDOM_SEED the seed."""

import os
import random

from fwkit import record_of


def test_random_presses_power_cycled(tmp_path, mpy_tree):
    from pipkeeper.sim import unix as sim
    from shared_engine import dgn
    n = int(os.environ.get("PIPKEEPER_RANDOM_PRESSES", "400"))
    rng = random.Random(int(os.environ.get("PIPKEEPER_RANDOM_SEED", "2026")))
    # A and B advance games, so they come up more often than the rest
    buttons = ["A"] * 4 + ["B"] * 3 + ["C"] * 2 + ["UP", "DOWN", "DOWN"]
    s = sim.Sim(str(tmp_path), power_cycle=True, src=mpy_tree)
    s.start()
    checked = 0
    for i in range(n):
        b = rng.choice(buttons)
        got = s.press(b)
        assert len(got) == 1, "press %d (%s): %d updates" % (i, b, len(got))
        assert not (tmp_path / "log.txt").exists(), (tmp_path / "log.txt").read_text()
        if i % 50 == 49 or i == n - 1:
            cur = tmp_path / "pipkeeper" / "current"
            if cur.exists() and cur.read_text().strip():
                dgn.replay(record_of(tmp_path))
                checked += 1
    assert checked > 0
    assert len(os.listdir(tmp_path / "games")) >= 1
