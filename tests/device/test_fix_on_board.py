"""A game corrected on the emulated RP2040 (issue 24): the planned presses
of a short game with a fix after every scored round, one of them undone
and made again, pressed on the board; its frames are the unix-port sim's,
and the record, synced to the laptop, shows the same sheet as the sim's
record, corrected cells marked."""

import json
import os
import sys

import pytest

import devkit

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]

FIRMWARE_TESTS = os.path.join(devkit.ROOT, "tests", "firmware")
if FIRMWARE_TESTS not in sys.path:
    sys.path.insert(0, FIRMWARE_TESTS)


def test_a_game_corrected_on_the_board_syncs_to_the_sims_sheet(golden, mpy_tree, device_cache, tmp_path):
    from planner import plan_game
    from test_fix_board import Fixes
    fixes = Fixes(undo=True)
    presses, _evs, plan = plan_game("chickenfoot", 3, 4, "quick", options={"rounds": "9 8 7"}, fixes=fixes)
    assert fixes.made and plan.ctx.game.over
    theirs = devkit.sim_frames(tmp_path / "sim", presses, mpy_tree)
    board = devkit.new_board(tmp_path / "board", image=golden)
    try:
        ours = devkit.play(board, presses)
        db = tmp_path / "library.sqlite3"
        with devkit.serial(board) as port:
            code, out, err = devkit.cli(port, "sync", "--json", db=db)
        devkit.off(board)
    finally:
        board.close()
    where = devkit.first_difference(ours, theirs)
    assert where is None, "step %d: %s" % where
    assert code == 0, err
    assert [f["status"] for f in json.loads(out)["files"]] == ["ok"]
    code, sheet, err = devkit.cli(None, "show", "1", db=db)
    assert code == 0, err
    code, record, err = devkit.cli(None, "show", "1", "--dgn", db=db)
    assert code == 0, err
    games = sorted(os.listdir(str(tmp_path / "sim" / "games")))
    with open(str(tmp_path / "sim" / "games" / games[-1]), encoding="utf-8") as f:
        sims = f.read()
    # the same events as the sim's record (the tags name each board's id)
    assert _untagged(record) == _untagged(sims)
    assert sum(1 for line in record.splitlines() if line.startswith("fix ")) == len(fixes.made) + 1
    copy = tmp_path / "board.dgn"
    copy.write_text(record, encoding="utf-8")
    code, replayed, err = devkit.cli(None, "replay", str(copy))
    assert code == 0, err
    assert sheet == replayed and "~" in sheet


def _untagged(text):
    return [line for line in text.splitlines() if not line.startswith("[")]
