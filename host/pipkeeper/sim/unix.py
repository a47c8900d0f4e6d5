"""The simulated board: the real firmware on the MicroPython unix port.

Process model (other commands build on it: `flash` and `sync` talk to the
`--serial` port exactly as to a board):

- One ``micropython`` process is the board, its heap the board's 160 KB
  plus what the bootstrap keeps of it (``harness_share``). Its bootstrap
  (``BOOT`` below) remounts the root at the folder DIR (mp/flashdir.py), so
  the board's flash is DIR and its ``/games/`` is ``DIR/games/``. If DIR holds a flashed firmware
  (``DIR/lib/firmware/``, as `pipkeeper flash` lays it out) that copy runs,
  as on a board (sys.path "", "/lib"); otherwise the source
  tree (the folder holding the ``firmware`` and ``shared_engine`` packages),
  compiled to .mpy in a cache folder (``build_tree``: importing engine.py
  from source would need more heap than the board has), is mounted
  read-only at ``/.pipkeeper-src`` and put first on sys.path.
  Then ``firmware.app.main()`` runs the scorer.
- Buttons go in through a pipe (one name a line); panel updates come out
  through another (firmware/board_sim.py documents the records: ``F``/``P``
  + 4,736 framebuffer bytes, ``I`` idle, ``H`` halted). Both are inherited
  file descriptors named by PIPKEEPER_SIM_BUTTONS / PIPKEEPER_SIM_PANEL.
- USB mode (default): the process lives for the whole run; each press gives
  exactly one update, then ``I``.
- ``--power-cycle``: every press is a new process started with
  PIPKEEPER_SIM_WAKE=<button> and PIPKEEPER_SIM_BATTERY=1; it restores from
  the flash folder, handles the press, updates the panel once and exits in
  ``halt()`` (as the Badger cuts its own power), or, during a game, where
  the board would doze (``S``), when it finds no more presses: the power
  cut while it sleeps. The run starts with one plain power-on boot (one
  update, no press). ``awake`` (the tests) keeps a dozing board's process
  instead, as the Badger keeps its latch during a game: the next press
  goes to it, ``idle_out()`` is the time-out (the resting screen, then
  ``H``), ``cut()`` a power cut while it sleeps.
- ``--serial``: the board process runs ``micropython -i`` with its stdin and
  stdout on a pseudo-terminal (its controlling terminal, in the state of a
  USB CDC port: no echo, no output translation, Ctrl-C raises
  KeyboardInterrupt). A second pty, in raw mode, is the port the host
  opens; its path is the FIRST line printed. A relay thread copies bytes
  between the two. Ctrl-C from mpremote interrupts the scorer's loop, which
  falls into the REPL (``-i``), so the raw REPL, ``fs`` and ``exec`` work.
  A soft reset (Ctrl-D in the raw REPL) ends the unix port: the relay then
  prints "soft reboot" and starts a fresh process straight into the raw
  REPL, as a board does. When the host closes the port, the board is reset
  and the scorer runs again. Presses still come from the keyboard or the
  script through the buttons pipe. The sim stays up until killed or until
  its input ends.
"""

import os
import queue
import select
import subprocess
import threading
import time
from pathlib import Path

from pipkeeper.closing import Closing
from pipkeeper.errors import PipkeeperError
from pipkeeper.files import write_if_changed
from pipkeeper.sim.panel import FRAME_BYTES, Frame
from pipkeeper.sim.relay import PROMPT, PortRelay

HEAP = "160K"       # the firmware's heap: the board's (the harness's share comes on top)
_SHARES = {}


def harness_share():
    """Bytes of the heap the sim's own bootstrap keeps (mp/flashdir.py's
    filesystem in Python, mp/machine.py's stand-in), measured once a run.
    A board pays neither (LittleFS and ``machine`` are in C there), so the
    process gets the firmware's heap plus this: the firmware then has what
    a 160 KB heap gives it, as tests/firmware/mp/mpbuild.py does for the
    fault harnesses. Rounded up to 4 KB: its Python calls (a path built
    at every file operation, 160 bytes of garbage each where the board's
    C filesystem makes 96) scatter the heap more than a board's, which the
    resident bytes alone do not pay for."""
    key = micropython()
    if key not in _SHARES:
        import tempfile
        code = ("import gc\ngc.collect()\n_a=gc.mem_alloc()\n" + bootstrap() +
                "import gc\ngc.collect()\nprint(gc.mem_alloc()-_a)\n")
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, PIPKEEPER_SIM_DIR=".", PIPKEEPER_SIM_SRC="")
            r = subprocess.run([os.path.abspath(micropython()), "-X", "heapsize=" + HEAP, "-c", code],
                               cwd=d, env=env, capture_output=True, text=True, timeout=60)
        try:
            n = int(r.stdout.split()[-1])
        except (ValueError, IndexError):
            raise PipkeeperError("the simulated board did not start: %s" % (
                (r.stdout + r.stderr).strip().splitlines() or ["?"])[-1])
        _SHARES[key] = (n + 4095) // 4096 * 4096
    return _SHARES[key]


