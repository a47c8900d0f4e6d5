"""The final sheet to a phone on the emulated RP2040 (issue 34): the largest
finished game (Mexican Train, 8 players, 13 rounds) in Persian on the
board's flash, C on its end screen, DOWN through its pages; each frame the
panel received (decoded from its SPI stream) holds a QR code that zxing-cpp
reads back as the sheet's page, and the code is on the panel within 400 ms
of the press (on USB: the end screen up). The end screen's own cold boot
(A on the game's sheet, as `pipkeeper bench device` times it and searches
its smallest heap) draws the end screen: a power-on with no button held
drew nothing on a board with a power latch, and the bench compared the QR
screen's heap with no frame. `pipkeeper bench device` measures the rest
(the battery's cold press, the smallest heaps).

A sample: the upstream image and the scorer's own, Persian only, its 12
codes (the sim's tests read every language and player count)."""

import os
import sys

import pytest

import devkit

sys.path.insert(0, os.path.join(devkit.ROOT, "tests", "firmware"))

from test_qr_sheet import expected, check_pages, decode_picture  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]
AIM_MS = 400


def _decoded(tmp_path, data, name):
    from PIL import Image
    from pipkeeper.sim.panel import save_png
    png = tmp_path / (name + ".png")
    save_png(data, str(png), scale=2)
    return decode_picture(Image.open(png))


def test_the_boards_codes_read_back(device, request, tmp_path):
    from pipkeeper.board import flashfs
    from pipkeeper.bench import device as bench_device
    if devkit.is_pimoroni(device):
        pytest.skip("the QR codes are read on the upstream and the own image (the suite's time)")
    golden = request.getfixturevalue("golden")      # (not flashed for the image skipped)
    bench = bench_device.Bench(device, tmp_path / "bench", log=lambda *a: None,
                               flashed=str(golden), lang="fa")
    image = bench.qr_game()
    first, worst, pages, frames, _ = bench.qr_presses(image)
    texts = [_decoded(tmp_path, data, "page-%d" % i) for i, data in enumerate(frames)]
    record = flashfs.read(str(image), "/games/0001.dgn").decode("utf-8")
    header, lines = expected(record, "fa")
    check_pages(texts, header, lines, "fa")
    assert first <= AIM_MS and worst <= AIM_MS, (first, worst)
    assert flashfs.read(str(image), "/log.txt") in (None, b"")
    # the end screen on battery, as the bench's heap search draws it
    sheet, ms, end_frame = bench.end_cold_press(image)
    assert end_frame is not None and ms is not None
    assert end_frame not in frames and _decoded(tmp_path, end_frame, "end") is None
    assert flashfs.read(str(sheet), "/log.txt") in (None, b"")
