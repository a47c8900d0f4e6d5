"""pipkeeper flash: put the scorer on the board."""

import json

import click

from pipkeeper.board import flash, link, uf2_flash
from pipkeeper.options import check_build, json_option, port_option
from pipkeeper.progress import Progress, human
from pipkeeper.wording import counted


@click.command()
@port_option
@click.option("--dry-run", is_flag=True, help="Show what would be copied; change nothing.")
@click.option("--force", is_flag=True, help="Copy every file, changed or not.")
@click.option("--boot-app", is_flag=True,
              help="Under Badger OS: make the scorer the app the board boots into.")
@click.option("--uf2", "uf2_file", metavar="FILE", type=click.Path(dir_okay=False, exists=True),
              help="A board in BOOTSEL mode: copy this UF2 onto its RPI-RP2 drive "
                   "(from `pipkeeper uf2`, or MicroPython's own).")
@click.option("--new-board", is_flag=True,
              help="With --uf2: allow an image that replaces the board's filesystem, games included.")
@click.option("--micropython-only", is_flag=True,
              help="With --uf2: write only MicroPython, leaving the board's files alone.")
@click.option("--wait", metavar="SECONDS", type=float, default=uf2_flash.WAIT_SECONDS, show_default=True,
              help="With --uf2: how long the board may take to come back on USB serial.")
@click.option("--board", "build", metavar="NAME", callback=check_build,
              help="The build this board is (hardware/profiles/: badger2040, badger2040w, "
                   "pico_inky_pack, pico_epaper29), written to its /board.txt. "
                   "Without it the board keeps the build it has.")
@click.option("--micropython-src", "source", metavar="DIR", default=None,
              help="For a board that runs the scorer's own image: the MicroPython source tree "
                   "(v1.28.0, or a .tar.gz of one; default: $PIPKEEPER_MICROPYTHON_SRC) to build its "
                   "new image from, as `pipkeeper firmware` does.")
@json_option
def command(port, dry_run, force, as_json, boot_app, uf2_file, new_board, micropython_only, wait, build,
            source):
    """Compile the engine and firmware for the board's MicroPython and copy what changed.

    Files are compiled with mpy-cross for the .mpy version the board reports,
    compared by sha256 with what the board holds, and only the changed ones
    are sent (each written under a temporary name, checked, then renamed).
    Ends with the sizes and the flash left free. On a Badger running Badger
    OS the scorer is installed as one of the launcher's apps (the launcher
    stays); --boot-app makes it the app the board starts in. --board NAME
    tells the firmware which build the board is (its pins, panel and power);
    a board without /board.txt is taken for a Badger 2040, and flash says so.

    A board that runs the scorer's own image (`pipkeeper firmware`) has
    the scorer frozen in: when it is not the one built here, flash builds
    the image (--micropython-src), restarts the board into BOOTSEL, copies
    the image onto its RPI-RP2 drive (its games and settings stay), waits
    for it and checks what it runs. An update cut short leaves the board
    in BOOTSEL (the image's first bytes are written last); flash finds it
    there, with no board on USB serial, and copies the image again.

    --uf2 FILE writes a whole image instead, onto a board in BOOTSEL mode
    (its RPI-RP2 drive, found by its INFO_UF2.TXT; $PIPKEEPER_UF2_DRIVES
    names where to look), then waits for the board on USB serial and checks
    what it runs. A file from `pipkeeper uf2` replaces everything the board
    holds: it needs --new-board (sync first); --micropython-only writes just
    its MicroPython and keeps the board's files.
    """
    if uf2_file:
        if dry_run or force or boot_app or build:
            raise click.UsageError("--uf2 writes a whole image; --dry-run, --force, --boot-app "
                                   "and --board are for flashing over USB serial")
        return _uf2(uf2_file, port, new_board, micropython_only, wait, as_json)
    if new_board or micropython_only:
        raise click.UsageError("--new-board and --micropython-only go with --uf2 FILE")
    if port is None and _in_bootsel(source):
        return _finish_in_bootsel(build or "badger2040", source, wait, as_json)
    with link.connect(port) as board:
        port = board.port
        with Progress(0, "flash") as bar:
            result = flash.flash(board, force=force, dry_run=dry_run, progress=bar,
                                 log=None if as_json else bar.echo, boot_app=boot_app, board=build)
    if result.image is not None:
        _own_image(result, port, source, dry_run, wait, as_json)
    if as_json:
        click.echo(json.dumps(result.as_dict()))
        return
    total = sum(len(i.data) for i in result.copied + result.unchanged)
    verb = "would copy" if dry_run else "copied"
    if dry_run:
        for item in result.copied:
            click.echo("{:>9}  {}".format(human(len(item.data)), item.remote))
        for path in result.removed:
            click.echo("   remove  {}".format(path))
    if result.image is not None:
        click.echo("nothing to copy: the scorer is frozen into the board's image{}".format(
            ", {} removed".format(len(result.removed)) if result.removed else ""))
    else:
        click.echo("{} {} ({}), {} unchanged{}; {} on the board for {}".format(
            verb, counted(len(result.copied), "file"), human(result.bytes_copied),
            len(result.unchanged),
            ", {} removed".format(len(result.removed)) if result.removed else "",
            human(total), result.target))
    if result.board_written:
        click.echo("{} {} the {} build".format(flash.BOARD_FILE, "would name" if dry_run else "names",
                                                 result.board))
    if result.badger_os:
        click.echo("installed as a Badger OS app: {} (the launcher is untouched)".format(flash.APP))
    if result.flash_free is not None and result.flash_free >= 0:
        click.echo("flash: {} free of {}".format(human(result.flash_free), human(result.flash_total)))
    hint = own_image_hint(result)
    if hint:
        click.echo(hint)


