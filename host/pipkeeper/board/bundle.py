"""Packing the board's modules into one file, /lib/pipkeeper.bundle, which
the board mounts at /pk before it imports anything (firmware/bundle.py
reads it and says why: on LittleFS a path looked up costs far more than
the bytes read).

    b"PKB1" | index length (4 bytes, little-endian) | index | data

The index is a line ``path size offset`` per file, paths relative to /lib
("firmware/app.mpy"), offsets from the start of data.
"""

import struct

MAGIC = b"PKB1"
PATH = "/lib/pipkeeper.bundle"
READER = "/lib/pkbundle.mpy"     # firmware/bundle.py, compiled, outside the packages


def pack(files):
    """The bundle of ``files``: [(path relative to /lib, bytes)]."""
    index = []
    data = []
    at = 0
    for path, blob in files:
        if " " in path or "\n" in path:
            raise ValueError("a bundled path cannot hold spaces: %r" % path)
        index.append(b"%s %d %d\n" % (path.encode(), len(blob), at))
        data.append(blob)
        at += len(blob)
    head = b"".join(index)
    return MAGIC + struct.pack("<I", len(head)) + head + b"".join(data)


def unpack(blob):
    """{path: bytes} of a bundle (the tests and `flash --dry-run` read it)."""
    if blob[:4] != MAGIC:
        raise ValueError("not a pipkeeper bundle")
    (n,) = struct.unpack("<I", blob[4:8])
    base = 8 + n
    out = {}
    for line in blob[8:base].split(b"\n"):
        if line:
            path, size, off = line.split(b" ")
            s, o = base + int(off), int(size)
            out[path.decode()] = blob[s:s + o]
    return out
