# The scorer's own image mounts its flash here: frozen in place of the rp2
# port's modules/_boot.py (manifest.py beside this file), which formats the
# flash whenever mounting it fails. One flash LittleFS cannot mount, for
# whatever reason (a fault of the chip, a bug), would then lose every game
# on the board at a power-on, and say nothing.
#
# Here the flash is formatted only when it holds nothing: every block past
# LittleFS's superblock pair still erased (a new board, or one whose first
# format was cut short). A flash that holds data and does not mount, twice,
# is left as it is and nothing is mounted: the scorer then cannot read its
# flash and says so on its error screen ("could not read or write its
# flash": firmware/storage.py raises rather than take a flash it cannot
# read for one without a game), and the bytes of the games wait, untouched,
# for the laptop (issue 25).
import vfs
import rp2


def _mounted(bdev):
    for _ in range(2):
        try:
            vfs.mount(vfs.VfsLfs2(bdev, progsize=256), "/")
            return True
        except Exception:
            pass
    return False


def _blank(bdev):
    ff = b"\xff" * 256
    buf = bytearray(256)
    for block in range(2, bdev.ioctl(4, 0)):
        for off in range(0, 4096, 256):
            bdev.readblocks(block, buf, off)
            if buf != ff:
                return False
    return True


bdev = rp2.Flash()
if not _mounted(bdev) and _blank(bdev):
    vfs.VfsLfs2.mkfs(bdev, progsize=256)
    vfs.mount(vfs.VfsLfs2(bdev, progsize=256), "/")

del vfs, rp2, bdev, _mounted, _blank
