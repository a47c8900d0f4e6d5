"""The whole path through the CLI, against a virtual board on a pty:
flash, a game, sync, the library's sheet against `pipkeeper replay`, flash
again with nothing to copy; roster; test --board; the one-line errors."""

import json
import os
import re
import subprocess
import sys

import pytest

from boardkit import ROOT, has_sim, run_cli, virtual_board, write_games

SCRIPT = os.path.join(ROOT, "tests", "data", "scripted_game.txt")


def cli(port, db, *args):
    env = {"PIPKEEPER_PORT": port, "PIPKEEPER_DB": str(db)}
    return run_cli(*args, env=env)


def check_sheets_match_replay(port, db, games_dir):
    code, out, err = cli(port, db, "games", "--json")
    assert code == 0, err
    listed = json.loads(out)
    assert listed
    for g in listed:
        code, sheet, err = cli(port, db, "show", str(g["id"]))
        assert code == 0, err
        code, replayed, err = run_cli("replay", str(games_dir / g["file"]))
        assert code == 0, err
        assert sheet == replayed


def test_flash_play_sync_show_flash_again(tmp_path, cache):
    root = tmp_path / "board"
    (root / "games").mkdir(parents=True)
    db = tmp_path / "library.sqlite3"
    with virtual_board(root) as board:
        code, out, err = cli(board.port, db, "flash")
        assert code == 0, err
        copied = int(re.search(r"copied (\d+) files", out).group(1))
        # the bundle, its reader, the link helper, main.py and boot.py, the
        # languages' packs (five, and their names in words.bin) and their
        # words as text (the QR codes' sheet: render.texts)
        assert copied == 5 + 6 + 5 and "free of" in out
        assert sorted(os.listdir(root / "lib" / "i18n")) == [
            "cy.bin", "cy.txt", "fa.bin", "fa.txt", "ga.bin", "ga.txt", "mn.bin", "mn.txt",
            "sv.bin", "sv.txt", "words.bin"]
        # The games the board would have written (the button-press version
        # of this is test_scripted_game_through_buttons, with the sim).
        write_games(root / "games", 3, seed=11)
        code, out, err = cli(board.port, db, "sync")
        assert code == 0, err
        assert "3 new" in out
        check_sheets_match_replay(board.port, db, root / "games")
        code, out, err = cli(board.port, db, "sync", "--json")
        assert code == 0 and json.loads(out)["files"] == []
        code, out, err = cli(board.port, db, "flash")
        assert code == 0, err
        assert "copied 0 files" in out, (code, out, err)
        code, out, err = cli(board.port, db, "stats", "--json")
        assert code == 0 and {s["player"] for s in json.loads(out)["players"]} == {"P1", "P2", "P3", "P4"}
        html = tmp_path / "report.html"
        code, out, err = cli(board.port, db, "export", "--format", "html", "-o", str(html))
        assert code == 0 and "<svg" in html.read_text()


@pytest.mark.skipif(not (has_sim() and os.path.exists(SCRIPT)),
                    reason="needs `pipkeeper sim --serial` and tests/data/scripted_game.txt")
def test_scripted_game_through_buttons(tmp_path, cache):
    root = tmp_path / "board"
    root.mkdir()
    db = tmp_path / "library.sqlite3"
    play = subprocess.run([sys.executable, "-m", "pipkeeper", "sim", "--quiet", "--dir", str(root),
                           "--script", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.path.join(ROOT, "host")))
    assert play.returncode == 0, play.stderr
    assert list((root / "games").glob("*.dgn"))
    with virtual_board(root) as board:
        code, out, err = cli(board.port, db, "flash")
        assert code == 0, (out, err)
        code, out, err = cli(board.port, db, "sync")
        assert code == 0, err
        check_sheets_match_replay(board.port, db, root / "games")
        code, out, err = cli(board.port, db, "flash")
        assert "copied 0 files" in out, (code, out, err)


