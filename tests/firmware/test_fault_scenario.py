"""Issue 22: "a fault leaves a dead screen". On a flashed simulated board
(the unix port at the board's 160 KB) with a roster of seven names, some
beyond ASCII, a game in round 4, then Menu -> New game -> OK ran out of
memory ("allocating 640 bytes", in text.py's ``_loaded``), drew the raw
exception cut mid-word and stayed on it through every later press.

Here the whole table is played on USB power (one process, as `pipkeeper
sim --script` plays it): it must not run out at all, and the set-up then
goes on to the new game."""

import json
import re
import shutil
import time

import pytest

from roster_game import NAMES, SimBoard, flash_with_roster, pipkeeper, presses


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """The flash of a board after `pipkeeper flash` and `pipkeeper roster`."""
    return flash_with_roster(tmp_path_factory.mktemp("table") / "flash")


def _board(table, tmp_path):
    folder = tmp_path / "flash"
    shutil.copytree(table, folder)
    return folder


def _ui(folder):
    return json.loads((folder / "pipkeeper" / "ui.json").read_text(encoding="utf-8"))[0]


def test_the_flash_is_a_flashed_board_with_the_roster(table):
    from pipkeeper.sim import unix as sim
    assert sim.flashed(str(table))
    roster = json.loads((table / "pipkeeper" / "roster.json").read_text(encoding="utf-8"))
    assert roster["names"] == list(NAMES)


def test_new_game_from_round_4_with_seven_names_does_not_run_out(table, tmp_path):
    from pipkeeper.sim import unix as sim
    folder = _board(table, tmp_path)
    seq, planner = presses()
    s = sim.Sim(str(folder))        # the flashed copy runs, as on a board
    try:
        s.start()
        bad = []
        for i, b in enumerate(seq):
            got = s.press(b)
            if len(got) != 1 or _ui(folder).get("s") == "err":
                bad.append((i, b, len(got), _ui(folder)))
        assert not bad, bad[:3]
        assert not (folder / "log.txt").exists(), (folder / "log.txt").read_text()
        ui = _ui(folder)
        assert ui["s"] == "setup" and ui["pg"] == 1, ui      # the players' page
        # The set-up goes on: the players as offered, the options, the game.
        s.press("A")
        s.press("A")
    finally:
        s.close()
    assert not (folder / "log.txt").exists(), (folder / "log.txt").read_text()
    assert (folder / "pipkeeper" / "current").read_text().strip().lstrip("/") == "games/0002.dgn"
    assert (folder / "games" / "0001.dgn").read_text(encoding="utf-8").startswith("[")


def test_engine_tests_run_on_the_board_the_table_left(table, tmp_path):
    """Issue 22's "Related": `pipkeeper test --board test_dgn.py` against
    the simulated board ran out of memory in test_tags_are_read_in_order
    every time: the heap the scorer had left (a game's presses on USB, each
    leaking the bundle's misses) had no room for the tests."""
    folder = _board(table, tmp_path)
    seq, _ = presses()
    with SimBoard(folder, ("-q",)) as board:
        for b in seq:
            board.press(b)
        end = time.monotonic() + 180
        while True:             # every press taken: round 4, then the players' page
            try:
                ui = _ui(folder)
                rounds = (folder / "games" / "0001.dgn").read_text(encoding="utf-8").count("\nround ")
            except (OSError, ValueError):
                ui, rounds = {}, 0
            if rounds == 4 and ui.get("s") == "setup" and ui.get("pg") == 1:
                break
            assert time.monotonic() < end, ui
            time.sleep(0.5)
        out = pipkeeper(board.port, "test", "--board", "test_dgn.py")
    found = re.findall(r"^(\d+) passed, (\d+) failed$", out, re.M)
    assert len(found) == 1 and found[0][1] == "0" and int(found[0][0]) >= 10, out
    assert "MemoryError" not in out, out
