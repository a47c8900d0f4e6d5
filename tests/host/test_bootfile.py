"""The /boot.py that `flash` writes: the latch first, then the buttons held,
for every board profile (run here against a stand-in `machine` module)."""

import sys
import types

import pytest

from hardware import profiles
from pipkeeper.board.bootfile import boot_py

NAMES = ("badger2040", "badger2040w", "pico_inky_pack", "pico_epaper29")


def _run(text, levels):
    calls = []

    class Pin:
        OUT, IN, PULL_UP, PULL_DOWN = 1, 0, 2, 3

        def __init__(self, gpio, mode=None, pull=None, value=None):
            self.gpio = gpio
            calls.append((gpio, mode, value))

        def value(self):
            return levels.get(self.gpio, 0)

    fake = types.ModuleType("machine")
    fake.Pin = Pin
    saved = sys.modules.get("machine")
    sys.modules["machine"] = fake
    try:
        exec(compile(text, "boot.py", "exec"), {})
        return calls, sys.modules.pop("pk_boot")
    finally:
        if saved is None:
            sys.modules.pop("machine", None)
        else:
            sys.modules["machine"] = saved


@pytest.mark.parametrize("name", NAMES)
def test_the_latch_comes_first_and_the_held_buttons_are_noted(name):
    prof = profiles.load(name)
    label, gpio, _pull, high = prof.BUTTONS[2]
    idle = {g: (0 if h else 1) for _l, g, _p, h in prof.BUTTONS}
    levels = dict(idle)
    levels[gpio] = 1 if high else 0
    calls, held = _run(boot_py(prof), levels)
    assert held == (label,)
    if prof.PIN_POWER_LATCH is not None:
        assert calls[0] == (prof.PIN_POWER_LATCH, 1, 1)
    _calls, none = _run(boot_py(prof), idle)
    assert none == ()


def test_it_imports_nothing_of_ours():
    text = boot_py(profiles.load("badger2040"))
    imports = [ln for ln in text.splitlines() if ln.startswith(("import", "from"))]
    assert imports == ["from machine import Pin", "import sys"]
