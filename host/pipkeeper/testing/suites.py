"""Running the test suites and reading their counts (for `pipkeeper test`).

Each runner streams the suite's own output as it comes and returns a
`Result` with the numbers of passed and failed tests; `pipkeeper test` then
prints the plain closing line `N passed, N failed` for each.
"""

import codecs
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import threading
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Optional

from pipkeeper.errors import PipkeeperError
from pipkeeper.board.mpy import HOST, build_package
from pipkeeper.paths import micropython_binary

# The closing line of tests/mp_runner.py (and of this command).
COUNTS_RE = re.compile(r"^(\d+) passed, (\d+) failed\s*$", re.M)

# pytest's exit statuses: 0 all passed, 1 some failed, 5 nothing collected;
# anything else (interrupted, internal or usage error) is a failed run.
_PYTEST_OK = (0, 1)


@dataclass
class Result:
    """One suite's run: its counts, its exit status, a note to print."""

    label: str
    passed: int
    failed: int
    returncode: int
    note: Optional[str] = None
    printed_counts: bool = False  # the suite printed `N passed, N failed` itself

    @property
    def ok(self):
        return self.failed == 0 and self.returncode == 0

    def counts(self):
        return "{} passed, {} failed".format(self.passed, self.failed)


def stream(cmd, cwd, echo, timeout=None, env=None):
    """Run cmd, copying its output (stdout and stderr) to echo as it comes.

    Returns (returncode, text of the output). After `timeout` seconds the
    process is killed and returncode is None.
    """
    try:
        proc = subprocess.Popen(cmd, cwd=str(cwd), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, env=env)
    except OSError as exc:
        raise PipkeeperError("cannot run {}: {}".format(cmd[0], exc.strerror or exc))
    timed_out = []

    def kill():
        timed_out.append(True)
        proc.kill()

    timer = threading.Timer(timeout, kill) if timeout else None
    if timer:
        timer.daemon = True
        timer.start()
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    chunks = []
    try:
        fd = proc.stdout.fileno()
        while True:
            data = os.read(fd, 4096)  # not line by line: progress dots show at once
            if not data:
                break
            text = decoder.decode(data)
            chunks.append(text)
            echo(text)
        tail = decoder.decode(b"", final=True)
        if tail:
            chunks.append(tail)
            echo(tail)
        returncode = proc.wait()
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    finally:
        if timer:
            timer.cancel()
        proc.stdout.close()
    text = "".join(chunks)
    if text and not text.endswith("\n"):
        echo("\n")  # so whatever is printed next starts its own line
    if timed_out:
        return None, text
    return returncode, text


def _junit_counts(path):
    """(passed, failed, skipped) from a pytest junit xml file, or None."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    tests = failures = errors = skipped = 0
    for suite in suites:
        tests += int(suite.get("tests", 0))
        failures += int(suite.get("failures", 0))
        errors += int(suite.get("errors", 0))
        skipped += int(suite.get("skipped", 0))
    return tests - failures - errors - skipped, failures + errors, skipped


def run_pytest(root, paths, echo, label="pytest", extra_args=()):
    """pytest over paths (relative to root) on this Python."""
    if importlib.util.find_spec("pytest") is None:
        raise PipkeeperError("pytest is not installed: pip install -e '.[test]'")
    with tempfile.TemporaryDirectory(prefix="pipkeeper-test-") as tmp:
        xml = os.path.join(tmp, "junit.xml")
        cmd = [sys.executable, "-m", "pytest", "-q", "--junitxml", xml]
        if sys.stdout.isatty():
            cmd.append("--color=yes")
        cmd += list(extra_args) + [str(p) for p in paths]
        returncode, _ = stream(cmd, root, echo)
        counts = _junit_counts(xml)
    note = None
    if counts is None:
        passed, failed = 0, 1
        note = "pytest stopped before running the tests (exit status {})".format(returncode)
    else:
        passed, failed, _skipped = counts
        if returncode == 5:
            note = "no tests found"
        elif returncode not in _PYTEST_OK:
            note = "pytest exit status {}".format(returncode)
    return Result(label, passed, failed, 0 if returncode == 0 else 1, note)


def parallel_args(cores=None):
    """pytest's arguments to run test files side by side, one worker per
    core (at most 4), when pytest-xdist is installed and there is more than
    one core. A file's tests stay on one worker (``--dist loadfile``): the
    device tests' session fixtures (a flashed emulated board, ~30 s) are
    then made once per worker that needs them, not once per test."""
    if importlib.util.find_spec("xdist") is None:
        return []
    n = min(cores or os.cpu_count() or 1, 4)
    return ["-n", str(n), "--dist", "loadfile"] if n > 1 else []


def mpy_compatible(binary, out_dir, package):
    """Whether this MicroPython imports the .mpy files mpy-cross made."""
    code = "import sys; sys.path.insert(0, {!r}); import {}".format(out_dir, package)
    try:
        proc = subprocess.run([binary, "-c", code], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


def test_files(root, paths):
    """The test_*.py files under paths (files or folders), in a stable order."""
    out = []
    for p in paths:
        full = os.path.join(str(root), str(p))
        if os.path.isdir(full):
            for name in sorted(os.listdir(full)):
                if name.startswith("test_") and name.endswith(".py"):
                    out.append(os.path.join(str(p), name))
        else:
            out.append(str(p))
    return out


def run_micropython(root, paths, echo, heapsize="160K", timeout=600, label="micropython",
                    mpy_packages=("shared_engine",)):
    """tests/mp_runner.py over paths on the MicroPython unix port, one
    interpreter per test file: each file starts on a fresh heap of the
    board's size, as the board does after a reset (one long process would
    measure the heap the earlier files fragmented, not the engine).

    The packages in `mpy_packages` are first compiled to .mpy, as the board
    runs them: compiling a large module from source needs far more heap than
    running it, and the board never does it. The test files themselves are
    compiled from source by MicroPython.
    """
    binary = micropython_binary()
    extra = []
    if mpy_packages:
        out_dir = os.path.join(str(root), "build", "mpy")
        for package in mpy_packages:
            build_package(os.path.join(str(root), package), out_dir, HOST)
        if mpy_compatible(binary, out_dir, mpy_packages[0]):
            extra = ["-p", out_dir]
            echo("(the engine compiled to .mpy with mpy-cross, as on the board)\n")
        else:
            echo("(mpy-cross's .mpy files do not load on this MicroPython: "
                 "the engine is imported from source)\n")
    passed = failed = 0
    notes = []
    for path in test_files(root, paths):
        cmd = [binary, "-X", "heapsize=" + heapsize, "tests/mp_runner.py"] + extra + [path]
        returncode, text = stream(cmd, root, echo, timeout=timeout)
        found = COUNTS_RE.findall(text)
        if found:
            p, f = (int(n) for n in found[-1])
            passed += p
            failed += f
        else:
            failed += 1
        if returncode is None:
            notes.append("{}: killed after {} s".format(path, timeout))
            failed += 0 if not found else 1
        elif not found:
            notes.append("{}: the runner stopped before its closing line (exit status {})".format(
                path, returncode))
    return Result(label, passed, failed, 1 if failed or notes else 0,
                  "; ".join(notes) or None, False)
