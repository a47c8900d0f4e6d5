"""pipkeeper uf2: one file that takes a blank board to the scorer."""

import json

import click

from pipkeeper.board import uf2
from pipkeeper.files import write_atomically
from pipkeeper.options import check_build, json_option
from pipkeeper.progress import human


@click.command()
@click.option("--micropython", "image", required=True, metavar="FILE",
              type=click.Path(dir_okay=False),
              help="MicroPython's own image for the board (.uf2 or .bin), e.g. RPI_PICO's from "
                   "micropython.org or Pimoroni's Badger 2040 build.")
@click.option("--board", metavar="NAME", default=None, callback=check_build,
              help="The build in hardware/profiles/ (default: badger2040, or badger2040w for a W image).")
@click.option("-o", "--output", metavar="OUT.uf2", type=click.Path(dir_okay=False), default=None,
              help="Where to write it (default: the image's name with -pipkeeper.uf2, here).")
@json_option
def command(image, board, output, as_json):
    """Write one UF2 with MicroPython and the scorer on its filesystem.

    The scorer is compiled for the image's MicroPython and laid out as
    `pipkeeper flash` would put it, in a LittleFS image at the flash address
    where that build keeps its filesystem. Hold BOOTSEL while plugging the
    board in and drag the file onto the RPI-RP2 drive (or run `pipkeeper
    flash --uf2 FILE --new-board`): it boots into the scorer. It replaces
    everything on the board's flash, games included.
    """
    merged = uf2.make(image, board)
    out = output or uf2.default_output(image)
    write_atomically(out, merged.data)
    if as_json:
        click.echo(json.dumps(merged.as_dict(out)))
        return
    g = merged.image.geometry
    click.echo("wrote {} ({}): MicroPython {} for the {} ({}) and the scorer for the {} build, "
               "{} files in a {:,} KB filesystem at 0x{:08X}".format(
                   out, human(len(merged.data)), merged.image.version_text, g.name, g.build,
                   merged.board, len(merged.items), g.size // 1024, 0x10000000 + g.offset))
    click.echo("hold BOOTSEL while plugging the board in, then drag {} onto the RPI-RP2 drive "
               "(it replaces all the board holds: `pipkeeper sync` first)".format(out))
