"""The scorer's own image (pipkeeper.image): what is frozen into it, which
scorer it says it holds, the checks of the toolchain and the MicroPython
source tree, and the build's cache. The build itself needs Debian's ARM
toolchain and ../shared/micropython/; the image on the emulated RP2040 is
tests/device's (test_own_image.py and every device test's "own" image)."""

import os
import shutil
from pathlib import Path

import pytest

from pipkeeper.errors import PipkeeperError
from pipkeeper.board import image_identity as identity
from pipkeeper.image import build

ROOT = Path(__file__).resolve().parents[2]
TARBALL = ROOT.parent / "shared" / "micropython" / "micropython-v1.28.0-rp2.tar.gz"
# The cache as the session found it: builds take minutes, and are keyed by
# their inputs (tests/host's fixtures point PIPKEEPER_CACHE elsewhere).
def _session_cache():
    from pipkeeper.board.flash import cache_dir
    return str(cache_dir())


CACHE = _session_cache()


def test_the_tree_holds_the_scorer_as_flash_ships_it():
    from pipkeeper.board import flash
    tree, ident = build.stage("badger2040")
    shipped = {rel for rel, _src in flash.sources() if rel.endswith(".py")}
    assert shipped - set(build.NEVER_RUN) <= set(tree)
    assert "shared_engine/simulate.py" not in tree and "firmware/bundle.py" not in tree
    # the unix port's board and Pimoroni's build's are never this image's
    assert not set(build.NEVER_RUN) & set(tree)
    assert {"firmware/board_machine.py", "firmware/uc8151.py"} <= set(tree)
    assert not [p for p in tree if p.startswith("hardware/citations")]
    for name in ("pkdata.py", "pkimage.py", "pklink.py", "boot.py", "main.py"):
        assert name in tree
    # The image's own start runs the frozen app; no filesystem search.
    assert b'sys.path[:] = [".frozen"]' in tree["main.py"] and b"from firmware import app" in tree["main.py"]
    # ... and latches the power first thing on the Badger.
    assert b"Pin(10, Pin.OUT, value=1)" in tree["boot.py"]
    assert ident.board == "badger2040" and len(ident.sources) == 16


def test_the_data_a_press_reads_is_frozen_under_the_names_the_firmware_asks_for():
    from pipkeeper.i18n import render
    tree, _ident = build.stage("badger2040")
    scope = {}
    exec(tree["pkdata.py"].decode(), scope)
    files = scope["FILES"]
    root = ROOT / "firmware"
    # firmware/text.py asks for a font's bitmaps beside its module: a frozen
    # module's __file__ is "firmware/font_big.py"
    for font in ("font_big", "font_mid"):
        assert files["firmware/%s.bin" % font] == (root / (font + ".bin")).read_bytes()
    # firmware/lang.py asks for the packs beside text.py: "firmware/i18n/<lang>.bin"
    for name, data in render.files().items():
        assert files["firmware/i18n/" + name] == data


def test_the_pico_builds_boot_without_a_latch():
    tree, ident = build.stage("pico_epaper29")
    assert ident.board == "pico_epaper29"
    assert b"value=1" not in tree["boot.py"]
    assert ident != build.stage("badger2040")[1]


def test_the_identity_follows_the_sources_and_reads_back_from_the_image():
    tree, ident = build.stage("badger2040")
    again = build.stage("badger2040")[1]
    assert again == ident                                   # repeatable
    older = build.stage("badger2040", version="0.0.9")[1]
    assert older.sources == ident.sources and older != ident
    scope = {}
    exec(tree["pkimage.py"].decode(), scope)
    assert (scope["VERSION"], scope["SOURCES"], scope["BOARD"]) == ident.as_tuple()
    # the mark is found in an image's bytes, as a frozen bytes constant keeps it
    blob = b"\x00" * 1000 + scope["MARK"] + b"\x00" * 50
    assert identity.of_image(blob) == ident
    assert identity.of_image(b"MicroPython v1.28.0" + b"\xff" * 100) is None
    assert identity.Identity.from_dict(ident.as_dict()) == ident


def test_a_changed_module_changes_the_sources_hash(monkeypatch, tmp_path):
    from pipkeeper.board import flash
    base = build.stage("badger2040")[1]
    real = flash.sources()
    changed = tmp_path / "app.py"
    changed.write_bytes(dict(real)["firmware/app.py"].read_bytes() + b"\n# changed\n")
    monkeypatch.setattr(flash, "sources", lambda: [
        (rel, changed if rel == "firmware/app.py" else src) for rel, src in real])
    assert build.stage("badger2040")[1].sources != base.sources


