# pklink: the board's half of pipkeeper's link. MicroPython; no docstrings
# (the host pastes this text when the board lacks /lib/pklink.mpy, and
# compact() strips comment lines but not strings). Names are one letter to
# keep the host's calls short: the incremental sync is measured in bytes.
# Bump V with any change; the host pastes this text when versions differ.
import os, sys, hashlib, binascii

V = 6
_w = getattr(sys.stdout, "buffer", sys.stdout).write


def _x(d):
    return binascii.hexlify(d.digest()).decode()


# I(): the board in one line: platform, version, .mpy, unique id, flash.
def I():
    try:
        import machine
        u = binascii.hexlify(machine.unique_id()).decode()
    except Exception:
        u = ""
    try:
        t, f = S()
    except Exception:
        t = f = -1
    print(repr((sys.platform, tuple(sys.implementation.version[:3]),
                getattr(sys.implementation, "_mpy", 0), u, t, f)))


# S(): the flash, (total, free) in bytes. The unix port's (the simulated
# board's) statvfs is the laptop's disk: there the free bytes are -1, and
# the host works out what a Badger 2040's LittleFS (1,408 KB) would hold of
# W()'s files (pipkeeper.board.flashfs.space). Here, not in the sim's
# mount: the walk's code would cost the scorer's heap.
def S():
    if sys.platform in ("linux", "darwin"):
        return 1441792, -1
    s = os.statvfs("/")
    return s[0] * s[2], s[0] * s[3]


# W(d): "size repr(path)" for each file below d, -1 for a folder (before
# what it holds): the board's folder only, not what is mounted beside it
# (the bundle at /pk, the sim's source tree: inode 0 in the root's listing)
# nor the sim's own files (.sim*).
def W(d=""):
    for e in os.ilistdir(d or "/"):
        p = d + "/" + e[0]
        if d or (e[2] and e[0][:4] != ".sim"):
            if e[1] == 0x4000:
                print(-1, repr(p))
                W(p)
            else:
                print(os.stat(p)[6], repr(p))


def _k(n, s):
    return _x(hashlib.sha256(("%s %d" % (n, s)).encode()))[:6]


# L(dir, keys): "size repr(name)" for each entry whose key (6 hex of
# sha256("name size")) is not in `keys`, the host's concatenated keys of
# what it already holds; -1 is a folder, -2 unreadable. The entries it
# holds are the synced ones: their "size name" lines go to /pipkeeper/synced.
def L(d, k=""):
    k = set(k[i:i + 6] for i in range(0, len(k), 6))
    try:
        it = os.ilistdir(d)
    except OSError:
        return
    y = []
    for e in it:
        n = e[0]
        if e[1] == 0x4000:
            s = -1
        else:
            try:
                s = os.stat(d + "/" + n)[6]
            except OSError:
                s = -2
        if _k(n, s) not in k:
            print(s, repr(n))
        elif s >= 0:
            y.append("%d %s\n" % (s, n))
    Y(y, "w")


# Y(lines, mode): /pipkeeper/synced gets ("w") or adds ("a") these
# "size name" lines: the records the library holds whole, which the board's
# History lets players delete (a record that grew since is not synced).
# "w" writes a new file and renames it over the old one: on a flash that
# cannot take it (full, read-only) the old list stays, History offers what
# it offered before, and the sync goes on.
def Y(y, m="a"):
    p = "/pipkeeper/synced"
    t = p + (".new" if m == "w" else "")
    try:
        P(p)
        with open(t, m) as f:
            f.write("".join(y))
        if t != p:
            _m(t, p)
    except OSError:
        pass


# F(dir, name, offset, end, sha of the first offset bytes): N if gone; M if
# the prefix differs (then all is sent); "S start", base64 lines of
# [start, end), "E sha256 of what was sent".
def F(d, n, o, e, h):
    try:
        f = open(d + "/" + n, "rb")
    except OSError:
        print("N")
        return
    if o:
        g = hashlib.sha256()
        r = o
        while r:
            b = f.read(min(r, 4096))
            if not b:
                break
            g.update(b)
            r -= len(b)
        if r or _x(g) != h:
            print("M")
            o = 0
            f.seek(0)
    print("S", o)
    g = hashlib.sha256()
    r = e - o
    while r > 0:
        b = f.read(min(r, 3072))
        if not b:
            break
        g.update(b)
        r -= len(b)
        _w(binascii.b2a_base64(b))
    f.close()
    print("E", _x(g))


def _h(p):
    # One small buffer for the whole file: the scorer, interrupted, may have
    # left the heap in pieces, and a flash hashes the 90 KB bundle too.
    g = hashlib.sha256()
    b = bytearray(512)
    m = memoryview(b)
    with open(p, "rb") as f:
        while True:
            n = f.readinto(b)
            if not n:
                break
            g.update(m[:n])
    return _x(g)


# M(paths): for each path (file or folder, walked), "repr(path) size sha256".
def M(*ps):
    for p in ps:
        try:
            st = os.stat(p)
        except OSError:
            continue
        if st[0] & 0x4000:
            for e in os.ilistdir(p):
                M(p + "/" + e[0])
        else:
            print(repr(p), st[6], _h(p))


# P(path): make the folders of a path, like os.makedirs.
def P(p):
    q = ""
    for part in p.split("/")[1:-1]:
        q += "/" + part
        try:
            os.mkdir(q)
        except OSError:
            pass


_f = None


# O(path), A(base64)..., C(tmp, final, sha): write a file under a temporary
# name, check its hash on the board, then rename it into place (atomic on
# littlefs and on POSIX): a cut in the middle never leaves a torn file.
def O(p):
    global _f
    P(p)
    _f = open(p, "wb")


def A(b):
    _f.write(binascii.a2b_base64(b))


def C(t, p, h):
    global _f
    _f.close()
    _f = None
    if _h(t) != h:
        os.remove(t)
        raise OSError("verify failed: " + p)
    _m(t, p)
    if _h(p) != h:
        raise OSError("rename failed: " + p)
    print("ok")


def _e(p):
    try:
        os.stat(p)
        return True
    except OSError:
        return False


# _m(tmp, path): rename over `path`, and make sure it happened. The unix
# port's VfsPosix mounted at / (the sim) quietly does nothing, or fails, on a
# rename whose two paths are absolute: there we rename relative to "/".
# FAT cannot rename over a file: remove it first.
def _m(t, p):
    if p[:1] == "/" and os.getcwd() == "/" and sys.platform == "linux":
        t = t[1:]
        p = p[1:]
    try:
        os.rename(t, p)
    except OSError:
        pass
    if _e(t):
        D(p)
        os.rename(t, p)


# R(path, base64 text, sha): a small file written whole and atomically.
def R(p, b, h):
    O(p + ".tmp")
    A(b)
    C(p + ".tmp", p, h)


# D(path): remove a file if it is there.
def D(p):
    try:
        os.remove(p)
    except OSError:
        pass
