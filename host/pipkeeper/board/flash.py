"""Putting our code on a board: compile for its MicroPython, copy what changed.

The board says which .mpy it loads (`sys.implementation._mpy`: version and
native architecture); we compile with mpy-cross for exactly that (refusing a
board whose .mpy version this mpy-cross cannot write, or whose MicroPython
is older than 1.23, the oldest the scorer runs on), in a cache folder so
an unchanged source is never compiled twice. The board then lists the sha256
of every file we manage (one round trip), and only files whose hash differs
are sent, each under a temporary name, checked on the board, then renamed
into place: a pulled cable leaves the old file or the new one, never half of
one. Files of ours that the build no longer has are removed, so a stale
module cannot shadow a new one.

Board layout: /lib/pipkeeper.bundle, one file holding the packages
shared_engine/, firmware/ and hardware/profiles/ as .mpy (and the fonts'
glyph bitmaps), which /lib/pkbundle.mpy mounts at /pk (firmware/bundle.py:
on LittleFS each path looked up costs more than the bytes read);
/lib/pklink.mpy (the board's half of the link); /main.py, a few lines that
mount the bundle and start the app; /boot.py, the early power latch
(pipkeeper/board/bootfile.py). Files of an older layout (/lib/firmware/...) are
removed as stale.

On a Badger running Pimoroni's Badger OS (its launcher is /launcher.py and
its apps live in /examples/), the launcher's /main.py is left alone: the
scorer becomes one of its apps, /examples/pipkeeper.py with its icon
/examples/icon-pipkeeper.jpg, and ``boot_app`` makes it the app the board
boots into (the launcher's /state/launcher.json names the running app; A+C
held at power-on goes back to the launcher, as for every Badger OS app).

The virtual board (the unix port) reports its own arch (x64 here): we
compile for it like any board; bytecode .mpy files do not depend on the
arch anyway, and -march only matters for native code, which we do not use.
A board whose build has no native emitter reports no arch: we then pass no
-march at all.
"""

import hashlib
import os
import re
import subprocess
from pathlib import Path

from pipkeeper.board import bundle, mpy, onboard
from pipkeeper.board.link import DROP_SCORER
from pipkeeper.errors import PipkeeperError
from pipkeeper.progress import Null, human
from pipkeeper.wording import did_you_mean

# What goes on the board, from the checkout/installed packages.
#   (package, relative paths left out)
PACKAGES = (
    ("shared_engine", ("simulate.py",)),  # the bots never run on the board
    ("firmware", ("main.py", "bundle.py")),  # main.py goes to /main.py
    ("hardware", ()),
)
# From hardware/, only the package and its board profiles are firmware.
HARDWARE_ONLY = ("__init__.py", "profiles/")
PACKS = "/lib/i18n/"       # the languages' packs (firmware/lang.py reads them)
MANAGED = ("/lib/shared_engine", "/lib/firmware", "/lib/hardware", "/lib/pipkeeper.bundle", "/lib/i18n",
           "/lib/pkbundle.mpy", "/lib/pklink.mpy", "/main.py", "/boot.py")
# Under Badger OS the scorer is an app of the launcher, which keeps /main.py.
APP = "/examples/pipkeeper.py"
ICON = "/examples/icon-pipkeeper.jpg"
MANAGED_APP = MANAGED[:-2] + (APP, ICON)
LAUNCHER_STATE = "/state/launcher.json"

_CHUNK = 4 * 1024  # raw bytes per exec: a 5.5 KB base64 string on the board, whose heap
# may hold a whole game when the host connects: a 6 KB chunk (an 8,193-byte
# string) found no room in the 160 KB heap after the scripted game once the
# bundle had grown past 88 KB (tests/host/test_cli_board.py)


class Item:
    """One file of the build: where it goes and its bytes."""

    def __init__(self, remote, data):
        self.remote = remote
        self.data = data
        self.sha = hashlib.sha256(data).hexdigest()


