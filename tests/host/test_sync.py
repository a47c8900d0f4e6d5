"""pipkeeper sync against a virtual board: incremental, hostile, interrupted."""

import os
import shutil

import pytest

from boardkit import CutProxy, write_games
from pipkeeper.board import flash, link, sync
from pipkeeper.errors import PipkeeperError
from pipkeeper.library.store import Library


def do_sync(port, db):
    with Library(db) as lib:
        with link.connect(port) as l:
            return sync.sync(l, lib)


def held(db):
    with Library(db) as lib:
        rows = lib.db.execute("SELECT name, dgn FROM records WHERE live = 1").fetchall()
        return {r["name"]: bytes(r["dgn"]) for r in rows}


def assert_library_matches(db, games_dir):
    """Every board file is in the library once, byte for byte, nothing else."""
    on_board = {p: (games_dir / p).read_bytes() for p in os.listdir(games_dir) if p.endswith(".dgn")}
    assert held(db) == on_board
    with Library(db) as lib:
        assert lib.integrity() == "ok"
        assert len(lib.games()) == len(on_board)
        n = lib.db.execute("SELECT COUNT(*) FROM records").fetchone()[0]
        assert n == len(on_board)


def test_first_sync_then_nothing_then_one_event(board, tmp_path, cache):
    games = write_games(board.root / "games", 4)
    with link.connect(board.port) as l:  # pklink on the board, as after `pipkeeper flash`
        flash.flash(l)
    db = tmp_path / "lib.sqlite3"
    first = do_sync(board.port, db)
    assert sorted(e.action for e in first.entries) == ["new"] * 4
    assert_library_matches(db, board.root / "games")

    again = do_sync(board.port, db)
    assert again.entries == []  # the listing left out everything we hold
    assert again.wire_bytes < 2048

    # Half a game, then its next event: only the tail crosses the wire.
    name = "0002.dgn"
    lines = games[name].splitlines(True)
    (board.root / "games" / name).write_bytes(b"".join(lines[:40]))
    with Library(db) as lib:  # start this file afresh in the library
        lib.db.execute("DELETE FROM records WHERE name = ?", (name,))
    do_sync(board.port, db)
    with open(board.root / "games" / name, "ab") as f:
        f.write(lines[40])
    grown = do_sync(board.port, db)
    assert [(e.name, e.action, e.fetched) for e in grown.entries] == [(name, "grown", len(lines[40]))]
    assert grown.wire_bytes < 2048
    assert_library_matches(db, board.root / "games")


def _synced(board):
    path = board.root / "pipkeeper" / "synced"
    return sorted(path.read_text().splitlines()) if path.exists() else None


def test_sync_tells_the_board_which_records_the_library_holds_whole(board, tmp_path):
    """The board's History deletes only synced records: sync writes their
    "size name" lines to /pipkeeper/synced; a record grown since is not."""
    games = write_games(board.root / "games", 3)
    db = tmp_path / "lib.sqlite3"
    do_sync(board.port, db)
    want = sorted("{} {}".format(len(data), name) for name, data in games.items())
    assert _synced(board) == want
    with open(board.root / "games" / "0002.dgn", "ab") as f:
        f.write(b"; a comment line\n")
    # grown on the board: the listing leaves it out of the synced ones
    with Library(db) as lib:
        with link.connect(board.port) as l:
            sync.list_games(l, lib.held_sizes(l.info().board_id))
    assert [x for x in _synced(board) if x.endswith("0002.dgn")] == []
    do_sync(board.port, db)
    size = (board.root / "games" / "0002.dgn").stat().st_size
    assert "{} 0002.dgn".format(size) in _synced(board)
    again = do_sync(board.port, db)
    assert again.entries == [] and len(_synced(board)) == 3


def test_a_replaced_file_is_a_new_game_and_the_old_one_stays(board, tmp_path):
    write_games(board.root / "games", 1, seed=5)
    db = tmp_path / "lib.sqlite3"
    do_sync(board.port, db)
    write_games(board.root / "games", 1, seed=77)  # same name, another game
    result = do_sync(board.port, db)
    assert [e.action for e in result.entries] == ["replaced"]
    with Library(db) as lib:
        assert len(lib.games()) == 2
        assert sum(1 for g in lib.games() if g["on_board"]) == 1


