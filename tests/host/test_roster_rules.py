"""`pipkeeper roster --rules NAME --preset PRESET --option KEY=VALUE ...`: a
table's named set of house rules on the board (roster.json "sets"),
checked with the engine's option data, offered by the board's House rules
page (tests/firmware/test_house_setup.py)."""

import json

import pytest

from boardkit import run_cli, virtual_board


def cli(port, db, *args):
    return run_cli(*args, env={"PIPKEEPER_PORT": port, "PIPKEEPER_DB": str(db)})


def test_a_named_set_is_written_replaced_and_removed(tmp_path):
    root = tmp_path / "board"
    root.mkdir()
    db = tmp_path / "db"
    with virtual_board(root, bare=True) as board:
        code, out, err = cli(board.port, db, "roster", "Ann", "Bob", "--rules", "Thursday club",
                             "--preset", "mexican-train", "--option", "positive_scoring=yes",
                             "--option", "drawn_tile=may")
        assert code == 0, err
        on_board = json.loads((root / "pipkeeper" / "roster.json").read_text())
        assert on_board == {"names": ["Ann", "Bob"], "defaults": {}, "sets": [
            {"name": "Thursday club", "rules": "mexican-train",
             "options": {"positive_scoring": "yes", "drawn_tile": "may"}}]}
        # given again: its options added to, its preset kept
        code, out, err = cli(board.port, db, "roster", "--rules", "Thursday club", "--option", "drawn_tile=must")
        assert code == 0, err
        code, out, err = cli(board.port, db, "roster", "--rules", "فاطمه‌ها", "--preset", "chickenfoot")
        assert code == 0, err
        on_board = json.loads((root / "pipkeeper" / "roster.json").read_text())
        assert on_board["sets"] == [
            {"name": "Thursday club", "rules": "mexican-train",
             "options": {"positive_scoring": "yes", "drawn_tile": "must"}},
            {"name": "فاطمه‌ها", "rules": "chickenfoot", "options": {}}]
        from pipkeeper.board import roster
        # the board draws the set's name from the names file, as a player's
        assert (root / "pipkeeper" / "names.bin").read_bytes() == roster.names_file(
            ["Ann", "Bob", "Thursday club", "فاطمه‌ها"])
        code, out, err = cli(board.port, db, "roster")
        assert code == 0 and "rules 'Thursday club' (mexican-train): drawn_tile=must, positive_scoring=yes" in out
        code, out, err = cli(board.port, db, "roster", "--remove-rules", "فاطمه‌ها")
        assert code == 0, err
        assert [s["name"] for s in json.loads((root / "pipkeeper" / "roster.json").read_text())["sets"]] == [
            "Thursday club"]
        # the defaults are apart from the sets: a preset's own name is the board's default
        code, out, err = cli(board.port, db, "roster", "--rules", "chickenfoot")
        assert code == 0, err
        on_board = json.loads((root / "pipkeeper" / "roster.json").read_text())
        assert on_board["defaults"] == {"rules": "chickenfoot"} and len(on_board["sets"]) == 1


@pytest.mark.parametrize("args, code, message", [
    (["--rules", "chikenfoot"], 2, "unknown rules 'chikenfoot'"),
    (["--rules", "Club", "--preset", "mexican"], 2, "unknown preset 'mexican' for rule set 'Club'"),
    (["--rules", "Club", "--preset", "chickenfoot", "--option", "nonsense=1"], 2, "option: unknown option"),
    (["--rules", "Club", "--preset", "chickenfoot", "--option", "blank_end=60"], 2,
     "blank_end must be a whole number from 0 to 50"),
    (["--rules", "Club", "--preset", "chickenfoot", "--option", "set=12"], 2,
     "a named set holds rules: set is chosen at each set-up"),
    (["--rules", "chickenfoot", "--preset", "chickenfoot"], 2, "--preset goes with --rules NAME"),
    (["--rules", "*last", "--preset", "chickenfoot"], 2, "does not start with '*'"),
    (["--rules", "A very long name, this", "--preset", "chickenfoot"], 2, "longer than 16"),
    (["--rules", "Club", "--option", "blank_end=5"], 2, "unknown rules 'Club'"),
    (["--remove-rules", "Nothing"], 1, "the board has no rule set named 'Nothing'"),
])
def test_a_bad_set_is_refused_in_one_line(tmp_path, args, code, message):
    root = tmp_path / "board"
    root.mkdir()
    with virtual_board(root, bare=True) as board:
        got, out, err = cli(board.port, tmp_path / "db", "roster", *args)
    assert got == code and err.startswith("pipkeeper: ") and message in err, err
    assert err.count("\n") == 1 or (code == 2 and "--help" in err.splitlines()[-1]), err
    assert not (root / "pipkeeper" / "roster.json").exists()


def test_a_board_holds_at_most_eight_sets():
    from pipkeeper.board import roster
    from pipkeeper.errors import PipkeeperError
    r = {"names": ["Ann", "Bob"]}
    for i in range(roster.MAX_SETS):
        r = roster.put_set(r, roster.check_set("set %d" % i, "chickenfoot", {}))
    r = roster.put_set(r, roster.check_set("set 0", "chicken-scratch", {}))    # replaced: still eight
    assert len(r["sets"]) == 8 and r["sets"][-1]["rules"] == "chicken-scratch"
    with pytest.raises(PipkeeperError, match="at most 8"):
        roster.put_set(r, roster.check_set("one more", "chickenfoot", {}))
