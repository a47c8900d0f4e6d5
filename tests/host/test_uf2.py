"""`pipkeeper uf2`: MicroPython's own image and the scorer's filesystem in
one UF2. The filesystem geometry against what the images declare and what
MicroPython itself mounts; the UF2 blocks; each refusal in one line."""

import hashlib
import os
import struct
import subprocess

import pytest

from boardkit import run_cli
from pipkeeper.board import flash, uf2
from pipkeeper.errors import PipkeeperError
from pipkeeper.paths import micropython_binary
from pipkeeper.board import flashfs, images

# ../shared/rp2/ beside the checkout (CI), or the folder of $PIPKEEPER_RP2_FIRMWARE
SHARED = images.shared_rp2()
if not SHARED.is_dir() and os.environ.get(images.ENV_FIRMWARE):
    from pathlib import Path
    SHARED = Path(os.environ[images.ENV_FIRMWARE]).resolve().parent
PICO_UF2 = SHARED / "firmware-RPI_PICO-v1.28.0.uf2"
PICO_BIN = SHARED / "firmware-RPI_PICO-v1.28.0.bin"
BADGER_UF2 = SHARED / "firmware-PIMORONI_BADGER2040-v1.23.0-1.uf2"

needs_pico = pytest.mark.skipif(not PICO_UF2.is_file(), reason="no %s" % PICO_UF2)


@pytest.fixture(scope="module")
def merged(tmp_path_factory):
    """`pipkeeper uf2` of the upstream Pico image, through the CLI, once."""
    if not PICO_UF2.is_file():
        pytest.skip("no %s" % PICO_UF2)
    out = tmp_path_factory.mktemp("uf2") / "merged.uf2"
    cache = tmp_path_factory.getbasetemp() / "pipkeeper-cache"
    code, stdout, err = run_cli("uf2", "--micropython", str(PICO_UF2), "-o", str(out),
                                env={"PIPKEEPER_CACHE": str(cache)})
    assert code == 0, err
    return out, stdout


# -- the geometry ----------------------------------------------------------------------------

