"""`pipkeeper uf2` onto a blank emulated RP2040, the way a new owner does it:
`pipkeeper flash --uf2 FILE --new-board` copies the file onto the board's
RPI-RP2 drive (a folder with an INFO_UF2.TXT here); the boot ROM (played by
``BootRom``) writes its blocks to a blank flash and the board comes up. It
must boot straight into the scorer's set-up screen with no serial step
(frames equal to the unix-port sim's), `flash` must then find nothing to
copy, and a game played on it must sync.

On each image of the suite (upstream MicroPython for the Pico, the CI's
input image, and Pimoroni's Badger 2040 build): one board, one boot, a
short game."""

import json
import os
import shutil
import threading
import time

import pytest

import devkit

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

PRESSES = 14            # the scripted game's set-up, the deal and two plays


class BootRom:
    """The RP2040 boot ROM behind a fake RPI-RP2 drive: once a whole UF2 is
    on the drive it writes its blocks to the board's (blank) flash, the drive
    goes away, and the board powers up on USB; its serial port then appears
    at ``port_link``."""

    def __init__(self, drive, folder, port_link):
        self.drive = drive
        self.folder = folder
        self.port_link = port_link
        self.board = None
        self.boot_frames = None
        self.error = None
        self.done = threading.Event()       # the host has finished with the port
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _whole_uf2(self):
        for name in os.listdir(self.drive):
            if not name.lower().endswith(".uf2"):
                continue
            raw = open(os.path.join(self.drive, name), "rb").read()
            if not raw or len(raw) % 512:
                continue
            total = int.from_bytes(raw[24:28], "little")
            if len(raw) // 512 == total:
                return raw
        return None

    def _run(self):
        from pipkeeper.board import images
        from pipkeeper.sim.rp2040.board import FLASH_FILE, SerialPort
        try:
            deadline = time.monotonic() + 120
            raw = None
            while raw is None:
                if time.monotonic() > deadline:
                    raise RuntimeError("no whole UF2 appeared on the drive")
                time.sleep(0.2)
                raw = self._whole_uf2()
            flash = images.flash_after_uf2(raw)                  # onto a blank board's flash
            shutil.rmtree(self.drive)                            # the board reboots: no drive
            os.makedirs(self.folder, exist_ok=True)
            with open(os.path.join(self.folder, FLASH_FILE), "wb") as f:
                f.write(flash)
            self.board = devkit.new_board(self.folder)
            self.boot_frames = self.board.start()
            self.boot_report = dict(self.board.last)
            with SerialPort(self.board) as port:
                os.symlink(port.path, self.port_link)
                self.done.wait(600)
            os.unlink(self.port_link)
            self.board.emu.run(3000, until=("idle",), idle_ms=400)  # the soft reset's boot
            self.board._new_frames()
        except Exception as exc:           # reported by the test
            self.error = exc


def test_uf2_boots_into_the_scorer_then_flash_copies_nothing_and_a_game_syncs(
        device, device_cache, sim_boot, mpy_tree, tmp_path, monkeypatch):
    from pipkeeper.board import bootsel
    from pipkeeper.sim import unix as sim
    from pipkeeper.board.flash import MANAGED

    if devkit.is_own(device):
        pytest.skip("the scorer's own image has no filesystem to merge (`pipkeeper uf2` refuses it): "
                    "its one-file install is test_own_image's")
    merged = tmp_path / "pipkeeper.uf2"
    code, out, err = devkit.cli(None, "uf2", "--micropython", device, "-o", str(merged), "--json")
    assert code == 0, err
    made = json.loads(out)
    assert made["size"] == merged.stat().st_size and made["board"] == "badger2040"
    assert made["build"] == ("PIMORONI_BADGER2040" if devkit.is_pimoroni() else "RPI_PICO")
    print("merged UF2: %d bytes" % made["size"])

    drives = tmp_path / "media"
    drive = drives / "RPI-RP2"
    drive.mkdir(parents=True)
    (drive / bootsel.INFO).write_text("UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n")
    port_link = str(tmp_path / "ttyACM0")
    monkeypatch.setenv(bootsel.ENV_DRIVES, str(drives))
    rom = BootRom(str(drive), str(tmp_path / "board"), port_link)
    try:
        code, out, err = devkit.cli(port_link, "flash", "--uf2", str(merged), "--new-board",
                                    "--wait", "300", "--json")
    finally:
        rom.done.set()
        rom.thread.join(120)
    assert rom.error is None, rom.error
    assert code == 0, err
    copied = json.loads(out)
    assert copied["replaced_filesystem"] and copied["micropython"] == made["micropython"]
    assert copied["scorer"] and copied["scorer_files"] == len(made["files"])
    board = rom.board
    try:
        # Power-on after the copy: the set-up screen straight away, pixel for
        # pixel the unix-port sim's first screen.
        assert rom.boot_report["reason"] == "idle"
        assert devkit.first_difference([rom.boot_frames], [sim_boot]) is None
        boot_ms = (rom.boot_frames[0].t - rom.boot_report["power_on_at"]) / 1e6
        print("power-on -> first frame: %.0f ms (emulated clock)" % boot_ms)

        # `pipkeeper flash` afterwards: nothing to copy, the files byte for byte.
        image = devkit.image_of(board)
        board.emu.save()
        before = devkit.image_files(image)
        with devkit.serial(board) as port:
            code, out, err = devkit.cli(port, "flash", "--json")
        assert code == 0, err
        again = json.loads(out)
        assert again["copied"] == [] and again["removed"] == [] and again["bytes_copied"] == 0
        assert again["unchanged"] == len(made["files"]) - 1        # all but /board.txt, not flash's
        board.emu.save()
        after = devkit.image_files(image)
        assert {p: d for p, d in after.items() if p.startswith(MANAGED) or p == "/board.txt"} == \
            {p: d for p, d in before.items() if p.startswith(MANAGED) or p == "/board.txt"}

        # A short game at the table, frames equal to the sim's ...
        with open(devkit.SCRIPT) as f:
            presses = sim.parse_script(f.read())[:PRESSES]
        ours = [board.press(b) for b in presses]
        theirs = devkit.sim_frames(tmp_path / "sim", presses, mpy_tree)[1:]
        where = devkit.first_difference(ours, theirs)
        assert where is None, "press %d (%s): %s" % (where[0] + 1, presses[where[0]], where[1])

        # ... and it syncs.
        db = tmp_path / "library.sqlite3"
        synced = devkit.sync_and_off(board, db)
    finally:
        board.close()
    assert [(e["action"], e["status"]) for e in synced["files"]] == [("new", "ok")], synced
    code, games, err = devkit.cli(None, "games", "--json", db=db)
    assert code == 0, err
    assert [g["file"] for g in json.loads(games)] == [synced["files"][0]["file"]]
