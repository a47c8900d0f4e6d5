"""A whole game pressed on the emulated board's buttons (GPIO), against the
unix-port sim; then `pipkeeper sync` of it over the board's USB serial and
the library's score sheet against `pipkeeper replay` of the board's record."""

import json
import re

import pytest

import devkit

# Minutes of emulated-board time: one timeout for a test and the session
# fixtures it may be the first to build (flashing, the scripted game).
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def _record_on(image):
    """(name, bytes) of the one game record on a board's flash image."""
    from pipkeeper.board import flashfs
    names = [n for n in flashfs.listdir(str(image), "/games") if n.endswith(".dgn")]
    assert len(names) == 1, names
    return names[0], flashfs.read(str(image), "/games/" + names[0])


def _untagged(text):
    return [line for line in text.splitlines() if not line.startswith(("[Game ", "[Date "))]


def test_scripted_game_frames_equal_the_sims(scripted):
    assert len(scripted.emu) == len(scripted.sim) == len(scripted.presses) + 1
    # The same count of frames, each press and in all ...
    assert [len(s) for s in scripted.emu] == [len(s) for s in scripted.sim]
    # ... and every one the same, byte for byte (and the same kind of refresh).
    where = devkit.first_difference(scripted.emu, scripted.sim)
    assert where is None, "step %d (%s): %s" % (
        where[0], "power-on" if where[0] == 0 else "press %s" % scripted.presses[where[0] - 1], where[1])
    # The same game recorded on both boards, but for the tags that name the
    # board (machine.unique_id(); "sim0" on the sim) and the day (the sim's
    # host clock; the board's RTC, never set, says 2021 and it writes none).
    name, record = _record_on(scripted.image)
    with open(str(scripted.sim_dir / "games" / name), "rb") as f:
        theirs = f.read()
    ours = record.decode()
    assert re.search(r'^\[Game "[0-9a-f]{4}-0001"\]$', ours, re.M), ours[:300]
    assert _untagged(ours) == _untagged(theirs.decode())


def test_sync_then_show_equals_replay(scripted, device_cache, tmp_path):
    from pipkeeper.sim.rp2040.board import FLASH_FILE
    name, record = _record_on(scripted.image)
    db = tmp_path / "library.sqlite3"
    board = devkit.new_board(tmp_path / "board", image=scripted.image)
    try:
        board.start()                    # the board on the table, showing the game's end
        with devkit.serial(board) as port:
            code, out, err = devkit.cli(port, "sync", "--json", db=db)
            assert code == 0, err
            synced = json.loads(out)
            again = devkit.cli(port, "sync", "--json", db=db)
        devkit.off(board)
    finally:
        board.close()
    assert [(e["file"], e["action"], e["status"]) for e in synced["files"]] == [(name, "new", "ok")], synced
    code, out, err = again
    assert code == 0, err
    assert json.loads(out)["files"] == []          # idempotent: nothing new the second time
    # The board's record is untouched by the sync.
    assert _record_on(tmp_path / "board" / FLASH_FILE) == (name, record)

    code, games, err = devkit.cli(None, "games", "--json", db=db)
    assert code == 0, err
    assert [(g["id"], g["file"]) for g in json.loads(games)] == [(1, name)]
    code, sheet, err = devkit.cli(None, "show", "1", db=db)
    assert code == 0, err
    code, dgn, err = devkit.cli(None, "show", "1", "--dgn", db=db)
    assert code == 0, err
    assert dgn.encode() == record
    copy = tmp_path / name
    copy.write_bytes(record)
    code, replayed, err = devkit.cli(None, "replay", str(copy))
    assert code == 0, err
    assert sheet == replayed
