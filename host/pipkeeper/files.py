"""Writing a file whole or not at all; reading one no bigger than it may be.

Every file pipkeeper writes on the laptop (an export, a UF2 image, the
compiled firmware in the cache, the emulator's script) goes through
``write_atomically``: a temporary file of its own beside the target, then a
rename. A power cut or a full disk leaves the old file, never half a new
one; two processes building the same cache at once (pytest's workers, two
`pipkeeper sim` started together) each rename a whole file of their own
instead of racing on one temporary name.

What pipkeeper reads from a file the user names (a game record, a script
of presses) goes through ``read_limited``: a file, not a folder or a
device, read no further than its limit allows, so a wrong name (``/dev/zero``)
costs a line, not the laptop's memory.
"""

import os
import secrets
import stat
import sys

from pipkeeper.errors import PipkeeperError


def temp_beside(path):
    """A new, empty temporary file in ``path``'s folder (its name); the
    caller fills it and renames it onto ``path`` with ``os.replace``. It
    has the mode of the file it replaces, or the one a plain ``open`` gives
    a new file (the user's umask; mkstemp's 0600 would make an export
    unreadable to the rest of the household)."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        mode = 0o666  # less the umask, applied by os.open
    for _ in range(100):
        tmp = os.path.join(folder, ".{}.{}.{}.tmp".format(
            os.path.basename(path), os.getpid(), secrets.token_hex(4)))
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        except FileExistsError:
            continue
        os.close(fd)
        return tmp
    raise FileExistsError("no free temporary name beside {}".format(path))


def write_atomically(path, data):
    """Write ``data`` (bytes, or str written as UTF-8 with its newlines
    kept) to ``path``, whole or not at all; PipkeeperError if it cannot."""
    tmp = None
    try:
        tmp = temp_beside(path)
        if isinstance(data, str):
            with open(tmp, "w", encoding="utf-8", newline="") as f:
                f.write(data)
        else:
            with open(tmp, "wb") as f:
                f.write(data)
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            try:
                os.remove(tmp)
            except OSError:
                pass
        raise PipkeeperError("cannot write {}: {}".format(path, exc.strerror or exc))


def write_if_changed(path, data):
    """``write_atomically``, unless ``path`` holds ``data`` already (a cache
    rebuilt at every start: its files keep their times, and nothing is
    written); the folders on the way are made."""
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    write_atomically(path, data)


def read_limited(path, limit, what):
    """The bytes of the file ``path`` (``-``: stdin), a ``what`` ("game
    record") of at most ``limit`` bytes: no more than one byte beyond the
    limit is read. PipkeeperError in one line for a file that cannot be
    read, a folder or a device (a pipe is a file's text too), or one too
    big."""
    from pipkeeper.progress import human
    name = "<stdin>" if path == "-" else path
    if path == "-":
        data = sys.stdin.buffer.read(limit + 1)
    else:
        try:
            with open(path, "rb") as f:
                mode = os.fstat(f.fileno()).st_mode
                if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):
                    raise PipkeeperError("{}: not a file ({}): a {} is a file".format(
                        path, "a folder" if stat.S_ISDIR(mode) else "a device", what))
                data = f.read(limit + 1)
        except IsADirectoryError:
            raise PipkeeperError("{}: not a file (a folder): a {} is a file".format(path, what))
        except OSError as exc:
            raise PipkeeperError("{}: {}".format(path, exc.strerror or exc))
    if len(data) > limit:
        raise PipkeeperError("{}: bigger than {} ({:,} bytes), the largest {} pipkeeper takes".format(
            name, human(limit), limit, what))
    return data
