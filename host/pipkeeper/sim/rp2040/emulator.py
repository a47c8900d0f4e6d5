"""One emulated RP2040 board: the Node.js process (js/emulator.mjs) and the
Python handle that drives it.

The emulator is rp2040js, pinned in js/package.json and its lock file and
installed with ``npm ci`` into a cache folder on first use. The handle speaks
JSON lines with it (commands on its stdin, events on its stdout); the
board's USB serial is a socket pair (its fd 3), which ``serial_fd`` gives to
whoever plays the host (the pty relay of ``sim --rp2040 --serial``).

Every time this module reports is the emulated clock's, in nanoseconds
since the first power-on: the CPU runs at clk_sys, waits are skipped, so a
figure is the same on every machine and every run.
"""

import base64
import hashlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import queue
from pathlib import Path

from pipkeeper.closing import Closing
from pipkeeper.errors import PipkeeperError
from pipkeeper.files import write_if_changed
from pipkeeper.board import images

JS_DIR = Path(__file__).resolve().parent / "js"
SCRIPTS = ("emulator.mjs", "panel.mjs")     # the emulator and its panel model (js/)
NS_PER_MS = 1_000_000


def node_binary():
    """Node.js: $PIPKEEPER_NODE, else `node` on PATH."""
    node = os.environ.get("PIPKEEPER_NODE") or shutil.which("node")
    if not node:
        raise PipkeeperError(
            "the emulated RP2040 needs Node.js 18 or newer (`node` on PATH): "
            "install it from your system's packages (Debian: apt install nodejs npm)")
    return node


def _cache_dir():
    try:
        import platformdirs
        base = platformdirs.user_cache_dir("pipkeeper")
    except ImportError:
        base = os.path.join(os.path.expanduser("~"), ".cache", "pipkeeper")
    return Path(os.environ.get("PIPKEEPER_RP2040JS_DIR") or os.path.join(base, "rp2040js"))


def installed_emulator():
    """The folder holding js/ with its node_modules, installed from the lock
    file (``npm ci``) the first time and again whenever the lock changes."""
    node_binary()
    dest = _cache_dir()
    lock = (JS_DIR / "package-lock.json").read_bytes()
    stamp = dest / ".lock-installed"
    ready = dest / "node_modules" / "rp2040js" / "package.json"
    if not (ready.is_file() and stamp.is_file() and stamp.read_bytes() == lock):
        npm = shutil.which("npm")
        if not npm:
            raise PipkeeperError("the emulated RP2040 needs npm to install rp2040js (Debian: apt install npm)")
        dest.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(JS_DIR / name, dest / name)
        proc = subprocess.run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
                              cwd=dest, capture_output=True, text=True)
        if proc.returncode or not ready.is_file():
            tail = (proc.stderr or proc.stdout).strip().splitlines()
            raise PipkeeperError("could not install rp2040js with npm ci: %s" % (tail[-1] if tail else "?"))
        stamp.write_bytes(lock)
    # The script itself is always the package's own (not a cached copy).
    return dest


