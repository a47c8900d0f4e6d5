"""Tiles as small ints.

A tile a-b (a >= b) is numbered ``a*(a+1)//2 + b``: the tiles of a double-N
set are then exactly the ids ``0 .. size(N)-1``, so a set is a range and a
"which tiles are on the table" question is one index into a bytearray.
Played tiles keep their orientation in events as a pair of pips (connecting
end first); identity is the id.

Also here: the few names the reducer (engine.py) shares with the halves it
loads only when needed (moves.py, scoring.py): the sentinels for ends and
trains, how a round ended, ``IllegalEvent`` (a ``Refused``, as the
presets' refusals). Every one of them imports
this module already, so moves and scoring need not import engine (which
imports them): no circle, and no extra module for the board to load.
engine.py takes these names too, so ``from shared_engine.engine import
IllegalEvent, OUT`` goes on working.
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

MAX_SET = 18
SETS = (6, 9, 12, 15, 18)

MEXICAN = const(0)   # a play's target: the shared Mexican train
OUT = const(1)       # a round ended with a seat going out (engine.py: PLAYING, STUCK)
NO = const(-1)       # not started / no pending foot or double
UNSEEN = const(-2)   # there is one, but its pip is not known (quick play)


class Refused(ValueError):
    """A refusal for players: raised with a plain text or with a message
    (a template and its values, shared_engine/messages.py); ``args`` is the
    message the board draws in its language, ``str()`` the English text."""

    def __str__(self):
        from shared_engine import fill
        a = self.args
        return fill(a if len(a) > 1 else (a[0],) if isinstance(a[0], str) else a[0])


class IllegalEvent(Refused):
    """An event the rules do not allow; the message is for players (a text,
    or a template and its values: shared_engine/messages.py)."""


def size(top):
    """Number of tiles in a double-``top`` set: (N+1)(N+2)/2."""
    return (top + 1) * (top + 2) // 2


def _tables():
    hi = bytearray(size(MAX_SET))
    lo = bytearray(size(MAX_SET))
    i = 0
    for a in range(MAX_SET + 1):
        for b in range(a + 1):
            hi[i] = a
            lo[i] = b
            i += 1
    return bytes(hi), bytes(lo)


HI, LO = _tables()


def tile_id(a, b):
    """The id of tile a-b, whichever way round it is written."""
    if a < b:
        a, b = b, a
    return a * (a + 1) // 2 + b


def pips(t):
    """A tile's value: the sum of its two ends."""
    return HI[t] + LO[t]


def is_double(t):
    return HI[t] == LO[t]


def name(t):
    """``9-4``: a tile written high end first, for identity."""
    return "%d-%d" % (HI[t], LO[t])


def double_id(n):
    """The id of the double n-n."""
    return n * (n + 1) // 2 + n


def said(n):
    """Refusal text number ``n``: where the engine runs from .mpy files in
    the heap, its modules name their refusals by number, and the texts are
    read from the file beside this module only when one is raised, by
    offset (host/pipkeeper/board/refusals.py)."""
    p = __file__
    try:
        with open(p[:p.rfind("/") + 1] + "refusals.bin", "rb") as f:
            f.seek(2 * n)
            b = f.read(4)
            start = b[0] | b[1] << 8
            f.seek(start)
            return f.read((b[2] | b[3] << 8) - start).decode()
    except (OSError, IndexError):
        return "refused (text %d)" % n     # (a build without the file: never shipped so)