def process_heap(heap):
    """``-X heapsize=`` for a firmware heap ``heap`` ("160K", or bytes):
    plus the sim's own share (``harness_share``)."""
    s = str(heap)
    n = int(s[:-1]) * 1024 if s[-1:] in "kK" else int(s)
    return str(n + harness_share())
BUTTONS = ("A", "B", "C", "UP", "DOWN")
SRC_MOUNT = "/.pipkeeper-src"

# The board's flash is the folder DIR: host/pipkeeper/sim/mp/flashdir.py mounts
# it as "/" (not vfs.VfsPosix(DIR), whose rename quietly renames a file onto
# itself on this port: every atomic write would do nothing).
MP_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mp")

def bootstrap(plain_posix=False):
    """The code that makes a unix-port process the board: the flash folder
    as "/" (PIPKEEPER_SIM_DIR), the compiled firmware on sys.path
    (PIPKEEPER_SIM_SRC). ``plain_posix`` mounts the folder with VfsPosix
    itself, whose rename is broken (see above) but whose file operations
    cost no Python calls: for benchmarks of a boot, which renames nothing."""
    # mp/machine.py: machine.unique_id() is the sim's own id (board_id below)
    machine = "sys.path.insert(0, " + repr(MP_DIR) + ")\nimport machine\n"
    if plain_posix:
        mount = machine + ("sys.path.pop(0)\n"
                           "vfs.umount('/')\nvfs.mount(vfs.VfsPosix(_d), '/')\nos.chdir('/')\n")
    else:
        mount = machine + ("import flashdir\n"
                           "sys.path.pop(0)\n"
                           "flashdir.mount(_d)\n"
                           "del flashdir\n")
    return (
        "import sys, os, vfs\n"
        "_d = os.getenv('PIPKEEPER_SIM_DIR')\n"
        "_s = os.getenv('PIPKEEPER_SIM_SRC')\n"
        + mount +
        "if _s:\n"
        "    vfs.mount(vfs.VfsPosix(_s), '" + SRC_MOUNT + "', readonly=True)\n"
        "    sys.path[:] = ['" + SRC_MOUNT + "', '', '/lib']\n"
        "else:\n"
        "    sys.path[:] = ['', '/lib']\n"
        "del _d, _s\n"
    )


BOOT = bootstrap()
# As the board's main.py: the flashed modules' bundle first, if there is one.
RUN = ("try:\n    import pkbundle\n    pkbundle.mount()\nexcept ImportError:\n    pass\n"
       "from firmware import app as _app\n_app.main()\n")


def source_root():
    """The folder holding the firmware and shared_engine packages."""
    try:
        import firmware
        return str(Path(firmware.__file__).resolve().parent.parent)
    except ImportError:
        from pipkeeper.paths import repo_root
        return str(repo_root())


PACKAGES = ("firmware", "shared_engine")


