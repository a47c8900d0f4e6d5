"""Players across games and boards (issue 34): names compared as people
write them (Persian and Welsh spellings), `players`, `players rename` and
`players merge` kept in the library (schema 3) without a record rewritten,
and a library of schema 2, built by main's code, brought up to date."""

import hashlib
import json
import shutil
import sqlite3
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipkeeper.cli import main
from pipkeeper.errors import PipkeeperError
from pipkeeper.library import store
from pipkeeper.library.names import check_new_name, fold
from pipkeeper.library.players import Players
from pipkeeper.library.store import Library

DATA = Path(__file__).resolve().parent.parent / "data"

ZWNJ = "\u200c"
MARYAM = "مریم" + ZWNJ + "السادات"       # Persian yeh (U+06CC), with the non-joiner


def run(*args, ok=True):
    result = CliRunner().invoke(main, list(args), prog_name="pipkeeper")
    if ok:
        assert result.exit_code == 0, result.output
    return result


# -- the spelling key ---------------------------------------------------------------------

def test_case_and_blanks_do_not_make_another_player():
    assert fold("ANN") == fold("Ann") == fold(" ann ") == "ann"
    assert fold("Mary  Ann") == fold("mary ann")
    assert fold("Ann") != fold("Anne")


def test_welsh_letters_precomposed_or_combining_are_one():
    precomposed = "G\u0175en"                    # ŵ, U+0175
    combining = "Gw\u0302en"                     # w + U+0302 COMBINING CIRCUMFLEX
    assert precomposed != combining and unicodedata.normalize("NFC", combining) == precomposed
    assert fold(precomposed) == fold(combining) == fold("G\u0174EN")   # Ŵ upper case
    assert fold("Dafydd ap Gruffudd") == fold("dafydd ap gruffudd")
    assert fold("Gw\u0177n") == fold("Gwy\u0302n")                        # ŷ
    # an accent is part of a Welsh name: Siân and Sian stay two spellings
    assert fold("Si\u00e2n") == fold("Sia\u0302n") != fold("Sian")


def test_persian_names_as_they_are_typed():
    arabic_yeh = "مريم" + ZWNJ + "السادات"      # ARABIC LETTER YEH, U+064A
    no_joiner = "مریمالسادات"
    assert arabic_yeh != MARYAM
    assert fold(arabic_yeh) == fold(MARYAM) == fold(no_joiner)
    assert fold("مریم السادات") != fold(MARYAM)            # a space is a word break
    assert fold("كامران") == fold("کامران")                 # Arabic kaf, Persian keheh
    assert fold("علی") == fold("على") == fold("علي")        # Persian yeh, alef maksura, Arabic yeh
    # the marks copying a name out of a right-to-left text brings with it
    assert fold("\u2068" + MARYAM + "\u2069") == fold("\u200f" + MARYAM) == fold(MARYAM)
    # presentation forms (old keyboards) are the letters they draw
    assert fold("\ufee3\ufeae\ufef3\ufee2") == fold("مریم")


def test_a_new_name_is_checked_but_keeps_its_joiner():
    assert check_new_name("  " + MARYAM + " ") == MARYAM
    assert check_new_name("Gw\u0302en") == "G\u0175en"      # stored as NFC
    for bad, why in (("", "empty"), ("\u200c", "empty"), ("A\x1bB", "control"),
                     ("x" * 41, "longer"), ('A"B', "quotes")):
        with pytest.raises(PipkeeperError, match=why):
            check_new_name(bad)


# -- resolving names to players ---------------------------------------------------------

def test_the_most_written_spelling_names_the_player():
    players = Players({}, [(1, "ann"), (2, "Ann"), (3, "Ann"), (4, "ANN")])
    assert players.shown("ann") == "Ann"
    assert players.listing() == [{"player": "Ann", "games": 4, "spellings": ["ann", "Ann", "ANN"]}]


def test_rename_and_merge_are_rows_of_the_table_and_chain():
    seats = [(1, "Ann"), (1, "Bob"), (2, "Anne"), (2, "Bob"), (3, "Annie"), (3, "Cy")]
    players = Players({}, seats)
    rows = players.merge("Anne", "Ann")
    assert rows == {"anne": "Ann", "ann": "Ann"}
    players = Players(rows, seats)
    assert players.player("Anne") == players.player("ANN") == "ann"
    # a rename takes every spelling of the player along
    with pytest.raises(PipkeeperError, match="Annie is another player already"):
        players.rename("ann", "Annie")
    players = Players(dict(rows, **players.rename("ann", "Annabel")), seats)
    assert {players.shown(n) for n in ("Ann", "Anne", "annabel")} == {"Annabel"}
    assert players.shown("Annie") == "Annie"
    with pytest.raises(PipkeeperError, match="another player already: `pipkeeper players merge Bob Cy`"):
        players.rename("Bob", "Cy")
    with pytest.raises(PipkeeperError, match="sat at game 1 together"):
        players.merge("Bob", "Anne")
    with pytest.raises(PipkeeperError, match="one player already"):
        players.merge("anne", "Annabel")
    with pytest.raises(PipkeeperError, match="no player 'Bobb'.*did you mean Bob"):
        players.find("Bobb")


