"""Host tests' boards: a virtual board on a pty, and a cable we can cut.

(Imported by conftest.py and the tests: `import boardkit`.)

`virtual_board(root)` is the one place that starts a board: the real
`pipkeeper sim --serial --dir ROOT` (it prints the pty's path on its first
line), or, in a tree without the sim, pipkeeper.sim.ptyboard's bare unix
port, which serves the same raw REPL on the same kind of pty with the same
root remount. Tests that need the firmware running (button presses) ask
`has_sim()` first.
`PIPKEEPER_TEST_BARE=1` forces the bare board.

`CutProxy(port, limit)` is a pulled cable: a second pty whose relay forwards
`limit` bytes (both directions counted) between the host and the board, then
closes, as a cable yanked mid-transfer.
"""

import importlib.util
import os
import pty
import select
import subprocess
import sys
import threading
import time
import tty

from pipkeeper.sim.ptyboard import PtyBoard

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def has_sim():
    """True when `pipkeeper sim --serial` is here (this checkout has the
    firmware's sim); `PIPKEEPER_TEST_BARE=1` says no. The answer depends on
    the files alone, so that pytest's workers all collect the same tests;
    a sim that fails to start fails the test that asked for it."""
    if os.environ.get("PIPKEEPER_TEST_BARE"):
        return False
    return importlib.util.find_spec("pipkeeper.sim.unix") is not None and \
        importlib.util.find_spec("pipkeeper.commands.sim") is not None


class SimBoard:
    """`pipkeeper sim --serial --dir ROOT` as a board (first line: the pty)."""

    def __init__(self, root, extra=()):
        self.root = root
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pipkeeper", "sim", "--serial", "--dir", str(root), *extra],
            # stdin stays open: the sim reads presses from it until its end
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.PIPE,
            cwd=ROOT, start_new_session=True)
        line = self.proc.stdout.readline().decode().strip()
        if not line.startswith("/"):
            try:
                err = self.proc.communicate(timeout=10)[1].decode()
            except subprocess.TimeoutExpired:
                err = ""
            self.close()
            raise RuntimeError("pipkeeper sim --serial did not print a pty path: {!r} {}".format(line, err))
        self.port = line

    def press(self, button):
        self.proc.stdin.write((button + "\n").encode())
        self.proc.stdin.flush()

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def virtual_board(root, bare=False):
    """A board whose flash is the folder `root` (its /games is root/games)."""
    if not bare and has_sim():
        return SimBoard(root)
    return PtyBoard(str(root))


class CutProxy:
    """A cable that breaks after `limit` bytes; `.port` is the host's end.
    Subclasses may find the limit in the stream (`_let_through`)."""

    def __init__(self, board_port, limit):
        self.limit = limit
        self.passed = 0
        self.cut = threading.Event()
        master, slave = pty.openpty()
        tty.setraw(slave)
        self._master = master
        self._slave = slave
        self.port = os.ttyname(slave)
        self._board = os.open(board_port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self._board)
        self._stop = False
        self._thread = threading.Thread(target=self._relay, daemon=True)
        self._thread.start()

    def _let_through(self, fd, data):
        """The part of ``data`` (read from ``fd``) that passes before the cut."""
        return data[: self.limit - self.passed]

    def _relay(self):
        fds = {self._master: self._board, self._board: self._master}
        try:
            while not self._stop:
                ready, _, _ = select.select(list(fds), [], [], 0.05)
                for fd in ready:
                    try:
                        data = os.read(fd, 4096)
                    except OSError:
                        if fd == self._master and not self.passed:
                            continue      # the host has not opened its end yet
                        return
                    if not data:
                        return
                    data = self._let_through(fd, data)
                    os.write(fds[fd], data)
                    self.passed += len(data)
                    if self.limit is not None and self.passed >= self.limit:
                        return
        finally:
            self._cut()

    def _cut(self):
        self.cut.set()
        for fd in (self._master, self._board):
            try:
                os.close(fd)
            except OSError:
                pass

    def close(self):
        self._stop = True
        self._thread.join(2)
        try:
            os.close(self._slave)
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def write_games(games_dir, count, seed=1, rules="chickenfoot", players=4):
    """`count` simulated finished games as NNNN.dgn; returns {name: bytes}."""
    from shared_engine import simulate

    out = {}
    for i in range(count):
        data = simulate.simulate(rules, players, seed=seed + i).record().encode()
        name = "{:04d}.dgn".format(i + 1)
        (games_dir / name).write_bytes(data)
        out[name] = data
    return out


def run_cli(*args, env=None, cwd=ROOT, timeout=300, text=True):
    """`python -m pipkeeper ARGS`: (returncode, stdout, stderr); bytes with
    ``text=False``."""
    full = dict(os.environ)
    full.update(env or {})
    full.pop("PIPKEEPER_PROGRESS", None)
    pythonpath = os.pathsep.join([ROOT, os.path.join(ROOT, "host")])
    full["PYTHONPATH"] = pythonpath + (os.pathsep + full["PYTHONPATH"] if full.get("PYTHONPATH") else "")
    proc = subprocess.run([sys.executable, "-m", "pipkeeper", *args], env=full, cwd=cwd,
                          capture_output=True, text=text, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


def wait_for(predicate, timeout=5.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return False
