"""The device tests' expensive fixtures kept on disk, made once and read by
every session that needs them.

Why: a parametrized session fixture lives one parameter at a time, and each
pytest-xdist worker is a session of its own, so the flashed board (~70 s of
emulator time), the scripted game (~110 s) and the like were made again at
every change of image in every test file on every worker: some 25 setups,
half an hour of worker time, in one CI run. Here each is made once per
image and its inputs, by whichever worker asks first (the other waits on
the lock, then reads it), and a later run with the very same inputs reads
it too.

- What is kept: the files ``make(folder)`` left in its folder (flash
  images, a sim's folder) and the value it returned (pickled: the CLI's
  output, the frames), as the entry ``NAME-KEY`` (NAME the fixture and
  its image, e.g. ``flashed-upstream``). A reader gets a copy of the files
  in a folder of its own, so whatever a test does to an image never
  reaches the entry.
- The key: a sha256 of what decides the result (``digest``): the files
  named by the fixture (the MicroPython image, the flash image it starts
  from), the fixture's own parameters, every file of the scorer and of
  the tools that run it (firmware/, shared_engine/, hardware/,
  host/pipkeeper/ with the emulator's script and its lock file,
  tests/data/, the fixtures' own code), the boot ROM, the mpy-cross and
  unix-port binaries, Node.js's version, the installed rp2040js, every
  installed Python distribution with its version, the languages' packs'
  key (Pillow, raqm, the font) and Python's version. A change of any one
  is a new key, so an entry is never read for other inputs.
- Where: entries whose result is sound (``ok``) under the user's cache
  folder as it was when the session started (``<cache>/device-fixtures``,
  pipkeeper's ``cache_dir()``, so $PIPKEEPER_CACHE moves it; never the
  session's scratch cache that conftest's ``device_cache`` points the
  CLI at), the last ``KEEP`` keys of each name; the rest (a failed flash,
  or every entry with ``PIPKEEPER_DEVICE_STORE=run``) in the run's own
  folder (pytest-xdist's recipe: the parent of a worker's basetemp), so
  the other worker sees the failure without paying for it again and the
  next run tries afresh.
- The lock: one file a key (``locks/NAME-KEY.lock``, fcntl.flock), held
  while the entry is looked up, made and copied out, and while an older
  key is pruned (skipped if someone holds it). Nothing is made while another lock is held, so
  two workers (or two runs on one machine) cannot wait on each other. A
  worker that finds the lock held may make another entry meanwhile
  (``once``'s ``meanwhile``, with ``ahead``, which never waits): both
  workers start on the first image at once. The run's folder has a ``log.txt``: which worker made or read each
  entry, and how long it waited for the lock.
"""

import fcntl
import hashlib
import os
import pickle
import re
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Bumped when an entry's layout changes (files, value), so that old
# entries are never read as new ones.
FORMAT = 1
ENV_MODE = "PIPKEEPER_DEVICE_STORE"     # "run": nothing is kept for later runs
KEEP = 3            # keys kept a name: a few checkouts or branches on one machine
VALUE = "value.pickle"                  # written last: an entry without it is not whole
USED = "used"                           # touched at each read: the newest keys are kept
LOG = "log.txt"                         # in the run's folder: what each worker made, read, waited for
KEY_CHARS = 24
STALE_S = 3600                          # a half-written entry this old: its writer died

# What the scorer and the tools that run it are made of (relative to ROOT).
SOURCES = ("firmware", "shared_engine", "hardware", os.path.join("host", "pipkeeper"),
           os.path.join("tests", "data"))
# The code that makes the fixtures.
HELPERS = (os.path.join("tests", "device", "conftest.py"), os.path.join("tests", "device", "devkit.py"),
           os.path.join("tests", "device", "stored.py"), os.path.join("tests", "host", "boardkit.py"))
SKIP_DIRS = ("__pycache__", "node_modules")
SKIP_FILES = (".pyc", ".mpy", ".sha")   # build outputs beside the sources