def test_geometry_table():
    by = {g.build: g for g in flashfs.BUILDS}
    for build in ("RPI_PICO", "PIMORONI_BADGER2040"):
        g = by[build]
        assert (g.offset, g.size, g.block_size, g.block_count) == (0xA0000, 1408 * 1024, 4096, 352)
    for build in ("RPI_PICO_W", "PIMORONI_BADGER2040W"):
        g = by[build]
        assert (g.offset, g.size, g.block_count) == (0x12C000, 848 * 1024, 212)
    # the scorer's own image: 768 KB of code, its filesystem from 0x100C0000
    g = by["PIPKEEPER"]
    assert (g.offset, g.size, g.block_count, g.boards) == (0xC0000, 1280 * 1024, 320, ())
    assert flashfs.OWN is g
    for g in flashfs.BUILDS:
        # ports/rp2/modules/_boot.py: VfsLfs2(bdev, progsize=256); the rest VfsLfs2's defaults
        assert (g.read_size, g.prog_size, g.lookahead_size, g.cache_size, g.block_cycles) == \
            (32, 256, 32, 1024, 100)
        assert g.offset + g.size == 2 * 1024 * 1024
    # every board a profile names has a build, and a W board only W builds
    from hardware import profiles
    for name in profiles.NAMES:
        mcu = profiles.load(name).MCU_BOARD
        sizes = {g.size // 1024 for g in flashfs.BUILDS if mcu in g.boards}
        assert sizes == {"badger2040": {1408}, "badger2040w": {848}, "pico": {1408, 848}}[mcu], name


@pytest.mark.parametrize("path", [PICO_UF2, BADGER_UF2], ids=["upstream", "pimoroni"])
def test_the_images_declare_the_tables_filesystem(path):
    if not path.is_file():
        pytest.skip("no %s" % path)
    image = uf2.read_image(str(path))
    g = image.geometry
    assert images.declared_block_devices(image.firmware.data)["MicroPython"] == (g.offset, g.size)
    assert g.build == ("PIMORONI_BADGER2040" if "PIMORONI" in path.name else "RPI_PICO")


MP_MOUNT = r"""
import vfs, os, hashlib, binascii, sys
class Dev:
    def __init__(self, data):
        self.data = data
    def readblocks(self, n, buf, off=0):
        a = n * 4096 + off
        buf[:] = self.data[a:a + len(buf)]
    def writeblocks(self, n, buf, off=None):
        a = n * 4096 + (off or 0)
        self.data[a:a + len(buf)] = buf
    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // 4096
        if op == 5:
            return 4096
        if op == 6:
            self.data[arg * 4096:(arg + 1) * 4096] = b'\xff' * 4096
            return 0
        return 0
f = open(sys.argv[1], 'rb')
dev = Dev(bytearray(f.read()))
f.close()
fs = vfs.VfsLfs2(dev, progsize=256)
vfs.mount(fs, '/fs')
def walk(p):
    for e in os.ilistdir(p):
        q = p + '/' + e[0]
        if e[1] & 0x4000:
            walk(q)
        else:
            print(q[3:], binascii.hexlify(hashlib.sha256(open(q, 'rb').read()).digest()).decode())
walk('/fs')
w = open('/fs/games/new.dgn', 'w')
w.write('written by MicroPython')
w.close()
vfs.umount('/fs')
f = open(sys.argv[1], 'wb')
f.write(dev.data)
f.close()
"""


@pytest.mark.parametrize("build", ["RPI_PICO", "RPI_PICO_W"])
def test_micropython_mounts_the_filesystem_we_build(build, tmp_path):
    """The image as MicroPython's VfsLfs2 mounts it (the unix port, with the
    rp2 port's progsize): the same files, and what it writes we read back."""
    g = [x for x in flashfs.BUILDS if x.build == build][0]
    files = {"/lib/pipkeeper.bundle": os.urandom(90000), "/main.py": b"import app\n",
             "/board.txt": b"badger2040\n", "/games/.keep": b""}
    img = tmp_path / "fs.img"
    img.write_bytes(flashfs.build_image(files, g))
    assert img.stat().st_size == g.size
    script = tmp_path / "mount.py"
    script.write_text(MP_MOUNT)
    proc = subprocess.run([micropython_binary(), "-X", "heapsize=8M", str(script), str(img)], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    seen = dict(line.split() for line in proc.stdout.splitlines())
    assert seen == {p: hashlib.sha256(d).hexdigest() for p, d in files.items()}
    back = flashfs.files(flashfs.mount_bytes(img.read_bytes(), g))
    assert back["/games/new.dgn"] == b"written by MicroPython"
    assert {p: d for p, d in back.items() if p in files} == files


# -- the merged UF2 --------------------------------------------------------------------------

def _blocks(raw):
    for off in range(0, len(raw), 512):
        head = struct.unpack_from("<8I", raw, off)
        yield head, raw[off + 32: off + 32 + head[4]], struct.unpack_from("<I", raw, off + 508)[0]


def test_merged_uf2_blocks_image_and_filesystem(merged, cache):
    out, stdout = merged
    raw = out.read_bytes()
    assert "wrote" in stdout and "RPI_PICO" in stdout
    blocks = list(_blocks(raw))
    addresses = []
    numbers = []
    for (m0, m1, flags, addr, size, number, total, family), _d, m2 in blocks:
        assert (m0, m1, m2) == images.UF2_MAGIC
        assert flags == images.UF2_FAMILY_PRESENT and family == images.RP2040_FAMILY
        assert (size, total) == (256, len(blocks))
        addresses.append(addr)
        numbers.append(number)
    # numbered in address order, each 256-byte page once; in the file, boot
    # stage 2 (address 0) last (images.bin_to_uf2: a cut copy starts BOOTSEL)
    by_number = [a for _, a in sorted(zip(numbers, addresses))]
    assert sorted(numbers) == list(range(len(blocks)))
    assert by_number == sorted(by_number) and len(set(by_number)) == len(by_number)
    assert addresses[-1] == images.FLASH_BASE and addresses[:-1] == by_number[1:]
    g = flashfs.PICO
    fs_start = images.FLASH_BASE + g.offset
    image_pages = [a for a in by_number if a < fs_start]
    fs_pages = [a for a in by_number if a >= fs_start]
    # the image as MicroPython's own UF2 has it, its last sector made whole
    # with 0xFF (the boot ROM erases it anyway), then the whole filesystem region
    official = images.uf2_chunks(PICO_UF2.read_bytes())
    end = -(-(max(official) + 256) // images.SECTOR) * images.SECTOR
    assert image_pages == [images.FLASH_BASE + a for a in range(0, end, 256)]
    assert fs_pages == list(range(fs_start, images.FLASH_BASE + 2 * 1024 * 1024, 256))
    chunks = images.uf2_chunks(raw)
    assert all(chunks[a] == d for a, d in official.items())
    assert all(chunks[a] == b"\xff" * 256 for a in range(0, end, 256) if a not in official)

    # The filesystem holds exactly what `pipkeeper flash` lays out for the
    # Badger 2040 on this MicroPython, and /board.txt.
    files = uf2.contents(str(out)).fs_files()
    args, target = flash.check_target(_pico_info())
    items, _managed = flash.layout(args, "badger2040", False)
    want = {i.remote: i.data for i in items}
    want["/board.txt"] = b"badger2040\n"
    assert files == want
    assert {"/lib/pipkeeper.bundle", "/main.py", "/boot.py"} <= set(files)


def _pico_info():
    from pipkeeper.board.link import BoardInfo
    return BoardInfo("rp2", (1, 28, 0), 6 | 3 << 8 | 4 << 10, "e661", 0, 0)


def test_micropython_only_is_the_official_image(merged):
    out, _ = merged
    c = uf2.contents(str(out))
    assert c.has_fs
    # the same flash as MicroPython's own file, laid out to be cut safely
    # (whole sectors, boot stage 2 last: images.bin_to_uf2)
    assert c.micropython_only() == images.safe_order(PICO_UF2.read_bytes())
    assert images.uf2_to_bin(c.micropython_only()).rstrip(b"\xff") == \
        images.uf2_to_bin(PICO_UF2.read_bytes()).rstrip(b"\xff")
    plain = uf2.contents(str(PICO_UF2))
    assert not plain.has_fs and plain.fs_files() == {}


@needs_pico
def test_a_pimoroni_image_gets_no_boot_py(tmp_path, cache):
    if not BADGER_UF2.is_file():
        pytest.skip("no %s" % BADGER_UF2)
    m = uf2.make(str(BADGER_UF2))
    assert m.board == "badger2040" and m.image.geometry.build == "PIMORONI_BADGER2040"
    assert "/boot.py" not in m.fs_files          # Pimoroni's build latches the power in C
    assert m.image.firmware.pimoroni


# -- refusals, each one line -----------------------------------------------------------------

def _one_line(*args):
    code, out, err = run_cli("uf2", *args)
    assert code == 1, (out, err)
    assert err.startswith("pipkeeper: ") and err.count("\n") == 1, err
    return err


@needs_pico
def test_refuses_a_uf2_for_another_chip(tmp_path):
    raw = bytearray(PICO_UF2.read_bytes())
    for off in range(0, len(raw), 512):
        struct.pack_into("<I", raw, off + 28, 0xBFDD4EEE)      # the ESP32-S2's family id
    f = tmp_path / "esp32s2.uf2"
    f.write_bytes(bytes(raw))
    err = _one_line("--micropython", str(f), "-o", str(tmp_path / "out.uf2"))
    assert "not for the RP2040" in err
    assert not (tmp_path / "out.uf2").exists()


@needs_pico
@pytest.mark.parametrize("cut", ["uf2-block", "uf2-odd", "bin"])
def test_refuses_a_truncated_file(tmp_path, cut):
    if cut == "bin":
        f = tmp_path / "cut.bin"
        f.write_bytes(PICO_BIN.read_bytes()[:300000])
    else:
        raw = PICO_UF2.read_bytes()
        f = tmp_path / "cut.uf2"
        f.write_bytes(raw[:512 * 600] if cut == "uf2-block" else raw[:512 * 600 + 100])
    err = _one_line("--micropython", str(f), "-o", str(tmp_path / "out.uf2"))
    assert "truncated" in err or "cut short" in err
    assert not (tmp_path / "out.uf2").exists()


@needs_pico
def test_refuses_an_image_that_runs_into_the_filesystem(tmp_path):
    code = PICO_BIN.read_bytes()
    big = images.bin_to_uf2([(0, code), (0x9FF00, b"\x00" * 512)])     # 256 bytes past 0xA0000
    f = tmp_path / "big.uf2"
    f.write_bytes(big)
    err = _one_line("--micropython", str(f))
    assert "too large" in err and "0x100A0000" in err


@needs_pico
def test_refuses_an_image_that_carries_a_filesystem_already(tmp_path, merged):
    """Ours, or Pimoroni's -with-badger-os: the plain image is wanted."""
    out, _ = merged
    err = _one_line("--micropython", str(out), "-o", str(tmp_path / "again.uf2"))
    assert "already carries a filesystem" in err


@needs_pico
@pytest.mark.parametrize("old, new, why", [
    (b"Raspberry Pi Pico with RP2040", b"Raspberry Pi Pico2 with RP2350", "(RP2350), not for the RP2040"),
    (b"MicroPython v1.28.0", b"MicroPython v1.22.0", "MicroPython 1.22.0; the scorer needs 1.23"),
    (b"MicroPython v1.28.0", b"MicroPython v1.99.0", "newer than pipkeeper knows the .mpy format of"),
    (b"Raspberry Pi Pico with", b"Raspberry Pi Pica with", "no filesystem layout for"),
], ids=["rp2350", "too-old", "too-new", "unknown-board"])
def test_refuses_an_image_we_cannot_build_for(tmp_path, old, new, why):
    """The upstream image with its banner changed: another chip, a
    MicroPython too old or too new, a board of no known build."""
    f = tmp_path / "image.bin"
    f.write_bytes(PICO_BIN.read_bytes().replace(old, new))
    assert why in _one_line("--micropython", str(f))


@needs_pico
def test_refuses_a_board_the_image_is_not_for():
    assert "needs the image for RPI_PICO_W or PIMORONI_BADGER2040W" in _one_line(
        "--micropython", str(PICO_UF2), "--board", "badger2040w")
    # a name that is no build is the command used wrongly (exit 2), with the nearest names
    code, out, err = run_cli("uf2", "--micropython", str(PICO_UF2), "--board", "badger")
    assert (code, out) == (2, "") and err == (
        "pipkeeper: uf2: unknown build 'badger'; the builds are: badger2040, badger2040w, "
        "pico_inky_pack, pico_epaper29; did you mean badger2040 or badger2040w? "
        "(see `pipkeeper uf2 --help`)\n")


PICO_ELF = SHARED / "firmware-RPI_PICO-v1.28.0.elf"


@pytest.mark.skipif(not PICO_ELF.is_file(), reason="no %s" % PICO_ELF)
def test_refuses_an_elf_file(tmp_path):
    """The .elf beside the .uf2 on the download page holds the same
    MicroPython (its version string, its binary info), but as an ELF file:
    copied to 0x10000000 its header would be the boot stage 2, and the
    board would not start."""
    err = _one_line("--micropython", str(PICO_ELF), "-o", str(tmp_path / "out.uf2"))
    assert "is an ELF file" in err and ".uf2" in err
    assert not (tmp_path / "out.uf2").exists()
    # the same ELF wrapped in a UF2, as an older pipkeeper made it
    wrapped = tmp_path / "elf.uf2"
    wrapped.write_bytes(images.bin_to_uf2([(0, PICO_ELF.read_bytes())]))
    assert "writes an ELF file onto the flash" in _one_line("--micropython", str(wrapped))


def test_refuses_a_random_file(tmp_path):
    f = tmp_path / "noise.bin"
    f.write_bytes(os.urandom(300000))
    assert "no boot stage 2" in _one_line("--micropython", str(f))


@pytest.mark.parametrize("name", ["firmware-RPI_PICO-v1.28.0.uf2", "firmware-RPI_PICO-v1.28.0.bin",
                                  "firmware-PIMORONI_BADGER2040-v1.23.0-1.uf2",
                                  "firmware-PIMORONI_BADGER2040-v1.23.0-1.bin"])
def test_the_real_images_boot(name):
    """Their boot stage 2's CRC32 checks and their vector table starts a
    program in flash, as the boot ROM needs."""
    p = SHARED / name
    if not p.is_file():
        pytest.skip("no %s" % p)
    raw = p.read_bytes()
    assert images.rp2040_problem(images.uf2_to_bin(raw) if name.endswith(".uf2") else raw) is None
    assert uf2.read_image(str(p)).firmware.version >= (1, 23, 0)


def test_refuses_what_is_no_micropython(tmp_path):
    f = tmp_path / "noise.bin"
    f.write_bytes(b"\x00" * 4096)
    assert "not an RP2040 flash image" in _one_line("--micropython", str(f))
    assert "cannot read" in _one_line("--micropython", str(tmp_path / "absent.uf2"))


def test_uf2_writer_refuses_overlap():
    with pytest.raises(PipkeeperError, match="overlap at 0x10000100"):
        images.bin_to_uf2([(0, b"\x00" * 300), (0x100, b"\x01")])
