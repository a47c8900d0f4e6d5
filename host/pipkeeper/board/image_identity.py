"""Which scorer an image holds: pipkeeper's version, the hash of the
sources frozen into it, and the build (hardware/profiles/) it was made for.

The image carries it twice, from the one frozen module ``pkimage``: as
names a board answers over the link (``import pkimage``), and as one line
of bytes, ``MARK``, that a frozen bytes constant keeps verbatim in the
image, so the laptop reads it from a ``.uf2`` or ``.bin`` without running
it.
"""

import json
import re

MARK = b"PKIMAGE1 "
_FOUND = re.compile(re.escape(MARK) + rb"(\{[^}\x00]{0,400}\})")


class Identity:
    def __init__(self, version, sources, board):
        self.version = version
        self.sources = sources
        self.board = board

    def __eq__(self, other):
        return isinstance(other, Identity) and self.as_tuple() == other.as_tuple()

    def __repr__(self):
        return "Identity(%r, %r, %r)" % self.as_tuple()

    def as_tuple(self):
        return (self.version, self.sources, self.board)

    def as_dict(self):
        return {"scorer": self.version, "sources": self.sources, "board": self.board}

    @classmethod
    def from_dict(cls, d):
        return cls(d["scorer"], d["sources"], d["board"])

    def describe(self):
        return "pipkeeper {} (sources {}) for the {}".format(self.version, self.sources, self.board)

    def module(self):
        """The source of the frozen ``pkimage``."""
        mark = MARK + json.dumps(self.as_dict(), sort_keys=True).encode()
        return ("# Which scorer this image holds (host/pipkeeper/board/image_identity.py).\n"
                "VERSION = %r\nSOURCES = %r\nBOARD = %r\nMARK = %r\n" % (
                    self.version, self.sources, self.board, mark))


def of_image(data):
    """The Identity an image's bytes (a .bin, or the flash after a UF2)
    carry, None for an image that is not pipkeeper's own."""
    m = _FOUND.search(data)
    if not m:
        return None
    try:
        return Identity.from_dict(json.loads(m.group(1).decode()))
    except (ValueError, KeyError):
        return None


# What a board runs, asked over the link: None on stock MicroPython.
ASK = ("try:\n import pkimage\n print(repr((pkimage.VERSION,pkimage.SOURCES,pkimage.BOARD)))\n"
       "except ImportError:\n print('None')")


def of_board(link):
    """The Identity of the image the board runs (None: not pipkeeper's own)."""
    got = link.literal(ASK)
    return Identity(*got) if got else None
