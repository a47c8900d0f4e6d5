"""pipkeeper sim: the board without hardware."""

import os
import sys

import click

from pipkeeper.errors import PipkeeperError
from pipkeeper.files import read_limited
from pipkeeper.wording import counted

SCRIPT_LIMIT = 1024 * 1024      # 200,000 presses: more is no script

KEYS = {
    "a": "A", "b": "B", "c": "C", "u": "UP", "d": "DOWN", "k": "UP", "j": "DOWN",
    "\x1b[A": "UP", "\x1b[B": "DOWN", "\x1bOA": "UP", "\x1bOB": "DOWN",
}


KEYS_HELP = "keys: a b c below the screen, u d (or arrows) at its right, q quits"


def _draw(frame, caption, out):
    """The screen, sized to the terminal (pipkeeper.sim.terminal), the keys
    beside it, and a caption."""
    import shutil
    from rich.console import Console
    from pipkeeper.sim.terminal import EXPLICIT_BIDI, screen
    cols, rows = shutil.get_terminal_size((80, 24))
    tty = out.isatty()
    console = Console(file=out, force_terminal=tty, width=max(cols, 40), highlight=False)
    # (the right-to-left words come laid out: pipkeeper.sim.terminal)
    out.write("\x1b[H\x1b[2J" + EXPLICIT_BIDI if tty else "\n")
    for line in screen(frame, cols, rows):
        console.print(line, no_wrap=True, crop=True)
    console.print(caption, no_wrap=True, crop=True, markup=False)
    out.flush()


def _save(frames, frames_dir):
    if not frames_dir:
        return
    from pipkeeper.sim.panel import save_png
    for fr in frames:
        save_png(fr.data, os.path.join(frames_dir, "frame-%04d.png" % fr.index))


def _read_key(fd):
    ch = os.read(fd, 1)
    if not ch:
        return None
    s = ch.decode("latin-1")
    if s == "\x1b":
        import select
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            s += os.read(fd, 2).decode("latin-1")
    return s


@click.command(short_help="The board without hardware: the real firmware on the MicroPython unix "
                          "port (or, with --rp2040, an emulated RP2040), its screen in the terminal.")
@click.option("--dir", "flash_dir", type=click.Path(file_okay=False),
              help="The board's flash (default: a folder in your data directory).")
@click.option("--frames", "frames_dir", type=click.Path(file_okay=False),
              help="Write one PNG per panel update into this folder.")
@click.option("--script", "script", type=click.Path(dir_okay=False, exists=True, allow_dash=True),
              help="Press buttons from a file: one of A B C UP DOWN a line.")
@click.option("--power-cycle", is_flag=True,
              help="Boot afresh before each press, as on battery.")
@click.option("--serial", is_flag=True,
              help="Also serve the board's USB serial on a pty (its path is the first line).")
@click.option("--quiet", "-q", is_flag=True, help="Do not draw the screen.")
@click.option("--rp2040", "firmware", metavar="FIRMWARE", envvar="PIPKEEPER_RP2_FIRMWARE",
              help="Run the board on an emulated RP2040 with this MicroPython image "
                   "(.uf2 or .bin for the Pico; $PIPKEEPER_RP2_FIRMWARE) instead of the unix port.")
@click.option("--bootrom", type=click.Path(dir_okay=False), envvar="PIPKEEPER_RP2_BOOTROM",
              help="With --rp2040: the RP2040 boot ROM (bootrom-rp2040-b1.bin; $PIPKEEPER_RP2_BOOTROM).")
@click.option("--profile", "profile", default="badger2040", show_default=True,
              help="With --rp2040: the board profile (hardware/profiles/) whose pins it has.")
