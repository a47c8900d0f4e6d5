"""A game record that is not UTF-8 text (issue 32, item 13): `replay` names
its line and byte, while `sync`, `show` and the HTML's "Flagged records"
took it for text with the bad bytes replaced, and showed a garbled game as
sound. The library flags it with replay's very sentence; sync and show say
it, the page lists it, and `show --dgn` gives the record's bytes as they
are."""

from pathlib import Path

from boardkit import run_cli, virtual_board
from pipkeeper.library.store import Library

DATA = Path(__file__).resolve().parent.parent / "data"
# Latin-1, as an editor on another system may save it: "Siân" on line 2
LATIN1 = (DATA / "format_example.dgn").read_bytes().replace(b'"Ann"', 'Siân'.join('""').encode("latin-1"))
SENTENCE = "this line is not UTF-8 text (byte 13 of the line)"


def test_replay_says_it_and_the_library_flags_it_with_the_same_sentence(tmp_path):
    path = tmp_path / "0009.dgn"
    path.write_bytes(LATIN1)
    code, out, err = run_cli("replay", str(path))
    assert (code, err) == (1, "{}:2: {}\n".format(path, SENTENCE))
    with Library(str(tmp_path / "lib.sqlite3")) as lib:
        _rid, facts, _what = lib.store("b1", "0009.dgn", LATIN1)
    assert (facts.status, facts.error_line, facts.error) == ("rejected", 2, SENTENCE)


def test_sync_show_and_the_page_say_it(tmp_path):
    root = tmp_path / "board"
    (root / "games").mkdir(parents=True)
    (root / "games" / "0009.dgn").write_bytes(LATIN1)
    db = str(tmp_path / "lib.sqlite3")
    with virtual_board(root, bare=True) as board:
        code, out, err = run_cli("sync", env={"PIPKEEPER_PORT": board.port, "PIPKEEPER_DB": db})
    assert code == 0, err
    assert "'0009.dgn': kept but flagged: line 2: {}\n".format(SENTENCE) in out, out
    assert "\ufffd" not in out
    code, out, err = run_cli("show", "1", "--db", db)
    assert (code, out) == (1, "")
    assert err == "pipkeeper: game 1 (0009.dgn) is flagged: line 2: {} (`--dgn` prints the record)\n".format(
        SENTENCE)
    proc = run_cli("show", "1", "--dgn", "--db", db, text=False)
    assert proc[0] == 0 and proc[1] == LATIN1                  # the record's bytes, as they are
    code, page, err = run_cli("export", "--format", "html", "--db", db)
    assert code == 0, err
    flagged = page.split("<h2>Flagged records</h2>", 1)[1]
    assert "#1 0009.dgn: line 2: {}".format(SENTENCE) in flagged
    assert "\ufffd" not in page


def test_a_library_that_took_such_a_record_for_text_flags_it_on_opening(tmp_path):
    """A record stored by an earlier pipkeeper as sound, its bad bytes
    replaced (derived version 2), is flagged when the library is opened."""
    db = tmp_path / "lib.sqlite3"
    with Library(db) as lib:
        lib.store("b1", "0009.dgn", LATIN1)
        lib.db.execute("UPDATE records SET status = 'ok', error = NULL, error_line = NULL")
        lib.db.execute("UPDATE meta SET value = '2' WHERE key = 'derived_version'")
        lib.db.commit()
    with Library(db) as lib:
        (game,) = lib.games()
    assert (game["status"], game["error"]) == ("rejected", "line 2: " + SENTENCE)
