"""Firmware images for the RP2040: reading and writing a ``.uf2``, reading
a raw ``.bin``, what MicroPython an image holds and for which board, and
the boot ROM the emulator needs.

A UF2 file is 512-byte blocks, each carrying up to 256 bytes for one flash
address (the format of Microsoft's uf2 spec, which the RP2040 boot ROM
takes); a ``.bin`` is the flash contents from address 0x10000000.
"""

import os
import re
import struct
from pathlib import Path

from pipkeeper.errors import PipkeeperError
from pipkeeper.wording import counted

FLASH_BASE = 0x10000000
UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
UF2_FAMILY_PRESENT = 0x2000      # flag: the block's word 7 is a family id
UF2_PAYLOAD = 256                # what the RP2040 boot ROM takes per block
RP2040_FAMILY = 0xE48BFF56
ENV_FIRMWARE = "PIPKEEPER_RP2_FIRMWARE"
ENV_BOOTROM = "PIPKEEPER_RP2_BOOTROM"


class Firmware:
    def __init__(self, path, data):
        self.path = path
        self.data = data
        self.version = micropython_version(data)
        from pipkeeper.board import image_identity as identity
        self.scorer = identity.of_image(data)     # the scorer's own image: which scorer
        # (the scorer's own image names badger2040 and wakeup too: its profiles)
        self.pimoroni = self.scorer is None and b"badger2040" in data and b"wakeup" in data

    @property
    def kind(self):
        if self.scorer is not None:
            return "pipkeeper"
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
    chunks = uf2_chunks(raw, name)
    end = max(a + len(d) for a, d in chunks.items())
    out = bytearray(b"\xff" * end)
    for a, d in chunks.items():
        out[a:a + len(d)] = d
    return bytes(out)


def uf2_chunks(raw, name="the file"):
    """{flash offset: bytes} of every block a UF2 file writes."""
    if len(raw) % 512:
        raise PipkeeperError("%s is cut short, or not a UF2 file: its size, %s, is not a "
                             "multiple of 512" % (name, counted(len(raw), "byte")))
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
    return chunks


def flash_after_uf2(raw, flash=None, size=2 * 1024 * 1024):
    """The flash after the boot ROM has written a UF2 file onto ``flash``
    (bytes; a blank, erased chip of ``size`` when None): what a board holds
    once the file is dragged onto its RPI-RP2 drive."""
    out = bytearray(flash) if flash is not None else bytearray(b"\xff" * size)
    for offset, data in uf2_chunks(raw).items():
        if offset + len(data) > len(out):
            raise PipkeeperError("the UF2 writes past the end of the %d-byte flash" % len(out))
        out[offset:offset + len(data)] = data
    return bytes(out)


SECTOR = 4096                    # what the boot ROM erases before it writes a block


