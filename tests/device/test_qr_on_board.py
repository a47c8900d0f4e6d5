"""The final sheet to a phone on the emulated RP2040 (issue 34): the largest
finished game (Mexican Train, 8 players, 13 rounds) in Persian on the
board's flash, C on its end screen, DOWN through its pages; each frame the
panel received (decoded from its SPI stream) holds a QR code that zxing-cpp
reads back as the sheet's page, and the code is on the panel within 400 ms
of the press (on USB: the end screen up; `pipkeeper bench device` measures
the battery's cold boot and the heap). A sample: the upstream image and the
scorer's own, Persian only (the sim's tests read every language)."""

import os
import sys

import pytest

import devkit

sys.path.insert(0, os.path.join(devkit.ROOT, "tests", "firmware"))

from test_qr_sheet import expected, check_pages, decode_picture  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]
AIM_MS = 400


def test_the_boards_codes_read_back(device, golden, tmp_path):
    from PIL import Image
    from pipkeeper.board import flashfs
    from pipkeeper.bench import device as bench_device
    from pipkeeper.sim.panel import save_png
    if devkit.is_pimoroni(device):
        pytest.skip("the QR codes are read on the upstream and the own image (the suite's time)")
    bench = bench_device.Bench(device, tmp_path / "bench", log=lambda *a: None,
                               flashed=str(golden), lang="fa")
    image = bench.qr_game()
    first, worst, pages, frames = bench.qr_presses(image)
    texts = []
    for i, data in enumerate(frames):
        png = tmp_path / ("page-%d.png" % i)
        save_png(data, str(png), scale=2)
        texts.append(decode_picture(Image.open(png)))
    record = flashfs.read(str(image), "/games/0001.dgn").decode("utf-8")
    header, lines = expected(record, "fa")
    check_pages(texts, header, lines, "fa")
    assert first <= AIM_MS and worst <= AIM_MS, (first, worst)
    assert flashfs.read(str(image), "/log.txt") in (None, b"")
