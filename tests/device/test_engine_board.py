"""`pipkeeper test --board` against the emulated RP2040: the engine's own
tests (tests/engine) sent to the board and run there by tests/mp_runner.py."""

import os
import re
import subprocess
import sys

import pytest

import devkit

# Minutes of emulated-board time: one timeout for a test and the session
# fixtures it may be the first to build (flashing, the scripted game).
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

# The engine test files that take under a few seconds each on the board.
# Measured on this image (upstream v1.28.0, RPI_PICO) with every file of
# tests/engine sent by pipkeeper.testing.on_board.run to a flashed emulated
# board over its SerialPort: the time is the board's own clock (mp_runner's
# closing "(1 file on micropython, N s)" line, ticks_ms, i.e. emulated time
# at 125 MHz; the import and compile of the test file included):
#   test_chickenfoot 1.71 s, test_chickenfoot_play 2.07, test_cross 1.14,
#   test_dgn 1.74, test_mexican 1.61, test_perft 1.98, test_quick 1.64,
#   test_scoring 2.12, test_scratch 1.09, test_tiles_presets 1.95,
#   test_undo_redeal_end 1.63;
# left out: test_checkpoint 135.07 s and test_simulated 91.58 s (whole
# simulated games; together ~700 s of host time at the emulator's ~0.3x).
# All 223 tests of the 13 files passed. Host time for the 11 files: ~4 s each.
BOARD_TESTS = (
    "test_chickenfoot.py",
    "test_chickenfoot_play.py",
    "test_cross.py",
    "test_dgn.py",
    "test_mexican.py",
    "test_perft.py",
    "test_quick.py",
    "test_scoring.py",
    "test_scratch.py",
    "test_tiles_presets.py",
    "test_undo_redeal_end.py",
)

COUNTS = re.compile(r"^(\d+) passed, (\d+) failed\s*$", re.M)


def counts_on_unix_port():
    """(passed, failed) of the same files on the MicroPython unix port."""
    from pipkeeper.paths import micropython_binary
    files = [os.path.join(devkit.ROOT, "tests", "engine", n) for n in BOARD_TESTS]
    proc = subprocess.run([micropython_binary(), "-X", "heapsize=2M",
                           os.path.join(devkit.ROOT, "tests", "mp_runner.py")] + files,
                          capture_output=True, text=True, timeout=300)
    found = COUNTS.findall(proc.stdout)
    assert found, proc.stdout[-2000:] + proc.stderr[-2000:]
    return tuple(int(n) for n in found[-1])


def test_engine_tests_on_the_board(golden, device_cache, tmp_path):
    if devkit.is_pimoroni():
        pytest.skip("the engine's tests on the board run on the upstream image only "
                    "(the same .mpy engine; two minutes of emulator time each)")
    from pipkeeper.sim.rp2040.board import FLASH_FILE
    from pipkeeper.board import flashfs
    assert all(os.path.isfile(os.path.join(devkit.ROOT, "tests", "engine", n)) for n in BOARD_TESTS)
    board = devkit.new_board(tmp_path / "board", image=golden)
    env = dict(os.environ)
    env.pop("PIPKEEPER_PROGRESS", None)
    env["PYTHONPATH"] = os.pathsep.join([devkit.ROOT, os.path.join(devkit.ROOT, "host")])
    try:
        with devkit.serial(board) as port:
            env["PIPKEEPER_PORT"] = port
            proc = subprocess.run([sys.executable, "-m", "pipkeeper", "test", "--board"] + list(BOARD_TESTS),
                                  env=env, cwd=devkit.ROOT, capture_output=True, text=True, timeout=840)
        devkit.off(board)
    finally:
        board.close()
    out = proc.stdout
    ran = re.findall(r"/pktest/tests/engine/(test_\w+\.py) ", out)
    assert ran == list(BOARD_TESTS), out[-3000:] + proc.stderr[-2000:]
    found = COUNTS.findall(out)
    assert found, out[-3000:] + proc.stderr[-2000:]
    passed, failed = (int(n) for n in found[-1])
    assert (passed, failed) == counts_on_unix_port(), out[-3000:]
    assert failed == 0 and passed > 100, out[-3000:]
    assert proc.returncode == 0, proc.stderr[-2000:]
    # The scratch folder is gone from the board's flash.
    assert flashfs.listdir(str(tmp_path / "board" / FLASH_FILE), "/pktest") == []
    assert "pktest" not in flashfs.listdir(str(tmp_path / "board" / FLASH_FILE), "/")
