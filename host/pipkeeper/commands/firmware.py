"""pipkeeper firmware: build the scorer's own MicroPython image."""

import json

import click

from pipkeeper.image import build as image_build
from pipkeeper.options import as_usage, json_option
from pipkeeper.progress import human


@click.command()
@click.option("--micropython-src", "source", metavar="DIR", default=None,
              help="A MicroPython source tree at v1.28.0 with its submodules (or a .tar.gz of one; "
                   "default: $%s)." % image_build.ENV_SOURCE)
@click.option("--board", metavar="NAME", default="badger2040", show_default=True,
              callback=lambda _ctx, _param, name: as_usage(image_build.check_image_build, name),
              help="The build (hardware/profiles/): badger2040, pico_inky_pack, pico_epaper29 "
                   "(the W boards keep the .mpy install: `pipkeeper flash`).")
@click.option("-o", "--output", metavar="OUT.uf2", type=click.Path(dir_okay=False), default=None,
              help="Where to write the UF2 (default: pipkeeper-BOARD.uf2, here); its ELF, with the "
                   "symbols, goes beside it (OUT.elf).")
@json_option
def command(source, board, output, as_json):
    """Build MicroPython for the RP2040 with the scorer frozen in, as one UF2.

    The scorer's modules, fonts and language packs are frozen into the
    image, so a press runs them from flash: a press in 23 ms instead of 50
    and a cold boot in 99 ms instead of 475 on the emulated RP2040
    (docs/PERFORMANCE.md), with 40 KB of heap instead of the `.mpy`
    install's 106. The W boards keep the .mpy install. Drag the file onto
    a board's RPI-RP2 drive (hold BOOTSEL while plugging it in): a blank
    board boots into the scorer; a board that had the scorer keeps its
    games and settings (the UF2 holds no filesystem). Needs Debian's
    gcc-arm-none-eabi, libnewlib-arm-none-eabi and cmake; builds are cached,
    so an unchanged scorer is not built again.
    """
    log = (lambda text: None) if as_json else (lambda text: click.echo(text, err=True))
    built = image_build.build(board, source=source, log=log)
    out = output or "pipkeeper-{}.uf2".format(board)
    built.write(out)
    if as_json:
        click.echo(json.dumps(built.as_dict(out)))
        return
    click.echo("wrote {}: {} ({}; {}), {} of flash for games".format(
        out, built.identity.describe(), human(len(built.code)),
        "built in {:.0f} s".format(built.seconds) if built.rebuilt else "unchanged, from the cache",
        human(2 * 1024 * 1024 - image_build.FS_OFFSET)))
    click.echo("hold BOOTSEL while plugging the board in, then drag {} onto the RPI-RP2 drive "
               "(the board's games and settings stay)".format(out))