class Emulator(Closing):
    """The emulated board. ``board`` is a dict of pins (see ``board_pins``).

    ``flash_image``: a file holding the board's 2 MB flash between runs
    (created on the first save); the firmware image is laid over it at each
    start, so a blank file gives a board MicroPython formats itself.
    """

    def __init__(self, firmware, board, flash_image=None, bootrom=None, usb=True,
                 timeout=600.0, flash_timing=True, busy_stuck=None, bootsel_drive=None, flash_uid=None):
        self.firmware = images.load_firmware(firmware)
        self.bootrom = images.find_bootrom(bootrom)
        self.board = board
        self.flash_image = str(flash_image) if flash_image else None
        self.timeout = timeout
        self.frames = []          # every frame the panel showed, in order (each with its "panel" report)
        self.panel_cuts = []      # refreshes a power cut short ("data": the picture they left)
        self.last_cut = None      # the event of the last power cut (``cut``)
        self.bootsels = []        # every entry into BOOTSEL, {"why": "asked"|"stage2"}
        self.events = queue.Queue()
        self._lock = threading.RLock()
        self._next_id = 0
        self._tmp = tempfile.TemporaryDirectory(prefix="pipkeeper-rp2040-")
        bin_path = os.path.join(self._tmp.name, "firmware.bin")
        with open(bin_path, "wb") as f:
            f.write(self.firmware.data)
        cfg = {
            "bootrom": self.bootrom,
            "firmware_bin": bin_path,
            "flash_image": self.flash_image,
            "board": board,
            "usb": usb,
        }
        if bootsel_drive:
            # machine.bootloader() shows the boot ROM's RPI-RP2 drive as this
            # folder; a UF2 copied there is written into the flash (js/emulator.mjs)
            cfg["bootsel_drive"] = str(bootsel_drive)
        if flash_uid:
            cfg["flash_uid"] = flash_uid        # the flash chip's unique id, 16 hex: machine.unique_id()
        if busy_stuck:
            cfg["busy_stuck"] = busy_stuck      # "busy" or "idle": a BUSY line that never moves
        if not flash_timing:
            cfg["flash_erase_ms"] = 0
            cfg["flash_page_ms"] = 0
        mods = installed_emulator()
        ours, theirs = socket.socketpair()
        cfg["serial_fd"] = theirs.fileno()
        cfg_path = os.path.join(self._tmp.name, "config.json")
        with open(cfg_path, "w") as f:
            json.dump(cfg, f)
        self.serial_sock = ours
        env = dict(os.environ)
        env["NODE_PATH"] = str(mods / "node_modules")
        script = self._script(mods)
        self.stderr_path = os.path.join(self._tmp.name, "node-stderr.txt")
        err = open(self.stderr_path, "wb")
        try:
            self.proc = subprocess.Popen(
                [node_binary(), str(script), cfg_path],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                pass_fds=(theirs.fileno(),), env=env)
        finally:
            err.close()
            theirs.close()
        self._reader = threading.Thread(target=self._read_events, daemon=True)
        self._reader.start()
        self.t = 0
        self.powered = False
        ready = self._wait(lambda e: e.get("ev") == "ready", 60)
        self.rom = ready["rom"]

    @staticmethod
    def _script(mods):
        # ES modules resolve imports next to the script, not through NODE_PATH:
        # run a copy that sits below the installed node_modules (Node looks
        # for rp2040js in each folder up from the script). The copy's folder
        # is named by the scripts' hash: the cache is shared by every
        # checkout on the machine, and a checkout with other scripts (a
        # branch, a test run of another worktree) must not overwrite the
        # ones a running emulator is about to load.
        texts = [(name, (JS_DIR / name).read_bytes()) for name in SCRIPTS]
        key = hashlib.sha256(b"".join(t for _, t in texts)).hexdigest()[:16]
        folder = mods / "scripts" / key
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in texts:
            write_if_changed(folder / name, text)
        return folder / "emulator.mjs"

    # -- the event stream ---------------------------------------------------------------

    def _read_events(self):
        for line in self.proc.stdout:
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            if ev.get("ev") == "frame":
                ev["data"] = base64.b64decode(ev["data"])
                self.frames.append(ev)
            elif ev.get("ev") == "panel_cut":
                ev["data"] = base64.b64decode(ev["data"])
                self.panel_cuts.append(ev)   # a refresh the power cut short: what the panel shows
            elif ev.get("ev") == "cut":
                self.last_cut = ev         # what the armed power cut fell in
            elif ev.get("ev") == "bootsel":
                self.bootsels.append(ev)   # the boot ROM's USB boot: asked, or no boot stage 2
            self.events.put(ev)
        self.events.put({"ev": "exit"})

    def _wait(self, match, timeout=None):
        timeout = self.timeout if timeout is None else timeout
        while True:
            try:
                ev = self.events.get(timeout=timeout)
            except queue.Empty:
                raise PipkeeperError("the emulated RP2040 did not answer in %ds" % timeout)
            if ev.get("ev") == "exit":
                raise PipkeeperError("the emulated RP2040 stopped: %s" % self._stderr_tail())
            if ev.get("ev") == "error" and ev.get("id") in (None, self._next_id):
                raise PipkeeperError("the emulated RP2040: %s" % ev.get("msg"))
            if "t" in ev:
                self.t = ev["t"]
            if "powered" in ev:
                self.powered = ev["powered"]
            elif ev.get("ev") == "off":
                self.powered = False
            elif ev.get("ev") == "on":
                self.powered = True
            if match(ev):
                return ev

    def _stderr_tail(self):
        try:
            with open(self.stderr_path, "rb") as f:
                text = f.read()[-600:].decode("utf-8", "replace").strip()
        except OSError:
            text = ""
        return text.splitlines()[-1] if text else "exit %s" % self.proc.poll()

    def call(self, op, **kw):
        """Send one command and wait for its answer (one caller at a time:
        the serial relay and the presses may come from two threads)."""
        with self._lock:
            self._next_id += 1
            kw["op"] = op
            kw["id"] = self._next_id
            want = self._next_id
            try:
                self.proc.stdin.write((json.dumps(kw) + "\n").encode())
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError):
                raise PipkeeperError("the emulated RP2040 stopped: %s" % self._stderr_tail())
            return self._wait(lambda e: e.get("id") == want and e.get("ev") != "frame")

    def wait_event(self, name, timeout=None):
        """The next event called ``name`` (free running: "idle", "off")."""
        with self._lock:
            return self._wait(lambda e: e.get("ev") == name, timeout)

    # -- the board's life ---------------------------------------------------------------

    def run(self, ms, until=(), idle_ms=300, text=None, mark_spi=False):
        """Run until ``ms`` of emulated time passed or one of ``until`` happens
        ("frame", "idle", "off", "text", "latch", "dormant": the chip stopped
        its clocks to wait for a press). Returns the run's report:
        reason, t, first_spi (ns, the first panel byte since ``mark_spi``),
        latch_at, power_on_at, frames."""
        return self.call("run", ms=ms, until=list(until), idle_ms=idle_ms, text=text,
                         mark_spi=mark_spi)

    def button(self, name, down):
        return self.call("button", name=name, down=down)

    def bootsel(self):
        """Power on with BOOTSEL held: the boot ROM's drive (``bootsel_drive``)."""
        return self.call("bootsel")

    def cut(self, at, fraction=0.5, seed=1):
        """Cut the power inside the ``at``-th flash erase or program from now
        (1: the next), once ``fraction`` of it is done (js/emulator.mjs
        "a power cut inside one": a cut erase leaves each byte of its sector
        old or 0xFF, by a generator seeded with ``seed``; a cut program a
        prefix written and the next byte partly programmed); the board is
        then off, and any button let go. ``at`` 0 disarms. What the cut hit
        comes as the event "cut" (``last_cut``, None until one fell)."""
        self.last_cut = None
        return self.call("cut", at=int(at), fraction=float(fraction), seed=int(seed))

    def journal(self, on=True):
        """The flash ops since the last call, [(kind "E"|"P", offset, bytes)];
        ``on``: keep recording from now."""
        return [tuple(op) for op in self.call("journal", on=on)["ops"]]

    def scratch(self, value, index=0):
        """WATCHDOG SCRATCH``index`` at the next power-ons (0: as on a real
        board); the scorer's own image reads SCRATCH0 (image/build.py
        MAIN), the firmware SCRATCH1 (firmware/board_machine.py idle).
        ``stats()["scratch"]``: the registers now."""
        self.call("scratch", value=value, index=index)

    def power(self, on=None, usb=None, reset=False):
        kw = {}
        if on is not None:
            kw["on"] = on
        if usb is not None:
            kw["usb"] = usb
        if reset:
            kw["reset"] = True
        return self.call("power", **kw)

    def save(self):
        """Write the flash to its image file."""
        return self.call("save")

    def load(self):
        """Read the flash back from its image file (changed by the host while
        the board was off, e.g. with board.flashfs)."""
        return self.call("load")

    def stats(self):
        return self.call("stats")

    def panel(self):
        """The panel model's counts since the emulator started (js/panel.mjs):
        ``updates``, ``full``, ``fast``, ``wrong_drives``, ``unchanged_driven``
        (over the fast updates) and ``unchanged_driven_max`` (the most in one),
        ``not_reached``, ``shows_wrong``, ``cut_short``, ``dc_max`` (the most
        |accumulated DC| of any pixel now, in frames of 10 ms at full
        level) and ``last`` (the last refresh's report)."""
        return self.stats()["panel"]

    def profile_start(self, every=997, timeline=False):
        """Sample the program counter every ``every`` instructions; with
        ``timeline`` each sample's time (µs of the emulated clock) is kept
        too (``self.timeline`` after ``profile_stop``), to see what each
        phase of a boot spends its time in."""
        self.call("profile", start=True, every=every, timeline=timeline)

    def profile_stop(self):
        r = self.call("profile")
        self.timeline = r.get("timeline")
        return {int(k): v for k, v in r["counts"].items()}

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(b'{"op":"quit"}\n')
                self.proc.stdin.flush()
                self.proc.wait(timeout=20)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        try:
            self.serial_sock.close()
        except OSError:
            pass
        self._tmp.cleanup()


def board_pins(profile):
    """The pins the emulator drives and watches, from a board profile
    (hardware/profiles/<name>.py)."""
    return {
        "name": profile.NAME,
        "spi": profile.SPI_ID,
        "cs": profile.PIN_CS,
        "dc": profile.PIN_DC,
        "rst": profile.PIN_RST,
        "busy": profile.PIN_BUSY,
        "busy_level": profile.BUSY_LEVEL,
        "latch": profile.PIN_POWER_LATCH,
        "vbus": profile.PIN_VBUS_DETECT,
        "buttons": [[label, gpio, bool(high)] for label, gpio, _pull, high in profile.BUTTONS],
        "controller": profile.DISPLAY_CONTROLLER,
        "update_ms": profile.PANEL_UPDATE_MS,
        "full_update_ms": profile.PANEL_FULL_UPDATE_MS,
    }