def build_tree(src, dest=None):
    """The firmware and engine compiled with mpy-cross for the unix port, as
    the board runs them (.mpy, no compiling at import; compiling engine.py
    from source alone needs ~140 KB of heap), other files (the fonts'
    glyph bitmaps) copied. Only changed files are recompiled (pipkeeper.board.mpy's
    cache). Returns the folder to mount (``dest``, default a cache folder);
    the source folder itself if mpy-cross is missing. Several processes may
    build the same folder at once: each file lands whole (pipkeeper.files)."""
    import hashlib
    from pipkeeper.board import mpy
    if dest is None:
        try:
            import platformdirs
            base = platformdirs.user_cache_dir("pipkeeper")
        except ImportError:
            base = os.path.join(os.path.expanduser("~"), ".cache", "pipkeeper")
        key = hashlib.sha256(os.path.abspath(src).encode()).hexdigest()[:12]
        dest = os.path.join(base, "sim-mpy", key)
    try:
        mpy.mpy_cross_binary()
    except PipkeeperError:
        return src
    for pkg in PACKAGES:
        top = os.path.join(src, pkg)
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [d for d in dirnames if d not in ("__pycache__", "tools")]
            rel = os.path.relpath(dirpath, src)
            out_dir = os.path.join(dest, rel)
            os.makedirs(out_dir, exist_ok=True)
            for fn in filenames:
                sp = os.path.join(dirpath, fn)
                if fn.endswith(".py"):
                    mpy.compiled(Path(sp), Path(out_dir) / (fn[:-3] + ".mpy"), mpy.HOST,
                                 os.path.join(rel, fn))
                elif not fn.endswith((".pyc", ".mpy", ".sha")):
                    with open(sp, "rb") as f:
                        write_if_changed(os.path.join(out_dir, fn), f.read())
    write_packs(os.path.join(dest, "firmware"))
    return dest


def write_names(flash_dir):
    """The simulated board's names file (/pipkeeper/names.bin), as
    `pipkeeper roster` writes a board's: the bitmaps of the names its fonts
    cannot draw, here those of its roster (and its named sets of rules)
    and of the players of its games
    (a record copied into the folder by hand shows its names too).
    Returns the names (the text view reads the file's bitmaps back by
    them: pipkeeper.sim.words)."""
    import json
    from pipkeeper.board import roster
    names = []
    try:
        with open(os.path.join(flash_dir, "pipkeeper", "roster.json"), encoding="utf-8") as f:
            r = json.load(f)
        names += r.get("names") or []
        names += [x.get("name") for x in r.get("sets") or ()]      # the named sets of rules
    except (OSError, ValueError, AttributeError):
        pass
    games = os.path.join(flash_dir, "games")
    if os.path.isdir(games):
        from shared_engine import dgn
        for fn in sorted(os.listdir(games)):
            try:
                with open(os.path.join(games, fn), encoding="utf-8") as f:
                    names += dgn.read(f.read(4096).rsplit("\n", 1)[0]).tag("Players") or []
            except (OSError, ValueError):
                pass
    names = list(dict.fromkeys(n for n in names if isinstance(n, str)))
    write_if_changed(os.path.join(flash_dir, "pipkeeper", "names.bin"), roster.names_file(names))
    return names


def write_packs(firmware_dir):
    """The languages' packs into the firmware's folder (firmware/i18n/), as
    `pipkeeper flash` writes them to /lib/i18n/; only those that changed
    (rendered once: pipkeeper.i18n.packcache)."""
    from pipkeeper.board.flash import cache_dir
    from pipkeeper.i18n import packcache
    for name, data in packcache.files(cache_dir()).items():
        write_if_changed(os.path.join(firmware_dir, "i18n", name), data)


def flashed(folder):
    """Whether ``pipkeeper flash`` has put a firmware on this flash folder
    (/lib/pipkeeper.bundle, /lib/firmware, or /firmware): then that copy
    runs, as on a board."""
    return (os.path.isfile(os.path.join(folder, "lib", "pipkeeper.bundle"))
            or os.path.isdir(os.path.join(folder, "lib", "firmware"))
            or os.path.isdir(os.path.join(folder, "firmware")))


ID_FILE = ".sim-board-id"


def board_id(flash_dir):
    """The simulated board's unique id, 8 bytes in hex as a board's flash
    chip has one: made at random the first time, then kept in the sim's
    folder (DIR/.sim-board-id), so that two sims' games do not collide (all
    were "sim0-0001" and the same "virtual" board in the library)."""
    import secrets
    from pipkeeper.files import write_atomically
    path = os.path.join(flash_dir, ID_FILE)
    try:
        with open(path, encoding="ascii") as f:
            found = f.read().strip()
        bytes.fromhex(found)
        if len(found) == 16:
            return found
    except (OSError, ValueError):
        pass
    made = secrets.token_hex(8)
    write_atomically(path, made + "\n")
    return made


def default_dir():
    import platformdirs
    return os.path.join(platformdirs.user_data_dir("pipkeeper"), "sim")


