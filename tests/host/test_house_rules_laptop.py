"""The house rules on the laptop (issue 31): `pipkeeper rules` lists every
option; `roster --option` takes them all and refuses a bad value in one
line naming the values allowed; `replay`, `show`, `games` and the three
exports show the rules in play, the HTML each round's facts too."""

import csv
import io
import json

import pytest
from click.testing import CliRunner

from pipkeeper.board import roster
from pipkeeper.cli import main
from pipkeeper.errors import PipkeeperError
from pipkeeper.library import export
from pipkeeper.library.house_rules import summary, table
from pipkeeper.library.store import Library
from shared_engine import house

# mexican-train: 0-0 = 25, out -10, blank ends 5, an open train: seat 1 goes
# out (a paper sheet says so), Bob holds 0-0 and a blank end
HOUSE = ('[Rules "mexican-train"]\n[Players "Ann" "Bob"]\n[Option "double_blank" "25"]\n'
         '[Option "out_bonus" "10"]\n[Option "blank_end" "5"]\n[Option "open_train" "10"]\n'
         '[Option "rounds" "12 11"]\n'
         'round 12-12 lead 1\nscore 0+OUT 12+DB+BE1+OT\n'
         'round 11-11 lead 2\nscore 7+OT 0+OUT\n')


def run(*args, stdin=None):
    return CliRunner().invoke(main, list(args), input=stdin, prog_name="pipkeeper")


def test_rules_lists_every_option_with_its_defaults_and_source():
    result = run("rules")
    assert result.exit_code == 0, result.output
    for row in house.rows():
        assert "\n" + row[0] + "  " in "\n" + result.stdout
    assert "double_blank  0, 25, 50" in result.stdout
    assert "defaults: chickenfoot 0, cross 50, scratch 0, mexican 0" in result.stdout
    assert "defaults: chickenfoot -, cross -, scratch -, mexican any" in result.stdout   # double_cover
    assert "from: Gr8Gatsby's app" in result.stdout
    rows = json.loads(run("rules", "--json").stdout)
    assert [r["option"] for r in rows] == [r[0] for r in house.rows()]
    assert {r["option"]: r["source"] for r in rows}.keys() == {r[0] for r in house.rows()}
    assert all(r["about"] and r["source"] for r in rows)
    one = json.loads(run("rules", "--json", "drawn_tile").stdout)
    assert one == [t for t in table() if t["option"] == "drawn_tile"]
    assert one[0]["values"] == "must, may, until"


def test_rules_refuses_an_unknown_option_in_one_line():
    result = run("rules", "blank_ends")
    assert result.exit_code == 1
    assert result.output.strip() == "pipkeeper: no option 'blank_ends'; did you mean blank_end?"


def test_roster_takes_every_option_and_refuses_a_bad_value_naming_the_values():
    every = {"double_blank": "25", "blank_end": "5", "doubles_count_double": "yes",
             "out_bonus": "10", "double_out": "50", "open_train": "10", "unsatisfied_double": "10",
             "blocked_cap": "yes", "skip_missing_doubles": "yes", "call_last_tile": "2",
             "first_turn_run": "yes", "voluntary_pass": "yes", "no_draw_end": "yes",
             "target_score": "500", "drawn_tile": "until", "double_cover": "own",
             "tie_break": "most_outs"}
    assert roster.check_defaults("mexican-train", None, every) == {"rules": "mexican-train",
                                                                    "options": every}
    assert roster.check_defaults(None, None, {"tie_break": "most_outs"})["options"]
    for opts, rules, msg in (
            ({"double_blank": "30"}, None, "option: double_blank must be 0, 25 or 50, not '30'"),
            ({"blank_end": "55"}, None, "option: blank_end must be a whole number from 0 to 50, not '55'"),
            ({"drawn_tile": "sometimes"}, None, "option: drawn_tile must be must, may or until, not 'sometimes'"),
            ({"open_train": "10"}, "chickenfoot", "option: open_train is a rule of mexican-train only"),
            ({"blnk_end": "5"}, None, "option: unknown option 'blnk_end'; did you mean blank_end?")):
        with pytest.raises(PipkeeperError) as exc:
            roster.check_defaults(rules, None, opts)
        assert str(exc.value) == msg and "\n" not in str(exc.value)


def test_replay_shows_the_rules_in_play(tmp_path):
    path = tmp_path / "house.dgn"
    path.write_text(HOUSE)
    result = run("replay", str(path))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1] == "rules: 0-0 = 25, blank end +5, out \u221210, open train +10"
    rep = json.loads(run("replay", "--json", str(path)).stdout)
    assert rep["house_rules"] == {"double_blank": "25", "blank_end": "5", "out_bonus": "10",
                                  "open_train": "10", "rounds": "12 11"}
    # Bob: 12 pips + 0-0 25 + a blank end 5 + his open train 10
    assert [r["scores"] for r in rep["rounds"]] == [[-10, 52], [17, -10]]
    assert rep["rounds"][0]["facts"]["blank_ends"] == [0, 1]
    # a game of the preset's rules has no rules line (nor one of another shape)
    assert summary({}) == "" and summary({"rounds": "9 8"}) == ""
    path.write_text(HOUSE.split("[Option")[0] + "round 12-12 lead 1\nscore 0 12\n")
    assert run("replay", str(path)).stdout.splitlines()[1] == ""


@pytest.fixture
def lib(tmp_path):
    path = tmp_path / "lib.sqlite3"
    with Library(path) as library:
        library.store("b1", "0001.dgn", HOUSE.encode())
        library.store("b1", "0002.dgn", b'[Rules "chickenfoot"]\n[Players "A" "B"]\nround 9-9 lead 1\n'
                                         b'score 0 12\n')
    return path


def test_show_and_games_show_the_rules_in_play(lib):
    result = run("show", "--db", str(lib), "1")
    assert result.exit_code == 0, result.output
    assert "rules: 0-0 = 25, blank end +5, out \u221210, open train +10" in result.stdout
    result = run("games", "--db", str(lib))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].rstrip().endswith("house rules")
    assert lines[1].rstrip().endswith("0-0 = 25, blank end +5, out \u221210, open train +10")
    games = json.loads(run("games", "--db", str(lib), "--json").stdout)
    assert games[0]["house_rules"]["double_blank"] == "25" and games[1]["house_rules"] == {}


def test_the_exports_show_the_rules_in_play_and_the_html_each_rounds_facts(lib):
    with Library(lib, read_only=True) as library:
        rows = list(csv.DictReader(io.StringIO(export.to_csv(library))))
        data = json.loads(export.to_json(library))
        page = export.to_html(library)
    assert rows[0]["rules_in_play"] == "0-0 = 25, blank end +5, out \u221210, open train +10"
    assert rows[-1]["rules_in_play"] == ""
    assert data["games"][0]["rules_in_play"] == rows[0]["rules_in_play"]
    assert data["games"][0]["report"]["rounds"][1]["facts"]["open_trains"] == [1]
    assert "<p class=\"rules\">Rules in play: 0-0 = 25, blank end +5, out \u221210, open train +10</p>" in page
    assert "Each round's facts" in page
    assert "<td>12 pips · 0-0 · 1 blank end · open train</td>" in page
    assert "<td>out</td>" in page
    assert page.count("Rules in play") == 1         # the game of its preset's rules has none
