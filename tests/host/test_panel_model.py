"""The emulated panel's model (host/pipkeeper/sim/rp2040/js/panel.mjs) on
hand-made waveforms whose answers are known: a charge-neutral one, one
that puts DC through every pixel, one that never reaches black, a
differential one (only the pixels that change), one given a wrong old
picture, the panel's own (OTP) refresh as a time, the frame rate from the
PLL, VCOM swinging with the pixels, a partial window and a refresh cut
short by the power.

The model is driven as the emulator drives it, command by command with
their data bytes (the UC8151's own: PSR, PWR, PLL, the five LUTs, DTM1,
DTM2, DRF), by a few lines of JavaScript run with Node.js (skipped without
it). No RP2040 is emulated: each test takes well under a second."""

import json
import os
import shutil
import subprocess

import pytest

from pipkeeper.sim.rp2040 import emulator

JS = os.path.join(os.path.dirname(emulator.__file__), "js", "panel.mjs")
NODE = os.environ.get("PIPKEEPER_NODE") or shutil.which("node")
pytestmark = pytest.mark.skipif(not NODE, reason="Node.js is not installed (the panel model is JavaScript)")

# The driver: steps in, one report a refresh out (rows as the count of ink pixels).
DRIVER = r"""
import { Physical, UC8151, N } from %s;
import fs from 'node:fs';
const steps = JSON.parse(fs.readFileSync(0, 'utf8'));
const P = new Physical();
const uc = new UC8151(P, { otpMs: 4500 });
const out = [];
for (const s of steps) {
  if (s.reset) { uc.reset(); continue; }
  if (s.cut !== undefined) {
    const rows = uc.cutShort(s.cut * 1e6);
    out.push({ cut: rows ? rows.reduce((n, v) => n + popcount(v), 0) : null, b: P.b[0], dc: P.dc[0] });
    continue;
  }
  const [c, bytes] = s;
  uc.lutStart(c);
  const rep = uc.command(c);
  if (rep) {
    const ink = rep.rows.reduce((n, v) => n + popcount(v), 0);
    delete rep.rows;
    rep.ink = ink;
    rep.b0 = P.b[0];
    rep.dc = [Math.min(...P.dc), Math.max(...P.dc)];
    out.push(rep);
    uc.settle();
  }
  (bytes || []).forEach((v, i) => uc.data(c, i, v));
}
function popcount(v) { let n = 0; while (v) { n += v & 1; v >>= 1; } return n; }
console.log(JSON.stringify({ reports: out, totals: uc.totals, dc_max: P.dcMax() }));
"""

PIXELS = 296 * 128
V10 = 0x26            # PWR's VDH/VDL for 10 V
GND, VDH, VDL, FLOAT = 0, 1, 2, 3