def _tree(tmp_path, version=(1, 28, 0), submodules=True):
    t = tmp_path / "mp"
    (t / "py").mkdir(parents=True)
    (t / "py" / "mpconfig.h").write_text(
        "#define MICROPY_VERSION_MAJOR (%d)\n#define MICROPY_VERSION_MINOR (%d)\n"
        "#define MICROPY_VERSION_MICRO (%d)\n" % version)
    (t / "ports" / "rp2").mkdir(parents=True)
    (t / "ports" / "rp2" / "Makefile").write_text("all:\n")
    if submodules:
        for sub in build.SUBMODULES:
            (t / sub).parent.mkdir(parents=True, exist_ok=True)
            (t / sub).write_text("")
    return t


def test_the_source_tree_is_checked_in_one_line(tmp_path, monkeypatch):
    monkeypatch.delenv(build.ENV_SOURCE, raising=False)
    with pytest.raises(PipkeeperError, match="--micropython-src"):
        build.source_tree(None)
    with pytest.raises(PipkeeperError, match="no MicroPython source tree at"):
        build.source_tree(str(tmp_path / "nowhere"))
    with pytest.raises(PipkeeperError, match="not a MicroPython source tree"):
        build.source_tree(str(tmp_path))
    with pytest.raises(PipkeeperError, match=r"is MicroPython 1\.27\.0; the image is built from v1\.28\.0"):
        build.source_tree(str(_tree(tmp_path / "a", (1, 27, 0))))
    with pytest.raises(PipkeeperError, match="lacks the submodule pico-sdk"):
        build.source_tree(str(_tree(tmp_path / "b", submodules=False)))
    good = _tree(tmp_path / "c")
    assert build.source_tree(str(good)) == good
    monkeypatch.setenv(build.ENV_SOURCE, str(good))
    assert build.source_tree(None) == good


