"""Finding the board's serial port.

An RP2040 running MicroPython enumerates as USB 2e8a:0005 (Raspberry Pi's
vendor id, MicroPython's product id), whatever the board. So: `--port` wins,
then the `PIPKEEPER_PORT` environment variable (a sim's pty, a board behind a
hub with an odd driver), then the one port with that id. Two such boards
plugged in at once is an error that names them, not a guess.
"""

import os

from pipkeeper.errors import the_one

ENV_VAR = "PIPKEEPER_PORT"

# (vendor, product) pairs that are a MicroPython board we can talk to.
MICROPYTHON_IDS = (
    (0x2E8A, 0x0005),  # RP2040 / RP2350 MicroPython (Pico, Badger 2040, ...)
)


def candidates():
    """Serial ports that look like our board, as (device, description)."""
    try:
        from serial.tools import list_ports
    except ImportError:  # pragma: no cover - pyserial is a dependency
        return []
    found = []
    for info in list_ports.comports():
        if (info.vid, info.pid) in MICROPYTHON_IDS:
            found.append((info.device, info.description or ""))
    return sorted(found)


def find_port(port=None):
    """The port to use: `port`, else $PIPKEEPER_PORT, else the one board found."""
    if port:
        return port
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        return env
    found = candidates()
    return the_one(
        found,
        "no board found: plug it in with a data cable (USB id 2e8a:0005, MicroPython), "
        "or name the port with --port or ${}".format(ENV_VAR),
        "several boards found ({}); choose one with --port".format(
            ", ".join(device for device, _ in found)))[0]
