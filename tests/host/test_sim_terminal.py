"""`pipkeeper sim` in a terminal of 80 x 24 (issue 22, item 6): the screen
can be read, and the keys are shown beside their buttons from the first
screen on."""

import os
import shutil
import subprocess
import sys
import time

import pytest

from boardkit import ROOT, has_sim

pytestmark = pytest.mark.skipif(not has_sim(), reason="this checkout has no simulated board")

PRESSES = ("A", "A", "A", "A")      # rules, players, options: the first turn


def _plain(lines):
    return [line.plain for line in lines]


def _run(folder, words):
    from pipkeeper.sim.unix import Sim
    with Sim(str(folder), words=words) as sim:
        steps = [sim.start()]
        for b in PRESSES:
            steps.append(sim.press(b))
    return steps


def test_the_first_screen_reads_at_80_by_24(tmp_path):
    from pipkeeper.sim import terminal
    frame = _run(tmp_path / "flash", True)[0][-1]
    lines = _plain(terminal.screen(frame, 80, 24))
    assert len(lines) + 1 <= 24                     # and the caption under it
    assert all(len(line) <= 80 for line in lines), [len(x) for x in lines]
    text = "\n".join(lines)
    # (the presets by the names players read: words.py's, since issue 22)
    for words in ("New game: rules", "Chicken Foot Cross", "Chicken Scratch", "OK", "down"):
        assert words in text, text
    # The keys: a b c under the labels of the buttons below the screen, u
    # and d beside the two at its right, on the lines of their labels.
    keys = lines[-1]
    assert [c for c in keys if c != " "] == ["a", "b", "c"]
    labels = lines[-3]
    ok = labels.index("OK")
    assert ok <= keys.index("a") <= ok + 1
    up = [line for line in lines if line.endswith("↑ u")]
    down = [line for line in lines if line.endswith("↓ d")]
    assert len(up) == 1 and "up" in up[0] and len(down) == 1 and "down" in down[0]
    # the highlighted row is in reverse video
    row = terminal.screen(frame, 80, 24)[3]
    assert any(span.style == "reverse" and row.plain[span.start:span.end].strip() == "Chicken Foot"
               for span in row.spans), row.spans


def test_the_words_change_no_pixel(tmp_path):
    """The words come with the frames; the frames are the same without them."""
    with_words = _run(tmp_path / "a", True)
    without = _run(tmp_path / "b", False)
    assert [[f.data for f in s] for s in with_words] == [[f.data for f in s] for s in without]
    assert all(f.words for s in with_words for f in s)
    assert not any(f.words for s in without for f in s)
    from pipkeeper.sim import terminal
    turn = "\n".join(_plain(terminal.screen(with_words[-1][-1], 80, 24)))
    for words in ("R1/10", "Ann", "Bob", "Play", "Draw", "Pass"):
        assert words in turn, turn


def test_a_wide_terminal_gets_the_picture(tmp_path):
    from pipkeeper.sim import terminal
    frame = _run(tmp_path / "flash", True)[0][-1]
    lines = _plain(terminal.screen(frame, 160, 50))
    assert len(lines) == 32 + 3 and len(lines[1]) == 1 + 148 + 1 + len(" ↑ u")
    assert "New game" not in "\n".join(lines)           # pixels, in braille


@pytest.mark.skipif(not shutil.which("tmux"), reason="no tmux")
def test_the_sim_at_80_by_24_in_tmux(tmp_path):
    """As a user sees it: `pipkeeper sim` in an 80 x 24 terminal."""
    sock = "pk-test-%d" % os.getpid()
    cmd = "cd %s && PYTHONPATH=%s:%s %s -m pipkeeper sim --dir %s" % (
        ROOT, ROOT, os.path.join(ROOT, "host"), sys.executable, tmp_path / "flash")
    subprocess.run(["tmux", "-L", sock, "new-session", "-d", "-s", "sim", "-x", "80", "-y", "24",
                    cmd + "; sleep 30"], check=True)
    try:
        screen = ""
        end = time.monotonic() + 60
        while time.monotonic() < end and "keys: a b c" not in screen:     # drawn last
            time.sleep(0.5)
            screen = subprocess.run(["tmux", "-L", sock, "capture-pane", "-p", "-t", "sim"],
                                    capture_output=True, text=True).stdout
        lines = screen.splitlines()
        assert "New game: rules" in screen, screen
        assert all(len(line) <= 80 for line in lines)
        assert any(line.strip() == "a                        b                       c"
                   or line.split() == ["a", "b", "c"] for line in lines), screen
        assert "keys: a b c" in screen
    finally:
        subprocess.run(["tmux", "-L", sock, "kill-server"], capture_output=True)