def test_a_missing_toolchain_is_one_line(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(PipkeeperError) as got:
        build.check_toolchain()
    assert "arm-none-eabi-gcc is not installed" in str(got.value) and "apt-get install" in str(got.value)
    assert "\n" not in str(got.value)


def test_the_cli_says_what_is_missing_in_one_line(tmp_path):
    from boardkit import run_cli
    code, out, err = run_cli("firmware", "--micropython-src", str(tmp_path / "nowhere"), "-o",
                             str(tmp_path / "x.uf2"), env={"PIPKEEPER_CACHE": str(tmp_path / "c")})
    assert code == 1 and err.startswith("pipkeeper: ") and err.count("\n") == 1, err
    assert not (tmp_path / "x.uf2").exists()


needs_build = pytest.mark.skipif(
    not (TARBALL.is_file() and shutil.which("arm-none-eabi-gcc") and shutil.which("cmake")),
    reason="building the image needs Debian's gcc-arm-none-eabi, libnewlib-arm-none-eabi and "
           "cmake, and %s" % TARBALL)


@needs_build
@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_an_unchanged_scorer_is_not_rebuilt_and_the_uf2_keeps_the_filesystem():
    from pipkeeper.board import images
    first = build.build("badger2040", source=str(TARBALL), cache=CACHE)
    again = build.build("badger2040", source=str(TARBALL), cache=CACHE)
    assert not again.rebuilt and again.code == first.code and again.seconds < 60
    assert identity.of_image(first.code) == first.identity
    assert images.micropython_version(first.code) == (1, 28, 0)
    assert len(first.code) <= build.FS_OFFSET
    # The UF2 writes the code alone: the games' filesystem is left as it is.
    chunks = images.uf2_chunks(first.uf2())
    assert max(a + len(d) for a, d in chunks.items()) <= build.FS_OFFSET
    assert images.uf2_to_bin(first.uf2())[:len(first.code)] == first.code


def test_frozen_native_code_is_put_on_4_byte_boundaries(tmp_path):
    """mpy-tool writes ARMv6-M native code 2-byte aligned; the Thumb-1
    emitter's 32-bit constants and far jumps assume 4 (build.align_native)."""
    from pipkeeper.image import build
    c = tmp_path / "frozen_content.c"
    native = ('static const byte fun_data_x[4] __attribute__((section(".text"))) '
              '__attribute__ ((aligned (2))) = {1, 2, 3, 4};\n')
    c.write_text("// frozen\n" + native * 2)
    assert build.align_native(c)
    text = c.read_text()
    assert "aligned (2)" not in text and text.count("aligned (4)") == 2
    assert not build.align_native(c)                    # nothing more to do: no rebuild
    assert not build.align_native(tmp_path / "absent.c")


# -- what the image leaves out of MicroPython (recipe/PIPKEEPER/mpconfigport.h) ---------

# Each option the recipe turns off, and what Python code would use of it
# (regular expressions: an import of a module, a name).
_MODULE = r"(import|from) {}\b"
_LEFT_OUT = {
    "MICROPY_VFS_FAT": (r"\bVfsFat\b",),
    "MICROPY_PY_HASHLIB_MD5": (r"\bmd5\b",),
    "MICROPY_PY_HASHLIB_SHA1": (r"\bsha1\b",),
    "MICROPY_PY_CRYPTOLIB": (_MODULE.format("cryptolib"),),
    "MICROPY_PY_MACHINE_I2S": (r"\bI2S\b",),
    "MICROPY_PY_ONEWIRE": (_MODULE.format("onewire"),),
    "MICROPY_PY_MACHINE_DHT_READINTO": (r"\bdht_readinto\b", _MODULE.format("dht")),
    "MICROPY_PY_MACHINE_BITSTREAM": (r"\bbitstream\b",),
    "MICROPY_EMIT_INLINE_THUMB": (r"\basm_thumb\b",),
    "MICROPY_PY_BUILTINS_COMPLEX": (r"\bcomplex\(", r"\d+j\b"),
    "MICROPY_PY_CMATH": (_MODULE.format("cmath"),),
    "MICROPY_PY_MATH_SPECIAL_FUNCTIONS": (r"\b(l?gamma|erfc?)\(",),
    "MICROPY_PY_UCTYPES": (_MODULE.format("uctypes"),),
    "MICROPY_PY_RE": (_MODULE.format("re"),),
    "MICROPY_PY_PLATFORM": (_MODULE.format("platform"),),
    "MICROPY_PY_MACHINE_I2C_TARGET": (r"\bI2CTarget\b",),
    "MICROPY_EMIT_THUMB": (r"@micropython\.(native|viper)\b",),
    "MICROPY_PY_MACHINE_UART": (r"\bUART\(",),
    "MICROPY_PY_MACHINE_PWM": (r"\bPWM\(",),
    "MICROPY_PY_MACHINE_SOFTSPI": (r"\bSoftSPI\b",),
    "MICROPY_PY_MACHINE_PULSE": (r"\btime_pulse_us\b",),
    "MICROPY_PY_BUILTINS_HELP": (r"\bhelp\(",),
    "MICROPY_PY_ASYNCIO": (_MODULE.format("u?asyncio"),),
}
# What only code compiled on the board may not use: the scorer's own modules
# reach the board compiled by mpy-cross (frozen, or .mpy files), their viper
# functions as machine code the image still loads.
_COMPILED_ON_BOARD = {"MICROPY_EMIT_THUMB"}


def _turned_off():
    import re
    off = set()
    for name in ("mpconfigport.h", "mpconfigboard.h"):
        text = (build.RECIPE / name).read_text()
        off |= set(re.findall(r"^#define (MICROPY_\w+)\s+\(0\)", text, re.M))
    return off


def test_the_image_leaves_out_only_what_nothing_on_the_board_uses():
    """The recipe takes out of MicroPython what the scorer never uses (the
    FAT filesystem, MD5, SHA-1, AES, I2S, complex numbers, re ...) to make
    room for its packs. Nothing that runs on the board may use it: the
    scorer's modules, the link's board half, and the engine's tests that
    `pipkeeper test --board` runs there (with their runner). The checkpoint's
    crc32 is binascii's, built only with deflate: deflate stays."""
    from pipkeeper.board import flash
    off = _turned_off()
    assert set(_LEFT_OUT) == off - {"MICROPY_ALLOC_GC_STACK_SIZE"}, sorted(off)
    assert "MICROPY_PY_DEFLATE" not in off and "MICROPY_PY_HASHLIB" not in off
    compiled = [src for _, src in flash.sources() if src.suffix == ".py"]
    sources = [ROOT / "host/pipkeeper/board/onboard/pklink.py", ROOT / "tests/mp_runner.py"]
    sources += sorted((ROOT / "tests/engine").glob("*.py"))
    import re
    for src in compiled + sources:
        text = src.read_text()
        for option in off - (_COMPILED_ON_BOARD if src in compiled else set()):
            for use in _LEFT_OUT.get(option, ()):
                found = re.search(use, text)
                assert found is None, "{} uses {!r} ({} is off in the image)".format(
                    src, found.group(0), option)