def test_roster_round_trip(tmp_path):
    root = tmp_path / "board"
    root.mkdir()
    with virtual_board(root, bare=True) as board:
        code, out, err = cli(board.port, tmp_path / "db", "roster", "Ann", "Bob", "Cy",
                             "--rules", "chickenfoot", "--option", "start_trains=5")
        assert code == 0, err
        on_board = json.loads((root / "pipkeeper" / "roster.json").read_text())
        assert on_board == {"names": ["Ann", "Bob", "Cy"],
                            "defaults": {"rules": "chickenfoot", "options": {"start_trains": "5"}}}
        assert not list((root / "pipkeeper").glob("*.tmp"))
        code, out, err = cli(board.port, tmp_path / "db", "roster", "--json")
        assert json.loads(out) == on_board
        code, out, err = cli(board.port, tmp_path / "db", "roster", "--option", "nonsense=1")
        assert code == 2 and err.startswith("pipkeeper: roster: option: unknown option"), err


def test_roster_idle_is_a_setting_of_the_board(tmp_path):
    """`roster --option idle=N`: the minutes the board on battery waits asleep
    during a game. A setting of the board (settings.json "idle", the other
    settings kept; the roster's defaults show it), never a rule option: it
    is not among the roster's options, which the set-up turns into a
    record's [Option] tags and the engine's Rules."""
    from pipkeeper.board import roster
    from pipkeeper.errors import PipkeeperError
    assert roster.check_defaults(None, None, {"idle": "10", "start_trains": "5"}) == {
        "idle": 10, "options": {"start_trains": "5"}}
    for bad in ("61", "-1", "soon"):
        with pytest.raises(PipkeeperError, match="idle is the minutes"):
            roster.check_defaults(None, None, {"idle": bad})
    root = tmp_path / "board"
    (root / "pipkeeper").mkdir(parents=True)
    (root / "pipkeeper" / "settings.json").write_text('{"counter": 7, "lang": "cy"}')
    with virtual_board(root, bare=True) as board:
        code, out, err = cli(board.port, tmp_path / "db", "roster", "Ann", "Bob", "--option", "idle=10")
        assert code == 0, err
        on_board = json.loads((root / "pipkeeper" / "roster.json").read_text())
        assert on_board == {"names": ["Ann", "Bob"], "defaults": {"idle": 10}}
        assert json.loads((root / "pipkeeper" / "settings.json").read_text()) == {
            "counter": 7, "lang": "cy", "idle": 10}
        code, out, err = cli(board.port, tmp_path / "db", "roster", "--option", "idle=90")
        assert code == 2 and err.startswith("pipkeeper: roster: idle is the minutes"), err


def test_roster_refresh_is_a_setting_of_the_board(tmp_path):
    """`roster --option refresh=fast`: the screen's refresh (issue 33), a
    setting of the board as idle is (settings.json "refresh"), never a rule
    option; anything but clean or fast is refused in one line."""
    from pipkeeper.board import roster
    from pipkeeper.errors import PipkeeperError
    assert roster.check_defaults(None, None, {"refresh": "Fast", "idle": "3"}) == {
        "refresh": "fast", "idle": 3}
    with pytest.raises(PipkeeperError, match="refresh is clean .* or fast"):
        roster.check_defaults(None, None, {"refresh": "turbo"})
    root = tmp_path / "board"
    (root / "pipkeeper").mkdir(parents=True)
    (root / "pipkeeper" / "settings.json").write_text('{"counter": 7, "idle": 10}')
    with virtual_board(root, bare=True) as board:
        code, out, err = cli(board.port, tmp_path / "db", "roster", "Ann", "Bob", "--option", "refresh=fast")
        assert code == 0, err
        assert json.loads((root / "pipkeeper" / "settings.json").read_text()) == {
            "counter": 7, "idle": 10, "refresh": "fast"}
        code, out, err = cli(board.port, tmp_path / "db", "roster", "--option", "refresh=slow")
        # (a value typed wrongly is a command used wrongly: exit 2, issue 32.15)
        assert code == 2 and err.startswith("pipkeeper: roster: refresh is clean") and err.count("\n") == 1, err


