"""The command layer: lazy commands, one-line errors, Ctrl-C."""

import types

import click
import pytest
from click.testing import CliRunner

from pipkeeper import cli
from pipkeeper.errors import PipkeeperError


def make_group(monkeypatch, modules):
    """A LazyGroup over fake command modules: name -> module, or an exception to raise."""
    real_import = cli.importlib.import_module

    def fake_import(name):
        short = name.rsplit(".", 1)[-1]
        if short in modules:
            value = modules[short]
            if isinstance(value, BaseException):
                raise value
            return value
        return real_import(name)

    monkeypatch.setattr(cli.importlib, "import_module", fake_import)

    @click.group(cls=cli.LazyGroup, command_modules=tuple(modules))
    @click.pass_context
    def group(ctx):
        ctx.obj = cli.AppContext()

    return group


def module_with(cmd):
    return types.SimpleNamespace(command=cmd)


@click.command()
def hello():
    """Say hello."""
    click.echo("hello")


@click.command()
def fails():
    """Raise a PipkeeperError."""
    raise PipkeeperError("no board found on /dev/ttyACM0")


@click.command()
def interrupted():
    """Act as if Ctrl-C was pressed."""
    raise KeyboardInterrupt


def test_commands_are_named_by_module_and_listed(monkeypatch):
    group = make_group(monkeypatch, {"greet": module_with(hello)})
    result = CliRunner().invoke(group, ["--help"])
    assert result.exit_code == 0
    assert "greet" in result.output and "Say hello." in result.output
    assert CliRunner().invoke(group, ["greet"]).output == "hello\n"


def test_an_absent_module_is_not_offered(monkeypatch):
    missing = ModuleNotFoundError("No module named 'pipkeeper.commands.later'",
                                  name="pipkeeper.commands.later")
    group = make_group(monkeypatch, {"greet": module_with(hello), "later": missing})
    result = CliRunner().invoke(group, ["--help"])
    assert result.exit_code == 0
    assert "later" not in result.output
    assert CliRunner().invoke(group, ["greet"]).exit_code == 0
    assert CliRunner().invoke(group, ["later"]).exit_code == 2  # click: no such command


def test_a_broken_module_breaks_only_its_command(monkeypatch):
    group = make_group(monkeypatch, {
        "greet": module_with(hello),
        "broken": SyntaxError("invalid syntax"),
        "needsdep": ModuleNotFoundError("No module named 'serial'", name="serial"),
    })
    result = CliRunner().invoke(group, ["--help"])
    assert result.exit_code == 0
    assert "broken" in result.output and "unavailable" in result.output
    assert CliRunner().invoke(group, ["greet"]).output == "hello\n"
    result = CliRunner().invoke(group, ["broken", "--some-option"])
    assert result.exit_code == 1
    assert result.stderr.startswith("pipkeeper: broken: this command is unavailable (SyntaxError")
    assert len(result.stderr.splitlines()) == 1
    result = CliRunner().invoke(group, ["needsdep"])
    assert result.exit_code == 1
    assert "No module named 'serial'" in result.stderr


def test_pipkeeper_error_is_one_line_and_exit_1(monkeypatch):
    group = make_group(monkeypatch, {"fails": module_with(fails)})
    result = CliRunner().invoke(group, ["fails"])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == "pipkeeper: no board found on /dev/ttyACM0\n"


def test_error_with_its_own_exit_code(monkeypatch):
    @click.command()
    def three():
        raise PipkeeperError("busy", exit_code=3)

    group = make_group(monkeypatch, {"three": module_with(three)})
    result = CliRunner().invoke(group, ["three"])
    assert (result.exit_code, result.stderr) == (3, "pipkeeper: busy\n")


def test_ctrl_c_exits_130_without_a_traceback(monkeypatch):
    group = make_group(monkeypatch, {"interrupted": module_with(interrupted)})
    result = CliRunner().invoke(group, ["interrupted"])
    assert result.exit_code == 130
    assert result.stderr.strip() == "pipkeeper: interrupted"


def test_the_real_group_lists_replay_and_test():
    result = CliRunner().invoke(cli.main, ["--help"])
    assert result.exit_code == 0
    assert "replay" in result.output and "test" in result.output


def test_version():
    result = CliRunner().invoke(cli.main, ["--version"])
    assert result.exit_code == 0
    assert result.output.startswith("pipkeeper, version ")


def test_unknown_command_is_a_usage_error():
    assert CliRunner().invoke(cli.main, ["no-such-command"]).exit_code == 2


def test_board_option_says_what_it_needs(monkeypatch):
    from pipkeeper.board import ports

    monkeypatch.delenv(ports.ENV_VAR, raising=False)
    monkeypatch.setattr(ports, "candidates", lambda: [])
    result = CliRunner().invoke(cli.main, ["test", "--board"])
    assert result.exit_code == 1
    assert result.stderr.startswith("pipkeeper: no board found: ")
    assert result.stderr.count("\n") == 1
