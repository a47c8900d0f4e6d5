"""pipkeeper bench: the benchmarks, each a subcommand with --json.

The transfer benchmarks (sync, flash) live in pipkeeper.bench.link; other
subcommands (engine, firmware, device) are added here by their owners.
"""

import json

import click

from pipkeeper import i18n
from pipkeeper.options import Group


@click.group(cls=Group)
def command():
    """Run a benchmark (engine, firmware boot, device press, powercut in the flash, sync, flash, uf2); --json for programs."""


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
    from pipkeeper.bench import link as bench_link

    _print(bench_link.bench_sync(games), as_json)


@command.command("flash")
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
def bench_flash(as_json):
    """Flash a virtual board (full, then with nothing changed), against mpremote's cp -r."""
    from pipkeeper.bench import link as bench_link

    _print(bench_link.bench_flash(), as_json)


HOUSE_RULES_HELP = "Play the games with every house rule of RULES.md on (`pipkeeper rules`)."


@command.command("engine")
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@click.option("--no-callgrind", is_flag=True, help="Skip the instruction counts (valgrind).")
@click.option("--house-rules", is_flag=True, help=HOUSE_RULES_HELP)
def bench_engine(as_json, no_callgrind, house_rules):
    """Replay a corpus of simulated games on CPython and MicroPython (heap 160K):
    events per second, the largest game's time and peak heap, the engine's
    .mpy size and, with valgrind, instructions per event."""
    from pipkeeper.bench import engine as bench

    _print(bench.run(with_callgrind=not no_callgrind, house_rules=house_rules), as_json)


@command.command("firmware")
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@click.option("--no-callgrind", is_flag=True, help="Skip the instruction counts (valgrind).")
@click.option("--presses", "presses_only", is_flag=True,
              help="Only the presses: per play, per score entry and its twins per house rule, "
                   "the mend of a mistyped score (no boots, under a minute).")
def bench_firmware(as_json, no_callgrind, presses_only):
    """A cold boot of the real firmware on the unix port (heap 160K) restoring the
    largest game, late and early: time, instructions, heap, render cost per
    screen, panel updates and flash blocks per press, presses per play and per
    score entry (and per house rule)."""
    from pipkeeper.bench import firmware as bench

    if presses_only:
        _print(bench.presses(), as_json)
        return
    _print(bench.run(with_callgrind=not no_callgrind), as_json)


@command.command("device")
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@click.option("--firmware", "firmwares", multiple=True, metavar="IMAGE",
              help="A MicroPython image (.uf2/.bin) to measure; twice for two builds side by side "
                   "(default: $PIPKEEPER_RP2_FIRMWARE, else upstream MicroPython from ../shared/rp2/).")
@click.option("--no-heap", is_flag=True, help="Skip the free-heap search (the longest part).")
@click.option("--no-worn", is_flag=True, help="Skip the worn flash (a few hundred presses first).")
@click.option("--lang", default="en", show_default=True,
              type=click.Choice(i18n.LANGS),
              help="The board's language (its packs drawn on every press).")
@click.option("--long-run", "long_run", default=2000, show_default=True, metavar="N",
              type=click.IntRange(min=0),
              help="Presses of the long evening (the heap's slope, the presses' drift), "
                   "on USB and awake on battery; 0 skips it.")
@click.option("--house-rules", is_flag=True,
              help="The largest game (the cold boots and the heap they need) with every house "
                   "rule of RULES.md on.")
def bench_device(as_json, firmwares, no_heap, no_worn, lang, long_run, house_rules):
    """One press on an emulated RP2040 running a real MicroPython image, timed by
    the emulator's own clock: cold boots with the largest game, presses on USB
    and awake on battery, a long evening's heap, the heap the late boot needs,
    the shortest tap on battery, and a profile."""
    from pipkeeper.bench import device as bench

    log = (lambda m: click.echo(m, err=True))
    figures = bench.run(firmwares, log=log, heap=not no_heap, worn=not no_worn, lang=lang,
                        long_run=long_run, house_rules=house_rules)
    if as_json or "builds" not in figures:
        _print_nested(figures, as_json)
    else:
        _side_by_side(figures["builds"])


def _print_nested(figures, as_json):
    if as_json:
        click.echo(json.dumps(figures))
        return
    flat = {k: v for k, v in figures.items() if not k.startswith("profile")}
    _print(flat, False)
    for key, title in (("profile", "the late cold boot"), ("profile_usb_presses", "presses on USB"),
                       ("profile_qr_press", "the QR code's press on USB")):
        if figures.get(key):
            click.echo("profile, " + title + ":")
        for row in figures.get(key) or ():
            click.echo("  {:>5.1f}%  {}".format(row["percent"], row["function"]))


def _side_by_side(builds):
    names = list(builds)
    keys = [k for k in builds[names[0]] if not k.startswith("profile")]
    width = max(len(k) for k in keys)
    click.echo("".ljust(width) + "".join("  " + n.rjust(24) for n in names))
    for k in keys:
        click.echo(k.ljust(width) + "".join("  " + str(builds[n].get(k)).rjust(24) for n in names))


@command.command("uf2")
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@click.option("--firmware", metavar="IMAGE", default=None,
              help="The MicroPython image (default: $PIPKEEPER_RP2_FIRMWARE, else upstream "
                   "MicroPython from ../shared/rp2/).")
@click.option("--board", metavar="NAME", default=None, help="The build in hardware/profiles/.")
def bench_uf2(as_json, firmware, board):
    """The one-file install: the size of `pipkeeper uf2`'s file, and on the emulated
    RP2040 the time from power-on to the first frame of a board it was copied onto."""
    from pipkeeper.bench import uf2 as bench

    _print(bench.run(firmware, board, log=lambda m: click.echo(m, err=True)), as_json)


@command.command("powercut")
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
@click.option("--firmware", "firmwares", multiple=True, metavar="IMAGE",
              help="A MicroPython image (.uf2/.bin), or 'own' for the scorer's own image; twice for "
                   "two builds (default: $PIPKEEPER_RP2_FIRMWARE, else upstream MicroPython from "
                   "../shared/rp2/).")
@click.option("--workers", type=click.IntRange(1, 16), default=None,
              help="Emulated boards at once (default: 2, or 1 on one core).")
def bench_powercut(as_json, firmwares, workers):
    """Power cuts inside the flash's own erase and program on an emulated RP2040: the
    scripted game on battery, every flash op of every press cut at four points, the next
    press checked (the game restored, nothing lost, no format); then cuts inside a
    firmware update. Prints cut_points, failures, formats, lines_lost, the time, and the
    cold boot after a cut against the normal one."""
    from pipkeeper.bench import powercut as bench

    figures = bench.run(firmwares, log=lambda m: click.echo(m, err=True), workers=workers)
    if as_json or "builds" not in figures:
        _print(figures, as_json)
    else:
        _side_by_side(figures["builds"])
