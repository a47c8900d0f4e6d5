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
