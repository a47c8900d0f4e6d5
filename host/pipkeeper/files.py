"""Writing a file whole or not at all.

Every file pipkeeper writes on the laptop (an export, a UF2 image, the
compiled firmware in the cache, the emulator's script) goes through
``write_atomically``: a temporary file of its own beside the target, then a
rename. A power cut or a full disk leaves the old file, never half a new
one; two processes building the same cache at once (pytest's workers, two
`pipkeeper sim` started together) each rename a whole file of their own
instead of racing on one temporary name.
"""

import os
import secrets

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
