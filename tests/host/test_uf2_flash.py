"""`pipkeeper flash --uf2`: a board in BOOTSEL mode, its RPI-RP2 drive a
folder with an INFO_UF2.TXT ($PIPKEEPER_UF2_DRIVES). Finding the drive,
refusing an image that would wipe the board's games, a drive pulled in the
middle of the copy, waiting for the board's serial port. (The whole path
onto a board that boots the scorer: tests/device/test_uf2_boot.py.)"""

import errno
import os
import shutil
import threading
import time

import pytest
from click.testing import CliRunner

from boardkit import run_cli
from pipkeeper.board import bootsel, uf2, uf2_flash
from pipkeeper import cli
from pipkeeper.errors import PipkeeperError
from pipkeeper.files import write_atomically
from pipkeeper.board import images

SHARED = images.shared_rp2()
if not SHARED.is_dir() and os.environ.get(images.ENV_FIRMWARE):
    from pathlib import Path
    SHARED = Path(os.environ[images.ENV_FIRMWARE]).resolve().parent
PICO_UF2 = SHARED / "firmware-RPI_PICO-v1.28.0.uf2"

INFO = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"


@pytest.fixture(scope="module")
def merged(tmp_path_factory):
    if not PICO_UF2.is_file():
        pytest.skip("no %s" % PICO_UF2)
    old = os.environ.get("PIPKEEPER_CACHE")
    os.environ["PIPKEEPER_CACHE"] = str(tmp_path_factory.getbasetemp() / "pipkeeper-cache")
    try:
        m = uf2.make(str(PICO_UF2))
    finally:
        if old is None:
            os.environ.pop("PIPKEEPER_CACHE")
        else:
            os.environ["PIPKEEPER_CACHE"] = old
    out = tmp_path_factory.mktemp("merged") / "pico-pipkeeper.uf2"
    write_atomically(out, m.data)
    return out


def make_drive(root, name="RPI-RP2", info=INFO):
    d = root / name
    d.mkdir(parents=True)
    (d / bootsel.INFO).write_text(info)
    return d


@pytest.fixture
def drives(tmp_path, monkeypatch):
    root = tmp_path / "media"
    root.mkdir()
    monkeypatch.setenv(bootsel.ENV_DRIVES, str(root))
    return root


def _fails(*args, env=None):
    code, out, err = run_cli("flash", *args, env=env)
    assert code == 1, (out, err)
    assert err.startswith("pipkeeper: ") and err.count("\n") == 1, err
    return err


def test_finds_the_rp2040_drive_only(drives, tmp_path):
    make_drive(drives, "USBSTICK", info="nothing here")
    make_drive(drives, "RP2350", info="UF2 Bootloader v1.0\nModel: Raspberry Pi RP2350\nBoard-ID: RP2350\n")
    assert bootsel.drives() == []
    with pytest.raises(PipkeeperError, match="no board in BOOTSEL mode"):
        bootsel.find_drive()
    d = make_drive(drives)
    assert bootsel.find_drive() == str(d)
    # a drive named directly, beside the folder of drives: found once
    os.environ[bootsel.ENV_DRIVES] = os.pathsep.join([str(d), str(drives)])
    assert bootsel.drives() == [str(d)]
    make_drive(drives, "RPI-RP2 1")
    with pytest.raises(PipkeeperError, match="several RPI-RP2 drives"):
        bootsel.find_drive()


def test_refuses_to_wipe_a_board_without_new_board(merged, drives):
    d = make_drive(drives)
    err = _fails("--uf2", str(merged), env={bootsel.ENV_DRIVES: str(drives)})
    assert "replaces everything on the board's flash, games included" in err
    assert "`pipkeeper sync` first" in err and "--new-board" in err
    assert sorted(os.listdir(d)) == [bootsel.INFO]          # nothing copied


@pytest.mark.parametrize("what", ["elf", "noise"])
def test_refuses_a_uf2_that_is_no_rp2040_image(what, drives, tmp_path):
    """Even with --new-board: a UF2 whose first block is an ELF header (or
    noise) would wipe the board and leave it unable to boot."""
    elf = SHARED / "firmware-RPI_PICO-v1.28.0.elf"
    if what == "elf" and not elf.is_file():
        pytest.skip("no %s" % elf)
    data = elf.read_bytes() if what == "elf" else os.urandom(200000)
    f = tmp_path / (what + ".uf2")
    f.write_bytes(images.bin_to_uf2([(0, data)]))
    d = make_drive(drives)
    err = _fails("--uf2", str(f), "--new-board", env={bootsel.ENV_DRIVES: str(drives)})
    assert ("writes an ELF file onto the flash" if what == "elf" else "no boot stage 2") in err
    assert sorted(os.listdir(d)) == [bootsel.INFO]          # nothing copied


