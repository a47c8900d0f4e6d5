"""The board's filesystem read straight from an emulated flash image, with
littlefs-python (the LittleFS C library, as MicroPython itself uses).

Geometry of the rp2 port on a 2 MB board (the Pico and the Badger 2040, both
upstream MicroPython and Pimoroni's build): the filesystem is the last
1,408 KB of flash, from offset 0xA0000 (ports/rp2/boards/RPI_PICO/
mpconfigboard.h: MICROPY_HW_FLASH_STORAGE_BYTES = 1408 * 1024; ports/rp2/
rp2_flash.c puts it at the end of flash), in 4 KB erase blocks, mounted by
``vfs.VfsLfs2(bdev)`` with its default read, prog and lookahead sizes of
32 (extmod/vfs_lfs.c).
"""

import os

FS_OFFSET = 0xA0000
BLOCK_SIZE = 4096
BLOCK_COUNT = 352
LFS_SIZES = 32


def _new_fs():
    from littlefs import LittleFS
    return LittleFS(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, read_size=LFS_SIZES,
                    prog_size=LFS_SIZES, lookahead_size=LFS_SIZES, mount=False)


def mount(image_path):
    """A littlefs.LittleFS over (a copy of) the image's filesystem, or None
    when it holds none (a blank flash MicroPython has not formatted yet)."""
    from littlefs import LittleFSError
    with open(image_path, "rb") as f:
        f.seek(FS_OFFSET)
        data = f.read(BLOCK_SIZE * BLOCK_COUNT)
    if len(data) < BLOCK_SIZE * BLOCK_COUNT:
        return None
    fs = _new_fs()
    fs.context.buffer = bytearray(data)
    try:
        fs.mount()
    except LittleFSError:
        return None
    return fs


def write_files(image_path, files, remove=()):
    """Put ``files`` ({board path: bytes}) on the image's filesystem and
    delete the paths in ``remove`` (the board must be off: the emulator
    reloads the image with ``Emulator.load``). A flash MicroPython has not
    formatted yet is formatted here, as MicroPython would."""
    fs = mount(image_path)
    if fs is None:
        fs = _new_fs()
        fs.format()
        fs.mount()
    for path in remove:
        try:
            fs.remove(path)
        except Exception:
            pass
    for path, data in files.items():
        parts = path.strip("/").split("/")
        for i in range(1, len(parts)):
            d = "/" + "/".join(parts[:i])
            try:
                fs.mkdir(d)
            except Exception:
                pass
        with fs.open(path, "wb") as f:
            f.write(data)
    fs.unmount()
    with open(image_path, "r+b") as f:
        f.seek(FS_OFFSET)
        f.write(bytes(fs.context.buffer))


def copy_tree(image_path, folder, under="/"):
    """Every file below the host ``folder`` onto the image, at ``under``."""
    files = {}
    for dirpath, _dirs, names in os.walk(folder):
        for n in names:
            full = os.path.join(dirpath, n)
            rel = os.path.relpath(full, folder).replace(os.sep, "/")
            with open(full, "rb") as f:
                files[under.rstrip("/") + "/" + rel] = f.read()
    write_files(image_path, files)


def read(image_path, path):
    """A file's bytes from the image, or None."""
    fs = mount(image_path)
    if fs is None:
        return None
    try:
        with fs.open(path, "rb") as f:
            return f.read()
    except Exception:
        return None


def listdir(image_path, path="/"):
    fs = mount(image_path)
    if fs is None:
        return []
    try:
        return sorted(fs.listdir(path))
    except Exception:
        return []


def has_scorer(image_path):
    """Whether ``pipkeeper flash`` has put the scorer on this flash (its
    bundle, or the modules of the older one-file-each layout)."""
    fs = mount(image_path)
    if fs is None:
        return False
    for path in ("/lib/pipkeeper.bundle", "/lib/firmware"):
        try:
            fs.stat(path)
            return True
        except Exception:
            pass
    return False
