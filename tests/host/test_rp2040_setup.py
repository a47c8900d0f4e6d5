"""What `sim --rp2040` needs, and the one-line errors when it is missing:
Node.js, the boot ROM, a MicroPython image that is one (UF2 or raw)."""

import os
import struct
import subprocess
import sys

import pytest

from pipkeeper.errors import PipkeeperError
from pipkeeper.board import images
from pipkeeper.sim.rp2040 import emulator

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _uf2(chunks, family=images.RP2040_FAMILY):
    out = b""
    for i, (addr, data) in enumerate(chunks):
        head = struct.pack("<8I", images.UF2_MAGIC[0], images.UF2_MAGIC[1], 0x2000, addr,
                           len(data), i, len(chunks), family)
        out += head + data.ljust(476, b"\0") + struct.pack("<I", images.UF2_MAGIC[2])
    return out


def test_uf2_blocks_become_the_flash_image():
    data = _uf2([(0x10000000, b"A" * 256), (0x10000200, b"B" * 256)])
    flat = images.uf2_to_bin(data)
    assert flat[:256] == b"A" * 256
    assert flat[256:512] == b"\xff" * 256          # a gap stays erased
    assert flat[512:768] == b"B" * 256


def test_a_uf2_for_another_chip_is_refused():
    data = _uf2([(0x10000000, b"A" * 256)], family=0xADA52840)
    with pytest.raises(PipkeeperError, match="not for the RP2040"):
        images.uf2_to_bin(data, "nrf.uf2")


def bootable(rest=b""):
    """The smallest flash contents the RP2040 boot ROM would start: a boot
    stage 2 (252 bytes and their CRC32), a vector table (stack at the top
    of SRAM, reset handler in flash), then ``rest``."""
    boot2 = b"\x00" * 252
    return (boot2 + struct.pack("<I", images.boot2_crc(boot2))
            + struct.pack("<2I", 0x20042000, 0x100001F7) + b"\x00" * 248 + rest)


def test_the_boot_roms_crc32():
    """CRC-32/MPEG-2's check value (the CRC of "123456789"), and a
    real boot stage 2's."""
    assert images.boot2_crc(b"123456789") == 0x0376E6E7
    assert images.rp2040_problem(bootable()) is None


@pytest.mark.parametrize("content, message", [
    (b"\x00" * 100, "not an RP2040 flash image"),
    (b"\x00" * 4096, "no boot stage 2"),
    (bootable()[:252] + b"\x00\x00\x00\x01" + bootable()[256:], "CRC32 does not check"),
    (bootable()[:256] + struct.pack("<2I", 0x10040000, 0x100001F7) + b"\x00" * 4096,
     "does not start a program in flash"),
    (bootable()[:256] + struct.pack("<2I", 0x20042000, 0x200001F7) + b"\x00" * 4096,
     "does not start a program in flash"),
    (b"\x7fELF\x01\x01\x01" + b"\x00" * 4096, "is an ELF file"),
    (bootable(b"\x00" * 4096), "does not look like MicroPython"),
    (b"UF2\n" + b"\x00" * 508, "no UF2 magic"),
])
def test_a_file_that_is_not_micropython_is_one_line(tmp_path, content, message):
    p = tmp_path / "fw.bin"
    p.write_bytes(content)
    with pytest.raises(PipkeeperError, match=message):
        images.load_firmware(str(p))


def test_the_version_is_read_from_the_image(tmp_path):
    p = tmp_path / "fw.bin"
    p.write_bytes(bootable(b"\0" * 1024 + b"MicroPython v1.23.0 on 2024-06-02" + b"\0" * 1024))
    assert images.load_firmware(str(p)).version == (1, 23, 0)


def test_no_firmware_named(monkeypatch):
    monkeypatch.delenv(images.ENV_FIRMWARE, raising=False)
    with pytest.raises(PipkeeperError, match="name a MicroPython image"):
        images.load_firmware(None)


def test_a_missing_boot_rom(tmp_path, monkeypatch):
    monkeypatch.delenv(images.ENV_BOOTROM, raising=False)
    with pytest.raises(PipkeeperError, match="no boot ROM at"):
        images.find_bootrom(str(tmp_path / "nope.bin"))
    small = tmp_path / "rom.bin"
    small.write_bytes(b"\0" * 100)
    with pytest.raises(PipkeeperError, match="is not the RP2040 boot ROM"):
        images.find_bootrom(str(small))


def test_no_node(monkeypatch):
    monkeypatch.delenv("PIPKEEPER_NODE", raising=False)
    monkeypatch.setattr(emulator.shutil, "which", lambda name: None)
    with pytest.raises(PipkeeperError, match="needs Node.js"):
        emulator.node_binary()


def test_the_cli_says_it_in_one_line(tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([ROOT, os.path.join(ROOT, "host")])
    r = subprocess.run([sys.executable, "-m", "pipkeeper", "sim", "--rp2040", str(tmp_path / "none.uf2"),
                        "--dir", str(tmp_path / "b"), "-q"],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 1
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pipkeeper: cannot read the firmware"), r.stderr


def test_the_emulator_is_pinned_with_a_lock_file():
    import json
    pkg = json.loads((emulator.JS_DIR / "package.json").read_text())
    lock = json.loads((emulator.JS_DIR / "package-lock.json").read_text())
    version = pkg["dependencies"]["rp2040js"]
    assert version[0].isdigit()                        # an exact version, not a range
    assert lock["packages"]["node_modules/rp2040js"]["version"] == version
    assert lock["packages"]["node_modules/rp2040js"]["integrity"].startswith("sha512-")
