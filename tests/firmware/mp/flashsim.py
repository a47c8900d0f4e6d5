"""MicroPython-side helpers for the firmware fault tests (unix port).

Imported by onepress.py, powercut.py and random_presses.py (the tests run
them as ``micropython -X heapsize=N -m NAME``, compiled: see mpbuild.py);
never imported by pytest.

- ``Flash``: a flash-like block device for ``vfs.VfsLfs2`` (the
  extended interface: readblocks/writeblocks with offsets, erase by ioctl 6;
  4096-byte blocks as on the RP2040). Its bytes live in a file on the host,
  not on the 160K heap the firmware runs in. It counts the block writes (every
  program call and every erase is one "op"), can journal them to a file, and
  with ``budget = k`` it cuts the power at the k-th op: that op is torn (the
  first half of a program or erase happens) or dropped, ``PowerCut`` is
  raised, and every later op raises it again (the chip has no power).
- ``PowerCut`` derives from BaseException, so the firmware's own
  ``except Exception`` fault handling cannot swallow it: the press stops
  where the power went.
- ``TestBoard``: a ``firmware.board.Board`` whose flash is the LittleFS
  mount; it counts panel updates (and full refreshes); ``battery=True``
  makes it a board on battery that cuts its power after the press.
- ``mount`` / ``umount`` / ``format_image`` / ``copy_file`` / ``apply_op``.

The journal (``Flash(journal=f)``): one record per op, the struct HDR
(kind PROG or ERASE, block, offset, length) and then, for a program, its
bytes. test_power_cut.py rebuilds flash images from it.

LittleFS is mounted with ``mtime=False`` so the same presses give the same
bytes on the flash (the board's rp2 port stores an mtime from its RTC, which
does not change what is written, only some attribute bytes); progsize=256 as
the rp2 port's _boot.py uses.
"""

import struct
import vfs

BS = 4096
NBLOCKS = 128
MOUNT = "/flash"
PROGSIZE = 256

PROG = 1
ERASE = 2
HDR = "<BHHH"      # kind, block, offset, length (then the data for PROG)
HDR_LEN = 7


class PowerCut(BaseException):
    pass


# 0xFF bytes for erases, made once before the firmware is imported: the
# device must not need the heap while the firmware runs (the board's
# rp2.Flash does not), and the harness should leave the firmware all the
# heap it can (so: no NOR "program ANDs" emulation, which needs a scratch
# buffer and code; LittleFS erases a block before it programs it).
CHUNK = 512
_FF = b"\xff" * CHUNK


def apply_op(f, kind, block, off, n, data=None, torn=False):
    """Do one op on the image file ``f``: an erase sets the block to 0xFF,
    a program writes the n bytes of ``data``. ``torn``: only the first
    half of the op happens."""
    if kind == ERASE:
        ln = BS // 2 if torn else BS
        f.seek(block * BS)
        while ln > 0:
            f.write(_FF)
            ln -= CHUNK
        return
    if torn:
        n //= 2
    if n:
        f.seek(block * BS + off)
        f.write(data if n == len(data) else memoryview(data)[:n])


# The test board's picture file: beside the flash image, on the host.
PICTURE = [None]


class Flash:
    """The block device (see the module docstring)."""

    def __init__(self, path, nblocks=NBLOCKS, journal=None):
        self.path = path
        PICTURE[0] = path + ".picture"
        self.n = nblocks
        self.f = open(path, "r+b")
        self.ops = 0
        self.budget = 0          # 0: no power cut
        self.torn = True         # the op at the cut: torn (True) or dropped
        self.dead = False
        self.journal = journal   # a file opened "wb", or None
        self.reads = 0

    def close(self):
        try:
            self.f.close()
        except OSError:
            pass

    def readblocks(self, block, buf, off=0):
        if self.dead:
            raise PowerCut()
        self.reads += 1
        f = self.f
        f.seek(block * BS + off)
        f.readinto(buf)

    def _op(self, kind, block, off, data):
        if self.dead:
            raise PowerCut()
        self.ops += 1
        n = len(data) if data is not None else 0
        j = self.journal
        if j is not None:
            j.write(struct.pack(HDR, kind, block, off, n))
            if n:
                j.write(data)
        if self.budget and self.ops >= self.budget:
            if self.torn:
                apply_op(self.f, kind, block, off, n, data, torn=True)
            self.dead = True
            self.f.flush()
            raise PowerCut()
        apply_op(self.f, kind, block, off, n, data)

    def writeblocks(self, block, buf, off=None):
        if off is None:
            # simple interface: whole blocks, erased first
            nb = len(buf) // BS
            for i in range(nb):
                self._op(ERASE, block + i, 0, None)
                self._op(PROG, block + i, 0, memoryview(buf)[i * BS:(i + 1) * BS])
            return
        self._op(PROG, block, off, buf)

    def ioctl(self, op, arg):
        if op == 4:
            return self.n
        if op == 5:
            return BS
        if op == 6:
            self._op(ERASE, arg, 0, None)
            return 0
        return 0


def create_image(path, nblocks=NBLOCKS):
    """A blank (erased) flash image file."""
    with open(path, "wb") as f:
        for _ in range(nblocks * (BS // CHUNK)):
            f.write(_FF)


def format_image(path, nblocks=NBLOCKS):
    create_image(path, nblocks)
    dev = Flash(path, nblocks)
    vfs.VfsLfs2.mkfs(dev, progsize=PROGSIZE)
    dev.close()


def copy_file(src, dst):
    """(Only while no firmware runs: it takes a 4K buffer.)"""
    buf = bytearray(BS)
    mv = memoryview(buf)
    with open(src, "rb") as a:
        with open(dst, "wb") as b:
            while True:
                n = a.readinto(buf)
                if not n:
                    break
                b.write(mv[:n])


def mount(dev, where=MOUNT):
    fs = vfs.VfsLfs2(dev, mtime=False, progsize=PROGSIZE)
    vfs.mount(fs, where)
    return fs


def umount(where=MOUNT):
    try:
        vfs.umount(where)
    except OSError:
        pass


def board_class():
    from firmware.board import Board

    class TestBoard(Board):
        name = "test"
        # the panel's picture (firmware/picture.py) in a host file, neither
        # in the tight heap these runs measure nor on the flash they cut
        picture_file = PICTURE[0]

        def __init__(self, root=MOUNT, battery=False):
            self.flash_root = root
            # On battery (onepress.py: one process a press, a cold boot
            # each) the board cuts its power after the press, so the app
            # notes the picture it leaves (the resting mark) and the next
            # cold boot updates from it, as on USB; otherwise on USB.
            self.battery = battery
            self.updates = 0
            self.fulls = 0
            self.last_full = None

        def wait_press(self):
            return None

        def update(self, buf, full=False, old=None):
            self.updates += 1
            if full:
                self.fulls += 1
            self.last_full = full

        def cuts_power(self):
            return self.battery

        def on_usb(self):
            return not self.battery

    return TestBoard
