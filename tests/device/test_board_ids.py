"""Each emulated board its own id (issue 32, item 17): every board on the
emulated RP2040 was 0000000000000000 (rp2040js's flash answers the unique-id
command, 4Bh, with zeros), so two boards' first games were both
[Game "0000-0001"] and sync filed them under one board, "replaced 0001.dgn"
for a different game. Each board's flash chip now has its own id (its
folder's .sim-board-id, as the unix-port sim's boards have), which
MicroPython's machine.unique_id() reads at boot: two boards, two games in
one library, each under its board."""

import json

import pytest

import devkit

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def test_two_emulated_boards_sync_into_one_library_as_two_games(golden, device_cache, tmp_path):
    if devkit.is_pimoroni() or devkit.is_own():
        pytest.skip("one image is enough: the id is read the same way in all three (pico-sdk's "
                    "flash_get_unique_id), and this is the upstream image's test")
    db = tmp_path / "library.sqlite3"
    setup = devkit.script_presses()[:12]        # set-up, start, the first round's lead: a record
    boards = []
    for name in ("one", "two"):
        board = devkit.new_board(tmp_path / name, image=golden)
        try:
            devkit.play(board, setup)
            synced = devkit.sync_and_off(board, db)
        finally:
            board.close()
        assert synced["board"] == board.uid, synced           # the board's machine.unique_id()
        assert [(e["file"], e["action"]) for e in synced["files"]] == [("0001.dgn", "new")], synced
        boards.append(board.uid)
    assert boards[0] != boards[1] and "0000000000000000" not in boards
    code, out, err = devkit.cli(None, "games", "--json", "--all", db=db)
    assert code == 0, err
    games = json.loads(out)
    assert sorted((g["board"], g["game_id"], g["duplicate_of"]) for g in games) == sorted(
        (uid, uid[-4:] + "-0001", None) for uid in boards)
