"""Usage errors as the README promises every error: one line, `pipkeeper:
message`, exit status 2 (click printed three: usage, hint, error); a
mistyped command offered the nearest names; help that lists every command
with its first sentence whole; shell completion as the README tells it."""

import os
import re

import pytest
from click.testing import CliRunner

from boardkit import run_cli
from pipkeeper import cli


def usage_error(*args):
    result = CliRunner().invoke(cli.main, list(args), prog_name="pipkeeper")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("pipkeeper: ") and result.stderr.count("\n") == 1, result.stderr
    return result.stderr[:-1]


@pytest.mark.parametrize("args, line", [
    (["gams"], "pipkeeper: no such command 'gams'; did you mean games? (see `pipkeeper --help`)"),
    (["xyzzy"], "pipkeeper: no such command 'xyzzy' (see `pipkeeper --help`)"),
    (["replay"], "pipkeeper: replay: missing argument 'FILE...' (see `pipkeeper replay --help`)"),
    (["games", "--bogus"], "pipkeeper: games: no such option '--bogus' (see `pipkeeper games --help`)"),
    (["games", "--jsn"], "pipkeeper: games: no such option '--jsn'; did you mean '--json'? "
                         "(see `pipkeeper games --help`)"),
    (["bench", "devise"], "pipkeeper: bench: no such command 'devise'; did you mean device or "
                          "engine? (see `pipkeeper bench --help`)"),
    (["--bogus"], "pipkeeper: no such option '--bogus' (see `pipkeeper --help`)"),
    (["export", "--format", "pdf"], "pipkeeper: export: invalid value for '--format': 'pdf' is not "
                                    "one of 'csv', 'json', 'html' (see `pipkeeper export --help`)"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_a_usage_error_is_one_line_with_exit_2(args, line):
    assert usage_error(*args) == line


def test_through_the_installed_entry_point():
    code, out, err = run_cli("stast")
    assert (code, out) == (2, "")
    assert err == "pipkeeper: no such command 'stast'; did you mean stats? (see `pipkeeper --help`)\n"


def test_no_command_still_shows_the_help():
    result = CliRunner().invoke(cli.main, ["bench"], prog_name="pipkeeper")
    assert "Usage: pipkeeper bench" in result.output and "Commands:" in result.output


def _commands(help_text):
    """{name: its description, joined across wrapped lines} of a help page."""
    out = {}
    name = None
    for line in help_text.split("Commands:\n", 1)[1].splitlines():
        m = re.match(r"  (\S+)\s+(.*)", line)
        if m and not line.startswith("   "):
            name = m.group(1)
            out[name] = m.group(2)
        elif name and line.strip():
            out[name] += " " + line.strip()
    return out


@pytest.mark.parametrize("args", [[], ["bench"]], ids=["pipkeeper", "bench"])
def test_help_lists_each_command_whole(args):
    """No description cut with "...", at 80 columns; each is its command's
    short help (its first sentence), whole."""
    group = cli.main
    ctx = None
    for a in args:
        group = group.get_command(ctx, a)
    result = CliRunner().invoke(cli.main, args + ["--help"], prog_name="pipkeeper",
                                terminal_width=80)
    assert result.exit_code == 0, result.output
    listed = _commands(result.output)
    names = group.list_commands(None)
    assert sorted(listed) == sorted(names)
    for name, text in listed.items():
        assert not text.endswith("..."), (name, text)
        assert text == group.get_command(None, name).get_short_help_str(limit=1000), name


def test_bench_help_names_every_benchmark():
    """Its first line named engine, firmware, sync and flash, not device nor uf2."""
    bench = cli.main.get_command(None, "bench")
    first = bench.get_short_help_str(limit=1000)
    for name in bench.list_commands(None):
        assert name in first, (name, first)


def test_shell_completion_as_the_readme_says():
    readme = open(os.path.join(os.path.dirname(__file__), "..", "..", "README.md")).read()
    assert 'eval "$(_PIPKEEPER_COMPLETE=bash_source pipkeeper)"' in readme
    code, out, err = run_cli(env={"_PIPKEEPER_COMPLETE": "bash_source"})
    assert code == 0 and "_pipkeeper_completion()" in out, err
    code, out, err = run_cli(env={"_PIPKEEPER_COMPLETE": "bash_complete",
                                  "COMP_WORDS": "pipkeeper bench d", "COMP_CWORD": "2"})
    assert (code, out) == (0, "plain,device\n"), err


# -- issue 32, item 15: what a user types wrongly is a usage error, as the README says --

@pytest.mark.parametrize("args, line", [
    (["flash", "--board", "badger"],
     "pipkeeper: flash: unknown build 'badger'; the builds are: badger2040, badger2040w, "
     "pico_inky_pack, pico_epaper29; did you mean badger2040 or badger2040w? "
     "(see `pipkeeper flash --help`)"),
    (["uf2", "--micropython", "x.uf2", "--board", "pico"],
     "pipkeeper: uf2: unknown build 'pico'; the builds are: badger2040, badger2040w, "
     "pico_inky_pack, pico_epaper29; did you mean pico_inky_pack or pico_epaper29? "
     "(see `pipkeeper uf2 --help`)"),
    (["roster", "--option", "foo"],
     "pipkeeper: roster: --option takes KEY=VALUE, not 'foo' (see `pipkeeper roster --help`)"),
    (["roster", "A"],
     "pipkeeper: roster: a roster takes at least 2 players, not 1: name them all, e.g. pipkeeper "
     "roster Ann Bob (see `pipkeeper roster --help`)"),
    (["roster", "--rules", "chikenfoot"],
     "pipkeeper: roster: unknown rules 'chikenfoot': use one of chickenfoot, chickenfoot-cross, "
     "chicken-scratch, mexican-train; did you mean chickenfoot or chickenfoot-cross or "
     "chicken-scratch? "
     "(see `pipkeeper roster --help`)"),
    (["help"], "pipkeeper: no such command 'help'; did you mean `pipkeeper --help`?"),
    (["help", "games"], "pipkeeper: no such command 'help'; did you mean `pipkeeper games --help`? "
                        "(see `pipkeeper --help`)"),
    (["bench", "help"], "pipkeeper: bench: no such command 'help'; did you mean `pipkeeper bench "
                        "--help`?"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_a_value_typed_wrongly_is_a_usage_error_with_the_nearest_names(args, line):
    """They exited 1, and --board, --rules and `help` named nothing near
    (issue 32, item 15). Checked before any board is looked for."""
    assert usage_error(*args) == line


def test_the_w_boards_get_no_image_of_their_own():
    """`firmware --board badger2040w` built an image (issue 32, item 4): the
    W boards keep the .mpy install (hardware/README.md), refused in one line
    that says why, before the compiler is looked for."""
    line = usage_error("firmware", "--board", "badger2040w", "-o", "/nonexistent/x.uf2")
    assert line == ("pipkeeper: firmware: the badger2040w keeps the .mpy install: an image for a "
                    "W board would need its wireless chip's driver and firmware, which pipkeeper "
                    "neither builds nor can test (hardware/README.md); `pipkeeper flash --board "
                    "badger2040w` puts the scorer on it (see `pipkeeper firmware --help`)")
    from pipkeeper.errors import PipkeeperError
    from pipkeeper.image import build
    with pytest.raises(PipkeeperError, match="keeps the .mpy install"):
        build.stage("badger2040w")
    assert usage_error("firmware", "--board", "badger") == (
        "pipkeeper: firmware: unknown build 'badger'; the image is made for badger2040, "
        "pico_inky_pack, pico_epaper29; did you mean badger2040? (see `pipkeeper firmware --help`)")
    result = CliRunner().invoke(cli.main, ["firmware", "--help"], prog_name="pipkeeper")
    assert "the W boards keep the .mpy install" in " ".join(result.output.split())


def test_a_game_number_that_is_not_there_says_so(tmp_path):
    """`show 0` said "'0' names 6 games" (a prefix of every file name)."""
    from boardkit import write_games
    from pipkeeper.library.store import Library
    db = str(tmp_path / "lib.sqlite3")
    games = tmp_path / "g"
    games.mkdir()
    with Library(db) as lib:
        for name, data in write_games(games, 3).items():
            lib.store("b1", name, data)
    for ref in ("0", "7"):
        code, out, err = run_cli("show", ref, "--db", db)
        assert (code, out) == (1, ""), err
        assert err == "pipkeeper: no game '{}' in the library (see `pipkeeper games`)\n".format(ref)
    code, out, err = run_cli("show", "000", "--db", db)      # a prefix of the files' names
    assert code == 1 and "'000' names 3 games" in err, err


def test_one_is_said_in_the_singular(tmp_path):
    """"1 pips", "1 bytes", "1 presses": a count says its noun in the
    singular for one (pipkeeper.wording.counted), in the host's messages."""
    from boardkit import has_sim
    from pipkeeper.wording import counted
    assert [counted(n, "file") for n in (0, 1, 2)] == ["0 files", "1 file", "2 files"]
    assert counted(1, "press", "presses") == "1 press" and counted(3, "press", "presses") == "3 presses"
    one = tmp_path / "one.uf2"
    one.write_bytes(b"x")
    code, out, err = run_cli("uf2", "--micropython", str(one))
    assert (code, err) == (1, "pipkeeper: one.uf2 is not an RP2040 flash image (1 byte)\n")
    if not has_sim():
        return
    script = tmp_path / "one.txt"
    script.write_text("A\n")
    code, out, err = run_cli("sim", "--dir", str(tmp_path / "board"), "--script", str(script))
    assert code == 0, err
    assert "1 A -> 1 update (" in out and "1 press, 2 updates; flash: " in out, out[-300:]