def test_a_torn_last_line_repaired_on_the_board_is_growth(board, tmp_path):
    data = write_games(board.root / "games", 1)["0001.dgn"]
    lines = data.splitlines(True)
    path = board.root / "games" / "0001.dgn"
    path.write_bytes(b"".join(lines[:30]) + lines[30][:3])  # a power cut mid-line
    db = tmp_path / "lib.sqlite3"
    do_sync(board.port, db)
    path.write_bytes(b"".join(lines[:32]))  # the firmware rewrote it whole, then went on
    result = do_sync(board.port, db)
    assert [e.action for e in result.entries] == ["grown"]
    assert_library_matches(db, board.root / "games")


def test_hostile_board(board, tmp_path):
    games_dir = board.root / "games"
    good = write_games(games_dir, 2)
    bad = b"".join(write_games(games_dir, 1, seed=40)["0001.dgn"].splitlines(True)[:20])
    good["0001.dgn"] = (games_dir / "0001.dgn").read_bytes()
    lines = good["0002.dgn"].splitlines(True)
    garbage = b"".join(lines[:25]) + b"\x00\xff garbage \x1b[2J\n" + b"".join(lines[25:])
    (games_dir / "0003.dgn").write_bytes(garbage)
    for name in ("..evil.dgn", "a\x01b.dgn", "new\nline.dgn", "back\\slash.dgn", "esc\x1b[31m.dgn"):
        (games_dir / name).write_bytes(bad)
    (games_dir / "sub.dgn").mkdir()
    (games_dir / "sub.dgn" / "x.dgn").write_bytes(bad)
    with open(games_dir / "huge.dgn", "wb") as f:
        f.truncate(sync.MAX_RECORD + 1)
    db = tmp_path / "lib.sqlite3"
    result = do_sync(board.port, db)
    by_name = {e.name: e for e in result.entries}
    for name in ("..evil.dgn", "a\x01b.dgn", "new\nline.dgn", "back\\slash.dgn", "esc\x1b[31m.dgn",
                 "sub.dgn", "huge.dgn"):
        e = by_name[name]
        assert e.action == "refused", name
        assert e.message and all(ord(c) >= 32 for c in e.message), e.message  # printable
    assert "too big" in by_name["huge.dgn"].message
    assert "folder" in by_name["sub.dgn"].message
    flagged = by_name["0003.dgn"]
    assert flagged.action == "new" and flagged.status == "rejected"
    assert "line 26" in flagged.message
    with Library(db) as lib:
        rec = lib.find("0003.dgn")
        assert rec["dgn"] == garbage  # kept verbatim
        assert rec["status"] == "rejected" and rec["error_line"] == 26
        ok = [g for g in lib.games() if g["status"] == "ok"]
        assert sorted(g["file"] for g in ok) == ["0001.dgn", "0002.dgn"]


@pytest.mark.parametrize("name,ok", [
    ("0001.dgn", True), ("b1c2-0007.dgn", True), ("é.dgn", True),
    ("a/b.dgn", False), ("/etc/passwd.dgn", False), ("..", False), ("../x.dgn", False),
    ("a..b.dgn", False), ("x\x00.dgn", False), ("x\u202e.dgn", False), ("x.txt", False),
    (".hidden.dgn", False), ("", False), ("x" * 80 + ".dgn", False), ("c:\\x.dgn", False),
])
def test_name_checks(name, ok):
    assert (sync.check_name(name) is None) == ok


def test_a_listed_path_is_refused_and_the_rest_synced(board, tmp_path, monkeypatch):
    write_games(board.root / "games", 1)
    real = sync.list_games

    def lying(l, known=None):
        return real(l, known) + [("../../etc/passwd.dgn", 10), ("a/b.dgn", 10)]

    monkeypatch.setattr(sync, "list_games", lying)
    result = do_sync(board.port, tmp_path / "lib.sqlite3")
    actions = {e.name: e.action for e in result.entries}
    assert actions == {"0001.dgn": "new", "../../etc/passwd.dgn": "refused", "a/b.dgn": "refused"}


