"""A digest of a report, for the engine's tests that compare reports made
far apart: a helper module of its own (not _check.py), so that a test
that needs only this does not hold _check's code on the unix port's 160 KB
heap as well."""

from binascii import crc32


def digest(x, c=0):
    """A CRC-32 of a canonical text of a JSON-like value (a report), dict
    keys sorted, fed a piece at a time: tests that compare reports made
    far apart hold this instead of the report (on the unix port's 160 KB
    heap three reports of a 13-round game do not fit beside its games)."""
    if isinstance(x, dict):
        c = crc32(b"{", c)
        for k in sorted(x):
            c = digest(x[k], digest(k, crc32(b",", c)))
        return crc32(b"}", c)
    if isinstance(x, (list, tuple)):
        c = crc32(b"[", c)
        for v in x:
            c = digest(v, crc32(b",", c))
        return crc32(b"]", c)
    if isinstance(x, str):
        return crc32(b'"' + x.encode() + b'"', c)
    return crc32(("null" if x is None else "true" if x is True else "false" if x is False
                  else str(x)).encode(), c)