def short_path(folder):
    """``folder`` under a name of fixed length: a link in the system's
    temporary folder named by the folder's digest, made once and shared.
    Why: the unix port's VfsPosix joins its root to every path it opens
    (each import of the compiled firmware) on the heap, so a longer
    folder cost the 160 KB heap more, and whether a game ran out of
    memory in the sim hung on where the laptop kept the tree."""
    import hashlib
    import tempfile
    folder = os.path.abspath(folder)
    base = "/tmp" if os.path.isdir("/tmp") else tempfile.gettempdir()
    link = os.path.join(base, "pk-src-" + hashlib.sha1(folder.encode()).hexdigest()[:12])
    try:
        if os.path.realpath(link) == os.path.realpath(folder):
            return link
        tmp = "%s.%d" % (link, os.getpid())
        os.symlink(folder, tmp)
        os.replace(tmp, link)
        return link
    except OSError:
        return folder       # (no links here: the long path, as before)


def micropython():
    from pipkeeper.paths import micropython_binary
    return micropython_binary()


def parse_script(text):
    """Button names from a script (str, or bytes as read from its file):
    one a line; blank lines and # comments are ignored. Raises
    PipkeeperError in one line on anything else (bytes that are not text
    among them: a game record given for a script)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PipkeeperError("script line %d is not text (not UTF-8): a script names one button "
                                 "a line (A B C UP DOWN)" % (text.count(b"\n", 0, exc.start) + 1))
    out = []
    for no, line in enumerate(text.splitlines(), 1):
        s = line.split("#", 1)[0].strip()
        if not s:
            continue
        b = s.upper()
        if b not in BUTTONS:
            raise PipkeeperError("script line %d: %r is not a button (A B C UP DOWN)" % (
                no, s if len(s) <= 24 else s[:24] + "..."))
        out.append(b)
    return out


class _Panel:
    """Reads panel records from the firmware's pipe on a thread."""

    def __init__(self, fd):
        self.fd = fd
        self.q = queue.Queue()
        self.t = threading.Thread(target=self._run, daemon=True)
        self.t.start()

    def _read(self, n):
        buf = b""
        while len(buf) < n:
            chunk = os.read(self.fd, n - len(buf))
            if not chunk:
                return None
            buf += chunk
        return buf

    def _run(self):
        try:
            while True:
                tag = self._read(1)
                if tag is None:
                    break
                if tag in (b"F", b"P"):
                    data = self._read(FRAME_BYTES)
                    if data is None:
                        break
                    self.q.put((tag, data))
                elif tag == b"S":       # dozing, the time-out in ms
                    data = self._read(4)
                    if data is None:
                        break
                    self.q.put((tag, data))
                elif tag == b"T":       # a text drawn on the frame that follows
                    n = self._read(4)
                    data = None if n is None else self._read(int.from_bytes(n, "little"))
                    if data is None:
                        break
                    self.q.put((tag, data))
                elif tag == b"L":       # the language the screens speak from now on
                    n = self._read(1)
                    data = None if n is None else self._read(n[0])
                    if data is None:
                        break
                    self.q.put((tag, data))
                else:
                    self.q.put((tag, None))
        except OSError:
            pass
        try:
            os.close(self.fd)     # one pipe per power cycle: do not leak it
        except OSError:
            pass
        self.q.put((b"", None))   # end of file

    def get(self, timeout):
        return self.q.get(timeout=timeout)


class _FrameWords:
    """The words of the frame being drawn, as the board sends them
    (firmware/board_sim_words.py), read back into text on the laptop
    (pipkeeper.sim.words) when the frame comes."""

    def __init__(self, reader):
        self.reader = reader
        self.lang = "en"
        self.clear()

    def clear(self):
        self.items = []
        self.whole = True

    def record(self, tag, data):
        import json
        if tag == b"L":
            self.lang = data.decode("ascii", "replace")
        elif tag == b"C":
            self.clear()
        elif tag == b"X":
            self.whole = False
        else:
            try:
                self.items.append(json.loads(data.decode("utf-8")))
            except ValueError:
                self.whole = False

    def take(self):
        """The frame's words ({"lang", "t": [[x, y, h, colour, text, x
        after it], ...], "whole"}), texts read back; the next frame's
        start empty."""
        out = self.reader.frame(self.lang, self.items, self.whole)
        self.clear()
        return out


