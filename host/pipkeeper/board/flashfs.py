"""The board's filesystem as bytes: read and written from an emulated flash
image, and built from scratch for a UF2 (pipkeeper.board.uf2), with
littlefs-python (the LittleFS C library, as MicroPython itself uses).

Where the rp2 port keeps its filesystem, and how it mounts it, for each
MicroPython build of a board hardware/profiles/ names (``BUILDS``):

- place and size: the last ``MICROPY_HW_FLASH_STORAGE_BYTES`` of the
  2 MB flash (micropython ports/rp2/rp2_flash.c: MICROPY_HW_FLASH_STORAGE_BASE
  = PICO_FLASH_SIZE_BYTES - MICROPY_HW_FLASH_STORAGE_BYTES; the image
  declares the same range in its binary info, ``bi_block_device``, which
  pipkeeper.board.uf2 checks). 1,408 KB on the Pico (ports/rp2/boards/RPI_PICO/
  mpconfigboard.h, and mpconfigport.h's default) and on Pimoroni's Badger
  2040 build (pimoroni/badger2040 firmware/PIMORONI_BADGER2040/
  mpconfigboard.h); 848 KB on the W boards, whose wireless chip's firmware
  lives in the code space (ports/rp2/boards/RPI_PICO_W/mpconfigboard.h,
  pimoroni/badger2040 firmware/PIMORONI_BADGER2040W/mpconfigboard.h).
  The flash is 2 MB on all four (pico-sdk src/boards/include/boards/pico.h,
  pico_w.h, pimoroni_badger2040.h: PICO_FLASH_SIZE_BYTES).
- blocks: the flash's 4 KB erase sector (rp2_flash.c: BLOCK_SIZE_BYTES =
  FLASH_SECTOR_SIZE).
- mount: ``vfs.VfsLfs2(bdev, progsize=256)`` (ports/rp2/modules/_boot.py,
  frozen into every one of these builds), so prog 256, with VfsLfs2's
  default read and lookahead sizes of 32 (extmod/vfs_lfs.c), and the cache
  and wear settings extmod/vfs_lfsx.c gives LittleFS: cache_size =
  min(block, 4 * max(read, prog)), block_cycles = 100.
"""

import os

FLASH_BYTES = 2 * 1024 * 1024
BLOCK_SIZE = 4096


