"""`pipkeeper import FILE...` (issue 34): records from a simulated board's
folder, a folder of sheets, a file typed by hand and another library, by
sync's own path (`Library.take` -> `Library.store`): the same flags, the
same duplicates rule, the same rule for a file that grew or became another
game. A hostile, huge, non-UTF-8 or unreadable file costs one line and
loses nothing."""

import json
import os
import shutil
import sqlite3

import pytest
from click.testing import CliRunner

from boardkit import write_games
from pipkeeper.cli import main
from pipkeeper.library import intake, store
from pipkeeper.library.store import Library

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")


def run(*args):
    return CliRunner().invoke(main, list(args), prog_name="pipkeeper")


def data(name):
    with open(os.path.join(DATA, name), "rb") as f:
        return f.read()


def listed(db, *extra):
    return json.loads(run("games", "--json", "--db", db, *extra).stdout)


@pytest.fixture
def sim_folder(tmp_path):
    """A simulated board's folder as `pipkeeper sim --dir` leaves it."""
    root = tmp_path / "sim"
    (root / "games").mkdir(parents=True)
    (root / ".sim-board-id").write_text("0123456789abcdef\n")
    write_games(root / "games", 2)
    return root


def test_a_sims_folder_is_filed_as_sync_files_that_board(sim_folder, tmp_path):
    db = str(tmp_path / "lib.sqlite3")
    result = run("import", str(sim_folder), "--db", db)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "2 new from {} (sim-0123456789abcdef)".format(sim_folder)
    games = listed(db)
    assert [(g["board"], g["file"], g["simulated"]) for g in games] == [
        ("sim-0123456789abcdef", "0001.dgn", True), ("sim-0123456789abcdef", "0002.dgn", True)]
    # held as sync holds them: a sync of that board asks for nothing more
    with Library(db) as lib:
        sizes = lib.held_sizes("sim-0123456789abcdef")
    assert sizes == {n: os.path.getsize(sim_folder / "games" / n) for n in ("0001.dgn", "0002.dgn")}
    # idempotent
    again = run("import", str(sim_folder), "--db", db)
    assert again.stdout.splitlines()[-1].startswith("2 same from")
    assert len(listed(db, "--all")) == 2


def test_a_file_that_grew_and_one_that_became_another_game(tmp_path):
    db = str(tmp_path / "lib.sqlite3")
    folder = tmp_path / "sheets"
    folder.mkdir()
    paper = data("paper_sheet_tiebreak.dgn")
    half = paper[:paper.index(b"round 7-7")]
    (folder / "night.dgn").write_bytes(half)
    assert run("import", str(folder / "night.dgn"), "--db", db).exit_code == 0
    (rid,) = [g["id"] for g in listed(db)]
    (folder / "night.dgn").write_bytes(paper)                   # typed on: grown, same number
    result = run("import", str(folder / "night.dgn"), "--db", db)
    assert result.stdout.startswith("grown    night.dgn")
    assert run("games", "--db", db).stdout.splitlines()[1].split()[2] == "file"     # "from"
    assert [(g["id"], g["rounds"], g["over"]) for g in listed(db)] == [(rid, 4, True)]
    # the same game typed again in another folder: a duplicate, listed once
    (tmp_path / "copy.dgn").write_bytes(half)
    assert run("import", str(tmp_path / "copy.dgn"), "--db", db).exit_code == 0
    assert [g["id"] for g in listed(db)] == [rid] and len(listed(db, "--all")) == 2
    # a file that no longer starts with what was taken: another game, the
    # old one stays (as sync keeps a board's game when its file is replaced)
    (folder / "night.dgn").write_bytes(data("format_example.dgn"))
    result = run("import", str(folder / "night.dgn"), "--db", db)
    assert result.stdout.startswith("replaced night.dgn")
    assert len(listed(db)) == 2


def test_a_sheet_the_engine_rejects_is_kept_and_flagged(tmp_path):
    db = str(tmp_path / "lib.sqlite3")
    bad = tmp_path / "illegal_turn.dgn"
    bad.write_bytes(data("illegal_turn.dgn"))
    result = run("import", str(bad), "--db", db)
    assert result.exit_code == 0
    assert "FLAGGED" in result.stdout and "kept but flagged: line" in result.stdout
    (g,) = listed(db)
    assert g["status"] == "rejected"
    with Library(db) as lib:
        assert lib.record(g["id"])["dgn"] == data("illegal_turn.dgn")