class Sim(Closing):
    """One simulated board. ``press(button)`` returns the frames it caused."""

    def __init__(self, flash_dir, power_cycle=False, heap=HEAP, src=None,
                 timeout=60.0, serial=False, env=None, wrapper=None, words=False, awake=False):
        self.dir = os.path.abspath(flash_dir)
        os.makedirs(self.dir, exist_ok=True)
        self.board_id = board_id(self.dir)
        self.power_cycle = power_cycle
        self.awake = awake
        self.dozing = None      # (process, buttons, panel) of a board asleep with its power kept (awake)
        self.doze_ms = None     # the time-out it sleeps with (its last ``S``)
        self.halted = False     # the last power-on or press ended in ``halt()`` (``H``)
        self.heap = heap
        if src is None and not flashed(self.dir):
            src = build_tree(source_root())
        self.names = write_names(self.dir)
        self.src = src
        self.timeout = timeout
        self.serial = serial
        self.extra_env = dict(env or {})
        self._words = None
        if words:
            # each frame with the words drawn on it (firmware/board_sim_words.py)
            self.extra_env["PIPKEEPER_SIM_TEXT"] = "1"
            from pipkeeper.sim.words import Reader
            self._words = _FrameWords(Reader(self))
        self.wrapper = list(wrapper or [])   # e.g. valgrind, for the benchmarks
        self.frames = []
        self.proc = None
        self.panel = None
        self._btn_w = None
        self.log_path = os.path.join(self.dir, ".sim-stderr.txt") if not serial else None
        # A reset (``respawn``) boots the scorer afresh: its screen comes on
        # the panel before the next press's, and is that press's to take.
        self._boot_pending = False

    # -- processes -----------------------------------------------------------------

    def _env(self, btn_fd, panel_fd, wake=None):
        env = dict(os.environ)
        env.update(self.extra_env)
        # "." with the process started in the folder (``_spawn``): the
        # folder's path on the laptop never enters the board's heap. Each
        # file operation (mp/flashdir.py) builds the host path in Python, so
        # a long path (pytest's workers' folders, a user's deep home) cost
        # the 160 KB heap more at every press, and a game that fits on the
        # board ran out of memory in the sim only there.
        env["PIPKEEPER_SIM_DIR"] = "."
        env["PIPKEEPER_SIM_ID"] = self.board_id
        env["PIPKEEPER_SIM_SRC"] = short_path(self.src) if self.src else ""
        env["PIPKEEPER_SIM_BUTTONS"] = str(btn_fd)
        env["PIPKEEPER_SIM_PANEL"] = str(panel_fd)
        env["PIPKEEPER_SIM_WAKE"] = wake or ""
        env["PIPKEEPER_SIM_BATTERY"] = "1" if self.power_cycle else ""
        return env

    def _spawn(self, wake=None, interactive=False, stdio=None, code=None):
        btn_r, btn_w = os.pipe()
        pan_r, pan_w = os.pipe()
        args = self.wrapper + [os.path.abspath(micropython()), "-X",
                               "heapsize=" + process_heap(self.heap)]
        if interactive:
            args.append("-i")
        args += ["-c", BOOT + (RUN if code is None else code)]
        kw = {}
        if stdio is not None:
            kw.update(stdin=stdio, stdout=stdio, stderr=stdio, start_new_session=True,
                      preexec_fn=_make_ctty)
        else:
            err = open(self.log_path, "ab")
            kw.update(stdin=subprocess.DEVNULL, stdout=err, stderr=err)
        proc = subprocess.Popen(args, env=self._env(btn_r, pan_w, wake), cwd=self.dir,
                                pass_fds=(btn_r, pan_w), **kw)
        if stdio is None:
            err.close()
        os.close(btn_r)
        os.close(pan_w)
        return proc, btn_w, _Panel(pan_r)

    def _collect(self, proc, panel, until):
        """Frames from the panel until a record tagged ``until`` (or EOF;
        ``until`` may be a tuple of tags)."""
        if not isinstance(until, tuple):
            until = (until,)
        got = []
        words = self._words
        end = time.monotonic() + self.timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise PipkeeperError("the simulated board did not answer in %ds" % self.timeout)
            try:
                tag, data = panel.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            if tag in (b"T", b"L", b"C", b"X"):
                if words is not None:
                    words.record(tag, data)
                continue
            if tag in (b"F", b"P"):
                fr = Frame(data, tag == b"F", len(self.frames),
                           words=words.take() if words is not None else None)
                self.frames.append(fr)
                got.append(fr)
            elif tag in until:
                self.halted = tag == b"H"
                if tag == b"S":
                    self.doze_ms = int.from_bytes(data, "little")
                return got
            elif tag == b"":
                rc = proc.wait(timeout=self.timeout)
                self.halted = False
                if b"H" in until or (rc == 0 and b"I" in until and got):
                    return got
                raise PipkeeperError("the simulated board stopped (exit %s)%s" % (rc, self._tail()))

    def _tail(self):
        if not self.log_path:
            return ""
        try:
            with open(self.log_path, "rb") as f:
                data = f.read()[-1500:].decode("utf-8", "replace").strip()
        except OSError:
            return ""
        return (":\n" + data) if data else ""

    # -- the board's life -----------------------------------------------------------

    def start(self, stdio=None):
        """Power the board on: one update (the screen it restores)."""
        if self.log_path:
            with open(self.log_path, "wb"):
                pass
        if self.power_cycle:
            return self._battery()
        self.proc, self._btn_w, self.panel = self._spawn(
            interactive=self.serial, stdio=stdio)
        return self._collect(self.proc, self.panel, b"I")

    def press(self, button):
        if button not in BUTTONS:
            raise PipkeeperError("%r is not a button" % button)
        if self.power_cycle:
            return self._battery(button)
        got = []
        if self._boot_pending:
            # The board was reset since the last press (the host let go of
            # the serial port): its boot drew a screen first. Taken here, so
            # that this press gets its own screen, not the one before it.
            got = self._collect(self.proc, self.panel, b"I")
            self._boot_pending = False
        os.write(self._btn_w, (button + "\n").encode())
        return got + self._collect(self.proc, self.panel, b"I")

    def _battery(self, button=None):
        """One press on battery (None: the plain power-on): to the board
        dozing with its power kept (``awake``), else a new power-on woken
        by it. Its frames, up to ``H`` or (``awake``) ``S``."""
        if self.dozing is not None and button is not None:
            proc, w, panel = self.dozing
            self.dozing = None
            os.write(w, (button + "\n").encode())
        else:
            self.cut()
            proc, w, panel = self._spawn(wake=button)
            if not self.awake:
                os.close(w)
        return self._until_off_or_doze(proc, w, panel)

    def _until_off_or_doze(self, proc, w, panel):
        got = self._collect(proc, panel, (b"H", b"S") if self.awake else b"H")
        if self.awake and not self.halted and proc.poll() is None:
            self.dozing = (proc, w, panel)
            return got
        if self.awake:
            os.close(w)
        proc.wait(timeout=self.timeout)
        return got

    def idle_out(self):
        """The idle time-out of the board dozing (``awake``): its frames
        (the resting screen, where it differs) until it cuts its power."""
        if self.dozing is None:
            raise PipkeeperError("the simulated board is not asleep")
        proc, w, panel = self.dozing
        self.dozing = None
        os.write(w, b"IDLE\n")
        return self._until_off_or_doze(proc, w, panel)

    def cut(self):
        """A power cut while the board dozes (``awake``): its process ends
        at once; the next press is a cold boot."""
        if self.dozing is None:
            return
        proc, w, _panel = self.dozing
        self.dozing = None
        proc.kill()
        proc.wait()
        os.close(w)

    def kill(self):
        """Stop the board's process at once (a reset, or the end)."""
        p = self.proc
        if p is not None and p.poll() is None:
            p.kill()
            p.wait()

    def respawn(self, stdio, scorer=True):
        """A new board process on the terminal ``stdio`` (the old one ended
        or was killed): the scorer, or with ``scorer`` False the bare REPL
        of a soft reset from the raw REPL."""
        if self._btn_w is not None:
            try:
                os.close(self._btn_w)
            except OSError:
                pass
        self.proc, self._btn_w, self.panel = self._spawn(
            interactive=True, stdio=stdio, code=None if scorer else "")
        self._boot_pending = scorer

    def close(self):
        self.cut()
        if self._btn_w is not None:
            try:
                os.close(self._btn_w)
            except OSError:
                pass
            self._btn_w = None
        p = self.proc
        if p is not None and p.poll() is None:
            try:
                p.wait(timeout=3)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.proc = None


