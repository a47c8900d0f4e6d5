# The panel drivers on a fake bus, on the MicroPython unix port (not
# collected by pytest; tests/firmware/test_panel_drivers.py runs each NAME):
#   micropython -X heapsize=160K mp_panel.py MPY_TREE NAME
# Apart from mp_units.py, whose heap-tight tests feel every line added to
# that file (its source is compiled into the same heap).

import sys
sys.path.insert(0, sys.argv[1])
NAME = sys.argv[2]


class _Pin:
    def __init__(self, v=0):
        self.v = v

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v


class _Bus:
    """A fake SPI bus with a panel's BUSY line: busy for ``reads`` reads of
    the pin after each command in ``refresh`` (or never, with reads=0)."""

    def __init__(self, refresh, busy_level, reads=3):
        self.dc = _Pin()
        self.out = []
        self.refresh = refresh
        self.level = busy_level
        self.reads = reads
        self.left = 0
        bus = self

        class Busy:
            def value(self, v=None):
                if bus.left > 0:
                    bus.left -= 1
                    return bus.level
                return 1 - bus.level
        self.busy = Busy()

    def write(self, b):
        self.out.append((self.dc.v, bytes(b)))
        if self.dc.v == 0 and b[0] in self.refresh:
            self.left = self.reads

    def commands(self):
        return [b[0] for v, b in self.out if v == 0]

    def pictures(self):
        return [b for v, b in self.out if v == 1 and len(b) == 4736]


def _fake_time():
    import time
    if not hasattr(time, "sleep_ms"):
        time.sleep_ms = lambda ms: None
    if not hasattr(time, "ticks_ms"):
        time.ticks_ms = lambda: 0
        time.ticks_diff = lambda a, b: a - b


def t_uc8151_driver_on_a_fake_bus():
    _fake_time()
    from firmware.uc8151 import UC8151
    spi = _Bus((0x12,), 0)
    d = UC8151(spi, _Pin(1), spi.dc, _Pin(1), spi.busy, 0)
    cols = bytearray(4736)
    d.show(cols, fast=False)
    cmds = spi.commands()
    assert 0x13 in cmds and 0x12 in cmds and 0x02 in cmds      # data, refresh, off
    assert cmds.index(0x04) < cmds.index(0x13) < cmds.index(0x12)
    assert len(spi.pictures()) == 1
    assert 0x10 not in cmds and 0x20 not in cmds                # no old picture: the OTP refresh
    spi.out.clear()
    d.show(cols, fast=True)
    cmds = spi.commands()
    assert 0x10 not in cmds and 0x20 not in cmds                # never fast without the old picture
    from firmware import waveform
    old = bytearray(b"\xff" * 4736)
    for full in (False, True):
        spi.out.clear()
        d.show(cols, fast=not full, old=old)
        cmds = spi.commands()
        # the old picture (DTM1), then the new (DTM2), the register waveform
        assert cmds.index(0x10) < cmds.index(0x13) < cmds.index(0x12)
        assert [b for v, b in spi.out if v == 1 and len(b) == 4736] == [old, cols]
        tables = [spi.out[i + 1][1] for i, (v, b) in enumerate(spi.out) if v == 0 and 0x20 <= b[0] <= 0x24]
        assert tables == waveform.luts(full)
        psr = spi.out[[b for v, b in spi.out].index(b"\x00") + 1][1]
        assert psr[0] & 0x20                                      # LUT from the registers


def t_ssd1680_driver_on_a_fake_bus():
    _fake_time()
    from firmware.ssd1680 import SSD1680
    from firmware.epd import PanelError
    spi = _Bus((0x20,), 1)
    rst = _Pin(1)
    d = SSD1680(spi, _Pin(1), spi.dc, rst, spi.busy, 1)
    pic = bytearray(4736)
    d.show(pic, fast=True)          # nothing known in RAM yet: a full update
    cmds = spi.commands()
    assert cmds[0] == 0x12                                      # reset first
    at = cmds.index(0x22)
    assert [b for v, b in spi.out if v == 1 and b in (b"\xf7", b"\xff")] == [b"\xf7"]
    assert cmds.index(0x24) < at and cmds.index(0x26) < at      # both RAMs, then mode 1
    assert cmds[-1] == 0x10 and spi.out[-1] == (1, b"\x01")    # deep sleep, RAM kept
    assert len(spi.pictures()) == 2
    spi.out.clear()
    d.show(pic, fast=True)
    cmds = spi.commands()
    at = cmds.index(0x20)
    assert (1, b"\xff") in spi.out                             # display mode 2
    assert cmds.index(0x24) < at < cmds.index(0x26)             # the new picture, then the old
    # a driver just powered on, given the picture the panel shows: that
    # picture to the old RAM first, then a fast update (display mode 2)
    d2 = SSD1680(spi, _Pin(1), spi.dc, rst, spi.busy, 1)
    spi.out.clear()
    shown = bytearray(b"\x0f" * 4736)
    d2.show(pic, fast=True, old=shown)
    cmds = spi.commands()
    assert (1, b"\xff") in spi.out and (1, b"\xf7") not in spi.out
    assert cmds.index(0x26) < cmds.index(0x24) < cmds.index(0x20)
    assert spi.pictures()[0] == shown
    spi.out.clear()
    spi.reads = 0                                               # BUSY never moves
    try:
        d.show(pic, fast=True)
    except PanelError as e:
        assert "BUSY" in str(e)
    else:
        assert False, "a BUSY line that never changes must be an error"
    assert not d.primed


globals()["t_" + NAME]()
print("ok")