class FlashResult:
    def __init__(self):
        self.copied = []      # Items sent
        self.unchanged = []   # Items already on the board
        self.removed = []     # board paths removed
        self.flash_free = None
        self.flash_total = None
        self.target = ""      # e.g. "mpy v6.3, armv6m"
        self.dry_run = False
        self.simulated = False  # the unix port's board (pipkeeper sim), not an RP2040
        self.badger_os = False  # installed as a Badger OS app
        self.board = None       # the build (hardware/profiles/) the board is set up as
        self.board_assumed = False  # no /board.txt on the board and no --board: the default
        self.board_written = False  # /board.txt written (or, dry run, to be written)
        self.image = None           # the scorer's own image the board runs (identity's dict)
        self.image_current = None   # whether it is the one this pipkeeper builds
        self.image_wanted = None    # the one this pipkeeper builds for the board (identity's dict)
        self.image_updated = False  # the board was brought up to it (BOOTSEL and a UF2)

    @property
    def bytes_copied(self):
        return sum(len(i.data) for i in self.copied)

    def as_dict(self):
        return {
            "target": self.target, "dry_run": self.dry_run, "badger_os_app": self.badger_os,
            "board": self.board, "board_assumed": self.board_assumed,
            "board_written": self.board_written,
            "copied": [{"file": i.remote, "size": len(i.data)} for i in self.copied],
            "unchanged": len(self.unchanged), "removed": self.removed,
            "bytes_copied": self.bytes_copied,
            "bytes_total": sum(len(i.data) for i in self.copied + self.unchanged),
            "flash_free": self.flash_free, "flash_total": self.flash_total,
            "image": self.image, "image_current": self.image_current,
            "image_wanted": self.image_wanted, "image_updated": self.image_updated,
        }


def mpy_cross_banner():
    """What `mpy-cross --version` says ("MicroPython v1.29.0 on ...;
    mpy-cross emitting mpy v6.3")."""
    try:
        return subprocess.run([mpy.mpy_cross_binary(), "--version"], capture_output=True,
                              text=True, timeout=30).stdout
    except OSError as exc:
        raise PipkeeperError("cannot run mpy-cross: {}".format(exc))


def mpy_cross_version():
    """(major, sub) of the .mpy files this mpy-cross writes."""
    out = mpy_cross_banner()
    m = re.search(r"mpy v(\d+)\.(\d+)", out)
    if not m:
        raise PipkeeperError("cannot tell which .mpy version mpy-cross writes ({!r})".format(out.strip()))
    return int(m.group(1)), int(m.group(2))


# The oldest MicroPython the scorer runs on: Pimoroni's Badger 2040 build is
# 1.23.0, and the firmware uses nothing newer (no blit from a tuple, 1.26).
MIN_MICROPYTHON = (1, 23)


def check_version(info):
    """Refuse a board whose MicroPython is older than MIN_MICROPYTHON: its
    .mpy version may match (1.19 to 1.22 load v6 too), but the scorer is
    only kept working from 1.23 on, and a clear refusal now beats a board
    that fails at its first screen."""
    if tuple(info.version[:2]) < MIN_MICROPYTHON:
        raise PipkeeperError(
            "this board runs MicroPython {}; the scorer needs {} or newer: update it "
            "(README: Putting MicroPython on a board)".format(
                info.version_text(), ".".join(str(v) for v in MIN_MICROPYTHON)))


def check_target(info):
    """The mpy-cross arguments for this board, or why we cannot build for it."""
    ours = mpy_cross_version()
    if info.mpy_version == 0:
        raise PipkeeperError("the board's MicroPython {} does not load .mpy files; "
                             "install a current MicroPython (see README)".format(info.version_text()))
    if info.mpy_version != ours[0]:
        raise PipkeeperError(
            "incompatible .mpy version: the board's MicroPython {} loads .mpy v{}, this mpy-cross "
            "writes v{}; update MicroPython on the board (see README), or install an mpy-cross "
            "that matches it".format(info.version_text(), info.mpy_version, ours[0]))
    check_version(info)
    args = []
    if info.arch:
        args.append("-march=" + info.arch)
    return args, "mpy v{}.{}{}".format(info.mpy_version, info.mpy_sub,
                                        ", " + info.arch if info.arch else "")


