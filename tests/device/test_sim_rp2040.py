"""`pipkeeper sim --rp2040` from the command line: a script of presses on
the emulated board, its frames as PNG files, equal to the unix-port sim's."""

import os
import shutil

import pytest

import devkit

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

PRESSES = ["A", "A", "DOWN", "UP", "A"]


def test_script_and_frames(golden, mpy_tree, tmp_path):
    from PIL import Image
    from pipkeeper.sim.panel import to_image
    from pipkeeper.sim.rp2040.board import FLASH_FILE
    board = tmp_path / "board"
    board.mkdir()
    shutil.copyfile(str(golden), str(board / FLASH_FILE))
    script = tmp_path / "s.txt"
    script.write_text("\n".join(PRESSES) + "\n")
    frames = tmp_path / "frames"
    code, out, err = devkit.cli(None, "sim", "--rp2040", devkit.firmware_path(), "--dir", str(board),
                                "--script", str(script), "--frames", str(frames), "-q")
    assert code == 0, err
    assert "putting the scorer" not in err          # a flashed board is not flashed again
    pngs = sorted(os.listdir(str(frames)))
    theirs = devkit.sim_frames(tmp_path / "sim", PRESSES, mpy_tree)
    want = [f for step in theirs for f in step]
    assert len(pngs) == len(want)
    for name, fr in zip(pngs, want):
        got = Image.open(str(frames / name)).convert("L")
        assert got.tobytes() == to_image(fr.data, scale=2).tobytes(), name
