"""The commands that only read the library (games, show, stats, export)
create nothing: a mistyped --db is "no library at PATH", its folder is not
made, a library in a folder no one may write is read (and sync says
"read-only: PATH"); writing (sync) still creates the library and its folder."""

import contextlib
import os
import shutil
import sqlite3
import subprocess

import pytest
from click.testing import CliRunner

from pipkeeper.cli import main
from pipkeeper.library import store
from pipkeeper.library.store import Library

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
READERS = (["games"], ["stats"], ["export", "--format", "csv"], ["show", "1"])


def run(*args):
    return CliRunner().invoke(main, list(args), prog_name="pipkeeper")


def one_line_error(result):
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("pipkeeper: ") and result.stderr.count("\n") == 1, result.stderr
    return result.stderr[len("pipkeeper: "):-1]


@pytest.fixture
def library(tmp_path):
    folder = tmp_path / "lib"
    folder.mkdir()
    path = folder / "games.sqlite3"
    with Library(path) as lib:
        with open(os.path.join(DATA, "paper_sheet_tiebreak.dgn"), "rb") as f:
            lib.store("b1", "0001.dgn", f.read())
    return path


@contextlib.contextmanager
def read_only(folder):
    """``folder`` as no one may write it: mode 0555, or for root (whom modes
    do not stop) the immutable flag; skipped where neither holds."""
    if os.geteuid() != 0:
        os.chmod(folder, 0o555)
        undo = ["chmod", "755", str(folder)]
    elif shutil.which("chattr") and subprocess.run(["chattr", "+i", str(folder)],
                                                   capture_output=True).returncode == 0:
        undo = ["chattr", "-i", str(folder)]
    else:
        pytest.skip("cannot make a folder read-only here")
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("the folder is still writable")
        yield folder
    finally:
        subprocess.run(undo, check=True)


@pytest.mark.parametrize("args", READERS, ids=lambda a: a[0])
def test_a_mistyped_library_is_not_created(tmp_path, args):
    typo = tmp_path / "typo.sqlite3"
    assert one_line_error(run(*args, "--db", str(typo))).startswith("no library at {} (".format(typo))
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("args", READERS, ids=lambda a: a[0])
def test_no_folder_is_made_for_it(tmp_path, args):
    path = tmp_path / "nonexistent" / "dir" / "lib.db"
    assert one_line_error(run(*args, "--db", str(path))).startswith("no library at {}".format(path))
    assert not (tmp_path / "nonexistent").exists()


def test_the_default_library_is_not_created_either(tmp_path, monkeypatch):
    monkeypatch.setenv(store.DB_ENV, str(tmp_path / "data" / "library.sqlite3"))
    assert one_line_error(run("games")).startswith("no library at ")
    assert os.listdir(tmp_path) == []


def test_reading_does_not_write(library):
    before = library.read_bytes()
    mtime = os.stat(library).st_mtime_ns
    for args in READERS:
        assert run(*args, "--db", str(library)).exit_code == 0
    assert library.read_bytes() == before and os.stat(library).st_mtime_ns == mtime


def test_a_library_in_a_read_only_folder_is_read(library):
    with read_only(library.parent):
        result = run("games", "--db", str(library))
        assert result.exit_code == 0, result.output
        assert "b1c2-0007" in result.stdout
        for args in READERS:
            assert run(*args, "--db", str(library)).exit_code == 0, args
        assert sorted(os.listdir(library.parent)) == ["games.sqlite3"]


def test_sync_into_a_read_only_folder_says_read_only(library):
    with read_only(library.parent):
        err = one_line_error(run("sync", "--db", str(library), "--port", "/nonexistent"))
        assert err.startswith("read-only: {} (".format(library)), err


def test_sync_still_creates_the_library_and_its_folder(tmp_path):
    path = tmp_path / "new" / "dir" / "lib.db"
    with Library(path) as lib:
        assert lib.games() == []
    assert path.is_file()


def test_what_is_no_library_is_named_so(tmp_path):
    notdb = tmp_path / "notes.txt"
    notdb.write_text("shopping list\n" * 100)
    assert one_line_error(run("games", "--db", str(notdb))) == \
        "{} is not a pipkeeper library (file is not a database)".format(notdb)
    other = tmp_path / "other.sqlite3"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE t(x)")
    con.commit()
    con.close()
    before = other.read_bytes()
    assert "is not a pipkeeper library" in one_line_error(run("stats", "--db", str(other)))
    assert other.read_bytes() == before             # no tables of ours added to it
    assert one_line_error(run("games", "--db", str(tmp_path))) == \
        "{} is a folder, not a library file".format(tmp_path)


def test_an_older_library_is_brought_up_to_date_where_it_can_be(library):
    con = sqlite3.connect(library)
    con.execute("UPDATE meta SET value = 'old' WHERE key = 'derived_version'")
    con.commit()
    con.close()
    with read_only(library.parent):
        assert one_line_error(run("games", "--db", str(library))).startswith(
            "read-only: {} (an older pipkeeper wrote it".format(library))
    result = run("games", "--db", str(library))
    assert result.exit_code == 0 and "b1c2-0007" in result.stdout
