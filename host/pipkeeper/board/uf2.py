"""One file from a blank board to a scorer: a UF2 holding an official
MicroPython image and, where the rp2 port keeps its filesystem, a LittleFS
image with the scorer already on it.

A new owner then needs no serial step before the first game: hold BOOTSEL,
drag the file onto the RPI-RP2 drive, and the board boots into the scorer.

What goes in the filesystem is decided by ``flash.layout``, the same call
``pipkeeper flash`` makes, compiled by the same cached mpy-cross for the
image's MicroPython, plus /board.txt naming the build (the firmware takes
its pins from that profile, and ``flash`` reads it back): so a ``pipkeeper
flash`` afterwards finds every file already there, byte for byte.

Where the filesystem is and how LittleFS must be configured for MicroPython
to mount it come from ``board.flashfs.BUILDS`` (one table, cited from
MicroPython's and Pimoroni's sources, that also serves the emulated
board); the image's own binary info must agree with it. The UF2 covers the
whole filesystem region, not only the blocks in use: a block left as it
was could hold an older LittleFS commit whose higher revision would win
over ours when MicroPython mounts it.
"""

import os
from pathlib import Path

from pipkeeper.errors import PipkeeperError
from pipkeeper.board import flashfs, images

BOARD_FILE = "/board.txt"

# .mpy version (MPY_VERSION, MPY_SUB_VERSION) of each MicroPython release the
# scorer runs on (micropython py/persistentcode.h at tags v1.23.0 to
# v1.28.0); mpy-cross names its own release as well (mpy_cross_release).
MPY_OF_RELEASE = {
    (1, 23): (6, 3), (1, 24): (6, 3), (1, 25): (6, 3),
    (1, 26): (6, 3), (1, 27): (6, 3), (1, 28): (6, 3),
}
ARMV6M = 4          # the RP2040's Cortex-M0+ in sys.implementation._mpy (link.BoardInfo.ARCHS)


class Image:
    """A MicroPython image for the RP2040, checked: its Firmware, the
    filesystem Geometry of its build, and the bytes below the filesystem."""

    def __init__(self, path, firmware, geometry, chunks=None):
        self.path = path
        self.name = os.path.basename(path)
        self.firmware = firmware
        self.geometry = geometry
        self.chunks = chunks          # {offset: bytes} when read from a UF2

    @property
    def version_text(self):
        return ".".join(str(v) for v in self.firmware.version)

    def code(self):
        """The image's bytes below the filesystem (trailing erased bytes
        left out)."""
        return self.firmware.data[:self.geometry.offset].rstrip(b"\xff")


class Merged:
    """What ``make`` built: the UF2's bytes and what they hold."""

    def __init__(self, image, board, items, fs_files, data):
        self.image = image
        self.board = board
        self.items = items            # flash.Item of the scorer (and /board.txt)
        self.fs_files = fs_files      # {board path: bytes} of the filesystem
        self.data = data

    def as_dict(self, out=None):
        g = self.image.geometry
        return {
            "file": str(out) if out else None, "size": len(self.data),
            "micropython": self.image.version_text, "build": g.build, "board": self.board,
            "image_bytes": len(self.image.code()),
            "fs_offset": g.offset, "fs_bytes": g.size,
            "files": [{"file": i.remote, "size": len(i.data)} for i in self.items],
        }