def test_hostile_files_cost_a_line_each_and_lose_nothing(tmp_path, sim_folder):
    db = str(tmp_path / "lib.sqlite3")
    assert run("import", str(sim_folder), "--db", db).exit_code == 0
    before = listed(db, "--all")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "huge.dgn").write_bytes(b"; pad\n" * (store.MAX_RECORD // 6 + 10))
    (bad / "empty.dgn").write_bytes(b"")
    (bad / "esc\x1b[2J.dgn").write_bytes(data("format_example.dgn"))
    os.mkfifo(bad / "pipe.dgn")                          # would block a plain open()
    (bad / "folder.dgn").mkdir()
    (bad / "good.dgn").write_bytes(data("paper_sheet_tiebreak.dgn"))
    latin1 = data("format_example.dgn").replace(b'"Ann"', b'"Ren\xe9e"')
    (bad / "latin1.dgn").write_bytes(latin1)
    (bad / "notes.txt").write_text("not a record")       # a folder's other files are not records
    with open(os.fsencode(bad) + b"/Ren\xe9e.dgn", "wb") as f:    # a file name that is not UTF-8
        f.write(data("format_example.dgn"))
    result = run("import", str(bad), str(tmp_path / "missing.dgn"), "/dev/zero", "--db", db)
    assert result.exit_code == 1
    out = result.stdout.splitlines()
    refused = [line for line in out if line.startswith("refused: ")]
    assert len(refused) == 8, out
    assert any("Ren?e.dgn: a name that is not UTF-8 text" in line for line in refused)
    assert any("huge.dgn: bigger than 1.0 MB" in line for line in refused)
    assert any("empty.dgn: an empty file" in line for line in refused)
    assert any("a name with control characters" in line and "\x1b" not in line for line in refused)
    assert any("pipe.dgn: not a file" in line for line in refused)
    assert any("folder.dgn: not a file" in line for line in refused)
    assert any("missing.dgn: No such file or directory" in line for line in refused)
    assert any("/dev/zero: not a file (a device or a pipe)" in line for line in refused)
    assert all(len(line) < 200 for line in out)
    # the non-UTF-8 record is taken verbatim, and said to be what it is
    assert any(line.endswith("latin1.dgn: kept but flagged: line 2: this line is not UTF-8 text (byte 14 of the line)")
               for line in out)
    assert result.stderr == "pipkeeper: 8 of 10 files refused (the others were taken)\n"
    after = listed(db, "--all")
    assert after[:len(before)] == before                 # nothing lost
    assert sorted(g["file"] for g in after[len(before):]) == ["good.dgn", "latin1.dgn"]
    with Library(db) as lib:
        kept = {g["file"]: lib.record(g["id"])["dgn"] for g in after}
        assert kept["latin1.dgn"] == latin1 and lib.integrity() == "ok"
    # --json: one object a file, the same verdicts
    said = json.loads(run("import", str(bad), "--json", "--db", db).stdout)
    assert sorted((t["file"], t["action"]) for t in said) == sorted(
        [("Ren?e.dgn", "refused"), ("empty.dgn", "refused"), ("esc?[2J.dgn", "refused"),
         ("folder.dgn", "refused"), ("good.dgn", "same"), ("huge.dgn", "refused"),
         ("latin1.dgn", "same"), ("pipe.dgn", "refused")])


# -- another library: a merge by the same rule ---------------------------------------------

def test_merging_another_library_and_its_names(tmp_path, sim_folder):
    ours, theirs = str(tmp_path / "ours.sqlite3"), str(tmp_path / "theirs.sqlite3")
    assert run("import", str(sim_folder), "--db", ours).exit_code == 0
    paper = data("paper_sheet_tiebreak.dgn")
    with Library(theirs) as lib:
        # the same board's first game, grown further on their laptop
        grown = (sim_folder / "games" / "0001.dgn").read_bytes() + b"; a comment line\n"
        lib.store("sim-0123456789abcdef", "0001.dgn", grown)
        lib.store("e6614104", "0001.dgn", paper[:paper.index(b"round 6-6")])
        lib.store("e6614104", "0001.dgn", paper)                           # grown there
        lib.store("e6614104", "0002.dgn", data("format_example.dgn"))
        lib.set_player_names({"anne": "Ann"})
    result = run("import", theirs, "--db", ours)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[-1] == "2 new, 1 grown from {}".format(theirs)
    games = listed(ours, "--all")
    assert [(g["board"], g["file"]) for g in games] == [
        ("sim-0123456789abcdef", "0001.dgn"), ("sim-0123456789abcdef", "0002.dgn"),
        ("e6614104", "0001.dgn"), ("e6614104", "0002.dgn")]
    with Library(ours) as lib:
        assert lib.held("sim-0123456789abcdef", "0001.dgn") == grown
        assert lib.held("e6614104", "0001.dgn") == paper
        assert lib.player_names() == {"anne": "Ann"}
    # merging again changes nothing; merging ours into ours is refused
    again = run("import", theirs, "--db", ours)
    assert again.stdout.splitlines()[-1] == "3 same from {}".format(theirs)
    assert len(listed(ours, "--all")) == 4
    itself = run("import", ours, "--db", ours)
    assert itself.exit_code == 1 and "that is this library" in itself.stdout


def test_a_board_file_newer_here_stays_live_in_a_merge(tmp_path):
    """Both laptops synced board e661's 0001.dgn, but the board was wiped in
    between: the copy synced later stays the board's file, the other joins
    as an old game of that board."""
    ours, theirs = str(tmp_path / "ours.sqlite3"), str(tmp_path / "theirs.sqlite3")
    with Library(theirs) as lib:
        lib.store("e6614104", "0001.dgn", data("paper_sheet_tiebreak.dgn"))
    with Library(ours) as lib:
        lib.store("e6614104", "0001.dgn", data("format_example.dgn"))
    assert run("import", theirs, "--db", ours).exit_code == 0
    with Library(ours) as lib:
        assert lib.held("e6614104", "0001.dgn") == data("format_example.dgn")
    assert sorted((g["on_board"], g["rounds"]) for g in listed(ours)) == [(False, 4), (True, 0)]


def test_a_library_that_is_not_one_or_too_new(tmp_path):
    db = str(tmp_path / "lib.sqlite3")
    fake = tmp_path / "fake.sqlite3"
    con = sqlite3.connect(fake)
    con.execute("CREATE TABLE t(x)")
    con.commit()
    con.close()
    newer = tmp_path / "newer.sqlite3"
    shutil.copy(os.path.join(DATA, "library-schema2.sqlite3"), newer)
    con = sqlite3.connect(newer)
    con.execute("PRAGMA user_version = 99")
    con.commit()
    con.close()
    result = run("import", str(fake), str(newer), "--db", db)
    assert result.exit_code == 1
    assert "refused: {}: not a pipkeeper library (it has no games table)".format(fake) in result.stdout
    assert "refused: {}: a library of a newer pipkeeper (schema 99".format(newer) in result.stdout


def test_merging_the_schema_2_library_keeps_its_old_and_duplicate_records(tmp_path):
    db = str(tmp_path / "lib.sqlite3")
    result = run("import", os.path.join(DATA, "library-schema2.sqlite3"), "--db", db)
    assert result.exit_code == 0, result.output
    games = listed(db, "--all")
    assert len(games) == 5 and sum(1 for g in games if g["duplicate_of"]) == 1
    assert [g["status"] for g in games].count("rejected") == 1


def test_take_is_the_path_sync_stores_by(tmp_path, monkeypatch):
    """One code path: import's every record goes through Library.store."""
    calls = []
    real = Library.store

    def spy(self, *args, **kwargs):
        calls.append(args[:2])
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Library, "store", spy)
    root = tmp_path / "g"
    root.mkdir()
    write_games(root, 2)
    with Library(tmp_path / "lib.sqlite3") as lib:
        results = intake.import_paths(lib, [str(root)])
    assert [t.action for t in results[0][2]] == ["new", "new"]
    assert calls == [("file:" + str(root), "0001.dgn"), ("file:" + str(root), "0002.dgn")]


def test_a_hostile_library_costs_a_line_a_record(tmp_path):
    """A library file made by anyone: a number for a record, text where bytes
    belong, a board that is not a name, times that are not times, names
    that are not names. Each bad record is one line; the good ones merge."""
    db = str(tmp_path / "lib.sqlite3")
    hostile = str(tmp_path / "hostile.sqlite3")
    with Library(hostile) as lib:
        lib.store("b1", "0001.dgn", data("paper_sheet_tiebreak.dgn"))
        lib.store("b1", "0002.dgn", data("format_example.dgn"))
        lib.store("b1", "0003.dgn", data("illegal_turn.dgn"))
        lib.store("b1", "0004.dgn", data("format_example.dgn").replace(b"Di", b"Dee"))
        lib.db.execute("PRAGMA foreign_keys = OFF")
        lib.db.execute("PRAGMA ignore_check_constraints = ON")
        lib.db.execute("UPDATE records SET dgn = 12345 WHERE id = 2")
        lib.db.execute("UPDATE records SET dgn = CAST(dgn AS TEXT), first_synced = 'soon', "
                       "last_synced = x'00' WHERE id = 3")
        lib.db.execute("UPDATE records SET board = char(27) || '[2J' WHERE id = 4")
        lib.db.execute("INSERT INTO player_names VALUES ('ann', 'Ann'), ('bob', 'B\x1bob'), "
                       "('Cy', 'Cy'), (3, 'Three')")
    result = run("import", hostile, "--db", db)
    assert result.exit_code == 1
    refused = [line for line in result.stdout.splitlines() if line.startswith("refused:")]
    assert refused == ["refused: {}#2: no record text".format(hostile),
                       "refused: {}#4: an unreadable board".format(hostile)]
    assert result.stderr == "pipkeeper: 2 of 4 files refused (the others were taken)\n"
    assert [(g["file"], g["status"]) for g in listed(db)] == [("0001.dgn", "ok"), ("0003.dgn", "rejected")]
    with Library(db) as lib:
        # a control character, a key that is not a spelling key: left out
        assert lib.player_names() == {"ann": "Ann", "3": "Three"}
    assert json.loads(run("stats", "--json", "--db", db).stdout)["players"]
