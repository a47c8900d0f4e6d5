"""`pipkeeper bench uf2`: the one-file install, measured.

The merged UF2 of ``pipkeeper uf2`` for a MicroPython image (its size, and
what of it is the image and the filesystem), then the board it makes: the
file written onto a blank flash as the boot ROM writes it, and the emulated
RP2040 powered on (USB) with nothing else done. Times are the emulator's
clock from power-on:

  boot_first_spi_ms   the first byte of the scorer's first panel update
  boot_frame_ms       that frame's refresh begins (the set-up screen)
  boot_shown_ms       its refresh ends: the screen is there to read
"""

import os
import tempfile
from pathlib import Path

from pipkeeper.board import uf2
from pipkeeper.errors import PipkeeperError
from pipkeeper.board import images
from pipkeeper.sim.rp2040.board import FLASH_FILE, EmulatedBoard
from pipkeeper.sim.rp2040.emulator import NS_PER_MS


def _ms(ns):
    return round(ns / NS_PER_MS, 1)


def run(firmware=None, board=None, log=print):
    firmware = firmware or os.environ.get(images.ENV_FIRMWARE) or images.default_firmware()
    if not firmware:
        raise PipkeeperError("name a MicroPython image: --firmware IMAGE or $%s" % images.ENV_FIRMWARE)
    with tempfile.TemporaryDirectory(prefix="pipkeeper-bench-uf2-") as work:
        log("pipkeeper uf2 --micropython %s ..." % os.path.basename(firmware))
        merged = uf2.make(firmware, board)
        g = merged.image.geometry
        figures = {
            "firmware": os.path.basename(firmware), "micropython": merged.image.version_text,
            "build": g.build, "board": merged.board,
            "uf2_bytes": len(merged.data), "uf2_blocks": len(merged.data) // 512,
            "image_bytes": len(merged.image.code()), "fs_bytes": g.size,
            "scorer_bytes": sum(len(d) for d in merged.fs_files.values()),
        }
        folder = Path(work) / "board"
        folder.mkdir()
        (folder / FLASH_FILE).write_bytes(images.flash_after_uf2(merged.data))
        log("powering on the emulated board it makes ...")
        b = EmulatedBoard(str(folder), firmware, profile=merged.board)
        try:
            frames = b.start()
            report = b.last
        finally:
            b.close()
        if not frames or report.get("update_at") is None:
            raise PipkeeperError("the board made from the UF2 showed nothing at power-on")
        on = report["power_on_at"]
        first = b.emu.frames[0]
        figures["boot_first_spi_ms"] = _ms(report["update_at"] - on)
        figures["boot_frame_ms"] = _ms(first["t"] - on)
        figures["boot_shown_ms"] = _ms(first["t"] + first["refresh_ns"] - on)
        figures["boot_full_refresh"] = bool(first["full"])
    return figures