def bin_to_uf2(parts):
    """A UF2 file (bytes) writing ``parts``, [(flash offset, bytes)], in
    256-byte blocks with the RP2040's family id (the reverse of
    uf2_chunks). Parts must start on a 256-byte boundary and not overlap.

    Made for the way the boot ROM writes a UF2 (pico-bootrom-rp2040,
    virtual_disk.c; modelled in sim/rp2040/js/emulator.mjs, romUf2Block):
    it erases a 4 KB sector before the first block whose *number* falls in
    that sector's group of 16, and writes the blocks in the order the file
    holds them. So:

    - every sector a part touches is written whole, 16 blocks numbered in
      address order (pages the parts leave out are 0xFF, as the erase
      leaves them anyway): block numbers then step with addresses, and
      each group of 16 is one sector, which the ROM erases exactly once.
      Numbered straight through instead, a second part that starts in the
      middle of a group would land on a sector the ROM never erased;
    - the block at address 0, boot stage 2, comes last in the file: the
      ROM erases sector 0 with its second block, first in the file, and
      programs stage 2 once every other block is in. A power cut or a
      cable pulled anywhere in the copy leaves a flash whose stage 2 is
      blank or half written; its CRC fails at the next power-on and the
      ROM starts in BOOTSEL, where the next copy finishes the job, rather
      than running half of one image and half of another (which might
      format the filesystem). A UF2 that does not write address 0 keeps
      address order."""
    pages = {}
    for offset, data in sorted(parts, key=lambda p: p[0]):
        if offset % UF2_PAYLOAD:
            raise PipkeeperError("a UF2 part must start on a 256-byte boundary (0x%X)" % offset)
        for i in range(0, len(data), UF2_PAYLOAD):
            if offset + i in pages:
                raise PipkeeperError("two parts of the UF2 overlap at 0x%08X" % (FLASH_BASE + offset + i))
            page = data[i:i + UF2_PAYLOAD]
            pages[offset + i] = page + b"\xff" * (UF2_PAYLOAD - len(page))
    blank = b"\xff" * UF2_PAYLOAD
    per_sector = SECTOR // UF2_PAYLOAD
    addresses = [s * SECTOR + k * UF2_PAYLOAD for s in sorted({a // SECTOR for a in pages})
                 for k in range(per_sector)]
    numbered = list(enumerate(addresses))
    if addresses and addresses[0] == 0:
        numbered = numbered[1:] + numbered[:1]      # boot stage 2 last
    out = bytearray()
    for n, offset in numbered:
        out += struct.pack("<8I", UF2_MAGIC[0], UF2_MAGIC[1], UF2_FAMILY_PRESENT,
                           FLASH_BASE + offset, UF2_PAYLOAD, n, len(addresses), RP2040_FAMILY)
        out += pages.get(offset, blank) + bytes(476 - UF2_PAYLOAD) + struct.pack("<I", UF2_MAGIC[2])
    return bytes(out)


def safe_order(raw, name="the file"):
    """A UF2 file's blocks as ``bin_to_uf2`` lays them out (whole sectors,
    boot stage 2 last): the same flash once written, safe to cut."""
    return bin_to_uf2(list(uf2_chunks(raw, name).items()))


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
    is_uf2 = raw[:4] == b"UF2\n"
    data = uf2_to_bin(raw, p.name) if is_uf2 else raw
    if len(data) < 0x200 or len(data) > 2 * 1024 * 1024:
        raise PipkeeperError("%s is not an RP2040 flash image (%s)" % (p.name, counted(len(data), "byte")))
    check_rp2040_image(data, p.name, is_uf2)
    fw = Firmware(str(p), data)
    if fw.version is None:
        raise PipkeeperError("%s does not look like MicroPython for the RP2040 (no version string)" % p.name)
    return fw


# What the RP2040 boot ROM runs from flash (RP2040 datasheet 2.8.1, "Flash
# boot"): it reads the first 256 bytes, the boot stage 2, and runs them only
# if their last 4 bytes are the CRC32 of the first 252 (polynomial
# 0x04C11DB7, initial value 0xFFFFFFFF, bits not reflected, no final XOR);
# boot stage 2 then starts the image through the vector table after it, at
# 0x10000100: the initial stack pointer (in SRAM) and the reset handler (in
# flash, a Thumb address).
BOOT2_BYTES = 256
VECTORS = 0x100
SRAM = (0x20000000, 0x20042000)     # 264 KB; the stack starts at its top at most
XIP = (0x10000000, 0x11000000)      # the flash as the processor sees it (16 MB)


def boot2_crc(data):
    """The boot ROM's CRC32 of ``data`` (CRC-32/MPEG-2)."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7 if crc & 0x80000000 else crc << 1) & 0xFFFFFFFF
    return crc


def rp2040_problem(data, uf2=False):
    """Why the flash contents ``data`` (from 0x10000000; ``uf2``: as a UF2
    file writes them) are not an image an RP2040 boots, or None: a boot
    stage 2 whose CRC32 checks, then a vector table with its stack in SRAM
    and its reset handler in flash."""
    if data[:4] == b"\x7fELF":
        return ("{} (for debuggers), not a flash image: use MicroPython's .uf2 (or .bin) for the "
                "board".format("writes an ELF file onto the flash" if uf2 else "is an ELF file"))
    if len(data) < VECTORS + 8:
        return "is not an RP2040 flash image (%s)" % counted(len(data), "byte")
    if boot2_crc(data[:BOOT2_BYTES - 4]) != struct.unpack_from("<I", data, BOOT2_BYTES - 4)[0]:
        return ("is not an RP2040 flash image: its first 256 bytes are no boot stage 2 (their "
                "CRC32 does not check), so the boot ROM would not start it")
    stack, reset = struct.unpack_from("<2I", data, VECTORS)
    if not SRAM[0] < stack <= SRAM[1] or not (XIP[0] <= reset < XIP[1] and reset & 1):
        return ("is not an RP2040 flash image: its vector table (stack 0x%08X, reset 0x%08X) "
                "does not start a program in flash" % (stack, reset))
    return None


def check_rp2040_image(data, name, uf2=False):
    """PipkeeperError in one line unless ``data`` is an image an RP2040
    boots: anything else copied onto a board would wipe it and not start."""
    problem = rp2040_problem(data, uf2)
    if problem:
        raise PipkeeperError("%s %s" % (name, problem))


_VERSION = re.compile(rb"MicroPython v(\d+)\.(\d+)\.(\d+)")


def micropython_version(data):
    """(major, minor, micro) of the MicroPython in an image, or None."""
    m = _VERSION.search(data)
    return tuple(int(x) for x in m.groups()) if m else None


_BOARD = re.compile(rb"; ([ -:<-~]{1,60}) with (RP2\d{3})\x00")


def board_name(data):
    """(board, chip) from the build's banner, "MicroPython v1.28.0 on
    <date>; Raspberry Pi Pico with RP2040", e.g. ("Raspberry Pi Pico",
    "RP2040"); None when the image has no such banner."""
    m = _BOARD.search(data)
    return (m.group(1).decode("ascii"), m.group(2).decode("ascii")) if m else None


# pico-sdk's binary info (src/common/pico_binary_info/include/pico/
# binary_info/defines.h and structure.h): a header in the first 256 bytes
# after boot2 points at a list of entries; a "block device" entry (type 7)
# is where the image says its filesystem is (micropython ports/rp2/
# rp2_flash.c: bi_decl(bi_block_device("MicroPython", ...))).
_BI_MARKER = (0x7188EBF2, 0xE71AA390)
_BI_BLOCK_DEVICE = 7


def _word(data, offset):
    return struct.unpack_from("<I", data, offset)[0] if 0 <= offset <= len(data) - 4 else 0


def _binary_info(data):
    """(entries start, end, [(flash source, RAM start, RAM end)]) from the
    binary info header, or None. The copy table says where in flash the
    data the boot code copies to RAM is (entries may point into it)."""
    for off in range(0x100, 0x200, 4):
        if _word(data, off) == _BI_MARKER[0] and _word(data, off + 16) == _BI_MARKER[1]:
            start, end, table = (_word(data, off + 4), _word(data, off + 8), _word(data, off + 12))
            maps = []
            p = table - FLASH_BASE
            while _word(data, p) and len(maps) < 16:
                maps.append((_word(data, p), _word(data, p + 4), _word(data, p + 8)))
                p += 12
            return start, end, maps
    return None


def binary_end(data):
    """Where the image's last byte should be (flash offset), from its
    binary info: the end of the data copied to RAM at boot, which the
    linker puts last. None for an image without binary info."""
    info = _binary_info(data)
    if info is None:
        return None
    start, end, maps = info
    ends = [end - FLASH_BASE] + [src - FLASH_BASE + hi - lo for src, lo, hi in maps if hi > lo]
    return max(ends)


def declared_block_devices(data):
    """{name: (flash offset, size)} of the block devices the image's binary
    info declares (empty when it has none)."""
    def word(offset):
        return _word(data, offset)

    info = _binary_info(data)
    if info is None:
        return {}
    start, end, maps = info

    def flash_offset(address):
        for source, lo, hi in maps:
            if lo <= address < hi:
                return source + address - lo - FLASH_BASE
        return address - FLASH_BASE

    def text(address):
        at = flash_offset(address)
        stop = data.find(b"\x00", at, at + 64)
        return data[at:stop].decode("ascii", "replace") if stop > at else ""

    found = {}
    for p in range(start - FLASH_BASE, min(end - FLASH_BASE, start - FLASH_BASE + 4096), 4):
        entry = flash_offset(word(p))
        if word(entry) & 0xFFFF == _BI_BLOCK_DEVICE:
            name, address, size = word(entry + 4), word(entry + 8), word(entry + 12)
            found[text(name)] = (address - FLASH_BASE, size)
    return found


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
