"""`pipkeeper sim --serial` after laptop commands: the screen each press
draws is that press's, and presses reach the scorer again once the host
has let go of the port (issue 22, items 4 and 5)."""

import os
import time

import pytest

from boardkit import SimBoard, has_sim, run_cli, wait_for

pytestmark = pytest.mark.skipif(not has_sim(), reason="this checkout has no simulated board")


def _pngs(folder):
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


def _pixels(path):
    from PIL import Image
    with Image.open(path) as im:
        return im.convert("L").tobytes()


def _restarted_screen(flash, tmp_path):
    """The screen the board shows when it starts afresh from its flash (what
    ui.json says), as a PNG like those of --frames."""
    from pipkeeper.sim.panel import save_png
    from pipkeeper.sim.unix import Sim
    with Sim(str(flash)) as sim:
        frame = sim.start()[-1]
    path = tmp_path / "restarted.png"
    save_png(frame.data, str(path))
    return path


def test_presses_after_a_flash_draw_their_own_screen(tmp_path, cache):
    flash, frames = tmp_path / "flash", tmp_path / "frames"
    with SimBoard(flash, extra=("--frames", str(frames), "-q")) as board:
        assert wait_for(lambda: len(_pngs(frames)) == 1, 30)      # its first screen
        code, out, err = run_cli("flash", env={"PIPKEEPER_PORT": board.port})
        assert code == 0, err
        board.press("DOWN")
        board.press("DOWN")
        # the first screen, the one the reset after the flash drew, and one
        # a press
        wait_for(lambda: len(_pngs(frames)) >= 4, 30)
        time.sleep(0.5)
        got = _pngs(frames)
    assert len(got) == 4, got
    # The last screen is the board's state (chicken-scratch highlighted),
    # as a restart from its flash shows it; not the press before it.
    last = frames / got[-1]
    assert _pixels(last) == _pixels(_restarted_screen(flash, tmp_path))
    assert _pixels(last) != _pixels(frames / got[-2])


def test_presses_reach_the_scorer_after_a_run_of_commands(tmp_path, cache):
    """The issue's sequence: each command ends with the board answering the
    host's Ctrl-B, while the sim resets it."""
    flash, frames = tmp_path / "flash", tmp_path / "frames"
    board = SimBoard(flash, extra=("--frames", str(frames), "-q"))
    try:
        assert wait_for(lambda: len(_pngs(frames)) == 1, 30)
        env = {"PIPKEEPER_PORT": board.port}
        for args in (["flash"], ["flash", "--dry-run"], ["flash", "--json"], ["roster"],
                     ["roster", "A", "B", "C"], ["roster"]):
            code, out, err = run_cli(*args, env=env)
            assert code == 0, (args, err)
        before = len(_pngs(frames))
        board.press("A")
        board.press("A")
        assert wait_for(lambda: len(_pngs(frames)) >= before + 3, 30), _pngs(frames)
    finally:
        board.close()
        err = board.proc.stderr.read().decode()
    assert "ignored" not in err, err


def test_the_old_boards_banner_after_a_reset_is_not_the_new_boards(tmp_path):
    """The race itself, made certain: the old process's answer to the
    host's closing Ctrl-B (its REPL banner, with its prompt) has reached its
    terminal before the reset kills it. The new board is in its scorer."""
    from pipkeeper.board import link
    from pipkeeper.sim.unix import SerialBoard, Sim

    class LateReset(SerialBoard):
        def _reset(self):
            time.sleep(0.5)            # the banner is written meanwhile
            super()._reset()

    sim = Sim(str(tmp_path / "flash"), serial=True)
    port = LateReset(sim)
    try:
        port.start()
        first = sim.proc
        with link.connect(port.port) as board:
            board.info()
        assert wait_for(lambda: sim.proc is not first, 10)    # the reset came
        time.sleep(1.0)
        assert not port.repl
        got = sim.press("A")
        assert len(got) == 2        # the reset's boot screen, then the press's
    finally:
        port.close()
        sim.close()