def source_root(package):
    """The folder of an importable package (the checkout or site-packages)."""
    import importlib

    mod = importlib.import_module(package)
    return Path(mod.__file__).resolve().parent


def cache_dir():
    env = os.environ.get("PIPKEEPER_CACHE")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("pipkeeper", appauthor=False))


def _shipped(package, rel, excluded):
    if "__pycache__" in rel.split("/") or rel.startswith("tests/"):
        return False
    if rel in excluded:
        return False
    if package == "hardware" and not (rel == "__init__.py" or rel.startswith("profiles/")):
        return False
    return rel.endswith(".py")


def sources():
    """The scorer's packages as [(path relative to /lib, e.g.
    "firmware/app.py", the source file)], each package's data files (the
    fonts' glyph bitmaps) before its modules: what the bundle holds, the
    modules compiled, and what the scorer's own image freezes
    (pipkeeper.image)."""
    out = []
    for package, excluded in PACKAGES:
        root = source_root(package)
        for src in sorted(root.rglob("*.bin")):
            out.append((package + "/" + src.relative_to(root).as_posix(), src))
        for src in sorted(root.rglob("*.py")):
            rel = src.relative_to(root).as_posix()
            if _shipped(package, rel, excluded):
                out.append((package + "/" + rel, src))
    return out


def build(args, cache=None, app=False, profile=None):
    """Every file for the board, compiled with `args`: a list of Items
    (``app``: as a Badger OS app rather than the board's /main.py; with a
    ``profile``, the /boot.py of that build, see pipkeeper.board.bootfile)."""
    out = Path(cache or cache_dir()) / "build" / ("mpy" + "_".join(a.strip("-") for a in args))
    packed = []
    for rel, src in sources():
        if rel.endswith(".py"):
            packed.append((rel[:-3] + ".mpy", mpy.compiled(src, out / (rel[:-3] + ".mpy"), args, rel)))
        else:
            packed.append((rel, src.read_bytes()))
    items = [Item(bundle.PATH, bundle.pack(packed))]
    # The languages' packs, rendered now (pipkeeper.i18n.render), each a file
    # of its own: read by offset as a screen is drawn, and on LittleFS a read
    # costs more the further it is into a file. Rendered once (packcache).
    from pipkeeper.i18n import packcache
    for name, data in sorted(packcache.files(cache or cache_dir()).items()):
        items.append(Item(PACKS + name, data))
    reader = source_root("firmware") / "bundle.py"
    items.append(Item(bundle.READER, mpy.compiled(reader, out / "pkbundle.mpy", args, "pkbundle.py")))
    helper = Path(onboard.HERE) / "pklink.py"
    items.append(Item("/lib/pklink.mpy", mpy.compiled(helper, out / "pklink.mpy", args, "pklink.py")))
    main = source_root("firmware") / "main.py"
    if app:
        from pipkeeper.board.icon import badger_os_icon

        items.append(Item(APP, main.read_bytes()))
        items.append(Item(ICON, badger_os_icon()))
    else:
        from hardware import profiles
        from pipkeeper.board.bootfile import boot_py

        items.append(Item("/main.py", main.read_bytes()))
        if profile:
            items.append(Item("/boot.py", boot_py(profiles.load(profile)).encode()))
    return items


def layout(args, name, wakeup, app=False, cache=None):
    """(the Items of the build, the board paths of ours) for a board of
    build ``name`` (hardware/profiles/) whose MicroPython latches the power
    in C (``wakeup``) or not, installed as a Badger OS app (``app``) or as
    the board's /main.py. The one place that decides what goes on a board:
    ``flash`` copies it over serial, ``pipkeeper uf2`` puts the very same
    files in the filesystem of its image (so a flash afterwards copies
    nothing)."""
    profile = None if app or wakeup else name
    items = build(args, cache, app=app, profile=profile)
    managed = MANAGED_APP if app else MANAGED
    if profile is None:
        # A build that latches in C: its own /boot.py (if any) is not ours.
        managed = tuple(p for p in managed if p != "/boot.py")
    return items, managed


