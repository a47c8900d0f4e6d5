"""The heap search of `bench device` and tests/device/test_heap.py
(`Bench.min_free_heap`), without an emulator: the boots are stubbed by a
board that draws its frame from a given free heap up. Coarse steps must
land on the fine range, never jump past it (a test of a 40 KB aim once
stepped from 59 KB to 43 KB and reported 59 KB)."""

import pytest

from pipkeeper.bench.device import HEAP_STEP, Bench


class _Stub:
    """A board that draws ``frame`` at ``needs`` bytes free and more."""

    def __init__(self, needs):
        self.needs = needs
        self.free = None
        self.booted = []

    def ballast_image(self, image, free):
        self.free = free
        return image

    def cold_boot(self, image):
        self.booted.append(self.free)
        return 0.0, ("frame" if self.free >= self.needs else "error"), None


@pytest.mark.parametrize("top", [241040, 241456, 239616, 200000])
@pytest.mark.parametrize("floor, needs", [(40 * 1024, 34816), (48 * 1024, 34816),
                                          (128 * 1024, 108544), (40 * 1024, 45056)])
def test_coarse_steps_land_on_the_fine_range(top, floor, needs):
    fine, coarse = 8 * 1024, 16 * 1024
    stub = _Stub(needs)
    minimum, failures = Bench.min_free_heap(stub, None, "frame", top, floor=floor,
                                            fine=fine, coarse=coarse)
    fine_steps = [f for f in stub.booted if f <= floor + fine]
    # every 2 KB step of the fine range is booted, down to the floor or the first misses
    assert fine_steps[0] == floor + fine
    assert all(a - b == HEAP_STEP for a, b in zip(fine_steps, fine_steps[1:]))
    assert failures == []
    want = max(floor, needs + (-needs) % HEAP_STEP)
    assert minimum == want, (minimum, stub.booted)