def _make_ctty():
    """In the child: make stdin (the pty slave) the controlling terminal, so
    that Ctrl-C from the host becomes SIGINT -> KeyboardInterrupt."""
    import fcntl
    import termios
    try:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    except OSError:
        pass


# -- the serial port ------------------------------------------------------------------

class SerialBoard(PortRelay):
    """``--serial``: the board's USB serial on a pty (see the module docstring).

    Each board process gets a terminal of its own: a reset closes the old
    one, and with it whatever the old process printed last (the banner that
    answers the host's closing Ctrl-B, which read after the reset would
    say the new board sits in its REPL: presses ignored for good)."""

    def __init__(self, sim):
        import pty
        import tty
        self.sim = sim
        self.m1 = None          # the board's terminal (master end), one per process
        # The host's side: a raw pty whose slave path is the port.
        self.m2, s2 = pty.openpty()
        tty.setraw(s2)
        self.port = os.ttyname(s2)
        os.close(s2)
        self._init_relay(self.m2)

    def _terminal(self):
        """A fresh terminal for the next board process: its master end
        becomes ``m1`` (the old one is closed, its unread bytes dropped);
        returns the slave's descriptor, in the state of a USB CDC port."""
        import pty
        import termios
        if self.m1 is not None:
            try:
                os.close(self.m1)
            except OSError:
                pass
        self.m1, slave = pty.openpty()
        a = termios.tcgetattr(slave)
        a[1] &= ~termios.OPOST                      # no \n -> \r\n
        a[3] &= ~(termios.ECHO | termios.ECHONL)    # a USB port does not echo
        a[3] |= termios.ISIG                        # Ctrl-C -> SIGINT
        termios.tcsetattr(slave, termios.TCSANOW, a)
        return slave

    def start(self):
        fd = self._terminal()
        try:
            self.sim.start(stdio=fd)
        finally:
            os.close(fd)
        self._start_relay()

    def _restart(self, into_raw):
        fd = self._terminal()
        try:
            # A soft reset from the raw REPL: no scorer, straight to the REPL.
            self.sim.respawn(fd, scorer=not into_raw)
        finally:
            os.close(fd)
        self._fresh()
        if into_raw:
            time.sleep(0.05)
            os.write(self.m1, b"\x01")
            self.repl = self.raw = True

    # -- the relay's hooks (pipkeeper.sim.relay) --
    def _board_fd(self):
        return self.m1

    def _read_board(self):
        try:
            return os.read(self.m1, 65536)
        except OSError:
            return b""

    def _host_left(self):
        if self.repl:
            self._reset()

    def _tick(self):
        proc = self.sim.proc
        if proc is None or proc.poll() is None or self.stop:
            return
        # The unix port ended: a soft reset (Ctrl-D) or an exit. What it
        # printed last is the host's still (its terminal is closed next).
        while True:
            r, _, _ = select.select([self.m1], [], [], 0)
            data = self._read_board() if r else b""
            if not data:
                break
            self._to_host(data)
        self._trace("board exited", proc.returncode, self.raw)
        if self.raw:
            self._to_host(b"soft reboot\r\n")
        self._restart(into_raw=self.raw)

    def _write_board(self, data):
        if not self.repl and b"\x03" in data:
            # Ctrl-C interrupts the scorer (SIGINT via the tty); what follows
            # is held until the REPL has taken over the terminal.
            i = data.index(b"\x03")
            os.write(self.m1, data[:i + 1])
            rest = data[i + 1:]
            end = time.monotonic() + 2.0
            buf = b""
            while time.monotonic() < end:
                r, _, _ = select.select([self.m1], [], [], 0.05)
                if r:
                    try:
                        chunk = os.read(self.m1, 4096)
                    except OSError:
                        break
                    buf += chunk
                    self._to_host(chunk)
                    if PROMPT in buf:
                        break
            self.repl = True
            if rest:
                os.write(self.m1, rest)
            return
        os.write(self.m1, data)

    def _reset(self):
        """The host let go of the port: reset the board into the scorer."""
        self._trace("reset")
        self.sim.kill()
        self._restart(into_raw=False)

    def close(self):
        self.stop = True
        self.sim.kill()
        for fd in (self.m1, self.m2):
            try:
                os.close(fd)
            except OSError:
                pass
