"""Building the scorer's own image: MicroPython's rp2 port with the scorer
frozen in, from a MicroPython source tree at v1.28.0 with its submodules.

What goes in (``stage``): the scorer's modules exactly as `pipkeeper
flash` ships them (``flash.sources``: shared_engine/, firmware/ and the
board profiles), the data a press reads (the fonts' glyph bitmaps and every
language's pack, as bytes constants of the frozen module ``pkdata``,
keyed by the path a frozen module's ``__file__`` gives: a
frozen bytes object stays in flash, so the firmware reads it in place
through an ``io.BytesIO``, firmware/text.py ``data_file``), the board's half
of the link (pklink), ``boot.py`` (the power latch of the build,
board/bootfile.py) and ``main.py``, frozen too: MicroPython runs a frozen
``boot.py`` and ``main.py`` before, and instead of, any on the filesystem,
so nothing a boot runs is compiled from source on the board, and the old
``.mpy`` install's files on a board moved to this image cannot shadow it.
Last, ``pkimage``: which scorer the image holds (board/image_identity.py).

The build is the rp2 port's own (``make -C ports/rp2 BOARD_DIR=...``) with
the project's board definition (recipe/PIPKEEPER/) copied into a staging
folder beside the frozen tree, and ``-DPICO_NO_PICOTOOL=1``: pico-sdk would
otherwise fetch and build picotool to write a UF2, and the UF2 is written
here (board/images.bin_to_uf2). The image is cached by the hash of
everything that went in (the staged tree, the recipe, the source tree's
version and the compiler's), so an unchanged scorer is never rebuilt; the
port's own build folder is kept too, so a changed scorer recompiles only
the frozen content.
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import tarfile
from contextlib import contextmanager
from pathlib import Path

from pipkeeper import __version__
from pipkeeper.errors import PipkeeperError
from pipkeeper.files import write_atomically, write_if_changed

RECIPE = Path(__file__).resolve().parent / "recipe" / "PIPKEEPER"
MICROPYTHON = (1, 28, 0)          # the release the recipe is made for
ENV_SOURCE = "PIPKEEPER_MICROPYTHON_SRC"
FS_OFFSET = 0xC0000               # where the filesystem starts (recipe/PIPKEEPER/mpconfigboard.h)
DEBIAN = "gcc-arm-none-eabi libnewlib-arm-none-eabi cmake"
# Submodules the rp2 port's build needs (`make -C ports/rp2 submodules`).
SUBMODULES = ("lib/pico-sdk/README.md", "lib/tinyusb/src/tusb.h", "lib/mbedtls/include/mbedtls/sha256.h")
# The builds with a Pico W inside: they keep the .mpy install (hardware/README.md,
# "The W boards"). Their image would need the wireless chip's driver and
# firmware (cyw43-driver, lwIP, btstack), which the source the image is built
# from does not hold, and the emulated RP2040 has no model of that chip.
WIRELESS_BUILDS = ("badger2040w",)
# What the image gains, measured on the emulated RP2040 (docs/PERFORMANCE.md,
# "The scorer's own image": `pipkeeper bench device --json --firmware IMAGE`,
# the largest game: cold_boot_ms_late 474.9 -> 98.7 ms, press_ms_median
# 50.4 -> 23.1 ms). The one claim the README, `firmware --help` and flash's
# hint make, word for word (tests/host/test_own_image_claim.py).
SPEED = ("a press in 23 ms instead of 50 and a cold boot in 99 ms instead of 475 "
         "on the emulated RP2040 (docs/PERFORMANCE.md)")


class Built:
    """One image: its bytes (flash from 0x10000000, the code part only),
    the scorer it holds (identity.Identity), where it is in the cache, and
    whether this call built it."""

    def __init__(self, code, identity, path, rebuilt, seconds):
        self.code = code
        self.identity = identity
        self.path = path
        self.rebuilt = rebuilt
        self.seconds = seconds

    @property
    def elf(self):
        """The image's ELF, with its symbols (the emulator's profile names
        functions with it), or None."""
        p = self.path.with_suffix(".elf")
        return p if p.is_file() else None

    def write(self, out):
        """The UF2 at ``out``, and the ELF beside it (``OUT.elf``)."""
        write_atomically(str(out), self.uf2())
        if self.elf is not None:
            write_atomically(os.path.splitext(str(out))[0] + ".elf", self.elf.read_bytes())

    def uf2(self):
        """The UF2 of the image: the code part only, so copying it onto a
        board keeps the filesystem, its games and settings."""
        from pipkeeper.board import images
        return images.bin_to_uf2([(0, self.code)])

    def as_dict(self, out=None):
        d = {"file": str(out) if out else None, "cached": str(self.path),
             "image_bytes": len(self.code), "rebuilt": self.rebuilt,
             "seconds": round(self.seconds, 1),
             "flash_left_for_games": 2 * 1024 * 1024 - FS_OFFSET}
        d.update(self.identity.as_dict())
        return d


# -- what goes in ------------------------------------------------------------------------

def check_image_build(board):
    """``board`` if it is a build the image is made for; else the one line
    that says why not (an unknown name, with the nearest; a W board)."""
    from hardware import profiles
    from pipkeeper.wording import did_you_mean

    made = [name for name in profiles.NAMES if name not in WIRELESS_BUILDS]
    if board not in profiles.NAMES:
        raise PipkeeperError("unknown build {!r}; the image is made for {}{}".format(
            board, ", ".join(made), did_you_mean(board, made)))
    if board in WIRELESS_BUILDS:
        raise PipkeeperError(
            "the {0} keeps the .mpy install: an image for a W board would need its wireless chip's "
            "driver and firmware, which pipkeeper neither builds nor can test (hardware/README.md); "
            "`pipkeeper flash --board {0}` puts the scorer on it".format(board))
    return board


def stage(board, version=__version__):
    """{path in the frozen tree: bytes} for the build ``board`` (a name in
    hardware/profiles/), and the Identity of the scorer it makes
    (``version``: pipkeeper's; the tests build an earlier release's)."""
    from hardware import profiles
    from pipkeeper.board import bootfile, flash, onboard
    from pipkeeper.i18n import packcache
    from pipkeeper.board import image_identity as identity

    check_image_build(board)
    tree = {}
    data = {}
    for rel, src in flash.sources():
        if rel in NEVER_RUN:
            continue
        if rel.endswith(".py"):
            tree[rel] = src.read_bytes()
        else:
            data[rel] = src.read_bytes()
    # The packs where the sim's tree has them, beside the firmware's modules
    # (firmware/lang.py looks there first).
    from pipkeeper.board.flash import cache_dir
    for name, blob in packcache.files(cache_dir()).items():
        data["firmware/i18n/" + name] = blob
    tree["pkdata.py"] = _data_module(data)
    tree["pklink.py"] = (Path(onboard.HERE) / "pklink.py").read_bytes()
    tree["boot.py"] = bootfile.boot_py(profiles.load(board)).encode()
    tree["main.py"] = MAIN.encode()
    ident = identity.Identity(version, _digest(tree), board)
    tree["pkimage.py"] = ident.module().encode()
    return tree, ident


# The boards this image never is (firmware/app.py ``_board``): the unix
# port's simulated board and its words, and Pimoroni's build's (its
# ``badger2040`` module, which this image does not have). 4.6 KB of flash
# the language packs need (issue 31's house rules ran the image past the
# filesystem).
# Nor the engine's file of refusals: the image runs the engine's sources
# as they are, their texts in flash (host/pipkeeper/board/refusals.py).
NEVER_RUN = ("firmware/board_sim.py", "firmware/board_sim_words.py", "firmware/board_badger.py",
             "shared_engine/refusals.bin")


MAIN = '''\
# The scorer's own image starts here (frozen by `pipkeeper firmware`,
# host/pipkeeper/image/build.py): every module it imports is frozen, so the
# filesystem is never searched for one.
import sys
sys.path[:] = [".frozen"]
# WATCHDOG SCRATCH0 is 0 after a power-on. A test bench on the emulated
# RP2040 sets it to 0x5048nnnn to measure the heap: nnnn x 64 bytes left
# free for the scorer (the rest held by a ballast), or nnnn = 0xFFFF for
# no scorer at all (MicroPython's REPL, to read what it leaves).
from machine import mem32
_bench = mem32[0x4005800C]
del mem32
if _bench != 0x5048FFFF:
    if _bench >> 16 == 0x5048:
        import gc
        gc.collect()
        _ballast = bytearray(max(0, gc.mem_free() - (_bench & 0xFFFF) * 64 - 32))
    from firmware import app
    # (no reserve: frozen modules run in place, and intern next to no names)
    app.main(reserve=0)
'''
BENCH_WORD = 0x50480000       # SCRATCH0's top half that MAIN answers
BENCH_BARE = 0xFFFF


def _data_module(files):
    """The source of ``pkdata``: ``FILES``, {path: bytes}, the data files a
    press reads, kept in flash by freezing."""
    lines = ["# The data the scorer reads as it draws, frozen (host/pipkeeper/image/build.py).\n",
             "FILES = {\n"]
    for path in sorted(files):
        lines.append("    %r: %r,\n" % (path, files[path]))
    lines.append("}\n")
    return "".join(lines).encode()


def _digest(tree):
    h = hashlib.sha256()
    for path in sorted(tree):
        h.update(path.encode() + b"\0" + hashlib.sha256(tree[path]).digest())
    return h.hexdigest()[:16]


def _recipe():
    return {p.name: p.read_bytes() for p in sorted(RECIPE.iterdir()) if p.is_file()}


# -- what it is built with ---------------------------------------------------------------

def check_toolchain():
    """The compiler's version line; one line saying what to install when
    the ARM toolchain, newlib, cmake or make is missing."""
    for tool in ("arm-none-eabi-gcc", "cmake", "make"):
        if shutil.which(tool) is None:
            raise PipkeeperError("cannot build the image: {} is not installed (on Debian or "
                                 "Ubuntu: apt-get install {})".format(tool, DEBIAN))
    proc = subprocess.run(["arm-none-eabi-gcc", "-print-file-name=libc.a"],
                          capture_output=True, text=True)
    if not os.path.isabs(proc.stdout.strip()):
        raise PipkeeperError("cannot build the image: the ARM toolchain has no C library "
                             "(apt-get install libnewlib-arm-none-eabi)")
    out = subprocess.run(["arm-none-eabi-gcc", "--version"], capture_output=True, text=True)
    return out.stdout.splitlines()[0].strip()


def source_tree(path=None, cache=None):
    """The MicroPython source tree to build from: ``path`` (or
    $PIPKEEPER_MICROPYTHON_SRC), a folder, or a ``.tar.gz`` of one, which is
    unpacked once into the cache (keyed by its sha256). Checked: v1.28.0,
    the rp2 port, its submodules."""
    path = path or os.environ.get(ENV_SOURCE)
    if not path:
        raise PipkeeperError("name a MicroPython source tree at v{}: --micropython-src DIR (git clone "
                             "https://github.com/micropython/micropython && git checkout v{} && make -C "
                             "ports/rp2 submodules)".format(_dotted(MICROPYTHON), _dotted(MICROPYTHON)))
    p = Path(path)
    if p.is_file() and p.name.endswith((".tar.gz", ".tgz")):
        p = _unpacked(p, cache)
    if not p.is_dir():
        raise PipkeeperError("no MicroPython source tree at {}".format(path))
    config = p / "py" / "mpconfig.h"
    if not config.is_file():
        raise PipkeeperError("{} is not a MicroPython source tree (no py/mpconfig.h)".format(path))
    version = _tree_version(config.read_text(errors="replace"))
    if version != MICROPYTHON:
        raise PipkeeperError("{} is MicroPython {}; the image is built from v{} (git checkout v{})".format(
            path, _dotted(version) if version else "of an unknown version", _dotted(MICROPYTHON),
            _dotted(MICROPYTHON)))
    if not (p / "ports" / "rp2" / "Makefile").is_file():
        raise PipkeeperError("{} has no rp2 port (ports/rp2)".format(path))
    for sub in SUBMODULES:
        if not (p / sub).is_file():
            raise PipkeeperError("{} lacks the submodule {} (make -C ports/rp2 submodules)".format(
                path, sub.split("/")[1]))
    return p


def _tree_version(text):
    got = []
    for part in ("MAJOR", "MINOR", "MICRO"):
        m = re.search(r"#define MICROPY_VERSION_%s \(?(\d+)" % part, text)
        if not m:
            return None
        got.append(int(m.group(1)))
    return tuple(got)


def _dotted(v):
    return ".".join(str(x) for x in v)


def _unpacked(tarball, cache):
    """A tarball of a source tree, unpacked once into the cache: the one
    folder it holds."""
    h = hashlib.sha256()
    with open(tarball, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    dest = _cache(cache) / "micropython" / h.hexdigest()[:16]
    done = dest / ".unpacked"
    with _locked(dest.parent):
        if not done.is_file():
            if dest.exists():
                shutil.rmtree(dest)
            dest.mkdir(parents=True)
            try:
                with tarfile.open(tarball) as t:
                    t.extractall(dest, filter="tar") if hasattr(tarfile, "data_filter") else t.extractall(dest)
            except (tarfile.TarError, OSError) as exc:
                raise PipkeeperError("cannot unpack {}: {}".format(tarball, exc))
            done.write_text(str(tarball) + "\n")
    tops = [d for d in dest.iterdir() if d.is_dir()]
    return tops[0] if len(tops) == 1 else dest


# -- the build ---------------------------------------------------------------------------

def _cache(cache=None):
    from pipkeeper.board.flash import cache_dir
    return Path(cache or cache_dir())


@contextmanager
def _locked(folder):
    """One build at a time in ``folder`` (pytest's workers, two terminals)."""
    import fcntl
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def build(board="badger2040", source=None, cache=None, log=None, jobs=None, version=__version__):
    """The image of the scorer for the build ``board``: a Built, from the
    cache when nothing that goes in has changed."""
    import time
    log = log or (lambda text: None)
    tree, ident = stage(board, version)
    recipe = _recipe()
    compiler = check_toolchain()
    src = source_tree(source, cache)
    key = hashlib.sha256(json.dumps([
        _digest(tree), _digest(recipe), _dotted(MICROPYTHON), compiler, str(src.resolve())]).encode()
    ).hexdigest()[:20]
    root = _cache(cache) / "image"
    out = root / "images" / (key + ".bin")
    t0 = time.monotonic()
    with _locked(root):
        if out.is_file():
            return Built(out.read_bytes(), ident, out, False, time.monotonic() - t0)
        staged = root / "stage" / "PIPKEEPER"
        for name, blob in recipe.items():
            write_if_changed(str(staged / name), blob)
        for rel, blob in tree.items():
            write_if_changed(str(staged / "frozen" / rel), blob)
        _prune(staged / "frozen", tree)
        # The port's build folder, one a recipe: its generated headers (the
        # table of built-in modules, the interned names) are made from the
        # board's configuration once, and not made again when only a header
        # changes; a build of another recipe in the same folder linked
        # modules its configuration left out. A changed scorer keeps the
        # folder: only its frozen content is compiled again.
        build_dir = root / "builds" / _digest(recipe)
        _make(src, staged, build_dir, log, jobs or os.cpu_count() or 2)
        code = (build_dir / "firmware.bin").read_bytes()
        if len(code) > FS_OFFSET:
            raise PipkeeperError("the image is {:,} bytes: it would run into the filesystem at "
                                 "0x{:08X} ({:,} bytes free for code)".format(
                                     len(code), 0x10000000 + FS_OFFSET, FS_OFFSET))
        out.parent.mkdir(parents=True, exist_ok=True)
        # the ELF first: the image's presence says the build is whole
        write_atomically(str(out.with_suffix(".elf")), (build_dir / "firmware.elf").read_bytes())
        write_atomically(str(out), code)
    return Built(code, ident, out, True, time.monotonic() - t0)


def _prune(folder, tree):
    """Remove staged files the tree no longer has (a module deleted from
    the scorer must not stay frozen)."""
    for p in sorted(folder.rglob("*"), reverse=True):
        rel = p.relative_to(folder).as_posix()
        if p.is_file() and rel not in tree:
            p.unlink()
        elif p.is_dir() and not any(p.iterdir()):
            p.rmdir()


def _make(src, board_dir, build_dir, log, jobs):
    """mpy-cross (once per source tree), then the rp2 port for our board."""
    env = dict(os.environ, CMAKE_ARGS="-DPICO_NO_PICOTOOL=1")
    steps = []
    if not (src / "mpy-cross" / "build" / "mpy-cross").is_file():
        steps.append(("mpy-cross", ["make", "-C", str(src / "mpy-cross"), "-j%d" % jobs]))
    steps.append(("the rp2 port", ["make", "-C", str(src / "ports" / "rp2"), "-j%d" % jobs,
                                   "BOARD_DIR=" + str(board_dir), "BUILD=" + str(build_dir)]))
    for what, cmd in steps:
        _run_step(what, cmd, env, build_dir, log)
    if align_native(build_dir / "frozen_content.c"):
        _run_step("the rp2 port (native code aligned)", steps[-1][1], env, build_dir, log)


# The frozen native code's alignment as mpy-tool writes it for ARMv6-M (the
# RP2040's Cortex-M0+), and as the code needs it.
_ALIGNED_2 = "__attribute__ ((aligned (2)))"
_ALIGNED_4 = "__attribute__ ((aligned (4)))"


def align_native(frozen_c):
    """Put each frozen function's code on a 4-byte boundary in the port's
    generated frozen_content.c; True when the file changed.

    Why: MicroPython 1.28's mpy-tool aligns ARMv6-M native code to 2 bytes
    only (tools/mpy-tool.py), but its Thumb-1 emitter loads a 32-bit
    constant, and jumps further than 2 KB, through a PC-relative load that
    assumes 4-byte aligned code (py/asmthumb.c asm_thumb_mov_reg_i32): on
    a 2-byte boundary a viper function (firmware/columns.py's masks,
    shared_engine/dgn.py's line reader) reads a wrong constant or jumps
    anywhere, depending on where the linker happened to put it. The file is
    generated only when the manifest's inputs change, so the edit holds
    until the next freeze, which is followed by this again."""
    try:
        text = frozen_c.read_text()
    except OSError:
        return False
    if _ALIGNED_2 not in text:
        return False
    frozen_c.write_text(text.replace(_ALIGNED_2, _ALIGNED_4))
    return True


def _run_step(what, cmd, env, build_dir, log):
    """One step of the build; PipkeeperError with its last error line."""
    log("building {} ...".format(what))
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if proc.returncode:
        lines = [l for l in (proc.stdout + proc.stderr).splitlines() if "rror" in l]
        tail = lines[-1] if lines else (proc.stderr or proc.stdout).strip().splitlines()[-1:]
        (build_dir / "failed.log").parent.mkdir(parents=True, exist_ok=True)
        (build_dir / "failed.log").write_text(proc.stdout + proc.stderr)
        raise PipkeeperError("building {} failed: {} (the whole log: {})".format(
            what, tail if isinstance(tail, str) else " ".join(tail), build_dir / "failed.log"))
