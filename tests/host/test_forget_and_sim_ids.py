"""Tidying the library: `pipkeeper forget GAME` (asks first, or --yes; one
transaction; sync leaves the board's file unless it grows); each simulated
board has its own id (its [Game] ids and its key in the library no longer
"sim0-0001" and "virtual" for every sim); `games` tells sim games from a
real board's."""

import json
import os
import sqlite3
import subprocess
import sys

import pytest
from click.testing import CliRunner

from boardkit import ROOT, has_sim, virtual_board, write_games
from pipkeeper.board import flash, link, sync
from pipkeeper.cli import main
from pipkeeper.library.store import Library, is_simulated
from pipkeeper.sim import unix

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), prog_name="pipkeeper", input=input)


@pytest.fixture
def db(tmp_path):
    """Two copies of one game from two boards (the second a duplicate), another game."""
    path = tmp_path / "lib.sqlite3"
    with open(os.path.join(DATA, "paper_sheet_tiebreak.dgn"), "rb") as f:
        paper = f.read()
    with open(os.path.join(DATA, "format_example.dgn"), "rb") as f:
        example = f.read()
    with Library(path) as lib:
        lib.store("b1", "0001.dgn", paper)
        lib.store("sim-00112233445566ff", "0001.dgn", paper[:paper.rindex(b"score")])   # shorter: a copy
        lib.store("b1", "0002.dgn", example)
    return str(path)


