"""Board profiles: one module of plain constants per build.

The firmware imports exactly one profile and takes every pin from it, so a new
build is a new file here, not an edit scattered through the firmware. Profiles
are data only (ints, strings, tuples, one dict) so that they import on
MicroPython with no allocation beyond their own constants; the contract is in
notes/CONTRACTS.md and is checked by hardware/contract.py.
"""

# Every build this folder documents, in the order the README walks through them.
NAMES = ("badger2040", "badger2040w", "pico_inky_pack", "pico_epaper29")


def load(name):
    """Return the profile module called `name` (one of NAMES).

    `__import__` with a non-empty fromlist returns the submodule itself on
    both CPython and MicroPython, which has no importlib.
    """
    if name not in NAMES:
        raise ValueError("unknown board profile %r; known: %s" % (name, ", ".join(NAMES)))
    return __import__("hardware.profiles." + name, None, None, ("x",))
