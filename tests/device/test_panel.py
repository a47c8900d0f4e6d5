"""What the emulated panel's model (host/pipkeeper/sim/rp2040/js/panel.mjs)
counted over the scripted game on each image (issue 33): the fixture's
frames carry each refresh's report, so these read what test_game.py's run
already made and cost no emulator time of their own.

- Upstream MicroPython and the scorer's own image drive the UC8151 with the
  differential fast update (firmware/uc8151.py): no pixel that keeps its
  colour is driven, every changed pixel reaches its colour, no drive is
  chosen from an old picture that is not the panel's, and no pixel's DC
  is ever more than one update's drive; the fast waveform lasts 80 ms.
- Pimoroni's build drives the panel through its own C driver, which sends
  no old picture and whose update speeds drive every pixel by its new
  colour (docs/PERFORMANCE.md, "Pimoroni's build"): there the model counts
  unchanged pixels driven, and no wrong drive (its tables do not depend on
  the old picture)."""

import pytest

import devkit

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def _refreshes(scripted):
    return [f for step in scripted.emu for f in step]


def test_every_refresh_drives_right_and_reaches_its_colour(scripted):
    frames = _refreshes(scripted)
    assert frames and all(f.panel is not None for f in frames)
    assert sum(f.panel["wrong_drives"] for f in frames) == 0
    assert sum(f.panel["shows_wrong"] for f in frames) == 0


def test_a_fast_update_drives_only_the_pixels_that_change(scripted):
    if devkit.is_pimoroni():
        pytest.skip("Pimoroni's C driver sends no old picture: its fast update drives every pixel")
    fast = [f for f in _refreshes(scripted) if not f.full]
    assert len(fast) > 100
    assert max(f.panel["unchanged_driven"] for f in fast) == 0
    assert sum(f.panel["not_reached"] for f in fast) == 0
    assert {f.refresh_ns for f in fast} == {80_000_000}
    drive = max(f.panel["drive_max"] for f in fast)
    assert drive == 8
    # no pixel ever held more DC than one update's drive
    assert max(f.panel["dc_max"] for f in _refreshes(scripted)) <= drive