def test_interrupted_sync_at_many_offsets(board, tmp_path):
    """A cable pulled at 50+ byte offsets; the next sync always completes.

    Half the trials start from an empty library, half from one that holds
    older (shorter) copies of the records, so both whole-file and tail
    transfers are cut.
    """
    games_dir = board.root / "games"
    full = write_games(games_dir, 4)
    # A library holding the first half of each record, from an earlier sync.
    for name, data in full.items():
        lines = data.splitlines(True)
        (games_dir / name).write_bytes(b"".join(lines[: len(lines) // 2]))
    older = tmp_path / "older.sqlite3"
    do_sync(board.port, older)
    for name, data in full.items():
        (games_dir / name).write_bytes(data)
    # How many bytes a whole sync takes on the wire, to spread the cuts over.
    probe = tmp_path / "probe.sqlite3"
    total = do_sync(board.port, probe).wire_bytes
    offsets = sorted(set([0, 1, 3, 10, 40, 100, 300, 700] +
                         [int(total * k / 44) for k in range(1, 45)]))
    assert len(offsets) >= 50
    cut_short = 0
    for i, offset in enumerate(offsets):
        db = tmp_path / "trial{}.sqlite3".format(i)
        if i % 2:
            shutil.copy(older, db)
        with CutProxy(board.port, offset) as cable:
            try:
                do_sync(cable.port, db)
            except PipkeeperError as exc:
                cut_short += 1
                assert "\n" not in exc.message
        do_sync(board.port, db)
        assert_library_matches(db, games_dir)
        os.remove(db)
    assert cut_short >= 40  # the cuts really landed mid-sync


def test_a_synced_game_is_deleted_from_the_board_through_its_buttons(board, tmp_path):
    """The whole path of a full flash's way out: sync, then on the board
    (the real firmware) History, the synced game, B (Delete), A (confirm)."""
    from pipkeeper.sim import unix as sim
    write_games(board.root / "games", 3)
    (board.root / "pipkeeper").mkdir(exist_ok=True)
    (board.root / "pipkeeper" / "current").write_text("games/0003.dgn\n")
    do_sync(board.port, tmp_path / "lib.sqlite3")
    s = sim.Sim(str(board.root))
    try:
        s.start()
        # the game in progress is over: its end screen; DOWN the menu
        # (Score sheet, Undo, History, New game); History lists 0003 (in
        # progress: no Delete), then 0002
        for b in ("DOWN", "DOWN", "DOWN", "A", "B", "DOWN", "B"):
            s.press(b)
        assert sorted(os.listdir(board.root / "games")) == ["0001.dgn", "0002.dgn", "0003.dgn"]
        s.press("A")
    finally:
        s.close()
    assert sorted(os.listdir(board.root / "games")) == ["0001.dgn", "0003.dgn"]
    assert not (board.root / "log.txt").exists()


def test_a_record_grown_by_corrections_syncs_as_growth(board, tmp_path):
    """Fixes of past scores (issue 24) and the undo of one are lines
    appended like any: the record grows, only the tail crosses the wire,
    and the library's report follows the corrections."""
    name = "0001.dgn"
    head = (b'[Rules "chickenfoot"]\n[Players "Ann" "Bob" "Cy" "Di"]\n[Option "hand_size" "1"]\n'
            b"round 9-9 lead 1\n1 play 9-4\nscore 0 3 5 7\nround 8-8 lead 2\n2 play 8-1\n"
            b"score 4 0 2 6\n")
    (board.root / "games" / name).write_bytes(head)
    db = tmp_path / "lib.sqlite3"
    assert [e.action for e in do_sync(board.port, db).entries] == ["new"]
    tail = b"fix 1 3 9\nfix 2 4 3\nundo\n"
    with open(board.root / "games" / name, "ab") as f:
        f.write(tail)
    grown = do_sync(board.port, db)
    assert [(e.name, e.action, e.fetched) for e in grown.entries] == [(name, "grown", len(tail))]
    assert_library_matches(db, board.root / "games")
    with Library(db) as lib:
        g = lib.games()[0]
        assert g["status"] == "ok"
        rep = lib.record(g["id"])["report"]
    assert rep["totals"] == [4, 3, 11, 13]
    assert rep["rounds"][0]["corrected"] == [3] and rep["rounds"][1]["corrected"] == []
    assert rep["rounds"][0]["original"]["scores"] == [0, 3, 5, 7]