def listed(db, *extra):
    result = run("games", "--db", db, "--json", *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_forget_asks_first_and_removes_the_game_and_its_copies(db):
    assert [g["id"] for g in listed(db)] == [1, 3]
    assert [g["id"] for g in listed(db, "--all")] == [1, 2, 3]
    # no terminal to ask on: refused, nothing gone
    result = run("forget", "1", "--db", db)
    assert result.exit_code == 1
    assert result.stderr == ("pipkeeper: forget asks before it forgets game 1 (b1c2-0007; "
                             "chickenfoot-cross: Ann, Bob, Cy; 4 rounds): add --yes to forget it "
                             "without asking\n")
    assert len(listed(db, "--all")) == 3
    result = run("forget", "b1c2-0007", "--db", db, "--yes")
    assert result.exit_code == 0, result.output
    assert result.stdout == ("forgot game 1 (b1c2-0007; chickenfoot-cross: Ann, Bob, Cy; 4 rounds) "
                             "and 1 duplicate of it\n")
    assert [g["id"] for g in listed(db, "--all")] == [3]
    with Library(db) as lib:
        assert lib.db.execute("SELECT COUNT(*) FROM seats WHERE record_id IN (1, 2)").fetchone()[0] == 0
        assert lib.db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
        assert lib.integrity() == "ok"
    players = json.loads(run("players", "--db", db, "--json").stdout)
    assert [p["games"] for p in players if p["player"] == "Ann"] == [1]     # the other game only


def test_forget_on_a_terminal_asks(db, monkeypatch):
    import pipkeeper.commands.forget as forget
    monkeypatch.setattr(forget, "can_ask", lambda: True)
    asked = []
    monkeypatch.setattr(forget.click, "confirm", lambda text, default: asked.append(text) or False)
    result = run("forget", "3", "--db", db)
    assert result.exit_code == 1 and result.stderr == "pipkeeper: nothing forgotten\n"
    assert asked == ["forget game 3 (0002.dgn; chickenfoot: Ann, Bob, Cy, Di; 0 rounds)?"]
    assert len(listed(db)) == 2


def test_forget_is_one_transaction(db, monkeypatch):
    """A failure half-way (here: the last DELETE) leaves every row."""
    with Library(db) as lib:
        real = lib.db

        class Failing:
            def execute(self, sql, *args):
                if sql.startswith("DELETE FROM records"):
                    raise sqlite3.OperationalError("disk I/O error")
                return real.execute(sql, *args)

        lib.db = Failing()
        with pytest.raises(sqlite3.OperationalError):
            lib.forget(1)
        lib.db = real
        assert real.execute("SELECT COUNT(*) FROM records").fetchone()[0] == 3
        assert real.execute("SELECT COUNT(*) FROM forgotten").fetchone()[0] == 0
        assert real.execute("SELECT duplicate_of FROM records WHERE id = 2").fetchone()[0] == 1


def test_forget_an_unknown_game(db):
    result = run("forget", "99", "--db", db, "--yes")
    assert result.exit_code == 1 and "no game '99'" in result.stderr


def test_sync_leaves_a_forgotten_game_on_the_board_until_it_grows(board, tmp_path, cache):
    games = write_games(board.root / "games", 2)
    with link.connect(board.port) as l:
        flash.flash(l)
    db = str(tmp_path / "lib.sqlite3")
    with Library(db) as lib, link.connect(board.port) as l:
        assert sorted(e.action for e in sync.sync(l, lib).entries) == ["new", "new"]
    assert run("forget", "0001.dgn", "--db", db, "--yes").exit_code == 0
    with Library(db) as lib, link.connect(board.port) as l:
        assert sync.sync(l, lib).entries == []       # not brought back
        assert [g["file"] for g in lib.games()] == ["0002.dgn"]
    with open(board.root / "games" / "0001.dgn", "ab") as f:
        f.write(b"; played on\n")
    with Library(db) as lib, link.connect(board.port) as l:
        assert [e.action for e in sync.sync(l, lib).entries] == ["new"]     # grown: news
        assert sorted(g["file"] for g in lib.games()) == ["0001.dgn", "0002.dgn"]
        assert lib.db.execute("SELECT COUNT(*) FROM forgotten").fetchone()[0] == 0
    assert games


# -- each sim its own board --------------------------------------------------------------

def test_games_tells_sim_games_from_a_boards(db):
    games = listed(db, "--all")
    assert [(g["board"], g["simulated"]) for g in games] == [
        ("b1", False), ("sim-00112233445566ff", True), ("b1", False)]
    assert is_simulated("virtual") and not is_simulated("e66141040b3c2f2a")
    result = run("games", "--db", db)
    assert result.stdout.splitlines()[0].split()[:4] == ["#", "game", "from", "rules"]
    assert result.stdout.splitlines()[1].split()[2] == "board"


def test_a_sims_id_is_its_own_and_kept_in_its_folder(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, b = unix.board_id(str(tmp_path / "a")), unix.board_id(str(tmp_path / "b"))
    assert len(a) == 16 and int(a, 16) >= 0 and a != b
    assert unix.board_id(str(tmp_path / "a")) == a
    assert (tmp_path / "a" / unix.ID_FILE).read_text() == a + "\n"


@pytest.mark.skipif(not has_sim(), reason="needs the MicroPython unix port and mpy-cross")
def test_two_sims_games_do_not_collide(tmp_path, monkeypatch):
    """Their [Game] ids were both sim0-0001, and sync filed both boards as
    "virtual": now each sim's first game has its own id, and sync files it
    under "sim-<id>", a simulated board's key."""
    script = os.path.join(ROOT, "tests", "data", "scripted_game.txt")
    monkeypatch.delenv("PIPKEEPER_RP2_FIRMWARE", raising=False)    # the unix port's sim, not the emulator
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.path.join(ROOT, "host"))
    ids = []
    for name in ("one", "two"):
        folder = tmp_path / name
        play = subprocess.run([sys.executable, "-m", "pipkeeper", "sim", "-q", "--dir", str(folder),
                               "--script", script], cwd=ROOT, capture_output=True, text=True,
                              timeout=300, env=env)
        assert play.returncode == 0, play.stderr
        uid = (folder / unix.ID_FILE).read_text().strip()
        head = (folder / "games" / "0001.dgn").read_text()
        assert '[Game "{}-0001"]'.format(uid[-4:]) in head, head[:200]
        ids.append(uid)
    assert ids[0] != ids[1]
    db = str(tmp_path / "lib.sqlite3")
    with virtual_board(tmp_path / "one") as board:
        with Library(db) as lib, link.connect(board.port) as l:
            assert sync.sync(l, lib).board == "sim-" + ids[0]
    (game,) = listed(db)
    assert game["board"] == "sim-" + ids[0] and game["simulated"] is True