def own_image_hint(result):
    """The line that points a board on the .mpy install at the scorer's
    own image, with what it gains; None where it would mislead: a board
    that runs the image already, a dry run, the simulated board (its
    speed is the laptop's) or a W board (no image is made for it)."""
    from pipkeeper.image import build as image_build

    if (result.image is not None or result.dry_run or result.simulated
            or result.board in image_build.WIRELESS_BUILDS):
        return None
    return ("the scorer's own image runs {}: `pipkeeper firmware` builds it (it starts the board's "
            "flash afresh: `pipkeeper sync` first)".format(image_build.SPEED))


def _uf2(path, port, new_board, micropython_only, wait, as_json):
    with Progress(0, "copy") as bar:
        result = uf2_flash.flash_uf2(path, new_board=new_board, micropython_only=micropython_only,
                                     port=port, wait=wait, progress=bar,
                                     log=None if as_json else bar.echo)
    if as_json:
        click.echo(json.dumps(result.as_dict()))
        return
    if result.scorer:
        what = "the scorer ({} as in {})".format(counted(result.scorer_files, "file"), path) \
            if result.scorer_files else "the scorer it had (`pipkeeper flash` brings it up to date)"
    else:
        what = "no scorer yet: run `pipkeeper flash`"
    click.echo("the board is back on {}: MicroPython {}, {}".format(result.port, result.micropython, what))


def _in_bootsel(source):
    """A board waiting in BOOTSEL and no board on USB serial: an image update
    cut short (its boot stage 2 is written last, so the boot ROM starts such
    a board in BOOTSEL), which this pipkeeper can finish when it can build
    the scorer's own image (a MicroPython source named)."""
    import os

    from pipkeeper.board import bootsel, ports
    from pipkeeper.errors import PipkeeperError
    from pipkeeper.image import build as image_build

    if not (source or os.environ.get(image_build.ENV_SOURCE)) or len(bootsel.drives()) != 1:
        return False
    try:
        ports.find_port(None)
    except PipkeeperError:
        return True
    return False


def _finish_in_bootsel(board, source, wait, as_json):
    """Copy the scorer's own image for ``board`` onto the board in BOOTSEL
    and check it runs it: the games stay (the image holds no filesystem)."""
    from pipkeeper.board import bootsel
    from pipkeeper.image import build as image_build

    say = (lambda text: None) if as_json else click.echo
    built = image_build.build(board, source=source, log=say)
    with Progress(0, "image") as bar:
        result = uf2_flash.copy_image(built, "pipkeeper-{}.uf2".format(board), bootsel.find_drive(),
                                      wait=wait, progress=bar, log=None if as_json else bar.echo)
    if as_json:
        click.echo(json.dumps(dict(result.as_dict(), image=built.identity.as_dict(), image_updated=True)))
        return
    say("the board was waiting in BOOTSEL: it runs {} now".format(built.identity.describe()))


def _own_image(result, port, source, dry_run, wait, as_json):
    """A board on the scorer's own image: whether it holds the scorer this
    pipkeeper builds (its sources' hash), and when not, build the image it
    should run and copy it over (pipkeeper.board.uf2_flash)."""
    import os

    from pipkeeper.errors import PipkeeperError
    from pipkeeper.board import image_identity as identity
    from pipkeeper.image import build as image_build

    have = identity.Identity.from_dict(result.image)
    want = image_build.stage(result.board)[1]
    result.image_wanted = want.as_dict()
    result.image_current = have == want
    say = (lambda text: None) if as_json else click.echo
    if result.image_current:
        say("the board runs the scorer's own image, {}: up to date".format(have.describe()))
        return
    if dry_run:
        say("would update the board's image: {} -> {} (it restarts into BOOTSEL, the image is "
            "copied onto its RPI-RP2 drive; its games and settings stay)".format(have.describe(), want.sources))
        return
    if not (source or os.environ.get(image_build.ENV_SOURCE)):
        raise PipkeeperError("the board runs the scorer's own image, {}, not this pipkeeper's ({}): name "
                             "the MicroPython source to build it from with --micropython-src DIR (or "
                             "${})".format(have.describe(), want.sources, image_build.ENV_SOURCE))
    built = image_build.build(result.board, source=source, log=say)
    with Progress(0, "image") as bar:
        uf2_flash.update_image(port, built, "pipkeeper-{}.uf2".format(result.board), wait=wait,
                               progress=bar, log=None if as_json else bar.echo)
    result.image = built.identity.as_dict()
    result.image_current = result.image_updated = True
    say("the board runs {} now".format(built.identity.describe()))

