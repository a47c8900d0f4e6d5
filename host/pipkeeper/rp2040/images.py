"""Firmware images for the emulated RP2040: reading a ``.uf2`` or a raw
``.bin``, finding the boot ROM, and what MicroPython an image holds.

A UF2 file is 512-byte blocks, each carrying up to 256 bytes for one flash
address (the format of Microsoft's uf2 spec, which the RP2040 boot ROM
takes); a ``.bin`` is the flash contents from address 0x10000000.
"""

import os
import re
import struct
from pathlib import Path

from pipkeeper.errors import PipkeeperError

FLASH_BASE = 0x10000000
UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
RP2040_FAMILY = 0xE48BFF56
ENV_FIRMWARE = "PIPKEEPER_RP2_FIRMWARE"
ENV_BOOTROM = "PIPKEEPER_RP2_BOOTROM"


class Firmware:
    def __init__(self, path, data):
        self.path = path
        self.data = data
        self.version = micropython_version(data)
        self.pimoroni = b"badger2040" in data and b"wakeup" in data

    @property
    def kind(self):
        return "pimoroni-badger2040" if self.pimoroni else "upstream"


def shared_rp2():
    """``../shared/rp2/`` beside the checkout, where the tests' images are."""
    from pipkeeper.paths import repo_root
    try:
        return repo_root().parent / "shared" / "rp2"
    except PipkeeperError:
        return Path("shared") / "rp2"


def uf2_to_bin(raw, name="the file"):
    """The flash contents a UF2 file writes (from 0x10000000), gaps 0xFF."""
    if len(raw) % 512:
        raise PipkeeperError("%s is not a UF2 file (size %d is not a multiple of 512)" % (name, len(raw)))
    chunks = {}
    for off in range(0, len(raw), 512):
        m0, m1, flags, addr, size, _no, _total, family = struct.unpack_from("<8I", raw, off)
        if (m0, m1) != UF2_MAGIC[:2] or struct.unpack_from("<I", raw, off + 508)[0] != UF2_MAGIC[2]:
            raise PipkeeperError("%s is not a UF2 file (block %d has no UF2 magic)" % (name, off // 512))
        if flags & 1:          # "not main flash": skip
            continue
        if flags & 0x2000 and family != RP2040_FAMILY:
            raise PipkeeperError("%s is not for the RP2040 (UF2 family 0x%08x)" % (name, family))
        if addr < FLASH_BASE or size > 476:
            raise PipkeeperError("%s writes outside the RP2040's flash (0x%08x)" % (name, addr))
        chunks[addr - FLASH_BASE] = raw[off + 32: off + 32 + size]
    if not chunks:
        raise PipkeeperError("%s holds no flash data" % name)
    end = max(a + len(d) for a, d in chunks.items())
    out = bytearray(b"\xff" * end)
    for a, d in chunks.items():
        out[a:a + len(d)] = d
    return bytes(out)


def load_firmware(path=None):
    """The image at ``path`` (or $PIPKEEPER_RP2_FIRMWARE) as a Firmware."""
    path = path or os.environ.get(ENV_FIRMWARE)
    if not path:
        raise PipkeeperError(
            "name a MicroPython image for the Pico: --rp2040 FIRMWARE (.uf2 or .bin) "
            "or $%s" % ENV_FIRMWARE)
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise PipkeeperError("cannot read the firmware %s: %s" % (path, exc.strerror or exc))
    data = uf2_to_bin(raw, p.name) if raw[:4] == b"UF2\n" else raw
    if len(data) < 0x200 or len(data) > 2 * 1024 * 1024:
        raise PipkeeperError("%s is not an RP2040 flash image (%d bytes)" % (p.name, len(data)))
    fw = Firmware(str(p), data)
    if fw.version is None:
        raise PipkeeperError("%s does not look like MicroPython for the RP2040 (no version string)" % p.name)
    return fw


_VERSION = re.compile(rb"MicroPython v(\d+)\.(\d+)\.(\d+)")


def micropython_version(data):
    """(major, minor, micro) of the MicroPython in an image, or None."""
    m = _VERSION.search(data)
    return tuple(int(x) for x in m.groups()) if m else None


def find_bootrom(path=None):
    """The RP2040 boot ROM: ``path``, $PIPKEEPER_RP2_BOOTROM, or the one in
    ../shared/rp2/. It is Raspberry Pi's (BSD-3-Clause); the emulator needs it
    to run anything."""
    candidates = [path, os.environ.get(ENV_BOOTROM)]
    if not path and not os.environ.get(ENV_BOOTROM):
        candidates.append(str(shared_rp2() / "bootrom-rp2040-b1.bin"))
    for c in candidates:
        if not c:
            continue
        if os.path.isfile(c):
            if os.path.getsize(c) != 16384:
                raise PipkeeperError("%s is not the RP2040 boot ROM (it is 16,384 bytes)" % c)
            return os.path.abspath(c)
        if c in (path, os.environ.get(ENV_BOOTROM)):
            raise PipkeeperError("no boot ROM at %s" % c)
    raise PipkeeperError(
        "the emulated RP2040 needs its boot ROM (bootrom-rp2040-b1.bin, 16 KB): "
        "pass --bootrom FILE or set $%s" % ENV_BOOTROM)


def default_firmware():
    """The upstream image the tests use, if ../shared/rp2/ has it."""
    p = shared_rp2() / "firmware-RPI_PICO-v1.28.0.uf2"
    return str(p) if p.is_file() else None
