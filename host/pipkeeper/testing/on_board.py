"""`pipkeeper test --board`: the engine's own tests, on the connected board.

We send, to a scratch folder on the board's flash (/pktest): tests/mp_runner.py
and tests/engine/*.py as source (the runner finds tests by their .py name),
their data (tests/engine/fixtures/**, tests/data/*.dgn), and the whole
shared_engine compiled for the board (the bots in simulate.py included, which
flash leaves out), then, one test file at a time, import the runner and call
its main(), streaming its output back line by line. Before each file every
engine and test module is dropped from sys.modules and the garbage
collected, so each file starts on a clean heap as it does on the unix port
(one interpreter per file there), and the tests exercise the code of this
checkout. The scratch folder is removed afterwards, pass or fail. The run starts
with a soft reset (``Link.soft_reset``): the heap as the board boots, with
none of the scorer the raw REPL's interrupt stopped.

Not `exec(open(runner).read())`: the runner ends with sys.exit(), which in a
raw REPL soft-resets a board (and ends the sim's process).
"""

from pathlib import Path

from pipkeeper.errors import PipkeeperError
from pipkeeper.board import flash, mpy
from pipkeeper.progress import Null
from pipkeeper.testing.suites import COUNTS_RE, Result

SCRATCH = "/pktest"

_RUN = """import sys,gc
for k in [k for k in sys.modules if k.split('.')[0] in ('shared_engine','mp_runner','_check') or k.startswith('test_')]:
 del sys.modules[k]
sys.path.insert(0,{scratch!r}+'/tests')
sys.path.insert(0,{scratch!r})
gc.collect()
try:
 import mp_runner
 r=mp_runner.main([{scratch!r}+'/tests/engine/'+{name!r}])
finally:
 sys.path.remove({scratch!r}+'/tests');sys.path.remove({scratch!r})
print('exit',r)
"""

_CLEAN = """import os
def X(p):
 try:
  for e in os.ilistdir(p):
   X(p+'/'+e[0])
  os.rmdir(p)
 except OSError:
  try:os.remove(p)
  except OSError:pass
X({scratch!r})
"""


# Whether the scorer ran on this board since its last reset: its main.py
# mounts the bundle at /pk first (the link's prelude lets go of the
# scorer's modules, not of the names they interned: only a reset does).
_SCORER = "import sys\nprint('/pk' in sys.path)\n"


def test_files(root, only=()):
    """The engine's test files to run: all of tests/engine, or those named
    in ``only`` (file names or paths); an unknown name is one error line."""
    found = sorted((Path(root) / "tests" / "engine").glob("test_*.py"))
    if not only:
        return found
    by_name = {p.name: p for p in found}
    out = []
    for name in only:
        base = Path(name).name
        if base not in by_name:
            raise PipkeeperError("no engine test file {} in tests/engine (there: {})".format(
                name, " ".join(sorted(by_name))))
        out.append(by_name[base])
    return out


def files_to_send(root, args, only=()):
    """[(board path, bytes)] for one test run: the runner, the helpers and
    fixtures, the chosen test files, the engine compiled for the board."""
    root = Path(root)
    out = [(SCRATCH + "/tests/mp_runner.py", (root / "tests" / "mp_runner.py").read_bytes())]
    chosen = {p.name for p in test_files(root, only)}
    for src in sorted((root / "tests" / "engine").glob("*.py")):
        if src.name.startswith("test_") and src.name not in chosen:
            continue
        out.append((SCRATCH + "/tests/engine/" + src.name, src.read_bytes()))
    for src in sorted((root / "tests" / "engine" / "fixtures").rglob("*")):
        if src.is_file():
            rel = src.relative_to(root).as_posix()
            out.append((SCRATCH + "/" + rel, src.read_bytes()))
    for src in sorted((root / "tests" / "data").glob("*.dgn")):
        out.append((SCRATCH + "/tests/data/" + src.name, src.read_bytes()))
    cache = flash.cache_dir() / "build" / ("test_mpy" + "_".join(a.strip("-") for a in args))
    engine = root / "shared_engine"
    for src in sorted(engine.glob("*.py")):
        data = mpy.compiled(src, cache / (src.stem + ".mpy"), args, "shared_engine/" + src.name)
        out.append((SCRATCH + "/shared_engine/" + src.stem + ".mpy", data))
    for src in sorted(engine.glob("*.bin")):      # the refusals' texts (board/refusals.py)
        out.append((SCRATCH + "/shared_engine/" + src.name, src.read_bytes()))
    return out


def run(link, root, echo, progress=None, timeout=600, only=()):
    """Send the tests (``only``: these test files), run them, clean up; a
    testrun.Result."""
    progress = progress or Null()
    info = link.info()
    if not info.is_virtual or b"True" in link.exec(_SCORER):
        # the tests get the board's whole heap, not the scorer's leftovers
        # (a bare virtual board has none, and no soft reset: it would end)
        link.soft_reset()
        info = link.info()
    args, _target = flash.check_target(info)
    files = files_to_send(root, args, only)
    progress.total = sum(len(d) for _, d in files)
    link.exec(_CLEAN.format(scratch=SCRATCH), timeout=60)
    try:
        for path, data in files:
            progress.note(path)
            flash.send_file(link, path, data, progress)
        progress.close()
        lines = []

        def on_line(raw):
            text = raw.decode("utf-8", "replace")
            lines.append(text)
            # Not the runner's own `N passed, N failed` (one a file): the
            # total of every file is the run's one closing line, which
            # `pipkeeper test` prints (it came twice for one file).
            if not text.startswith("exit ") and not COUNTS_RE.match(text):
                echo(text + "\n")

        passed = failed = 0
        notes = []
        for src in test_files(root, only):
            del lines[:]
            link.stream(_RUN.format(scratch=SCRATCH, name=src.name), on_line, timeout=timeout)
            found = COUNTS_RE.findall("\n".join(lines))
            if not found:
                failed += 1
                notes.append("{}: the runner stopped before its closing line".format(src.name))
                continue
            p, f = (int(n) for n in found[-1])
            passed += p
            failed += f
    finally:
        link.exec(_CLEAN.format(scratch=SCRATCH), timeout=60)
    return Result("engine on the board", passed, failed, 1 if failed else 0,
                  "; ".join(notes) or None, printed_counts=False)
