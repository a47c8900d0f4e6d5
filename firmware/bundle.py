"""The scorer's modules from one file: a read-only filesystem over
/lib/pipkeeper.bundle, mounted at /pk before anything else is imported.

Why: on the board a press loads some twenty modules, and LittleFS pays for
each path it looks up (a directory fetch and its CRCs, 0.4-6 ms each) far
more than for the bytes it reads; MicroPython also looks for ``x.py``
before ``x.mpy`` in every folder of sys.path. One bundle opened once, with
an index read in one call, turns those lookups into dictionary lookups.

The file (written by ``pipkeeper flash``, host/pipkeeper/bundle.py):

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
_ENOENT = OSError(2)  # raised for every miss: allocated once


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
        index = f.read(n)
        base = 8 + n
        files = {}
        dirs = {"": 1}
        for line in index.split(b"\n"):
            if not line:
                continue
            name, size, off = line.split(b" ")
            p = name.decode()
            files[p] = (base + int(off), int(size))
            i = p.rfind("/")
            while i > 0:
                dirs[p[:i]] = 1
                i = p.rfind("/", 0, i)
        self._f = f
        self._files = files
        self._dirs = dirs

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        self._f.close()

    def _key(self, path):
        return path.strip("/")

    def stat(self, path):
        k = self._key(path)
        e = self._files.get(k)
        if e is not None:
            return (_FILE, 0, 0, 0, 0, 0, e[1], 0, 0, 0)
        if k in self._dirs:
            return (_DIR, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        raise _ENOENT

    def open(self, path, mode="rb"):
        e = self._files.get(self._key(path))
        if e is None or "w" in mode or "a" in mode:
            raise _ENOENT
        return _File(self._f, e[0], e[1])

    def ilistdir(self, path):
        k = self._key(path)
        pre = k + "/" if k else ""
        seen = {}
        for p in self._files:
            if p.startswith(pre):
                rest = p[len(pre):]
                i = rest.find("/")
                name = rest if i < 0 else rest[:i]
                if name not in seen:
                    seen[name] = 1
                    yield (name, _FILE if i < 0 else _DIR, 0, 0)

    def statvfs(self, path):
        return (4096, 4096, 0, 0, 0, 0, 0, 0, 0, 255)

    def chdir(self, path):
        pass

    def getcwd(self):
        return ""


def mount(path="/lib/pipkeeper.bundle", at="/pk"):
    """Mount the bundle at ``at`` and put it first on sys.path. Returns
    False (and changes nothing) when there is no bundle: the modules are
    then found as plain files in /lib."""
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
    sys.path.insert(0, at)
    return True