def file_sha(path):
    """The sha256 of a file's bytes (hex), read a block at a time: a flash
    image is 2 MB."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _sources():
    """[(path relative to ROOT, sha256)] of every source and helper file."""
    out = []
    for top in SOURCES:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
            for fn in sorted(filenames):
                if not fn.endswith(SKIP_FILES):
                    p = os.path.join(dirpath, fn)
                    out.append((os.path.relpath(p, ROOT), file_sha(p)))
    out += [(rel, file_sha(os.path.join(ROOT, rel))) for rel in HELPERS]
    return out


_tools = []


def _probe(fn):
    """fn(), or what went wrong (a missing tool fails the fixture itself,
    with its own words)."""
    try:
        return fn()
    except Exception as exc:      # noqa: BLE001 (any failure is part of the key)
        return "no: %r" % (exc,)


def _tools_digest():
    """What the machine brings (once a process: it does not change under a
    session): the binaries, Node.js and rp2040js, the installed
    distributions, the packs' key, Python."""
    if _tools:
        return _tools[0]
    from importlib import metadata
    from pipkeeper.board import images, mpy
    from pipkeeper.i18n import packcache
    from pipkeeper.paths import micropython_binary
    from pipkeeper.sim.rp2040 import emulator
    parts = [sys.version, sys.platform,
             ("bootrom", _probe(lambda: file_sha(images.find_bootrom()))),
             ("mpy-cross", _probe(lambda: file_sha(mpy.mpy_cross_binary()))),
             ("micropython", _probe(lambda: file_sha(micropython_binary()))),
             ("node", _probe(lambda: subprocess.run([emulator.node_binary(), "--version"],
                                                   capture_output=True, text=True).stdout.strip())),
             # the installed copy, not installed here (npm ci) if it is absent
             ("rp2040js", _probe(lambda: file_sha(
                 emulator._cache_dir() / "node_modules" / "rp2040js" / "package.json"))),
             ("packs", _probe(packcache.key)),
             sorted("%s==%s" % (d.metadata["Name"], d.version) for d in metadata.distributions())]
    _tools.append(hashlib.sha256(repr(parts).encode()).hexdigest())
    return _tools[0]


def sources_and_tools():
    """What every result is made from: the sources, the helpers and the tools."""
    return [_tools_digest(), _sources()]


def digest(params, files=(), inputs=sources_and_tools):
    """The key of a result made from ``params`` (strings) and the bytes of
    ``files``, with ``inputs()``: every source and tool (the module's
    docstring)."""
    parts = [FORMAT, list(params), [file_sha(str(f)) for f in files], inputs()]
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:KEY_CHARS]