# -- the commands, on a library main's code made (schema 2) ----------------------------------

@pytest.fixture
def old_library(tmp_path):
    path = tmp_path / "library.sqlite3"
    shutil.copy(DATA / "library-schema2.sqlite3", path)
    return path


def _records(path):
    con = sqlite3.connect(path)
    try:
        return [(r[0], r[1], r[2], hashlib.sha256(r[3]).hexdigest(), r[4]) for r in con.execute(
            "SELECT id, board, name, dgn, duplicate_of FROM records ORDER BY id")]
    finally:
        con.close()


def test_a_schema_2_library_is_migrated_and_its_records_stay(old_library):
    con = sqlite3.connect(old_library)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 2
    assert con.execute("SELECT COUNT(*) FROM forgotten").fetchone()[0] == 1
    con.close()
    before = _records(old_library)
    assert len(before) == 5
    with Library(old_library) as lib:
        assert lib.db.execute("PRAGMA user_version").fetchone()[0] == len(store.MIGRATIONS) == 3
        assert lib.player_names() == {} and lib.binned() == []
        assert lib.integrity() == "ok"
        # what sync reads of the old tables is as it was
        assert lib.held_sizes("e6614104")["0004.dgn"] > 0
    assert _records(old_library) == before


def test_players_on_a_migrated_library(old_library):
    db = str(old_library)
    listed = json.loads(run("players", "--db", db, "--json").stdout)
    # the read-only command brought the library up to date first
    assert sqlite3.connect(old_library).execute("PRAGMA user_version").fetchone()[0] == 3
    assert listed == [
        {"player": "Ann", "games": 2, "spellings": ["Ann", "ann"]},
        {"player": "Bob", "games": 2, "spellings": ["Bob"]},
        {"player": "Anne", "games": 1, "spellings": ["Anne"]},
        {"player": "Cy", "games": 1, "spellings": ["Cy"]},
        {"player": "Dafydd", "games": 1, "spellings": ["Dafydd"]},
        {"player": "Siân", "games": 1, "spellings": ["Siân"]},
        {"player": "مريم", "games": 1, "spellings": ["مريم"]},
    ]
    before = _records(old_library)
    assert run("players", "merge", "Anne", "ann", "--db", db).stdout == "Anne is now counted as Ann\n"
    assert run("players", "--db", db, "rename", "مریم", MARYAM).stdout == "مریم is now {}\n".format(MARYAM)
    # a Welsh name typed with a combining accent finds the player
    assert run("players", "rename", "Sia\u0302n", "Siân Jones", "--db", db).exit_code == 0
    listed = {p["player"]: p for p in json.loads(run("players", "--db", db, "--json").stdout)}
    assert listed["Ann"]["games"] == 3 and listed["Ann"]["spellings"] == ["Ann", "ann", "Anne"]
    assert listed[MARYAM]["spellings"] == ["مريم"] and "Siân Jones" in listed
    assert _records(old_library) == before             # no record rewritten
    with Library(old_library) as lib:
        assert lib.player_names()[fold("anne")] == "Ann"
    # the games list the names as written; the league as the library reads them
    games = json.loads(run("games", "--db", db, "--json").stdout)
    assert games[1]["players"] == ["ann", "Dafydd", "Siân"]
    league = json.loads(run("stats", "--db", db, "--json").stdout)
    assert {p["player"]: p["games"] for p in league["players"]}["Ann"] == 3
    assert league["left_out"]["flagged"] == 1


def test_players_refusals_are_one_line(old_library):
    db = str(old_library)
    result = run("players", "merge", "Ann", "Bob", "--db", db, ok=False)
    assert result.exit_code == 1
    assert result.stderr == "pipkeeper: Ann and Bob sat at game 1 together: two people, not one\n"
    result = run("players", "rename", "Zed", "Zoe", "--db", db, ok=False)
    assert result.exit_code == 1 and result.stderr.startswith("pipkeeper: no player 'Zed' in the library")
    result = run("players", "rename", "Ann", "--db", db, ok=False)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    result = run("players", "rename", "Ann", "A\x07", "--db", db, ok=False)
    assert result.exit_code == 1 and "control characters" in result.stderr
    with Library(old_library) as lib:
        assert lib.player_names() == {}