def test_no_drive(merged, drives):
    err = _fails("--uf2", str(merged), "--new-board", env={bootsel.ENV_DRIVES: str(drives)})
    assert "no board in BOOTSEL mode" in err and "RPI-RP2" in err


def test_options_that_do_not_go_together(merged):
    code, _out, err = run_cli("flash", "--uf2", str(merged), "--dry-run")
    assert code == 2 and "--uf2 writes a whole image" in err
    code, _out, err = run_cli("flash", "--new-board")
    assert code == 2 and "go with --uf2" in err


class PulledDrive:
    """The file on the drive; after ``after`` bytes the drive is gone."""

    def __init__(self, path, mode, drive, after):
        self.f = open(path, mode)
        self.drive = drive
        self.after = after
        self.written = 0

    def write(self, b):
        if self.written + len(b) > self.after:
            shutil.rmtree(self.drive, ignore_errors=True)
            raise OSError(errno.EIO, "Input/output error")
        self.written += len(b)
        return self.f.write(b)

    def flush(self):
        self.f.flush()

    def fileno(self):
        return self.f.fileno()

    def close(self):
        self.f.close()


def test_drive_pulled_mid_copy(merged, drives, monkeypatch):
    d = make_drive(drives)
    monkeypatch.setattr(bootsel, "_open", lambda p, m: PulledDrive(p, m, str(d), 1024 * 1024))
    result = CliRunner().invoke(cli.main, ["flash", "--uf2", str(merged), "--new-board", "--wait", "1"])
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    err = result.stderr
    assert err.count("\n") == 1 and err.startswith("pipkeeper: the RPI-RP2 drive went away after "
                                                   "1,048,576 of {:,} bytes".format(merged.stat().st_size))
    assert "half written" in err and "run the same command" in err


def test_drive_gone_once_the_last_block_is_in_is_the_board_rebooting(merged, drives, monkeypatch):
    """The boot ROM reboots as soon as it has the last block: the drive goes
    away under the copy's last flush or close, which is no error."""
    d = make_drive(drives)

    class Rebooting(PulledDrive):
        def close(self):
            self.f.close()
            shutil.rmtree(self.drive, ignore_errors=True)
            raise OSError(errno.ENODEV, "No such device")

    monkeypatch.setattr(bootsel, "_open", lambda p, m: Rebooting(p, m, str(d), 1 << 30))
    data = merged.read_bytes()
    assert bootsel.copy(data, str(d), "x.uf2") == os.path.join(str(d), "x.uf2")
    assert not d.exists()


def test_waits_for_the_serial_port(tmp_path):
    port = tmp_path / "ttyACM0"
    threading.Timer(0.5, port.write_text, args=("",)).start()
    t0 = time.monotonic()
    assert uf2_flash.wait_for_port(str(port), wait=10) == str(port)
    assert time.monotonic() - t0 >= 0.4
    with pytest.raises(PipkeeperError, match="did not come back as a serial port within 0.3 s"):
        uf2_flash.wait_for_port(str(tmp_path / "never"), wait=0.3)


def test_a_board_that_comes_back_with_another_micropython(merged, drives, board):
    """The port that appears is not the image's MicroPython (here the unix
    port's): the copy did not take, in one line."""
    d = make_drive(drives)
    err = _fails("--uf2", str(merged), "--new-board", "--wait", "5",
                 env={bootsel.ENV_DRIVES: str(drives), "PIPKEEPER_PORT": board.port})
    assert "the board came back with MicroPython" in err and "not the 1.28.0" in err
    assert (d / merged.name).read_bytes() == merged.read_bytes()


def test_micropython_only_copies_the_image_alone(merged, drives):
    d = make_drive(drives)
    err = _fails("--uf2", str(merged), "--micropython-only", "--wait", "0.2",
                 env={bootsel.ENV_DRIVES: str(drives), "PIPKEEPER_PORT": str(drives / "no-port")})
    assert "did not come back as a serial port" in err
    copied = [n for n in os.listdir(d) if n.endswith(".uf2")]
    assert len(copied) == 1
    assert (d / copied[0]).read_bytes() == images.safe_order(PICO_UF2.read_bytes())
