"""A board in BOOTSEL mode: its RPI-RP2 drive, found and written to.

Held in BOOTSEL at power-on (the BOOT/USR button on a Badger), an RP2040
runs its boot ROM, which shows a small USB drive. Its INFO_UF2.TXT names
the chip ("Board-ID: RPI-RP2"); a UF2 file copied onto it is written to
flash block by block, and when the last block is in the board reboots and
the drive goes away. So a drive that vanishes after every byte is written
is the normal end; one that vanishes before is a copy cut short, and the
board is half written.

Where drives are looked for: the folders in $PIPKEEPER_UF2_DRIVES (a list
with the path separator, each a drive itself or a folder of drives; when
set, nothing else), else where the system mounts removable drives.
"""

import errno
import os
import sys

from pipkeeper.errors import PipkeeperError, the_one

ENV_DRIVES = "PIPKEEPER_UF2_DRIVES"
INFO = "INFO_UF2.TXT"
BOARD_ID = "Board-ID: RPI-RP2"     # an RP2040's boot ROM (an RP2350 says RP2350)
_CHUNK = 64 * 1024
_open = open           # how the copy opens its file (a test pulls the drive through it)


def search_roots():
    """Folders that are, or hold, mounted drives."""
    env = os.environ.get(ENV_DRIVES)
    if env:
        return [p for p in env.split(os.pathsep) if p]
    if sys.platform == "darwin":
        return ["/Volumes"]
    if sys.platform.startswith("win"):
        return ["%s:\\" % c for c in "DEFGHIJKLMNOPQRSTUVWXYZ"]
    user = os.environ.get("USER") or ""
    return [os.path.join("/media", user), os.path.join("/run/media", user), "/media", "/mnt"]


def _info(folder):
    try:
        with open(os.path.join(folder, INFO), "r", errors="replace") as f:
            return f.read(1024)
    except OSError:
        return None


def drives():
    """The mounted RPI-RP2 drives (folders), each once."""
    found = []
    for root in search_roots():
        candidates = [root]
        try:
            candidates += sorted(os.path.join(root, n) for n in os.listdir(root))
        except OSError:
            pass
        for c in candidates:
            text = _info(c)
            if text is not None and BOARD_ID in text:
                real = os.path.realpath(c)
                if real not in [os.path.realpath(f) for f in found]:
                    found.append(c)
    return found


def find_drive():
    """The one RPI-RP2 drive, or why there is none to use."""
    found = drives()
    return the_one(
        found,
        "no board in BOOTSEL mode: hold BOOTSEL (BOOT/USR on a Badger) while plugging it in, "
        "until the RPI-RP2 drive appears (or name its folder in ${})".format(ENV_DRIVES),
        "several RPI-RP2 drives ({}); leave one board plugged in".format(", ".join(found)))


def wait_for_drive(wait):
    """The RPI-RP2 drive of a board just told to restart into BOOTSEL, once
    it shows up (``find_drive``'s error after ``wait`` seconds)."""
    import time
    deadline = time.monotonic() + wait
    while True:
        try:
            return find_drive()
        except PipkeeperError as exc:
            if "several" in exc.message or time.monotonic() > deadline:
                raise
        time.sleep(0.2)


def _vanished(exc):
    return isinstance(exc, OSError) and exc.errno in (
        errno.ENOENT, errno.EIO, errno.ENODEV, errno.ENXIO, errno.ESTALE, errno.ENOTDIR, None)


def copy(data, drive, name, progress=None):
    """Write ``data`` as ``drive``/``name``. The drive going away once every
    byte is written is the board rebooting into what it got; before that,
    a copy cut short."""
    target = os.path.join(drive, name)
    written = 0
    try:
        f = _open(target, "wb")
    except OSError as exc:
        if _vanished(exc) and not os.path.isdir(drive):
            raise PipkeeperError("the RPI-RP2 drive {} went away before the copy began; "
                                 "put the board in BOOTSEL mode again".format(drive))
        raise PipkeeperError("cannot write to the RPI-RP2 drive: {}".format(exc.strerror or exc))
    try:
        while written < len(data):
            block = data[written:written + _CHUNK]
            f.write(block)
            f.flush()
            written += len(block)
            if progress is not None:
                progress.advance(len(block))
        try:
            os.fsync(f.fileno())
        except (OSError, AttributeError, ValueError):
            pass       # the board took the last block and rebooted: done
    except OSError as exc:
        if written < len(data):
            raise PipkeeperError(
                "the RPI-RP2 drive went away after {:,} of {:,} bytes ({}): the board is half "
                "written; hold BOOTSEL, plug it in again and run the same command".format(
                    written, len(data), exc.strerror or exc))
    finally:
        try:
            f.close()
        except OSError:
            pass
    return target
