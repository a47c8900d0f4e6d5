"""The `pipkeeper` command: a click group over the modules in `commands/`.

Each subcommand is a module `pipkeeper.commands.<name>` exposing a click
command called `command`; its docstring is its help. Modules are imported
only when their command is used (or help is listed), so a command whose module
is missing is simply not offered and one whose module fails to import does not
take the others down with it.

Errors: a `PipkeeperError` escaping a command is printed as
`pipkeeper: message` on stderr with exit status 1; Ctrl-C prints
`pipkeeper: interrupted` and exits 130. Usage errors are one line too,
`pipkeeper: COMMAND: message (see `pipkeeper COMMAND --help`)`, with click's
status 2; a mistyped command is offered the nearest names.
"""

import importlib
import sys
import traceback

import click
from click.exceptions import NoArgsIsHelpError

from pipkeeper import __version__
from pipkeeper.errors import PipkeeperError
from pipkeeper.options import Group

# The subcommands, in the order `pipkeeper --help` lists them. The command's
# name is the module's with "_" turned into "-".
COMMANDS = (
    "sim",
    "replay",
    "flash",
    "firmware",
    "uf2",
    "sync",
    "import",
    "games",
    "show",
    "players",
    "stats",
    "export",
    "forget",
    "backup",
    "roster",
    "test",
    "bench",
)

PROG = "pipkeeper"


class AppContext:
    """The object handed to every subcommand as `ctx.obj` (`@click.pass_obj`)."""

    def __init__(self, debug=False):
        self.debug = debug


def _module_name(command_name):
    return "pipkeeper.commands." + command_name.replace("-", "_")


def _unavailable(name, exc):
    """A stand-in for a command whose module fails to import."""
    reason = "{}: {}".format(type(exc).__name__, exc)

    @click.command(
        name=name,
        help="(unavailable: {})".format(reason),
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
        add_help_option=False,
    )
    def stub():
        raise PipkeeperError("{}: this command is unavailable ({})".format(name, reason))

    return stub


def one_line(exc):
    """A click usage error as the one line every error of pipkeeper is,
    `pipkeeper: message`, naming the command and where its help is (click
    prints three lines: the usage, a hint, the error). Exit status 2."""
    ctx = exc.ctx
    path = ctx.command_path if ctx is not None else PROG
    where = path[len(PROG) + 1:] if path.startswith(PROG + " ") else ""
    text = exc.format_message()
    if text[:1].isupper() and text[1:2].islower():
        text = text[0].lower() + text[1:]
    text = text.rstrip(".").replace(". Did you mean", "; did you mean")
    see = "`{} --help`".format(path)
    line = "{}{}{}".format(where + ": " if where else "", text, "" if see in text else " (see {})".format(see))
    return OneLineUsageError(line, ctx)


class OneLineUsageError(click.UsageError):
    def show(self, file=None):
        click.echo("{}: {}".format(PROG, self.message), file=file, err=file is None)


class LazyGroup(Group):
    """A group whose commands are imported on first use; its usage errors,
    and those of every command under it, are one line."""

    def __init__(self, *args, command_modules=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.command_modules = tuple(command_modules)
        self._loaded = {}

    def _load(self, name):
        if name in self._loaded:
            return self._loaded[name]
        module_name = _module_name(name)
        try:
            module = importlib.import_module(module_name)
            cmd = module.command
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                cmd = None  # not written (or not installed): not offered
            else:
                cmd = _unavailable(name, exc)
        except Exception as exc:  # a broken module must not break the others
            if "--debug" in sys.argv:
                traceback.print_exc()
            cmd = _unavailable(name, exc)
        if cmd is not None and cmd.name != name:
            cmd.name = name
        self._loaded[name] = cmd
        return cmd

    def list_commands(self, ctx):
        names = [n.replace("_", "-") for n in self.command_modules]
        names += [n for n in super().list_commands(ctx) if n not in names]
        return [n for n in names if self.get_command(ctx, n) is not None]

    def get_command(self, ctx, cmd_name):
        cmd = super().get_command(ctx, cmd_name)  # commands added with add_command
        if cmd is not None:
            return cmd
        if cmd_name.replace("-", "_") not in self.command_modules:
            return None
        return self._load(cmd_name)

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except (OneLineUsageError, NoArgsIsHelpError):
            raise
        except click.UsageError as exc:
            raise one_line(exc) from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (OneLineUsageError, NoArgsIsHelpError):
            raise
        except click.UsageError as exc:
            raise one_line(exc) from None
        except PipkeeperError as exc:
            obj = ctx.obj
            if obj is not None and getattr(obj, "debug", False):
                traceback.print_exc()
            click.echo("{}: {}".format(PROG, exc.message), err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("\n{}: interrupted".format(PROG), err=True)
            ctx.exit(130)


@click.group(
    cls=LazyGroup,
    command_modules=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, prog_name=PROG)
@click.option("--debug", is_flag=True, help="Show tracebacks for errors.")
@click.pass_context
def main(ctx, debug):
    """pipkeeper: the laptop side of the table-top domino scorer.

    Game records are DGN files (see FORMAT.md in the docs).
    """
    ctx.obj = AppContext(debug=debug)