def test_a_roster_of_fewer_than_two_players_is_refused(tmp_path):
    """`roster Ann` was taken, and the board's set-up then offered "Players
    (4)" and could not go on: one name is refused in one line, before any
    board is looked for."""
    from pipkeeper.board import roster
    from pipkeeper.errors import PipkeeperError
    code, out, err = run_cli("roster", "Ann", "--port", "/dev/nonexistent")
    assert code == 2 and err == ("pipkeeper: roster: a roster takes at least 2 players, not 1: name them "
                                 "all, e.g. pipkeeper roster Ann Bob (see `pipkeeper roster --help`)\n"), err
    with pytest.raises(PipkeeperError, match="at least 2 players"):
        roster.merge({"names": ["Ann", "Bob"]}, ["Ann"])
    assert roster.merge({}, ["Ann", "Bob"])["names"] == ["Ann", "Bob"]


def test_test_board_on_the_virtual_board(tmp_path, cache):
    root = tmp_path / "board"
    root.mkdir()
    with virtual_board(root, bare=True) as board:
        code, out, err = cli(board.port, tmp_path / "db", "test", "--board")
    found = re.findall(r"^(\d+) passed, (\d+) failed$", out, re.M)
    assert found, out + err
    passed, failed = map(int, found[-1])
    # Every engine test file, fixtures and data included, passes on the board.
    assert passed > 200 and failed == 0, out[-3000:]
    assert code == 0
    assert not (root / "pktest").exists()  # the scratch folder is gone


def test_errors_are_one_line(tmp_path):
    code, out, err = run_cli("sync", "--port", "/dev/nonexistent", "--db", str(tmp_path / "db"))
    assert code == 1 and err == "pipkeeper: no board at /dev/nonexistent (nothing is plugged in there)\n"
    code, out, err = run_cli("show", "42", "--db", str(tmp_path / "db"))
    assert code == 1 and err.startswith("pipkeeper: no game '42'") and err.count("\n") == 1


def test_flash_board_on_the_command_line(tmp_path, cache):
    root = tmp_path / "board"
    (root / "games").mkdir(parents=True)
    db = tmp_path / "library.sqlite3"
    code, out, err = run_cli("flash", "--board", "pico3", env={"PIPKEEPER_PORT": "/dev/nonexistent"})
    # an unknown name is refused before any board is looked for, with the list
    assert code != 0 and err.count("\n") == 1
    assert "unknown build 'pico3'; the builds are: badger2040, badger2040w, pico_inky_pack, " \
           "pico_epaper29" in err
    with virtual_board(root) as board:
        code, out, err = cli(board.port, db, "flash")
        assert code == 0, err
        assert "the board has no /board.txt: taking it for the badger2040 build" in out
        code, out, err = cli(board.port, db, "flash", "--board", "pico_inky_pack", "--json")
        assert code == 0, err
        got = json.loads(out)
        assert (got["board"], got["board_assumed"], got["board_written"]) == (
            "pico_inky_pack", False, True)
        code, out, err = cli(board.port, db, "flash")
        assert code == 0, err
        assert "board.txt" not in out
    assert (root / "board.txt").read_text() == "pico_inky_pack\n"


