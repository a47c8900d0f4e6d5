"""The heap the late boot needs (issue 10's aims): the largest game, last
round, a battery press on the emulated RP2040, with the rest of the heap
taken by a ballast buffer before the firmware starts
(pipkeeper.bench.device.Bench.min_free_heap). At every 2 KB step from the
whole heap down to the aim the boot must draw the same frame as with the
whole heap (an error screen is a failure).

Open: the late boot with its checkpoint still needs about twice its aim, a
full replay 1.3 times (docs/PERFORMANCE.md has the figures and where the
heap goes): MicroPython 1.28's rp2 port runs .mpy code from
the heap (the RPI_PICO image has no ROMFS to run it from flash), and a
press loads some 60 KB of it. Strict xfails, so that meeting
an aim turns them into failures to be promoted."""

import pytest

import devkit

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

CHECKPOINT_AIM = 64 * 1024
FULL_REPLAY_AIM = 96 * 1024


def _late_boot_heap(golden, tmp_path, checkpoint, aim):
    bench, image = devkit.late_game(golden, tmp_path, checkpoint)
    _ms, reference, _ = bench.cold_boot(image)
    assert reference is not None, "the late boot drew nothing with the whole heap"
    # The aim's own step first: while it fails (the aims are open) one boot
    # says so; the sweep of every step above it runs once it draws.
    _ms, frame, _ = bench.cold_boot(bench.ballast_image(image, aim))
    assert frame == reference, "the late boot did not draw its frame at %d B free" % aim
    top = bench.free_heap_at_start(bench.clean)
    return bench.min_free_heap(image, reference, top, floor=aim)


@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="open: the late boot with its checkpoint draws from "
                   "about 125 KB of free heap, not 64 KB (docs/PERFORMANCE.md)")
def test_the_late_boot_draws_in_64_kb(golden, tmp_path):
    minimum, failures = _late_boot_heap(golden, tmp_path, True, CHECKPOINT_AIM)
    assert failures == [] and minimum is not None and minimum <= CHECKPOINT_AIM, (minimum, failures)


@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="open: a full replay of the late game draws from about "
                   "139 KB of free heap, not 96 KB (docs/PERFORMANCE.md)")
def test_a_full_replay_draws_in_96_kb(golden, tmp_path):
    minimum, failures = _late_boot_heap(golden, tmp_path, False, FULL_REPLAY_AIM)
    assert failures == [] and minimum is not None and minimum <= FULL_REPLAY_AIM, (minimum, failures)
