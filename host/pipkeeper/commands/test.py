"""pipkeeper test: the engine's tests on CPython, MicroPython and the board."""

import platform

import click

from pipkeeper.errors import PipkeeperError
from pipkeeper.paths import repo_root
from pipkeeper.testing.suites import parallel_args, run_micropython, run_pytest

ENGINE_TESTS = "tests/engine"
ALL_TESTS = "tests"


def _echo(text):
    click.echo(text, nl=False)


def _banner(text):
    click.echo("== {} ==".format(text))


@click.command()
@click.option("--micropython", "on_micropython", is_flag=True,
              help="Run the engine tests on the MicroPython unix port instead.")
@click.option("--board", "on_board", is_flag=True,
              help="Run the engine tests on the connected board.")
@click.option("--all", "run_all", is_flag=True,
              help="Every test: pytest over tests/, then the engine tests on MicroPython.")
@click.option("--heapsize", default="160K", show_default=True,
              help="MicroPython heap, as on the board (the Badger 2040 W leaves about 166 KB).")
@click.option("--port", "-p", metavar="PORT", default=None,
              help="With --board: the board's serial port (default: $PIPKEEPER_PORT, else found by USB id).")
@click.option("--timeout", default=600, show_default=True, type=int,
              help="Seconds before a MicroPython run is stopped.")
@click.argument("files", nargs=-1)
@click.option("--source", is_flag=True,
              help="On MicroPython, import the engine from its .py files instead of "
                   "compiling it to .mpy first (the board runs .mpy).")
def command(on_micropython, on_board, run_all, heapsize, port, timeout, source, files):
    """Run the tests; exit status 1 if any failed.

    With no option, the engine tests (tests/engine) on CPython with pytest.
    Each run ends with a line `N passed, N failed`. With --board, FILES
    names the engine test files to run there (default: all of them).
    """
    root = repo_root()
    results = []
    if files and not on_board:
        raise PipkeeperError("test files can be named with --board only")

    if on_board:
        # The board's branch (pipkeeper.testing.on_board): send, run, clean up.
        from pipkeeper.testing import on_board as board_tests
        from pipkeeper.board import link
        from pipkeeper.progress import Progress

        _banner("engine tests on the board: {}".format(ENGINE_TESTS))
        with link.connect(port, run_main=True) as board:
            with Progress(0, "send tests") as bar:
                results.append(board_tests.run(board, root, _echo, progress=bar, timeout=timeout,
                                               only=files))
        if not results[-1].printed_counts:
            click.echo(results[-1].counts())

    if run_all:
        _banner("pytest on CPython {}: {}/".format(platform.python_version(), ALL_TESTS))
        results.append(run_pytest(root, [ALL_TESTS], _echo, label="pytest " + ALL_TESTS + "/",
                                  extra_args=parallel_args() + ["--durations=15"]))
        click.echo(results[-1].counts())
    elif not on_micropython and not on_board:
        _banner("engine tests on CPython {}: {}".format(platform.python_version(), ENGINE_TESTS))
        results.append(run_pytest(root, [ENGINE_TESTS], _echo, label="engine on CPython"))
        click.echo(results[-1].counts())

    if run_all or on_micropython:
        _banner("engine tests on MicroPython (heap {}): {}".format(heapsize, ENGINE_TESTS))
        results.append(run_micropython(root, [ENGINE_TESTS], _echo, heapsize=heapsize,
                                       timeout=timeout, label="engine on MicroPython",
                                       mpy_packages=() if source else ("shared_engine",)))
        if not results[-1].printed_counts:  # mp_runner normally prints its own
            click.echo(results[-1].counts())

    failed = [r for r in results if not r.ok]
    for r in results:
        if r.note:
            click.echo("{}: {}".format(r.label, r.note))
    if len(results) > 1:
        _banner("summary")
        width = max(len(r.label) for r in results)
        for r in results:
            click.echo("{}  {}{}".format(r.label.ljust(width), r.counts(),
                                         "" if r.ok else "  FAILED"))
    if failed:
        raise click.exceptions.Exit(1)
