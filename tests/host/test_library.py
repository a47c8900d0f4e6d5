"""The library: migrations, idempotent import, duplicates, statistics, export."""

import json
import sqlite3

import pytest

from boardkit import write_games
from pipkeeper.library import export, store as library
from pipkeeper.errors import PipkeeperError
from pipkeeper.library.league import League
from pipkeeper.library.store import Library


@pytest.fixture
def games(tmp_path):
    d = tmp_path / "g"
    d.mkdir()
    return write_games(d, 3)


def test_schema_is_versioned_and_a_newer_one_refused(tmp_path):
    db = tmp_path / "lib.sqlite3"
    with Library(db) as lib:
        assert lib.db.execute("PRAGMA user_version").fetchone()[0] == len(library.MIGRATIONS)
    con = sqlite3.connect(db)
    con.execute("PRAGMA user_version = 99")
    con.commit()
    con.close()
    with pytest.raises(PipkeeperError, match="newer pipkeeper"):
        Library(db)


def test_not_a_library(tmp_path):
    bad = tmp_path / "x.sqlite3"
    bad.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(PipkeeperError, match="not a pipkeeper library"):
        Library(bad)


def test_store_is_idempotent(tmp_path, games):
    with Library(tmp_path / "lib.sqlite3") as lib:
        data = games["0001.dgn"]
        rid, facts, what = lib.store("b1", "0001.dgn", data)
        assert (what, facts.status) == ("new", "ok")
        assert lib.store("b1", "0001.dgn", data)[2] == "same"
        assert lib.store("b1", "0001.dgn", data)[0] == rid
        assert len(lib.games()) == 1


def test_growth_keeps_the_id_and_prefix_copies_are_duplicates(tmp_path, games):
    data = games["0002.dgn"]
    half = b"".join(data.splitlines(True)[:30])
    with Library(tmp_path / "lib.sqlite3") as lib:
        rid = lib.store("b1", "0002.dgn", half)[0]
        assert lib.games()[0]["over"] is False
        assert lib.store("b1", "0002.dgn", data) [:1] == (rid,)
        # The same game reaching the library from elsewhere (another board
        # name, a copy): listed once, the longer copy wins.
        other = lib.store("b2", "copy.dgn", half)[0]
        listed = lib.games()
        assert [g["id"] for g in listed] == [rid]
        assert lib.record(other)["duplicate_of"] == rid
        assert len(lib.games(include_hidden=True)) == 2
        assert lib.integrity() == "ok"


def test_rejected_records_are_kept_and_left_out_of_stats(tmp_path, games):
    good = games["0001.dgn"]
    bad = good.replace(b"\n1 play", b"\n1 fly", 1)
    with Library(tmp_path / "lib.sqlite3") as lib:
        lib.store("b1", "0001.dgn", good)
        rid, facts, _ = lib.store("b1", "0009.dgn", bad)
        assert facts.status == "rejected" and facts.error_line and facts.error
        assert lib.record(rid)["dgn"] == bad
        stats = {s["player"]: s for s in League.of(lib).standings()}
        assert all(s["games"] == 1 for s in stats.values())
        assert League.of(lib).left_out["flagged"] == 1


def test_stats_add_up(tmp_path, games):
    from shared_engine import dgn
    from pipkeeper.library.derive import game_report

    with Library(tmp_path / "lib.sqlite3") as lib:
        for name, data in games.items():
            lib.store("b1", name, data)
        stats = {s["player"]: s for s in League.of(lib).standings()}
    wins = {}
    rounds = points = 0
    for data in games.values():
        rep = game_report(dgn.replay(data.decode()))
        for s in rep["winners"]:
            wins[rep["players"][s - 1]] = wins.get(rep["players"][s - 1], 0) + 1
        rounds += len(rep["rounds"])
        points += sum(r["scores"][0] for r in rep["rounds"])
    assert {p: s["wins"] for p, s in stats.items() if s["wins"]} == wins
    assert stats["P1"]["games"] == 3
    assert stats["P1"]["average_round_score"] == round(points / rounds, 2)
    assert sum(s["feet_started"] for s in stats.values()) > 0
    assert sum(s["rounds_out"] for s in stats.values()) > 0