BOARD_FILE = "/board.txt"
DEFAULT_BUILD = "badger2040"


def known_builds():
    from hardware import profiles
    return ", ".join(profiles.NAMES)


def check_build(name):
    """``name`` if it is a build of hardware/profiles/, else an error that
    lists them."""
    from hardware import profiles

    if name not in profiles.NAMES:
        raise PipkeeperError("unknown build {!r}; the builds are: {}{}".format(
            name, known_builds(), did_you_mean(name, profiles.NAMES)))
    return name


def board_build(link):
    """(the build the board names in /board.txt, "" when it has none;
    whether its MicroPython latches the power and notes the wake buttons in
    C, as Pimoroni's Badger builds do with their ``wakeup`` module, and so
    needs no /boot.py of ours). One round trip."""
    name, wakeup = link.literal(
        "import gc\ngc.collect()\ntry:\n import wakeup\n w=True\nexcept ImportError:\n w=False\n"
        "try:\n n=open({!r}).read().strip()\nexcept OSError:\n n=''\nprint(repr((n,w)))".format(BOARD_FILE))
    if name:
        try:
            check_build(name)
        except PipkeeperError:
            raise PipkeeperError("the board's {} names {!r}, which is no build; choose one with "
                                 "pipkeeper flash --board NAME ({})".format(BOARD_FILE, name, known_builds()))
    return name, wakeup


def write_build(link, name):
    """/board.txt on the board names ``name`` (written atomically)."""
    import binascii

    data = (name + "\n").encode()
    link.exec("R({!r},{!r},{!r})".format(
        BOARD_FILE, binascii.b2a_base64(data, newline=False).decode("ascii"),
        hashlib.sha256(data).hexdigest()))


def runs_badger_os(link):
    """Whether the board runs Pimoroni's Badger OS launcher."""
    return link.literal(
        "import os\ndef _e(p):\n try:\n  return os.stat(p)[0]\n except OSError:\n  return 0\n"
        "print(repr(bool(_e('/launcher.py')) and _e('/examples') & 0x4000 != 0))")


def set_boot_app(link):
    """Make the scorer the Badger OS app the board boots into: the
    launcher's state names it as running (other keys kept; written
    atomically with the link's R)."""
    import binascii
    import json

    state = link.literal(
        "import json\ntry:\n print(repr(json.load(open({!r}))))\n"
        "except (OSError, ValueError):\n print('{{}}')".format(LAUNCHER_STATE))
    if not isinstance(state, dict):
        state = {}
    state["running"] = APP[:-3]
    data = json.dumps(state).encode()
    link.exec("import os\ntry:\n os.mkdir('/state')\nexcept OSError:\n pass")
    link.exec("R({!r},{!r},{!r})".format(
        LAUNCHER_STATE, binascii.b2a_base64(data, newline=False).decode("ascii"),
        hashlib.sha256(data).hexdigest()))


def board_manifest(link, managed=MANAGED):
    """{board path: sha256} of every file we manage on the board."""
    import ast

    link.info()
    out = link.exec("M({})".format(",".join(repr(p) for p in managed)), timeout=60)
    found = {}
    for line in out.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            literal, size, sha = line.rsplit(" ", 2)
            found[ast.literal_eval(literal)] = sha
        except (ValueError, SyntaxError):
            raise PipkeeperError("the board's file list was garbled; run flash again")
    return found