def command(flash_dir, frames_dir, script, power_cycle, serial, quiet, firmware, bootrom, profile):
    """The board without hardware: the real firmware on the MicroPython unix
    port, or with --rp2040 on an emulated RP2040 running a real MicroPython
    image (its flash is DIR/flash.img; the scorer is flashed onto it over
    its USB serial the first time).

    Keys: a b c for the buttons, arrow keys (or u/d) for UP and DOWN, q to
    quit. The screen is drawn in the terminal; the board's /games/ is
    DIR/games/ on the unix port.
    """
    from pipkeeper.sim import unix as simmod

    if flash_dir is None:
        flash_dir = simmod.default_dir() + ("-rp2040" if firmware else "")
    presses = None
    if script:
        presses = simmod.parse_script(read_limited(script, SCRIPT_LIMIT, "script"))
    _writable_folder("--dir", flash_dir)
    if frames_dir:
        _writable_folder("--frames", frames_dir)
    if serial and power_cycle:
        raise PipkeeperError("--serial needs the board on USB power: drop --power-cycle")
    link = None
    if firmware:
        board = _emulated(flash_dir, firmware, bootrom, profile, power_cycle)
    else:
        # the words of each screen too, for a terminal too small for its picture
        board = simmod.Sim(flash_dir, power_cycle=power_cycle, serial=serial,
                           words=not quiet and sys.stdout.isatty())
    out = sys.stdout
    try:
        if serial and firmware:
            from pipkeeper.sim.rp2040.board import SerialPort
            got = board.start()
            link = SerialPort(board, reset_on_close=True)
            click.echo(link.path)
            sys.stdout.flush()
            link.__enter__()
        elif serial:
            link = simmod.SerialBoard(board)
            click.echo(link.port)
            sys.stdout.flush()
            link.start()
            got = board.frames[:]
        else:
            got = board.start()
        _save(got, frames_dir)
        if got and not quiet and presses is None and sys.stdin.isatty():
            _draw(got[-1], "booted   " + KEYS_HELP, out)
        if presses is not None:
            for i, b in enumerate(presses):
                got = _press(board, link, b)
                _save(got, frames_dir)
                kind = ", ".join("full" if f.full else "fast" for f in got) or "none"
                if not quiet and not serial:
                    click.echo("%d %s -> %s (%s)" % (i + 1, b, counted(len(got), "update"), kind))
            if board.frames and not quiet and not serial:
                _draw(board.frames[-1], "%s, %s; flash: %s" % (
                    counted(len(presses), "press", "presses"), counted(len(board.frames), "update"),
                    board.dir), out)
            if serial:
                _wait_forever(link)
            return
        if sys.stdin.isatty():
            if serial:
                # started with & from an interactive shell: the keyboard is
                # the shell's until `fg` brings the board to the front (a
                # background process that sets the terminal up is stopped,
                # and its port with it)
                _wait_for_the_foreground(sys.stdin.fileno())
            _interactive(board, link, frames_dir, quiet, out)
        else:
            # presses as lines on stdin, until its end; a board serving its
            # port stays up after that (started from a script or with &)
            for line in sys.stdin:
                b = line.split("#", 1)[0].strip().upper()
                if not b:
                    continue
                if b not in simmod.BUTTONS:
                    raise PipkeeperError("%r is not a button (A B C UP DOWN)" % b)
                got = _press(board, link, b)
                _save(got, frames_dir)
            if serial:
                _wait_forever(link)
    finally:
        if out.isatty() and not quiet:
            from pipkeeper.sim.terminal import IMPLICIT_BIDI
            out.write(IMPLICIT_BIDI)     # the terminal as it was (_draw)
            out.flush()
        if link is not None:
            if firmware:
                link.__exit__(None, None, None)
            else:
                link.close()
        board.close()


def _writable_folder(option, path):
    """Make the folder ``path`` (with its parents) and check that a file
    can be written in it, before a board starts: a folder below a file is
    the option given wrongly, one that cannot be written is one line too
    (both were a traceback)."""
    from pipkeeper.files import temp_beside
    try:
        os.makedirs(path, exist_ok=True)
        os.remove(temp_beside(os.path.join(path, ".pipkeeper-probe")))
    except OSError as exc:
        here = path                 # the nearest part of the path that is there, as typed
        while here and not os.path.lexists(here) and os.path.dirname(here) != here:
            here = os.path.dirname(here)
        if here and os.path.lexists(here) and not os.path.isdir(here):
            raise click.UsageError("{} {}: {} is a file, not a folder".format(option, path, here))
        raise PipkeeperError("{} cannot be written: {}".format(path, exc.strerror or exc))


def _emulated(flash_dir, firmware, bootrom, profile, power_cycle):
    """The board on an emulated RP2040, the scorer flashed onto it first if
    its flash lacks it."""
    from pipkeeper.sim.rp2040.board import EmulatedBoard
    board = EmulatedBoard(flash_dir, firmware, power_cycle=power_cycle, bootrom=bootrom,
                          profile=profile)
    try:
        if not board.has_scorer():
            click.echo("pipkeeper: putting the scorer on the emulated board (pipkeeper flash, "
                       "about half a minute)...", err=True)
            board.install()
    except BaseException:
        board.close()
        raise
    return board


def _press(board, link, b):
    """One press; with --serial, a press the board cannot hear (it sits in
    its REPL because a host is on the port) is skipped, not fatal."""
    if link is None:
        return board.press(b)
    if link.repl:
        click.echo("pipkeeper: %s ignored: the board is in its REPL" % b, err=True)
        return []
    try:
        return board.press(b)
    except PipkeeperError as exc:
        click.echo("pipkeeper: %s: %s" % (b, exc), err=True)
        return []


def _foreground(fd):
    """True when the terminal on `fd` takes our keys (we are not a job in the
    background of the shell that started us)."""
    try:
        return os.tcgetpgrp(fd) == os.getpgrp()
    except OSError:
        return False


def _wait_for_the_foreground(fd):
    import time
    while not _foreground(fd):
        time.sleep(0.2)


def _wait_forever(link):
    import time
    try:
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        pass


def _interactive(board, link, frames_dir, quiet, out):
    import termios
    import tty
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:
        while True:
            k = _read_key(fd)
            if k is None or k in ("q", "\x04"):
                return
            b = KEYS.get(k.lower() if len(k) == 1 else k)
            if b is None:
                continue
            got = _press(board, link, b)
            _save(got, frames_dir)
            if got and not quiet:
                _draw(got[-1], "%s -> %s update   %s" % (
                    b, "full" if got[-1].full else "fast", KEYS_HELP), out)
            elif not quiet and board.frames and (link is None or not link.repl):
                # never silently: the screen shown is not this press's
                _draw(board.frames[-1], "%s -> NO update: this screen is the one before "
                      "(the board's log: %s)" % (b, os.path.join(board.dir, "log.txt")), out)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