def test_feet_follow_undo():
    from pipkeeper.library.derive import derive

    base = (b'[Rules "chickenfoot"]\n[Players "Ann" "Bob" "Cy" "Di"]\n'
            b"round 9-9 lead 1\n1 play 9-4\n2 play 9-2\n3 play 9-3\n4 play 9-7\n1 play 4-4\n")
    assert [s["feet_started"] for s in derive(base).seats] == [1, 0, 0, 0]
    assert [s["feet_started"] for s in derive(base + b"undo\n").seats] == [0, 0, 0, 0]


def test_export_escapes_every_name(tmp_path):
    evil = '<script>alert(1)</script>'
    text = ('[Rules "chickenfoot"]\n[Players "{}" "Bob&Co" "=cmd()" "Di"]\n[Game "<b>x</b>"]\n'
            "round 9-9 lead 1\n1 play 9-4\n").format(evil).encode()
    with Library(tmp_path / "lib.sqlite3") as lib:
        lib.store("b1", "0001.dgn", text)
        html = export.to_html(lib)
        assert evil not in html and "&lt;script&gt;" in html
        assert "<b>x</b>" not in html and "Bob&amp;Co" in html
        assert "<svg" not in html or "polyline" in html
        data = json.loads(export.to_json(lib))
        assert data["games"][0]["players"][0] == evil
        assert "'=cmd()" in export.to_csv(lib) or "=cmd()" not in export.to_csv(lib)


def test_export_html_has_sheet_chart_and_stats(tmp_path, games):
    with Library(tmp_path / "lib.sqlite3") as lib:
        for name, data in games.items():
            lib.store("b1", name, data)
        html = export.to_html(lib)
        csv_text = export.to_csv(lib)
    assert html.count("<polyline") == 3 * 4  # one line per player per game
    assert "chicken feet started" in html and html.count("<section>") == 3
    assert csv_text.splitlines()[0].startswith("game,game_id,date,rules,round")


# A record with a correction (issue 24): round 9-9's Cy had 9 pips, not 5.
FIXED = (b'[Rules "chickenfoot"]\n[Players "Ann" "Bob" "Cy" "Di"]\n[Option "hand_size" "1"]\n'
         b"round 9-9 lead 1\n1 play 9-4\nscore 0 3 5 7\nround 8-8 lead 2\n2 play 8-1\n"
         b"score 4 0 2 6\nfix 1 3 9\n")


def test_exports_carry_the_corrected_score_and_the_original(tmp_path):
    import csv
    import io
    with Library(tmp_path / "lib.sqlite3") as lib:
        lib.store("b1", "0001.dgn", FIXED)
        rows = list(csv.DictReader(io.StringIO(export.to_csv(lib))))
        data = json.loads(export.to_json(lib))
        html = export.to_html(lib)
    cy = [r for r in rows if r["round"] == "1" and r["player"] == "Cy"][0]
    assert (cy["score"], cy["corrected"], cy["original_score"], cy["total"]) == ("9", "1", "5", "9")
    di = [r for r in rows if r["round"] == "1" and r["player"] == "Di"][0]
    assert (di["score"], di["corrected"], di["original_score"]) == ("7", "0", "")
    rnd = data["games"][0]["report"]["rounds"][0]
    assert rnd["scores"] == [0, 3, 9, 7] and rnd["corrected"] == [3]
    assert rnd["original"]["scores"] == [0, 3, 5, 7]
    assert data["games"][0]["report"]["totals"] == [4, 3, 11, 13]
    assert '<td class="fixed" title="corrected; was 5">9</td>' in html
    assert html.count('class="fixed"') == 1


def test_a_library_derived_before_corrections_is_rebuilt(tmp_path):
    """A library whose reports were derived by the engine before `fix`
    (derived version 1) is rebuilt on opening: its reports gain the rounds'
    `corrected` and `original`."""
    from pipkeeper.library import derive
    db = tmp_path / "lib.sqlite3"
    with Library(db) as lib:
        lib.store("b1", "0001.dgn", FIXED)
        lib.db.execute("UPDATE games SET report = ?", (json.dumps({"rounds": []}),))
        lib.db.execute("UPDATE meta SET value = '1' WHERE key = 'derived_version'")
        lib.db.commit()
    assert derive.VERSION >= 2
    with Library(db) as lib:
        rep = lib.record(lib.games()[0]["id"])["report"]
    assert rep["rounds"][0]["corrected"] == [3]

