"""The scorer's modules from one file: a read-only filesystem over
/lib/pipkeeper.bundle, mounted at /pk before anything else is imported.

Why: on the board a press loads some twenty modules, and LittleFS pays for
each path it looks up (a directory fetch and its CRCs, 0.4-6 ms each) far
more than for the bytes it reads; MicroPython also looks for ``x.py``
before ``x.mpy`` in every folder of sys.path. One bundle opened once, with
an index read in one call, turns those lookups into dictionary lookups.

The file (written by ``pipkeeper flash``, host/pipkeeper/board/bundle.py):

    b"PKB1" | index length (4 bytes, little-endian) | index | data

The index is lines ``path size offset`` (offsets from the start of data);
paths are relative to the mount point ("firmware/app.mpy"). Directories
are implied by the paths.

MicroPython imports through any object with ``stat`` and ``open`` mounted
with ``vfs.mount`` (mpremote's ``mount`` works the same way); the files it
opens are ``io.IOBase`` streams whose ``ioctl`` offers a large read buffer,
so a module is read in a few calls.
"""

import io

MAGIC = b"PKB1"
_DIR = 0x4000
_FILE = 0x8000
_BUFFER = 1024        # bytes a module load reads per call


class _File(io.IOBase):
    def __init__(self, src, start, size):
        self._src = src
        self._start = start
        self._pos = start
        self._end = start + size

    def seek(self, off, whence=0):
        base = (self._start, self._pos, self._end)[whence]
        self._pos = min(max(base + off, self._start), self._end)
        return self._pos - self._start

    def tell(self):
        return self._pos - self._start

    def readinto(self, buf):
        n = min(len(buf), self._end - self._pos)
        if n <= 0:
            return 0
        f = self._src
        f.seek(self._pos)
        if n < len(buf):
            n = f.readinto(memoryview(buf)[:n])
        else:
            n = f.readinto(buf)
        self._pos += n
        return n

    def read(self, n=-1):
        left = self._end - self._pos
        if n < 0 or n > left:
            n = left
        b = bytearray(n)
        self.readinto(b)
        return bytes(b)

    def ioctl(self, req, arg):
        if req == 11:          # MP_STREAM_GET_BUFFER_SIZE
            return _BUFFER
        return 0

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


class Bundle:
    """The VFS. ``open`` gives files, ``stat`` answers the importer."""

    def __init__(self, path):
        f = open(path, "rb")
        head = f.read(8)
        if head[:4] != MAGIC:
            f.close()
            raise OSError(22)
        n = int.from_bytes(head[4:8], "little")
        # The index is kept as the bytes it is, and found by the hash of a
        # path: ``files`` maps it to the offset of the path's line in the
        # index (a list where paths share a hash), ``dirs`` the hash of a
        # folder to the offset and length of its name in a path there, so
        # that the index costs the heap its own bytes and two dicts of
        # small ints. Why: a dict of every path and line as bytes objects
        # took 14.5 KB of the unix port's heap (7 on the board), the most
        # of anything the mounted bundle holds; a string made of every
        # path cost the board 25 ms at mount (each new string is a look-up
        # among MicroPython's interned names); searching the index's bytes
        # for a path cost more on each look-up (bytes.find is a memcmp at
        # every offset). A look-up checks the path it found by its bytes.
        index = f.read(n)
        files = {}
        dirs = {}
        i = 0
        while i < n:
            e = index.find(b"\n", i)
            if e < 0:
                e = n
            s = index.find(b" ", i, e)
            if s > i:
                name = index[i:s]
                _add(files, _hash(name), i)
                k = name.rfind(b"/")
                while k > 0:
                    h = _hash(name[:k])
                    if self._find(index, dirs.get(h), name[:k]) is None:
                        _add(dirs, h, i | k << 16)
                    k = name.rfind(b"/", 0, k)
            i = e + 1
        self._base = 8 + n
        self._f = f
        self._index = index
        self._files = files
        self._dirs = dirs

    @staticmethod
    def _find(index, hits, k):
        """Of ``hits`` (an entry of ``dirs``: None, one, or a list), the
        one whose name is ``k``; None."""
        if hits is None:
            return None
        for v in (hits if isinstance(hits, list) else (hits,)):
            if v >> 16 == len(k) and index.startswith(k, v & 0xFFFF):
                return v
        return None

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        self._f.close()

    def _entry(self, path):
        """(offset, size) of the file at ``path``, None for a folder (or
        the root), ENOENT when the bundle has neither."""
        k = path.encode().strip(b"/")
        if not k:
            return None
        index = self._index
        hits = self._files.get(_hash(k))
        if hits is not None:
            for i in (hits if isinstance(hits, list) else (hits,)):
                j = i + len(k)
                if index.startswith(k, i) and index[j] == 32:
                    e = index.find(b"\n", j)
                    size, off = index[j + 1:e if e >= 0 else len(index)].split(b" ")
                    return (self._base + int(off), int(size))
        if self._find(index, self._dirs.get(_hash(k)), k) is not None:
            return None
        # A new exception each time: one raised again and again (a shared
        # instance) keeps every traceback it was raised with, and the
        # importer's misses (x.py before x.mpy) grew it by 64 bytes apiece,
        # ~1 KB a press on USB, never freed (issue 22).
        raise OSError(2)

    def stat(self, path):
        e = self._entry(path)
        if e is None:
            return (_DIR, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        return (_FILE, 0, 0, 0, 0, 0, e[1], 0, 0, 0)

    def open(self, path, mode="rb"):
        e = self._entry(path)
        if e is None or "w" in mode or "a" in mode:
            raise OSError(2)
        return _File(self._f, e[0], e[1])

    def ilistdir(self, path):
        pre = path.encode().strip(b"/")
        if pre:
            pre += b"/"
        seen = {}
        index = self._index
        i = 0
        while i < len(index):
            e = index.find(b"\n", i)
            if e < 0:
                e = len(index)
            name = index[i:index.find(b" ", i, e)]
            i = e + 1
            if name and name.startswith(pre):
                rest = name[len(pre):]
                j = rest.find(b"/")
                part = (rest if j < 0 else rest[:j]).decode()
                if part not in seen:
                    seen[part] = 1
                    yield (part, _FILE if j < 0 else _DIR, 0, 0)

    def statvfs(self, path):
        return (4096, 4096, 0, 0, 0, 0, 0, 0, 0, 255)

    def chdir(self, path):
        pass

    def getcwd(self):
        return ""


_hash = hash      # (the tests make paths share a hash with another)


def _add(table, h, v):
    """``table[h] = v``, or a list of the values that share ``h``."""
    old = table.get(h)
    if old is None:
        table[h] = v
    elif isinstance(old, list):
        old.append(v)
    else:
        table[h] = [old, v]


def mount(path="/lib/pipkeeper.bundle", at="/pk"):
    """Mount the bundle at ``at`` and put it first on sys.path, in place of
    the flash's root and /lib: a module found nowhere (``import badger2040``
    on a plain Pico build) then costs no LittleFS look-ups, and nothing of
    ours lives there (the host's link puts /lib back for its own module).
    Returns False (and changes nothing) when there is no bundle: the modules
    are then found as plain files in /lib."""
    import sys
    try:
        b = Bundle(path)
    except OSError:
        return False
    try:
        import vfs
    except ImportError:     # MicroPython before 1.23 kept mount in os
        import os as vfs
    vfs.mount(b, at)
    sys.path[:] = [at] + [p for p in sys.path if p not in ("", "/lib")]
    return True