def read_image(path):
    """The MicroPython image at ``path`` (.uf2 or .bin) as an Image, or
    one line saying why it cannot be one we build for."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise PipkeeperError("cannot read {}: {}".format(path, exc.strerror or exc))
    chunks = None
    if raw[:4] == b"UF2\n":
        chunks = images.uf2_chunks(raw, p.name)
        _check_complete(raw, p.name)
    fw = images.load_firmware(str(p))
    _check_whole(fw.data, p.name)
    named = images.board_name(fw.data)
    if named is None:
        raise PipkeeperError("{} does not say which board it is for (no \"<board> with RP2040\" "
                             "banner): use MicroPython's own image for your board".format(p.name))
    board, chip = named
    if chip != "RP2040":
        raise PipkeeperError("{} is MicroPython for the {} ({}), not for the RP2040".format(
            p.name, board, chip))
    geometry = flashfs.for_board_name(board)
    if geometry is None:
        raise PipkeeperError("{} is MicroPython for the {}, a board pipkeeper has no filesystem layout "
                             "for; use the image for {}".format(
                                 p.name, board, ", ".join(g.build for g in flashfs.BUILDS)))
    declared = images.declared_block_devices(fw.data).get("MicroPython")
    if declared and declared != (geometry.offset, geometry.size):
        raise PipkeeperError(
            "{} keeps its filesystem at 0x{:X} ({} KB), not where {} builds keep it (0x{:X}, {} KB): "
            "a custom build pipkeeper cannot lay a filesystem out for".format(
                p.name, declared[0], declared[1] // 1024, geometry.build, geometry.offset,
                geometry.size // 1024))
    image = Image(str(p), fw, geometry, chunks)
    _check_version(image)
    return image


def _check_complete(raw, name):
    """Every block a UF2 file counts is in it (a download cut short at a
    block boundary is still a multiple of 512 bytes)."""
    import struct
    seen = set()
    total = 0
    for off in range(0, len(raw), 512):
        _m0, _m1, flags, _addr, _size, number, count, _family = struct.unpack_from("<8I", raw, off)
        if flags & 1:
            continue
        seen.add(number)
        total = max(total, count)
    if len(seen) != total or (seen and max(seen) != total - 1):
        raise PipkeeperError("{} is truncated: it holds {} of its {} blocks; download it again".format(
            name, len(seen), total))


def _check_whole(data, name):
    """A raw image cut short loses its end, where the data the boot code
    copies to RAM lies: binary info says where that is."""
    end = images.binary_end(data)
    if end is not None and end > len(data):
        raise PipkeeperError("{} is truncated: {} bytes of its {}; download it again".format(
            name, len(data), end))


def mpy_cross_release():
    """(major, minor) of the MicroPython release the installed mpy-cross
    comes from, or None."""
    import re
    from pipkeeper.board import flash
    m = re.search(r"MicroPython v(\d+)\.(\d+)", flash.mpy_cross_banner())
    return (int(m.group(1)), int(m.group(2))) if m else None


def mpy_target(image):
    """(mpy-cross arguments, description) for the image's MicroPython, or
    one line saying why we cannot build for it."""
    from pipkeeper.board import flash
    from pipkeeper.board.link import BoardInfo
    release = tuple(image.firmware.version[:2])
    known = dict(MPY_OF_RELEASE)
    ours = flash.mpy_cross_version()
    theirs_release = mpy_cross_release()
    if theirs_release:
        known.setdefault(theirs_release, ours)
    mpy = known.get(release)
    if mpy is None:
        newest = max(known)
        raise PipkeeperError(
            "{} holds MicroPython {}, newer than pipkeeper knows the .mpy format of (up to {}.{}): "
            "use MicroPython {}.{}, or flash it and run `pipkeeper flash` over USB serial, which "
            "asks the board".format(image.name, image.version_text, newest[0], newest[1],
                                    newest[0], newest[1]))
    info = BoardInfo("rp2", image.firmware.version, mpy[0] | mpy[1] << 8 | ARMV6M << 10, "", 0, 0)
    return flash.check_target(info)


def _check_version(image):
    from pipkeeper.board import flash
    if tuple(image.firmware.version[:2]) < flash.MIN_MICROPYTHON:
        raise PipkeeperError("{} holds MicroPython {}; the scorer needs {} or newer: download a "
                             "newer one for your board".format(
                                 image.name, image.version_text,
                                 ".".join(str(v) for v in flash.MIN_MICROPYTHON)))


def default_board(geometry):
    """The profile a build is most likely for: the Badger 2040 (W)."""
    return "badger2040w" if "badger2040w" in geometry.boards else "badger2040"


def check_board(image, board):
    """The profile name ``board`` (default: the build's Badger), checked
    against the boards the image's build is for."""
    from hardware import profiles
    board = board or default_board(image.geometry)
    try:
        profile = profiles.load(board)
    except ValueError:
        raise PipkeeperError("no board build {!r}; known: {}".format(board, ", ".join(profiles.NAMES)))
    if profile.MCU_BOARD not in image.geometry.boards:
        fits = [g.build for g in flashfs.BUILDS if profile.MCU_BOARD in g.boards]
        raise PipkeeperError("{} is MicroPython for the {}; the {} build needs the image for {}".format(
            image.name, image.geometry.name, board, " or ".join(fits)))
    return board


def check_fits(image):
    """The image ends before its filesystem begins. Data past that point is
    either the image running into it (its binary info says it ends beyond,
    or its bytes run on without a gap) or a filesystem it already carries
    (Pimoroni's "-with-badger-os" files)."""
    g = image.geometry
    data = image.firmware.data
    beyond = data[g.offset:].rstrip(b"\xff")
    below = data[g.offset - images.UF2_PAYLOAD:g.offset]
    end = images.binary_end(data) or 0
    if end > g.offset or (beyond and below.strip(b"\xff")):
        raise PipkeeperError(
            "{} is too large: it writes flash up to 0x{:08X}, into the filesystem at 0x{:08X}".format(
                image.name, images.FLASH_BASE + max(end, g.offset + len(beyond)),
                images.FLASH_BASE + g.offset))
    if beyond:
        raise PipkeeperError(
            "{} already carries a filesystem (as Pimoroni's -with-badger-os files do): use the plain "
            "MicroPython image for the board".format(image.name))


def make(image_path, board=None, cache=None):
    """A Merged UF2 for the image at ``image_path`` and the ``board`` build."""
    from pipkeeper.board import flash
    image = read_image(image_path)
    own = image.firmware.scorer
    if own is not None:
        raise PipkeeperError("{} is the scorer's own image ({}): the scorer is frozen into it, so it "
                             "needs no filesystem of ours; drag it onto the RPI-RP2 drive as it is "
                             "(or `pipkeeper flash --uf2 {}`)".format(image.name, own.describe(), image.name))
    board = check_board(image, board)
    check_fits(image)
    code = image.code()
    g = image.geometry
    args, _target = mpy_target(image)
    items, _managed = flash.layout(args, board, image.firmware.pimoroni, cache=cache)
    items.append(flash.Item(BOARD_FILE, (board + "\n").encode()))
    files = {i.remote: i.data for i in items}
    fs = flashfs.build_image(files, g)
    data = images.bin_to_uf2([(0, code), (g.offset, fs)])
    return Merged(image, board, items, files, data)


def default_output(image_path):
    stem = Path(image_path).name.rsplit(".", 1)[0]
    return Path(stem + "-pipkeeper.uf2")


class Contents:
    """What a UF2 file for ``flash --uf2`` writes: the image, and whether
    (and what) it writes into the filesystem region."""

    def __init__(self, image):
        self.image = image
        g = image.geometry
        self.fs_chunks = {a: d for a, d in image.chunks.items() if a + len(d) > g.offset}
        self.has_fs = bool(self.fs_chunks)

    def micropython_only(self):
        """The UF2 of the image alone: every block below the filesystem."""
        g = self.image.geometry
        return images.bin_to_uf2([(a, d) for a, d in self.image.chunks.items()
                                  if a + len(d) <= g.offset])

    def fs_files(self):
        """{board path: bytes} of the filesystem the UF2 writes (empty when
        it writes none, or not a whole one)."""
        g = self.image.geometry
        region = bytearray(b"\xff" * g.size)
        for a, d in self.fs_chunks.items():
            region[a - g.offset:a - g.offset + len(d)] = d
        fs = flashfs.mount_bytes(bytes(region), g)
        return flashfs.files(fs) if fs is not None else {}


def contents(path):
    """The Contents of the UF2 file at ``path``."""
    image = read_image(path)
    if image.chunks is None:
        raise PipkeeperError("{} is not a UF2 file: the RPI-RP2 drive takes only UF2 (make one "
                             "with `pipkeeper uf2`)".format(image.name))
    return Contents(image)
