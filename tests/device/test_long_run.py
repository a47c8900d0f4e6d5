"""A board that stays up all evening must not grow (issue 23): on USB the
scripted game, a new game after it, then plays undone and made again, 323
presses, with the firmware's heap probe on (firmware/board_machine.py
``idle``: the free heap after a collection once each press is done).
Past the first game the game's state stays the same size (a play, then its
undo), so whatever the heap loses there is lost for good: its least-squares
slope must be within 4 bytes a press, as the bench's 2,000-press run of the
repeated game (``pipkeeper bench device --long-run``) requires, and nothing
may run out of memory.

On the scorer's own image and upstream MicroPython: the two 1.28 builds the
bench measures (Pimoroni's board module has no heap probe)."""

import pytest

import devkit

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]

SLOPE = 4           # bytes a press, at most (issue 23)
PAIRS = 80          # plays undone and made again after the warm-up


def steady_presses():
    """(presses, where the steady part starts): the scripted game, A four
    times (a new game, the set-up's pages with their last choices, the
    start), A (the round's line), then PAIRS plays each undone (A, UP)."""
    from pipkeeper.bench import device
    script = device._script()
    warm = list(script) + ["A"] * 5
    return warm + ["A", "UP"] * PAIRS, len(warm)


def test_the_heap_stays_flat_through_a_long_evening_on_usb(golden, tmp_path):
    if devkit.is_pimoroni():
        pytest.skip("Pimoroni's build drives its board through its own module: no heap probe there")
    from pipkeeper.bench import device
    presses, warm = steady_presses()
    bench = device.Bench(devkit.firmware_path(), tmp_path, log=lambda *a: None, flashed=golden)
    per, board_log, _dc = bench.long_run(presses, bench.clean)
    heap = [(i, free) for i, (_, free) in enumerate(per) if free is not None and i >= warm]
    assert len(heap) >= 2 * PAIRS - 1, "the heap probe answered %d times" % len(heap)
    slope = device._slope(heap)
    print("free heap after a collection, presses %d-%d: %d -> %d B, slope %.2f B a press" % (
        heap[0][0], heap[-1][0], heap[0][1], heap[-1][1], slope))
    assert b"MemoryError" not in board_log, board_log[-1500:]
    assert abs(slope) <= SLOPE, (slope, heap[:3], heap[-3:])
