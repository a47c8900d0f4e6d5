"""Tiles as small ints.

A tile a-b (a >= b) is numbered ``a*(a+1)//2 + b``: the tiles of a double-N
set are then exactly the ids ``0 .. size(N)-1``, so a set is a range and a
"which tiles are on the table" question is one index into a bytearray.
Played tiles keep their orientation in events as a pair of pips (connecting
end first); identity is the id.
"""

MAX_SET = 18
SETS = (6, 9, 12, 15, 18)


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
