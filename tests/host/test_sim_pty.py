"""`pipkeeper sim` as a user runs it: in a real terminal (a pseudo-terminal
of 80 x 24), keys typed one at a time, in each of the six languages
(issue 32, items 1 and 2).

In a terminal the sim asks the board for the words of each screen
(firmware/board_sim_words.py); a game started in Welsh, Irish or
Persian lost the dealer's screen to a MemoryError in that request, and
the next press changed the leader unseen. Here every press must draw its
screen (a PNG frame each, its caption in the terminal, nothing in the
board's log), and the 80 x 24 view must show the screen's words in the
game's language, not braille.
"""

import os
import pty
import select
import struct
import subprocess
import sys
import time

import pytest

from boardkit import ROOT, has_sim

pytestmark = pytest.mark.skipif(not has_sim(), reason="this checkout has no simulated board")

LANGS = ("en", "cy", "ga", "sv", "mn", "fa")
CAPTION = b" update   keys:"          # the caption of a press that drew (commands/sim.py)


class Terminal:
    """`pipkeeper sim --dir DIR --frames F` on a pty of ``cols`` x ``rows``."""

    def __init__(self, folder, cols=80, rows=24):
        import fcntl
        import termios
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "host")]),
                   COLUMNS="", LINES="", TERM="xterm-256color")
        self.frames = os.path.join(str(folder), "f")
        self.dir = os.path.join(str(folder), "b")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pipkeeper", "sim", "--dir", self.dir, "--frames", self.frames],
            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env, start_new_session=True,
            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        os.close(slave)
        self.out = b""

    def read_until(self, pred, timeout=20):
        end = time.monotonic() + timeout
        while not pred(self.out):
            left = end - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                return False
            r, _, _ = select.select([self.master], [], [], min(left, 0.5))
            if r:
                try:
                    self.out += os.read(self.master, 65536)
                except OSError:
                    return False
        return True

    def keys_taken(self, timeout=30):
        """Wait until the sim takes keys one at a time (its terminal out
        of line mode), as a user's first key after the first screen."""
        import termios
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if not termios.tcgetattr(self.master)[3] & termios.ICANON:
                return True
            time.sleep(0.05)
        return False

    def key(self, k):
        """Type ``k``; wait for the screen of the press it made."""
        n = self.out.count(CAPTION)
        os.write(self.master, k.encode())
        return self.read_until(lambda out: out.count(CAPTION) > n)

    def last_screen(self):
        import re
        text = self.out.decode("utf-8", "replace").split("\x1b[2J")[-1]
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)

    def close(self):
        try:
            os.write(self.master, b"q")
            self.proc.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)


def _keys(lang):
    """From the first screen: Chicken Foot Cross, the default players, the
    language (the options page's fifth row, below House rules), Start;
    then the dealer's screen: the next leader, Start (the first turn)."""
    return "daadddd" + "b" * LANGS.index(lang) + "a" + "da"


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_every_press_draws_its_screen_in_a_terminal(tmp_path, lang):
    from pipkeeper import i18n
    term = Terminal(tmp_path)
    try:
        assert term.read_until(lambda out: b"booted" in out), term.out[-2000:]
        assert term.keys_taken()
        keys = _keys(lang)
        for i, k in enumerate(keys):
            assert term.key(k), "press %d (%s) drew no screen:\n%s" % (
                i + 1, k, term.last_screen())
        screen = term.last_screen()
    finally:
        term.close()
    # one frame for the power-on and one for each press
    assert len(os.listdir(term.frames)) == len(keys) + 1
    log = os.path.join(term.dir, "log.txt")
    assert not os.path.exists(log), open(log).read()
    # the first turn, in words of its language (Persian laid out right to
    # left, in visual order: pipkeeper.sim.terminal), not braille
    assert not any(0x2800 <= ord(c) < 0x2900 for c in screen), screen
    from pipkeeper.sim.terminal import visual
    for label in ("Play", "Draw", "Pass"):
        word = i18n.say(lang, (label,))
        assert (visual(word) if i18n.rtl(word) else word) in screen, (word, screen)
    with open(os.path.join(term.dir, "games", "0001.dgn"), encoding="utf-8") as f:
        record = f.read()
    assert '[Lang "%s"]' % lang in record or lang == "en"
    assert "round 9-9 lead 2" in record     # the leader moved on the screen the players saw
