"""The score sheet's pages on the emulated RP2040 (issue 32, item 5): a
Mexican Train game 10 rounds in (the sheet shows 8 at once) laid on a copy
of the flashed board and on the unix-port sim's folder; C pages back to the
first rounds and returns, the fix's cursor walks up past the page's top and
the sheet follows it. The same frames, press by press, as the sim's.

Cheap on purpose: 14 presses on USB power, on the upstream image only."""

import pytest

import devkit
from test_battery import lay_on_board

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]

# C: the first rounds, C: the latest again; B: fix, which round? (the last);
# UP to the first round (the page follows the cursor); C: back to the sheet
PRESSES = ["C", "C", "B"] + ["UP"] * 9 + ["C", "C"]


def _mexican_train_ten_rounds_in(folder):
    from shared_engine import dgn
    from shared_engine.engine import ROUND, SCORE
    events = []
    for k in range(10):
        events += [(ROUND, 12 - k, k % 4 + 1, ()), (SCORE, (50 + 3 * k, 60 + 2 * k, 70 + k, 80), (0, 0, 0, 0))]
    tags = [("Rules", ["mexican-train"]), ("Players", ["Ann", "Bob", "Cy", "Di"]),
            ("Tracking", ["quick"])]
    (folder / "games").mkdir(parents=True)
    (folder / "pipkeeper").mkdir()
    (folder / "games" / "0001.dgn").write_text("".join(dgn.lines(tags, events)), encoding="utf-8")
    (folder / "pipkeeper" / "current").write_text("/games/0001.dgn\n")
    (folder / "pipkeeper" / "settings.json").write_text('{"counter": 1, "lang": "en"}')


def test_the_sheets_pages_equal_the_sims(device, golden, mpy_tree, tmp_path):
    if devkit.is_pimoroni(device) or devkit.is_own(device):
        pytest.skip("the sheet's pages run on the upstream image only (the suite's time)")
    sim_dir = tmp_path / "sim"
    _mexican_train_ten_rounds_in(sim_dir)
    board_dir = tmp_path / "board"
    lay_on_board(golden, sim_dir, board_dir)
    board = devkit.new_board(board_dir)
    try:
        ours = devkit.play(board, PRESSES)
        devkit.off(board)
    finally:
        board.close()
    theirs = devkit.sim_frames(sim_dir, PRESSES, mpy_tree)
    where = devkit.first_difference(ours, theirs)
    assert where is None, "step %d (%s): %s" % (
        where[0], "power-on" if where[0] == 0 else PRESSES[where[0] - 1], where[1])
    # the pages are different frames: the sheet did page (C), and followed the cursor (UP)
    shown = [step[-1].data for step in ours]
    assert shown[1] != shown[0] and shown[2] == shown[0], "C did not page, or did not come back"
    assert len(set(shown[3:13])) == 10, "the cursor's rows (each UP a frame of its own)"