def run(steps):
    code = DRIVER % json.dumps("file://" + JS)
    proc = subprocess.run([NODE, "--input-type=module", "-e", code], input=json.dumps(steps),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def lut(*groups, vcom=False):
    """A LUT's bytes from groups ((level A, frames A), ... up to four
    phases, repeat): the levels two bits each, phase A at the top."""
    out = []
    for phases, rep in groups:
        sel = 0
        counts = [0, 0, 0, 0]
        for k, (level, n) in enumerate(phases):
            sel |= level << (6 - 2 * k)
            counts[k] = n
        out += [sel] + counts + [rep]
    out += [0] * (42 - len(out))
    return out + ([0, 0] if vcom else [])


def waveform_setup(ww, bw, wb, bb, vcom=None, pll=0x3A, psr=0b10110111, volts=V10):
    """The commands of a register-waveform set-up (the firmware's order)."""
    frames = sum(n for phases, rep in ww for _l, n in phases for _ in range(rep))
    vcom = vcom or ([((GND, frames),), 1],)
    return [[0x00, [psr]], [0x01, [0x03, 0x00, volts, volts, 0x1E]], [0x30, [pll]],
            [0x20, lut(*vcom, vcom=True)], [0x21, lut(*ww)], [0x22, lut(*bw)],
            [0x23, lut(*wb)], [0x24, lut(*bb)]]


def picture(black_columns):
    """DTM bytes (the controller's layout, 1 = white) with the first
    ``black_columns`` of the 296 columns black."""
    return [0x00] * (16 * black_columns) + [0xFF] * (16 * (296 - black_columns))


def update(old, new):
    out = []
    if old is not None:
        out.append([0x10, picture(old)])
    out += [[0x13, picture(new)], [0x12, None]]
    return out


def one(level, frames):
    return [(((level, frames),), 1)]


NEUTRAL_BLACK = [(((VDL, 8), (VDH, 8)), 1)]     # away from black, then to it: net 0
NEUTRAL_WHITE = [(((VDH, 8), (VDL, 8)), 1)]


def test_a_charge_neutral_waveform_leaves_no_dc_and_reaches_every_colour():
    steps = waveform_setup(NEUTRAL_WHITE, NEUTRAL_WHITE, NEUTRAL_BLACK, NEUTRAL_BLACK)
    steps += update(0, 100) + update(100, 20) + update(20, 20)
    out = run(steps)
    for rep in out["reports"]:
        assert rep["ns"] == 160_000_000             # 16 frames at 100 Hz: BUSY exactly that long
        assert rep["not_reached"] == 0 and rep["shows_wrong"] == 0 and rep["wrong_drives"] == 0
        assert rep["drive"] == {"ww": 0, "bw": 0, "wb": 0, "bb": 0}
        assert rep["full"]                          # every pixel flashed, charge-neutral: a full refresh
    assert [r["ink"] for r in out["reports"]] == [100 * 128, 20 * 128, 20 * 128]
    assert out["dc_max"] == 0
    # every pixel is driven, also those that keep their colour
    assert out["reports"][2]["unchanged_driven"] == PIXELS


def test_a_waveform_that_drives_by_the_colour_puts_dc_through_every_pixel():
    # the firmware's waveform before issue 33: white with VDL, black with
    # VDH, 20 frames, whatever the pixel showed
    to_white, to_black = one(VDL, 20), one(VDH, 20)
    steps = waveform_setup(to_white, to_white, to_black, to_black) + update(None, 50) * 3
    out = run(steps)
    assert [r["unchanged_driven"] for r in out["reports"]] == [PIXELS - 50 * 128, PIXELS, PIXELS]
    assert all(not r["full"] and r["drive"] == {"ww": -20, "bw": -20, "wb": 20, "bb": 20}
               for r in out["reports"])
    # 20 frames a press, the same way: black pixels at +60, white ones at -60
    assert out["reports"][-1]["dc"] == [-60, 60] and out["dc_max"] == 60
    assert out["totals"]["unchanged_driven_max"] == PIXELS
    # a table that depends only on the new colour makes no drive wrong,
    # whatever DTM1 holds (noise here)
    assert out["totals"]["wrong_drives"] == 0


def test_a_waveform_too_short_never_reaches_black():
    # 3 frames of 10 V at 100 Hz: 300 V.ms of the 800 a pixel needs
    short = one(VDH, 3)
    steps = waveform_setup(one(GND, 3), one(VDL, 3), short, one(GND, 3)) + update(0, 40)
    rep = run(steps)["reports"][0]
    assert rep["changed"] == 40 * 128
    assert rep["not_reached"] == 40 * 128 and rep["shows_wrong"] == 40 * 128
    assert rep["ink"] == 0                  # still white: 0.375 of the way
    assert abs(rep["b0"] - 0.375) < 1e-6
    # four such updates make it (1.5 of the way, held at black)
    steps = waveform_setup(one(GND, 3), one(VDL, 3), short, one(GND, 3)) + update(0, 40) * 4
    assert run(steps)["reports"][-1]["ink"] == 40 * 128


def test_a_differential_waveform_drives_only_the_pixels_that_change():
    # antirez's measured fastest: 8 frames at 100 Hz, +-10 V, the others grounded
    steps = waveform_setup(one(GND, 8), one(VDL, 8), one(VDH, 8), one(GND, 8))
    steps += update(0, 30) + update(30, 10) + update(10, 60) + update(60, 0)
    out = run(steps)
    assert [r["ns"] for r in out["reports"]] == [80_000_000] * 4
    assert all(r["unchanged_driven"] == 0 and r["wrong_drives"] == 0 and r["not_reached"] == 0
               for r in out["reports"])
    assert [r["ink"] for r in out["reports"]] == [30 * 128, 10 * 128, 60 * 128, 0]
    assert out["reports"][0]["drive_max"] == 8
    # every pixel went white -> black -> white as often: no DC left, and
    # never more than one update's drive on the way
    assert out["dc_max"] == 0
    assert max(max(abs(x) for x in r["dc"]) for r in out["reports"]) == 8


def test_a_wrong_old_picture_is_a_wrong_drive_and_a_wrong_picture():
    steps = waveform_setup(one(GND, 8), one(VDL, 8), one(VDH, 8), one(GND, 8))
    # the panel shows 30 black columns, but DTM1 says all white: the
    # differential table of the 30 columns, now to turn white, is WW (none)
    steps += update(0, 30) + update(0, 0)
    rep = run(steps)["reports"][1]
    assert rep["wrong_drives"] == 30 * 128
    assert rep["shows_wrong"] == 30 * 128 and rep["ink"] == 30 * 128


def test_the_panels_own_refresh_is_a_time_that_reaches_every_colour_with_no_dc():
    steps = [[0x00, [0b10010111]]] + update(None, 70)
    rep = run(steps)["reports"][0]
    assert rep["ns"] == 4_500_000_000 and rep["full"]
    assert rep["ink"] == 70 * 128 and rep["dc"] == [0, 0] and rep["wrong_drives"] == 0


def test_the_frame_rate_comes_from_the_pll():
    # 200 Hz: 8 frames last 40 ms and carry half the drive: not enough
    steps = waveform_setup(one(GND, 8), one(VDL, 8), one(VDH, 8), one(GND, 8), pll=0x39) + update(0, 10)
    rep = run(steps)["reports"][0]
    assert rep["ns"] == 40_000_000 and rep["hz"] == 200
    assert rep["not_reached"] == 10 * 128 and rep["drive_max"] == 4
    # 50 Hz: 160 ms, reached
    steps = waveform_setup(one(GND, 8), one(VDL, 8), one(VDH, 8), one(GND, 8), pll=0x3C) + update(0, 10)
    rep = run(steps)["reports"][0]
    assert rep["ns"] == 160_000_000 and rep["not_reached"] == 0


def test_vcom_moving_with_the_source_drives_nothing():
    # VCOM at VDH above its DC level while the unchanged pixels' source is
    # at VDH: no field across them; a changed pixel at VDL sees twice the level
    vcom = [(((VDH, 4),), 1)]
    steps = waveform_setup(one(VDH, 4), one(VDL, 4), one(VDL, 4), one(VDH, 4), vcom=vcom) + update(0, 0)
    rep = run(steps)["reports"][0]
    assert rep["unchanged_driven"] == 0
    assert rep["drive"] == {"ww": 0, "bw": -8, "wb": -8, "bb": 0}


def test_a_floating_source_drives_nothing():
    steps = waveform_setup(one(FLOAT, 8), one(VDL, 8), one(VDH, 8), one(FLOAT, 8)) + update(0, 0)
    assert run(steps)["reports"][0]["unchanged_driven"] == 0


def test_the_data_go_into_the_partial_window_and_only_it_is_refreshed():
    steps = waveform_setup(one(GND, 8), one(VDL, 8), one(VDH, 8), one(GND, 8))
    steps += update(0, 0)
    # gates 10-19, sources 0-127 (16 bytes a line): PTIN, PTL, its data
    steps += [[0x91, None], [0x90, [0, 127, 0, 10, 0, 19, 1]],
              [0x10, [0xFF] * 160], [0x13, [0x00] * 160], [0x12, None]]
    rep = run(steps)["reports"][1]
    assert rep["partial"] and not rep["full"]
    assert rep["ink"] == 10 * 128 and rep["changed"] == 10 * 128


def test_a_reset_leaves_no_old_picture():
    steps = waveform_setup(one(GND, 8), one(VDL, 8), one(VDH, 8), one(GND, 8))
    steps += [[0x10, picture(0)], {"reset": True}] + waveform_setup(one(GND, 8), one(VDL, 8), one(VDH, 8), one(GND, 8))
    steps += [[0x13, picture(20)], [0x12, None]]
    rep = run(steps)["reports"][0]
    # DTM1 is noise after the reset: about half the white pixels read as black
    assert rep["wrong_drives"] > 1000


def test_a_refresh_cut_short_leaves_the_pixels_half_way():
    # (this driver does not settle the refresh: the power goes in it)
    steps = waveform_setup(one(GND, 8), one(VDL, 8), one(VDH, 8), one(GND, 8))
    steps += [[0x10, picture(0)], [0x13, picture(296)]]
    code = (DRIVER % json.dumps("file://" + JS)).replace("    uc.settle();\n", "")
    proc = subprocess.run([NODE, "--input-type=module", "-e", code],
                          input=json.dumps(steps + [[0x12, None], {"cut": 30}]),
                          capture_output=True, text=True, timeout=60)
    out = json.loads(proc.stdout)
    assert out["reports"][0]["ink"] == PIXELS
    # cut after 3 of its 8 frames (30 ms): 3/8 of the way, still white, 3 frames of DC
    assert out["reports"][1]["cut"] == 0
    assert abs(out["reports"][1]["b"] - 0.375) < 1e-6 and out["reports"][1]["dc"] == 3


def _firmware(full):
    """The firmware's own set-up of a register waveform (firmware/uc8151.py,
    firmware/waveform.py), as its commands."""
    from firmware import waveform
    tables = waveform.luts(full)
    return [[0x00, [0b10110111]], [0x01, [0x03, 0x00, waveform.VOLTS_10, waveform.VOLTS_10, 0x1E]],
            [0x30, [waveform.PLL_100HZ]]] + [[0x20 + i, list(tables[i])] for i in range(5)]


def test_the_firmwares_fast_waveform_drives_only_what_changes_in_80_ms():
    from firmware import waveform
    steps = _firmware(False) + update(0, 30) + update(30, 10) + update(10, 10) + update(10, 0)
    out = run(steps)
    for rep in out["reports"]:
        assert rep["ns"] == waveform.ms(False) * 1_000_000 == 80_000_000
        assert not rep["full"] and rep["unchanged_driven"] == 0
        assert rep["not_reached"] == 0 and rep["wrong_drives"] == 0 and rep["shows_wrong"] == 0
        assert rep["drive"] == {"ww": 0, "bw": -8, "wb": 8, "bb": 0} and rep["drive_max"] == 8
    assert [r["ink"] for r in out["reports"]] == [30 * 128, 10 * 128, 10 * 128, 0]
    assert out["dc_max"] == 0


def test_the_firmwares_full_waveform_cleans_every_pixel_with_the_fast_drives_dc():
    from firmware import waveform
    # a fast update, then a full one that changes colours, then a fast one
    steps = _firmware(False) + update(0, 40) + _firmware(True) + update(40, 20) + _firmware(False) + update(20, 60)
    reps = run(steps)["reports"]
    full = reps[1]
    assert full["full"] and full["ns"] == waveform.ms(True) * 1_000_000
    assert full["unchanged_driven"] == PIXELS - 20 * 128       # every pixel flashed
    assert full["drive"] == {"ww": 0, "bw": -8, "wb": 8, "bb": 0}
    assert full["not_reached"] == 0 and full["ink"] == 20 * 128
    # every colour change carried the same drive, fast or full: a pixel's
    # DC is +8 while black (it started white), 0 while white
    assert reps[2]["dc"] == [0, 8] and reps[2]["ink"] == 60 * 128
