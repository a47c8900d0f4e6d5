"""The panel drivers (firmware/uc8151.py, firmware/ssd1680.py) on a fake
bus, inside the MicroPython unix port (mp_panel.py): the UC8151 sends the
old picture (DTM1) and the register waveforms of firmware/waveform.py only
where it is given one, and the OTP refresh otherwise; the SSD1680 primes
its old RAM with it after a power-on (issue 33)."""

import os
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = [l.split("(")[0][len("def t_"):] for l in open(os.path.join(HERE, "mp_panel.py"))
         if l.startswith("def t_")]


@pytest.mark.parametrize("name", NAMES)
def test_on_micropython(mpy_tree, name):
    from pipkeeper.paths import micropython_binary
    r = subprocess.run([micropython_binary(), "-X", "heapsize=160K", os.path.join(HERE, "mp_panel.py"),
                        mpy_tree, name], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr
