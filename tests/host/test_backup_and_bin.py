"""`pipkeeper backup FILE` (issue 32.19): SQLite's online backup, taken
while a real sync writes to the library, each copy a whole library of one
instant; and what `forget` removes kept in the bin for `forget --undo`
(issue 32.18)."""

import hashlib
import json
import os
import sqlite3
import threading
import time

import pytest

from boardkit import write_games
from pipkeeper.board import flash, link, sync
from pipkeeper.library import backup as backups
from pipkeeper.library.store import BIN_DAYS, Library
from test_import import data, run


def check_copy(path):
    """The copy is a library on its own: one file, it checks, and every
    record in it is whole, with its derived rows. Returns its record count."""
    assert not os.path.exists(str(path) + "-wal") and not os.path.exists(str(path) + "-journal")
    con = sqlite3.connect("file:{}?mode=ro".format(path), uri=True)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert con.execute("PRAGMA user_version").fetchone()[0] == 3
        rows = con.execute("SELECT id, dgn, size, sha256, status FROM records").fetchall()
        for rid, dgn, size, sha, status in rows:
            assert len(dgn) == size and hashlib.sha256(dgn).hexdigest() == sha
            derived = con.execute("SELECT players FROM games WHERE record_id = ?", (rid,)).fetchone()
            assert (derived is not None) == (status == "ok")
            seats = con.execute("SELECT COUNT(*) FROM seats WHERE record_id = ?", (rid,)).fetchone()[0]
            assert seats == (len(json.loads(derived[0])) if derived else 0)
        return len(rows)
    finally:
        con.close()


def test_backups_taken_while_a_sync_writes_are_whole(board, tmp_path, cache, monkeypatch):
    count = 24
    write_games(board.root / "games", count)
    with link.connect(board.port) as l:
        flash.flash(l)
    db = str(tmp_path / "lib.sqlite3")
    with Library(db):
        pass
    # The sync pauses inside each game's transaction (after its rows are
    # written, before COMMIT): the backups below run in those pauses.
    inside = threading.Event()
    real = Library._dedupe

    def slow(self, *args):
        real(self, *args)
        inside.set()
        time.sleep(0.05)

    monkeypatch.setattr(Library, "_dedupe", slow)
    failure = []

    def syncing():
        try:
            with Library(db) as lib, link.connect(board.port) as l:
                sync.sync(l, lib)
        except BaseException as exc:  # pragma: no cover (reported below)
            failure.append(exc)

    worker = threading.Thread(target=syncing)
    worker.start()
    assert inside.wait(60)
    counts = []
    while worker.is_alive():
        target = tmp_path / "copy{}.sqlite3".format(len(counts))
        with Library(db, read_only=True) as lib:
            n = backups.backup(lib, target)
        counts.append(n)
        assert check_copy(target) == n
        time.sleep(0.01)
    worker.join()
    assert not failure, failure
    # copies taken mid-sync: some games, never one half-written, never fewer than before
    assert len(counts) >= 3 and counts == sorted(counts)
    assert any(0 < n < count for n in counts)
    result = run("backup", str(tmp_path / "final.sqlite3"), "--db", db)
    assert result.exit_code == 0, result.output
    assert result.stdout == "backed up {} records to {}\n".format(count, tmp_path / "final.sqlite3")
    assert check_copy(tmp_path / "final.sqlite3") == count
    # the copy is a library: read it, and merge it into an empty one
    assert len(json.loads(run("games", "--json", "--db", str(tmp_path / "final.sqlite3")).stdout)) == count
    merged = run("import", str(tmp_path / "final.sqlite3"), "--db", str(tmp_path / "other.sqlite3"))
    assert merged.exit_code == 0 and merged.stdout.splitlines()[-1].startswith("{} new".format(count))


def test_backup_refuses_to_overwrite_what_is_not_a_backup(tmp_path):
    db = str(tmp_path / "lib.sqlite3")
    with Library(db) as lib:
        lib.store("b1", "0001.dgn", data("paper_sheet_tiebreak.dgn"))
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    for target, why in ((notes, "exists and is not a library"), (db, "is the library itself"),
                        (tmp_path, "is a directory"), (tmp_path / "no" / "x.sqlite3", "no folder")):
        result = run("backup", str(target), "--db", db)
        assert result.exit_code in (1, 2) and why in result.stderr, (target, result.stderr)
        assert result.stderr.count("\n") == 1
    assert notes.read_text() == "my notes"
    # an older backup is replaced
    older = tmp_path / "old.sqlite3"
    assert run("backup", str(older), "--db", db).exit_code == 0
    with Library(db) as lib:
        lib.store("b1", "0002.dgn", data("format_example.dgn"))
    assert run("backup", str(older), "--db", db).exit_code == 0
    assert check_copy(older) == 2
    assert [p for p in os.listdir(tmp_path) if p.endswith(".tmp")] == []


