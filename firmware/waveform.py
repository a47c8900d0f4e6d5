"""The UC8151's register waveforms (Badger 2040, Pico Inky Pack), made from
a few numbers a real panel was measured with, so that a test can check
their properties from their bytes (tests/firmware/test_waveform.py) and
the emulated panel can count what they drive (host/pipkeeper/sim/rp2040/
js/panel.mjs). Issue 33.

The measurement: antirez's UC8151 driver for the Badger 2040 (README,
"Update latency" and "Burn-ins due to wrong LUTs"; his speeds are facts
we use, his code is not copied). Its fastest setting, speed 6 without
flicker, drives a pixel that changes colour one way for 8 frames at 100 Hz
with +-10 V on the pixel, leaves the pixels that keep their colour
grounded, and measured 147 ms from the update call to the settled picture
on a real Badger 2040, 80 ms of it the waveform. So:

- ``fast``: what a press draws. A pixel that turns black gets VDH for
  ``FRAMES`` frames, one that turns white VDL as long; one that keeps its
  colour is not driven at all (ground against VCOM's DC level), so a
  static pixel collects no DC however long the evening. The two drives
  are each other's mirror: a pixel's DC is +8 frames while it is black
  (if it started white) and 0 while white, never more.
- ``full``: the cleaning refresh (round boundaries, screens that change
  everything, and where the count of erased pixels asks: firmware/
  picture.py). It starts with the fast waveform's drive of the pixels that
  change (so that a colour changed here carries the same DC as one changed
  by a fast update, and the account above still holds), then flashes every
  pixel charge-neutrally: away from its colour, back and forth, and to it
  again, with the frame counts of the example in antirez's README (32
  frames twice, 16 and 16, 32 twice: his speed 2, 1,998 ms measured). The
  panel's own waveform in OTP cannot be read (its DC is unknown) and
  would change colours with none of the fast drive's DC: the board uses it
  only where the old picture is not known (firmware/uc8151.py).

Levels: VDH and VDL at 10 V (PWR 0x26, as measured; the OTP refresh keeps
Pimoroni's 11 V), VCOM at its DC level throughout, 100 Hz (PLL 0x3A).
"""

try:
    from micropython import const
except ImportError:  # CPython (tests)
    def const(x):
        return x

FRAMES = const(8)         # the drive of a pixel that changes colour
PLL_100HZ = const(0x3A)
HZ = const(100)
VOLTS_10 = const(0x26)    # PWR's VDH and VDL: 2.4 V + 0.2 V a step
GND = const(0)            # a level: ground (for VCOM its DC level)
VDH = const(1)            # towards black
VDL = const(2)            # towards white

# The cleaning flash of ``full``: (frames, repeat) of away, back-and-forth
# (each half), and to the colour again.
_AWAY = (32, 2)
_SHAKE = (16, 1)
_TO = (32, 2)


def _group(phases, repeat):
    """One group of a table: up to four (level, frames) phases, repeated."""
    sel = 0
    out = bytearray(6)
    for k in range(len(phases)):
        level, n = phases[k]
        sel |= level << (6 - 2 * k)
        out[1 + k] = n
    out[0] = sel
    out[5] = repeat
    return out


def _table(groups, size=42):
    b = bytearray(size)
    for i in range(len(groups)):
        b[6 * i:6 * i + 6] = groups[i]
    return bytes(b)


def _towards(black):
    return VDH if black else VDL


def luts(full):
    """The five tables, in the order of their commands 0x20-0x24: VCOM,
    white->white, black->white, white->black, black->black."""
    out = []
    for old, new in ((None, None), (0, 0), (1, 0), (0, 1), (1, 1)):
        if old is None:                  # VCOM: its DC level all along
            drive = GND
        else:
            drive = GND if old == new else _towards(new)
        groups = [_group(((drive, FRAMES),), 1)]
        if full:
            if old is None:
                to = away = GND
            else:
                to, away = _towards(new), _towards(not new)
            groups.append(_group(((away, _AWAY[0]),), _AWAY[1]))
            groups.append(_group(((away, _SHAKE[0]), (to, _SHAKE[0])), _SHAKE[1]))
            groups.append(_group(((to, _TO[0]),), _TO[1]))
        out.append(_table(groups, 44 if old is None else 42))
    return out


def frames(full):
    """How many frames the waveform lasts."""
    n = FRAMES
    if full:
        n += _AWAY[0] * _AWAY[1] + 2 * _SHAKE[0] * _SHAKE[1] + _TO[0] * _TO[1]
    return n


def ms(full):
    return frames(full) * 1000 // HZ