@contextmanager
def _locked(path, busy=None):
    """The lock file ``path``, held. When another process holds it,
    ``busy()`` first (then the wait); ``busy`` returning False: give up
    rather than wait (yields False, the lock not held)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if busy is not None and busy() is False:
                yield False
                return
            fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield True
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


class Store:
    """Entries kept for later runs in ``kept`` (None: none are), the rest
    in ``run`` (the folder the run's workers share); ``inputs``: what
    every key holds besides the fixture's own (its tests fix it)."""

    def __init__(self, run, kept=None, inputs=sources_and_tools):
        self.inputs = inputs
        self.run = os.path.join(str(run), "device-fixtures")
        self.kept = os.path.join(str(kept), "device-fixtures") if kept else None
        if self.kept:
            try:
                os.makedirs(self.kept, exist_ok=True)
            except OSError:
                self.kept = None          # a read-only cache: this run's folder only
        os.makedirs(self.run, exist_ok=True)

    def once(self, name, params, make, dest, files=(), ok=lambda value: True, meanwhile=None):
        """make(dest)'s value, with its files in ``dest``: made here, or
        copied from the entry another worker or an earlier run made for
        the same ``name``, ``params`` and ``files`` (the key: ``digest``).

        ``ok(value)``: whether the result is sound, to be kept for later
        runs; an unsound one serves this run only. ``meanwhile()``: run
        first when another process is making this entry, rather than
        only wait for it (conftest makes the next image's entry)."""
        return self._get(name, params, make, str(dest), files, ok, meanwhile)[1]

    def ahead(self, name, params, make, scratch, files=(), ok=lambda value: True):
        """The entry made now unless it is made or being made (never
        waits): whether it was made here. ``scratch``: a folder to make
        it in, the caller's to throw away."""
        return self._get(name, params, make, str(scratch), files, ok, lambda: False, read=False)[0]

    def _get(self, name, params, make, dest, files, ok, busy, read=True):
        """(whether it was made here, its value or None)."""
        key = digest([name] + list(params), files, self.inputs)
        entry = "%s-%s" % (name, key)
        t0 = time.monotonic()
        with _locked(self._lock(entry), busy) as held:
            if not held:
                return False, None
            waited = time.monotonic() - t0
            for tier in (self.kept, self.run):
                if tier and os.path.isfile(os.path.join(tier, entry, VALUE)):
                    if not read:
                        return False, None
                    value = self._read(os.path.join(tier, entry), dest)
                    self._log(entry, waited, "read the %s entry" % ("kept" if tier == self.kept else "run's"))
                    return False, value
            t1 = time.monotonic()
            value = make(dest)
            # Inputs changed while it was made (someone edited a source): the
            # result is this run's alone.
            same = digest([name] + list(params), files, self.inputs) == key
            tier = self.kept if self.kept and same and ok(value) else self.run
            self._write(tier, name, entry, dest, value)
            self._log(entry, waited, "made it%s in %.1f s, kept %s" % (
                "" if read else " ahead", time.monotonic() - t1,
                "for later runs" if tier == self.kept else "for this run"))
            return True, value

    def _lock(self, entry):
        """The lock file of an entry: one a key, so that runs on other
        sources (another checkout) never wait for each other."""
        return os.path.join(self.kept or self.run, "locks", entry + ".lock")

    def _log(self, entry, waited, what):
        """One line a fixture in the run's LOG: who made what, who waited."""
        line = "%s %s: waited %.1f s, %s\n" % (
            os.environ.get("PYTEST_XDIST_WORKER", "pid%d" % os.getpid()), entry, waited, what)
        with open(os.path.join(self.run, LOG), "a") as f:
            f.write(line)

    @staticmethod
    def _read(folder, dest):
        """The entry's value, its files copied into ``dest`` (the reader's
        own), the entry marked as just used (``_prune`` keeps the newest)."""
        with open(os.path.join(folder, USED), "w"):
            pass
        for item in os.listdir(folder):
            src = os.path.join(folder, item)
            if item in (VALUE, USED):
                continue
            if os.path.isdir(src):
                shutil.copytree(src, os.path.join(dest, item), dirs_exist_ok=True)
            else:
                os.makedirs(dest, exist_ok=True)
                shutil.copyfile(src, os.path.join(dest, item))
        with open(os.path.join(folder, VALUE), "rb") as f:
            return pickle.load(f)

    def _write(self, tier, name, entry, dest, value):
        """The entry, whole or not at all: written beside, then renamed."""
        final = os.path.join(tier, entry)
        tmp = final + ".tmp-%d" % os.getpid()
        shutil.rmtree(tmp, ignore_errors=True)
        if os.path.isdir(dest):
            shutil.copytree(dest, tmp)
        else:
            os.makedirs(tmp)
        with open(os.path.join(tmp, USED), "w"):
            pass
        with open(os.path.join(tmp, VALUE), "wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        shutil.rmtree(final, ignore_errors=True)
        os.rename(tmp, final)
        if tier == self.kept:
            self._prune(tier, name, final)

    def _prune(self, tier, name, current):
        """All but the KEEP newest keys of ``name`` (``current`` among them),
        each with its lock file, unless someone holds that lock; and what a
        writer that died left half made."""
        mine = []
        for item in os.listdir(tier):
            m = re.fullmatch(re.escape(name) + r"-[0-9a-f]{%d}(\.tmp-\d+)?" % KEY_CHARS, item)
            path = os.path.join(tier, item)
            if not m or path == current:
                continue
            if m.group(1):
                if time.time() - os.path.getmtime(path) > STALE_S:
                    shutil.rmtree(path, ignore_errors=True)
                continue
            stamp = os.path.join(path, USED)
            mine.append((os.path.getmtime(stamp) if os.path.exists(stamp) else 0, item))
        for _t, entry in sorted(mine, reverse=True)[KEEP - 1:]:
            with _locked(self._lock(entry), busy=lambda: False) as held:
                if held:
                    shutil.rmtree(os.path.join(tier, entry), ignore_errors=True)
                    os.unlink(self._lock(entry))


def open_store(tmp_path_factory, kept):
    """The session's Store: the run's folder the workers share (the parent
    of a worker's basetemp under pytest-xdist, the basetemp itself without
    it), and ``kept`` for later runs unless $PIPKEEPER_DEVICE_STORE=run."""
    base = tmp_path_factory.getbasetemp()
    run = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    if os.environ.get(ENV_MODE) == "run":
        kept = None
    return Store(run, kept)