def flash(link, force=False, dry_run=False, progress=None, cache=None, log=None,
          boot_app=False, board=None):
    """Bring the board's copy of our code up to date; a FlashResult. Under
    Badger OS the scorer goes in as a launcher app (``boot_app``: the one
    the board boots into). ``board``: the build (hardware/profiles/) to set
    the board up as, written to its /board.txt; without it the board keeps
    the build its /board.txt names, or is taken for the default build."""
    if board is not None:
        check_build(board)
    progress = progress or Null()
    log = log or (lambda text: None)
    info = link.info()
    args, target = check_target(info)
    result = FlashResult()
    result.target = target
    result.dry_run = dry_run
    result.simulated = info.is_virtual
    result.badger_os = app = runs_badger_os(link)
    on_board, wakeup = board_build(link)
    name = board or on_board or DEFAULT_BUILD
    result.board = name
    result.board_assumed = not (board or on_board)
    # A board without /board.txt gets it too, naming the build taken for it:
    # said once, and later flashes keep that build (README).
    result.board_written = name != on_board
    if result.board_assumed:
        log("the board has no {}: taking it for the {} build (pipkeeper flash --board NAME "
            "chooses another: {})".format(BOARD_FILE, name, known_builds()))
    from pipkeeper.board import image_identity as identity
    own = identity.of_board(link)
    if own is not None:
        # The scorer's own image: the scorer is frozen into it, and the
        # files of the .mpy install are dead weight (its frozen /main.py
        # runs instead of the filesystem's). Whether it is the image this
        # pipkeeper builds is the caller's to say (pipkeeper.image sits
        # above this layer: commands/flash.py).
        result.image = own.as_dict()
        items, managed = [], MANAGED
    else:
        items, managed = layout(args, name, wakeup, app=app, cache=cache)
    # with the temporary copies a pulled cable may have left beside them
    on_board = board_manifest(link, managed + tuple(p + ".tmp" for p in managed))
    if result.board_written and not dry_run:
        # First: the files below are built for it (its /boot.py).
        write_build(link, name)
        log("  {} now names the {} build".format(BOARD_FILE, name))
    wanted = {i.remote for i in items}
    for item in items:
        if not force and on_board.get(item.remote) == item.sha:
            result.unchanged.append(item)
        else:
            result.copied.append(item)
    result.removed = sorted(p for p in on_board if p not in wanted)
    if not dry_run:
        progress.total = result.bytes_copied
        for item in result.copied:
            progress.note(item.remote)
            send_file(link, item.remote, item.data, progress)
            log("{:>9}  {}".format(human(len(item.data)), item.remote))
        for path in result.removed:
            link.exec("D({!r})".format(path))
            log("  removed  {}".format(path))
        if result.copied:
            check_imports(link)
        if app and boot_app:
            set_boot_app(link)
            log("  the board now boots into the scorer (hold A+C at power-on for the launcher)")
    result.flash_total, result.flash_free = link.flash_space()     # the sim's as a board's too
    return result


def send_file(link, remote, data, progress=None):
    """Write `data` to `remote` on the board: temporary name, verify, rename."""
    progress = progress or Null()
    import binascii

    tmp = remote + ".tmp"
    link.exec("O({!r})".format(tmp))
    for i in range(0, len(data), _CHUNK):
        block = data[i:i + _CHUNK]
        link.exec("A({!r})".format(binascii.b2a_base64(block, newline=False).decode("ascii")), timeout=30)
        progress.advance(len(block))
    out = link.exec("C({!r},{!r},{!r})".format(tmp, remote, hashlib.sha256(data).hexdigest()), timeout=30)
    if out.strip() != b"ok":
        raise PipkeeperError("writing {} on the board failed".format(remote))


def check_imports(link):
    """Load the engine we just wrote: a .mpy the board cannot load fails here."""
    # The modules go before (the old ones) and after (the new ones): what
    # follows on the link (its free space, a test run) gets the heap back.
    code = ("import sys,gc\n" + DROP_SCORER +
            "import pkbundle\ntry:\n import vfs\nexcept ImportError:\n import os as vfs\n"
            "try:\n vfs.umount('/pk')\nexcept OSError:\n pass\n"
            "if '/pk' in sys.path:\n sys.path.remove('/pk')\n"
            "if not pkbundle.mount():\n raise OSError('no bundle')\n"
            "import shared_engine.engine,shared_engine.dgn,firmware.app\n" + DROP_SCORER + "print('ok')")
    try:
        link.exec(code, timeout=30)
    except PipkeeperError as exc:
        raise PipkeeperError("the board cannot load the files just written ({})".format(exc))
