"""pipkeeper bench: the benchmarks, each a subcommand with --json.

The transfer benchmarks (sync, flash) live in pipkeeper.bench_link; other
subcommands (engine, firmware) are added here by their owners.
"""

import json

import click


@click.group()
def command():
    """Run a benchmark (engine, firmware boot, sync, flash); --json for programs."""


def _print(figures, as_json):
    if as_json:
        click.echo(json.dumps(figures))
    else:
        width = max(len(k) for k in figures)
        for key, value in figures.items():
            click.echo("{}  {}".format(key.ljust(width), value))


@command.command("sync")
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@click.option("--games", default=50, show_default=True, help="Game records in the backlog.")
def bench_sync(as_json, games):
    """Sync a backlog of game records from a virtual board, against mpremote's cp."""
    from pipkeeper import bench_link

    _print(bench_link.bench_sync(games), as_json)


@command.command("flash")
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
def bench_flash(as_json):
    """Flash a virtual board (full, then with nothing changed), against mpremote's cp -r."""
    from pipkeeper import bench_link

    _print(bench_link.bench_flash(), as_json)


@command.command("engine")
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@click.option("--no-callgrind", is_flag=True, help="Skip the instruction counts (valgrind).")
def bench_engine(as_json, no_callgrind):
    """Replay a corpus of simulated games on CPython and MicroPython (heap 160K):
    events per second, the largest game's time and peak heap, the engine's
    .mpy size and, with valgrind, instructions per event."""
    from pipkeeper import bench_engine as bench

    _print(bench.run(with_callgrind=not no_callgrind), as_json)


@command.command("firmware")
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@click.option("--no-callgrind", is_flag=True, help="Skip the instruction counts (valgrind).")
def bench_firmware(as_json, no_callgrind):
    """A cold boot of the real firmware on the unix port (heap 160K) restoring the
    largest game, late and early: time, instructions, heap, render cost per
    screen, panel updates and flash blocks per press, presses per play and per
    score entry."""
    from pipkeeper import bench_firmware as bench

    _print(bench.run(with_callgrind=not no_callgrind), as_json)
