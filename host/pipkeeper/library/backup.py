"""A copy of the library, taken while it may be in use: `pipkeeper backup`.

SQLite's online backup API (Python's ``Connection.backup``) copies the
library page by page from a read transaction of its own: the copy is the
library as it was at one instant, every game whole, even while a sync
writes (the library runs in WAL mode, so the sync is not held up, and what
it commits after that instant is simply not in the copy). Copying the file
with `cp` instead could catch a sync half-way, and would miss what still
sits in the write-ahead log beside it.

The copy is one file (its journal mode set back to DELETE, no -wal or -shm
beside it), checked (`PRAGMA integrity_check`) and written whole or not at
all: into a temporary file beside the target, then renamed over it. It is a
library like any other: `--db FILE` reads it, `pipkeeper import FILE`
merges it into another.
"""

import os
import sqlite3

from pipkeeper.errors import PipkeeperError
from pipkeeper.files import temp_beside


def backup(library, target):
    """Copy ``library`` (an open Library) to the file ``target``; returns the
    number of records in the copy. An existing file at ``target`` is
    replaced only when it is an SQLite file (an older backup), and never
    when it is the library itself."""
    target = str(target)
    if os.path.isdir(target):
        raise PipkeeperError("{} is a folder: name the backup's file".format(target))
    if os.path.exists(target):
        if os.path.samefile(target, library.path):
            raise PipkeeperError("{} is the library itself: name another file".format(target))
        with open(target, "rb") as f:
            if f.read(16) != b"SQLite format 3\x00":
                raise PipkeeperError("{} exists and is not a library: pipkeeper replaces only an "
                                     "older backup".format(target))
    folder = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(folder):
        raise PipkeeperError("cannot write {}: no folder {}".format(target, folder))
    try:
        tmp = temp_beside(target)
    except OSError as exc:
        raise PipkeeperError("cannot write {}: {}".format(target, exc.strerror or exc))
    try:
        copy = sqlite3.connect(tmp, isolation_level=None)
        try:
            # pages=-1: every page in one step, inside one read transaction
            # of the library's: one instant, whatever a sync does meanwhile
            library.db.backup(copy, pages=-1)
            copy.execute("PRAGMA journal_mode = DELETE")
            verdict = copy.execute("PRAGMA integrity_check").fetchone()[0]
            if verdict != "ok":
                raise PipkeeperError("the copy does not check ({}); {} is unchanged".format(verdict, target))
            records = copy.execute("SELECT COUNT(*) FROM records").fetchone()[0]
        finally:
            copy.close()
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, target)
        tmp = None
    except sqlite3.Error as exc:
        raise PipkeeperError("cannot back up the library to {}: {}".format(target, exc))
    except OSError as exc:
        raise PipkeeperError("cannot write {}: {}".format(target, exc.strerror or exc))
    finally:
        if tmp is not None:
            for leftover in (tmp, tmp + "-journal", tmp + "-wal", tmp + "-shm"):
                try:
                    os.remove(leftover)
                except OSError:
                    pass
    return records