class Geometry:
    """One MicroPython build's filesystem: where it is and how LittleFS is
    configured to mount it. ``name`` is the board name the build prints in
    its banner (MICROPY_HW_BOARD_NAME); ``boards`` the profiles'
    MCU_BOARD values it is the MicroPython for."""

    read_size = 32
    prog_size = 256
    lookahead_size = 32
    block_cycles = 100
    block_size = BLOCK_SIZE

    def __init__(self, build, name, storage_bytes, boards, flash_bytes=FLASH_BYTES):
        self.build = build
        self.name = name
        self.size = storage_bytes
        self.offset = flash_bytes - storage_bytes
        self.block_count = storage_bytes // BLOCK_SIZE
        self.boards = boards

    @property
    def cache_size(self):
        return min(self.block_size, 4 * max(self.read_size, self.prog_size))

    def new_fs(self, buffer=None):
        """An unmounted littlefs.LittleFS with this geometry over ``buffer``
        (the filesystem's bytes; a blank, erased one when None)."""
        from littlefs import LittleFS
        fs = LittleFS(block_size=self.block_size, block_count=self.block_count,
                      read_size=self.read_size, prog_size=self.prog_size,
                      lookahead_size=self.lookahead_size, cache_size=self.cache_size,
                      block_cycles=self.block_cycles, mount=False)
        if buffer is not None:
            fs.context.buffer = bytearray(buffer)
        return fs

    def __repr__(self):
        return "<Geometry %s: %d KB at 0x%X>" % (self.build, self.size // 1024, self.offset)


KB = 1024
BUILDS = (
    Geometry("RPI_PICO", "Raspberry Pi Pico", 1408 * KB, ("pico", "badger2040")),
    Geometry("RPI_PICO_W", "Raspberry Pi Pico W", 848 * KB, ("pico", "badger2040w")),
    Geometry("PIMORONI_BADGER2040", "Pimoroni Badger2040 2MB", 1408 * KB, ("badger2040",)),
    Geometry("PIMORONI_BADGER2040W", "Pimoroni Badger2040W 2MB", 848 * KB, ("badger2040w",)),
    # The scorer's own image (host/pipkeeper/image/recipe/PIPKEEPER/mpconfigboard.h):
    # no stock MicroPython for a board, so no profile's MCU_BOARD (`pipkeeper uf2`
    # merges files into those only).
    Geometry("PIPKEEPER", "pipkeeper scorer (RP2040)", 1280 * KB, ()),
)
# The emulated board: a Pico's (and a Badger 2040's) 2 MB flash.
PICO = BUILDS[0]
OWN = BUILDS[-1]
# The simulated board's: Pimoroni's Badger 2040 build (README: "On the
# simulated board the flash reported is a Badger 2040's").
BADGER2040 = BUILDS[2]


def geometry_of_firmware(data):
    """The Geometry of a MicroPython image's bytes (its code): the scorer's
    own image by its mark, else the Pico's."""
    from pipkeeper.board import image_identity as identity
    return OWN if identity.MARK in data[:OWN.offset] else PICO


def geometry_of(image_path):
    """The Geometry of an emulated board's flash image: the scorer's own
    image keeps a smaller filesystem than the stock ones (its code holds
    the frozen scorer), found by the mark it carries (board/image_identity.py)."""
    try:
        with open(image_path, "rb") as f:
            return geometry_of_firmware(f.read(OWN.offset))
    except OSError:
        return PICO


def for_board_name(name):
    """The Geometry of the build whose banner names ``name``, or None."""
    for g in BUILDS:
        if g.name == name:
            return g
    return None


def build_image(files, geometry=PICO):
    """A freshly formatted filesystem holding ``files`` ({board path:
    bytes}): its bytes, the whole of ``geometry``'s region."""
    fs = geometry.new_fs()
    fs.format()
    fs.mount()
    _put(fs, files)
    fs.unmount()
    return bytes(fs.context.buffer)


def space(entries, geometry=None):
    """(total, free) bytes of ``geometry``'s filesystem (a Badger 2040's by
    default) once it holds ``entries``: (size, board path) of each file,
    size -1 for a folder. What the simulated board reports for its folder,
    as a board's statvfs would for its flash (MicroPython's free blocks:
    the block count less LittleFS's blocks in use). LittleFS itself says
    it: the entries written into a fresh one, files of zeros, folders in
    the order given (a board's is a little fuller, by the history of its
    writes). Entries that do not fit leave nothing free, as on a full board."""
    from littlefs import LittleFSError
    geometry = geometry or BADGER2040
    fs = geometry.new_fs()
    fs.format()
    fs.mount()
    try:
        for size, path in entries:
            if size < 0:
                fs.makedirs(path, exist_ok=True)
            else:
                with fs.open(path, "wb") as f:
                    f.write(bytes(size))
    except LittleFSError:
        return geometry.size, 0
    return geometry.size, (geometry.block_count - fs.used_block_count) * geometry.block_size


def _put(fs, files, remove=()):
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


def mount_bytes(data, geometry=PICO):
    """A mounted littlefs.LittleFS over a copy of a filesystem's bytes, or
    None when they hold none."""
    from littlefs import LittleFSError
    if len(data) < geometry.size:
        return None
    fs = geometry.new_fs(data[:geometry.size])
    try:
        fs.mount()
    except LittleFSError:
        return None
    return fs


def files(fs):
    """{path: bytes} of every file on a mounted filesystem."""
    out = {}
    for top, _dirs, names in fs.walk("/"):
        for name in names:
            path = top.rstrip("/") + "/" + name
            with fs.open(path, "rb") as f:
                out[path] = f.read()
    return out


def mount(image_path, geometry=None):
    """A littlefs.LittleFS over (a copy of) the image's filesystem, or None
    when it holds none (a blank flash MicroPython has not formatted yet)."""
    geometry = geometry or geometry_of(image_path)
    with open(image_path, "rb") as f:
        f.seek(geometry.offset)
        data = f.read(geometry.size)
    return mount_bytes(data, geometry)


def write_files(image_path, files, remove=()):
    """Put ``files`` ({board path: bytes}) on the image's filesystem and
    delete the paths in ``remove`` (the board must be off: the emulator
    reloads the image with ``Emulator.load``). A flash MicroPython has not
    formatted yet is formatted here, as MicroPython would."""
    geometry = geometry_of(image_path)
    fs = mount(image_path, geometry)
    if fs is None:
        fs = geometry.new_fs()
        fs.format()
        fs.mount()
    _put(fs, files, remove)
    fs.unmount()
    with open(image_path, "r+b") as f:
        f.seek(geometry.offset)
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
    """Whether the flash holds the scorer: the scorer's own image, or the
    files ``pipkeeper flash`` puts on a stock one (its bundle, or the
    modules of the older one-file-each layout)."""
    if geometry_of(image_path) is OWN:
        return True
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
