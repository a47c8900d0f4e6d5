"""`pipkeeper sim` from the command line: scripts, frames, power cycling,
and the USB serial on a pty that mpremote works against."""

import os
import signal
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _pk(*args, **kw):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([ROOT, os.path.join(ROOT, "host"), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "pipkeeper"] + list(args), capture_output=True,
                          text=True, env=env, timeout=kw.get("timeout", 120))


SCRIPT = """# a chickenfoot game with the default players
A   # rules: chickenfoot
A   # players: Ann Bob Cy Di
A   # options: start the game (the dealer screen)
A   # round 9-9, Ann leads

A   # Ann plays
A   # Bob plays
B   # Cy draws
UP  # undo
"""


@pytest.mark.parametrize("power_cycle", (False, True))
def test_script_and_frames(tmp_path, power_cycle):
    script = tmp_path / "s.txt"
    script.write_text(SCRIPT)
    args = ["sim", "--dir", str(tmp_path / "flash"), "--script", str(script),
            "--frames", str(tmp_path / "frames"), "-q"]
    if power_cycle:
        args.append("--power-cycle")
    r = _pk(*args)
    assert r.returncode == 0, r.stderr
    pngs = sorted(os.listdir(tmp_path / "frames"))
    assert len(pngs) == 8 + 1          # the boot, then one a press
    rec = (tmp_path / "flash" / "games" / "0001.dgn").read_text()
    assert rec.splitlines()[-5:] == ["round 9-9 lead 1", "1 play", "2 play", "3 draw", "undo"]


def test_bad_script_is_one_line_error(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("A\nLEFT\n")
    r = _pk("sim", "--dir", str(tmp_path / "flash"), "--script", str(script), "-q")
    assert r.returncode == 1
    assert r.stderr.strip() == "pipkeeper: script line 2: 'LEFT' is not a button (A B C UP DOWN)"


def test_serial_port_works_with_mpremote(tmp_path):
    flash = tmp_path / "flash"
    (flash / "games").mkdir(parents=True)
    (flash / "games" / "0001.dgn").write_text('[Rules "chickenfoot"]\n[Players "A" "B"]\n')
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([ROOT, os.path.join(ROOT, "host")])
    # Ctrl-C as at a terminal: a test run started in the background (`&` in
    # a script) hands its children SIGINT ignored, and Python then never
    # raises KeyboardInterrupt.
    p = subprocess.Popen([sys.executable, "-m", "pipkeeper", "sim", "--serial", "--dir", str(flash), "-q"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        port = p.stdout.readline().decode().strip()
        assert port.startswith("/dev/")
        time.sleep(0.5)

        def mpremote(*a):
            return subprocess.run([sys.executable, "-m", "mpremote", "connect", port] + list(a),
                                  capture_output=True, text=True, timeout=30)

        r = mpremote("fs", "ls", ":/games")
        assert r.returncode == 0, r.stdout + r.stderr
        assert "0001.dgn" in r.stdout
        r = mpremote("exec", "print(6*7)")
        assert r.returncode == 0 and "42" in r.stdout, r.stdout + r.stderr
        r = mpremote("fs", "cat", ":/games/0001.dgn")
        assert '[Rules "chickenfoot"]' in r.stdout
        # a write through the port lands in the flash folder (rename included)
        r = mpremote("exec", "f=open('/x.tmp','w');f.write('hi');f.close();import os;os.rename('/x.tmp','/x.txt')")
        assert r.returncode == 0, r.stdout + r.stderr
        assert (flash / "x.txt").read_text() == "hi"
        # and the board still takes presses afterwards
        p.stdin.write(b"A\n")
        p.stdin.flush()
        # The end of its input does not end a sim that serves its port (it
        # was started from a script, or with &): the port stays up.
        p.stdin.close()
        time.sleep(1.0)
        assert p.poll() is None
        r = mpremote("exec", "print('still here')")
        assert "still here" in r.stdout, r.stdout + r.stderr
    finally:
        if not p.stdin.closed:
            p.stdin.close()
        p.send_signal(signal.SIGINT)      # Ctrl-C ends it cleanly
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    assert p.returncode == 0, p.stderr.read().decode()


# A stand-in for an interactive shell that runs `pipkeeper sim --serial &`:
# it leads a session whose terminal is a pty, keeps the terminal's
# foreground for itself and starts the sim as a background job on it.
_SHELL = r"""
import fcntl, os, signal, subprocess, sys, termios
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.ioctl(fd, termios.TIOCSCTTY, 0)
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
os.tcsetpgrp(fd, os.getpgrp())
job = subprocess.Popen(sys.argv[2:], stdin=fd, stdout=subprocess.PIPE, preexec_fn=os.setpgrp)
print(job.pid, job.stdout.readline().decode().strip(), flush=True)
job.wait()
"""


def _proc_state(pid):
    with open("/proc/%d/stat" % pid) as f:
        return f.read().rsplit(")", 1)[1].split()[0]


@pytest.mark.parametrize("how", ("stdin-at-its-end", "background-job"))
def test_serial_board_stays_up_without_a_keyboard(tmp_path, how):
    """Started from a script or CI (stdin /dev/null), or with & from an
    interactive shell (stdin the shell's terminal, not ours to set up): the
    board and its port stay up until killed."""
    import pty
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([ROOT, os.path.join(ROOT, "host")])
    cmd = [sys.executable, "-m", "pipkeeper", "sim", "--serial", "--dir", str(tmp_path / "flash"), "-q"]
    master = None
    if how == "stdin-at-its-end":
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, env=env)
        pid, port = p.pid, p.stdout.readline().decode().strip()
    else:
        master, slave = pty.openpty()
        tty = os.ttyname(slave)
        os.close(slave)
        p = subprocess.Popen([sys.executable, "-c", _SHELL, tty] + cmd, stdout=subprocess.PIPE,
                             env=env, start_new_session=True)
        pid, port = p.stdout.readline().decode().split()
        pid = int(pid)
    try:
        assert port.startswith("/dev/")
        time.sleep(3.0)
        assert p.poll() is None
        assert _proc_state(pid) != "T", "the board was stopped (it set up a terminal not its own)"
        r = subprocess.run([sys.executable, "-m", "mpremote", "connect", port, "exec", "print(6*7)"],
                           capture_output=True, text=True, timeout=30)
        assert "42" in r.stdout, r.stdout + r.stderr
        assert _proc_state(pid) != "T"
    finally:
        os.kill(pid, signal.SIGTERM)
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.kill(pid, signal.SIGKILL)
            p.kill()
            p.wait()
        if master is not None:
            os.close(master)