# -- forget, and taking it back --------------------------------------------------------------

@pytest.fixture
def db(tmp_path):
    """Game 1 and its shorter copy from a sim (2), and another game (3)."""
    path = str(tmp_path / "lib.sqlite3")
    paper = data("paper_sheet_tiebreak.dgn")
    with Library(path) as lib:
        lib.store("b1", "0001.dgn", paper)
        lib.store("sim-00112233445566ff", "0001.dgn", paper[:paper.rindex(b"score")])
        lib.store("b1", "0002.dgn", data("format_example.dgn"))
    return path


def listed(db, *extra):
    return [g["id"] for g in json.loads(run("games", "--json", "--db", db, *extra).stdout)]


def test_forget_then_undo_brings_the_game_back_as_it_was(db):
    with Library(db) as lib:
        before = [dict(lib.record(i), synced=None) for i in (1, 2, 3)]
    assert run("forget", "1", "--yes", "--db", db).exit_code == 0
    assert listed(db, "--all") == [3]
    shown = run("forget", "--list", "--db", db).stdout
    assert shown.startswith("game 1 (b1c2-0007; chickenfoot-cross: Ann, Bob, Cy) and 1 duplicate: forgotten ")
    assert "kept until" in shown
    result = run("forget", "--undo", "--db", db)
    assert result.exit_code == 0, result.output
    assert result.stdout == ("took back game 1 (b1c2-0007; chickenfoot-cross: Ann, Bob, Cy; 4 rounds) "
                             "and 1 duplicate of it\n")
    assert listed(db, "--all") == [1, 2, 3] and listed(db) == [1, 3]
    with Library(db) as lib:
        assert [dict(lib.record(i), synced=None) for i in (1, 2, 3)] == before
        # sync takes the board's file as held again, not as forgotten
        assert lib.db.execute("SELECT COUNT(*) FROM forgotten").fetchone()[0] == 0
        assert lib.binned() == [] and lib.integrity() == "ok"
    result = run("forget", "--undo", "--db", db)
    assert result.exit_code == 1
    assert result.stderr == "pipkeeper: nothing to take back: no game was forgotten in the last 30 days\n"


def test_undo_a_named_game_whose_number_was_taken_since(db):
    assert run("forget", "3", "--yes", "--db", db).exit_code == 0
    assert run("forget", "1", "--yes", "--db", db).exit_code == 0
    with Library(db) as lib:   # SQLite gives the next game the lowest number free after the last
        assert lib.store("b1", "0009.dgn", data("format_example.dgn").replace(b"Di", b"Dee"))[0] == 1
    result = run("forget", "--undo", "3", "--db", db)
    assert result.exit_code == 0
    assert result.stdout == "took back game 3 (0002.dgn; chickenfoot: Ann, Bob, Cy, Di; 0 rounds)\n"
    result = run("forget", "--undo", "1", "--db", db)
    assert result.stdout == ("took back game 4 (b1c2-0007; chickenfoot-cross: Ann, Bob, Cy; 4 rounds) (its "
                             "number 1 is another game's now) and 1 duplicate of it\n")
    assert listed(db) == [1, 3, 4]
    result = run("forget", "--undo", "x", "--db", db)
    assert result.exit_code == 2


def test_the_bin_lets_go_after_its_days(db):
    assert run("forget", "3", "--yes", "--db", db).exit_code == 0
    with Library(db) as lib:
        lib.db.execute("UPDATE bin SET forgotten = forgotten - ?", ((BIN_DAYS + 1) * 86400,))
        assert lib.binned() == []
        lib.forget(1)                               # a later forget clears what is older
        assert lib.db.execute("SELECT COUNT(*) FROM bin WHERE game = 3").fetchone()[0] == 0
    assert run("forget", "--undo", "3", "--db", db).exit_code == 1


def test_an_undo_after_the_board_file_grew_keeps_the_newer_live(db):
    """Forgotten, then the board played on and sync took the grown file:
    the old record comes back as its duplicate, the grown one stays the
    board's."""
    assert run("forget", "1", "--yes", "--db", db).exit_code == 0
    with Library(db) as lib:
        grown = lib.store("b1", "0001.dgn", data("paper_sheet_tiebreak.dgn") + b"; more\n")[0]
    assert grown == 4
    assert run("forget", "--undo", "--db", db).exit_code == 0
    with Library(db) as lib:
        assert lib.held("b1", "0001.dgn").endswith(b"; more\n")
        back = lib.record(1)
        assert back["live"] == 0 and back["duplicate_of"] == grown
        assert [g["id"] for g in lib.games()] == [3, 4]