def test_roster_with_names_in_any_script_and_a_language(tmp_path):
    """`roster --lang fa` with Persian and Mongolian names: the roster, the
    names' bitmaps (/pipkeeper/names.bin) and the board's language in its
    settings (the other settings kept)."""
    root = tmp_path / "board"
    (root / "pipkeeper").mkdir(parents=True)
    (root / "pipkeeper" / "settings.json").write_text('{"counter": 7}')
    with virtual_board(root, bare=True) as board:
        code, out, err = cli(board.port, tmp_path / "db", "roster", "فاطمه زهرایی", "Батцэцэг Бат",
                             "Ann", "--lang", "fa")
        assert code == 0, err
        on_board = json.loads((root / "pipkeeper" / "roster.json").read_text(encoding="utf-8"))
        assert on_board["names"] == ["فاطمه زهرایی", "Батцэцэг Бат", "Ann"]
        assert on_board["defaults"]["lang"] == "fa"
        assert json.loads((root / "pipkeeper" / "settings.json").read_text()) == {"counter": 7, "lang": "fa"}
        from pipkeeper.board import roster
        assert (root / "pipkeeper" / "names.bin").read_bytes() == roster.names_file(on_board["names"])
        code, out, err = cli(board.port, tmp_path / "db", "roster", "--lang", "xx")
        assert code == 2 and "xx" in err


def _setup_after(tmp_path, played, push=True):
    """`roster --lang fa --rules mexican-train` pushed to a board (one that
    has played a game, or a fresh one), then the set-up it shows (after A on
    the finished game's end screen: New): its frame above the A/B/C bar
    (which says "Back" only where there is a game to go back to)."""
    from shared_engine import dgn
    from shared_engine.engine import ROUND, SCORE
    from pipkeeper.sim.unix import Sim
    root = tmp_path / ("%s-%s" % ("played" if played else "fresh", push))
    (root / "pipkeeper").mkdir(parents=True)
    (root / "games").mkdir()
    if played:
        (root / "games" / "0001.dgn").write_text(dgn.write(
            [("Rules", ["chickenfoot"]), ("Players", ["Ann", "Bob"]), ("Option", ["rounds", "9"]),
             ("Lang", ["en"])], [(ROUND, 9, 1, ()), (SCORE, (0, 12), (0, 0))]))
        (root / "pipkeeper" / "current").write_text("games/0001.dgn\n")
        (root / "pipkeeper" / "settings.json").write_text(json.dumps(
            {"counter": 1, "lang": "en", "last": {"pr": 0, "pl": [0, 1], "o": {"lang": "en"}, "t": "quick"}}))
    if push:
        with virtual_board(root, bare=True) as board:
            code, out, err = cli(board.port, tmp_path / "db", "roster", "--lang", "fa", "--rules", "mexican-train")
            assert code == 0, err
    sim = Sim(str(root))
    try:
        frames = sim.start()
        if played:
            frames = sim.press("A")      # the end screen's New
    finally:
        sim.close()
    return frames[-1].data[:37 * 113], root


def test_roster_language_and_rules_reach_a_board_that_has_played(tmp_path):
    """Issue 32: on a board that had played a game, `roster --lang fa
    --rules mexican-train` left the set-up in English with the last preset
    chosen; on a fresh board it worked. Now both show the same."""
    fresh, _ = _setup_after(tmp_path, played=False)
    assert fresh != _setup_after(tmp_path, played=False, push=False)[0]    # (it did change something)
    played, root = _setup_after(tmp_path, played=True)
    assert played == fresh
    on_board = json.loads((root / "pipkeeper" / "settings.json").read_text())
    assert on_board["last"]["pl"] == [0, 1] and "pr" not in on_board["last"]
    assert on_board["lang"] == "fa"


def test_a_push_lets_go_only_of_what_it_replaces():
    from pipkeeper.board import roster
    s = {"counter": 3, "last": {"pr": 2, "pl": [1, 0], "t": "full", "o": {"set": "9", "rounds": "2"}}}
    got = roster.newer_than_last(s, {"rules": "mexican-train", "options": {"set": "12"}})
    assert got == {"counter": 3, "last": {"pl": [1, 0], "t": "full", "o": {"rounds": "2"}}}
    assert roster.newer_than_last({"counter": 1}, {"rules": "chickenfoot"}) == {"counter": 1}
