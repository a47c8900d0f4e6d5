"""Unit tests run inside the MicroPython unix port (mp_units.py): storage,
text, the column transpose, the sim board (the panel drivers on a fake bus:
test_panel_drivers.py)."""

import os
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = [l.split("(")[0][len("def t_"):] for l in open(os.path.join(HERE, "mp_units.py"))
         if l.startswith("def t_")]


@pytest.mark.parametrize("name", NAMES)
def test_on_micropython(tmp_path, mpy_tree, name):
    from pipkeeper.paths import micropython_binary
    # the columns test needs the viper emitter: compiled from source too
    tree = mpy_tree
    r = subprocess.run([micropython_binary(), "-X", "heapsize=160K", os.path.join(HERE, "mp_units.py"),
                        tree, str(tmp_path), name], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr


def test_required_profile_keys_are_in_every_profile():
    from firmware.board import REQUIRED_PROFILE_KEYS
    from hardware import profiles
    for name in profiles.NAMES:
        mod = profiles.load(name)
        missing = [k for k in REQUIRED_PROFILE_KEYS if not hasattr(mod, k)]
        assert not missing, (name, missing)


def test_script_parsing():
    from pipkeeper.errors import PipkeeperError
    from pipkeeper.sim.unix import parse_script
    assert parse_script("A\n\n# a comment\nup  # go up\nDOWN\nc\n") == ["A", "UP", "DOWN", "C"]
    with pytest.raises(PipkeeperError):
        parse_script("A\nX\n")


def test_panel_round_trip(tmp_path):
    from pipkeeper.sim.panel import save_png, to_terminal, to_image
    frame = bytearray(4736)
    frame[0] = 0x80          # pixel (0, 0)
    frame[127 * 37 + 36] = 1  # pixel (295, 127)
    img = to_image(bytes(frame))
    assert img.getpixel((0, 0)) == 0 and img.getpixel((1, 0)) == 255
    assert img.getpixel((295, 127)) == 0
    lines = to_terminal(bytes(frame))
    assert len(lines) == 32 and len(lines[0]) == 148
    assert lines[0][0] == chr(0x2801)
    save_png(bytes(frame), str(tmp_path / "f.png"))
