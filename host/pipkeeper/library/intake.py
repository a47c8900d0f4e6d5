"""Records into the library from files: `pipkeeper import`.

What it takes, each by what it is:

- a **simulated board's folder** (`pipkeeper sim --dir DIR`: DIR/games/),
  filed under the board's key as `sync` files it ("sim-<id>" from
  DIR/.sim-board-id), so that a later sync of that board finds it held; a
  board's flash copied to a folder without an id is filed under
  "folder:<its path>";
- a **folder of records** (*.dgn, not its subfolders) and a **record file**
  (a sheet typed by hand, a record copied off a board), filed under
  "file:<its folder>" and the file's name;
- a **library** (an SQLite file: a `pipkeeper backup`, another laptop's
  library): merged, every record under the board and file it came from,
  the other library's player names where this one has none for a spelling.

One code path with sync: every record goes through `Library.take`, which is
sync's `Library.store` with the whole file in hand (the same derivation and
flag for a record the engine rejects, the same duplicates rule, the same
rule for a file that grew or became another game); names are checked by
sync's `check_file_name`, sizes by its `MAX_RECORD`. A file that cannot be
taken (too big, not a file, a name sync would refuse, an unreadable
library) gets one line and stops nothing: what was taken before and after
it stays. Nothing it reads is written to.
"""

import os
import sqlite3
import stat
import unicodedata

from pipkeeper.errors import PipkeeperError
from pipkeeper.files import read_limited
from pipkeeper.library import store
from pipkeeper.library.names import fold

SQLITE_MAGIC = b"SQLite format 3\x00"
SIM_ID_FILE = ".sim-board-id"   # pipkeeper.sim.unix.ID_FILE: where a sim's folder keeps its id


class Taken:
    """One record (or one file refused) and what import did with it."""

    def __init__(self, source, board, name, size=0):
        self.source = source      # the path as the user named it (or the library's record)
        self.board = board
        self.name = name
        self.size = size
        self.action = None        # new | grown | same | replaced | refused
        self.record_id = None
        self.status = None        # ok | rejected
        self.message = None

    def refuse(self, why):
        self.action, self.message = "refused", "{}: {}".format(self.source, why)
        return self

    def as_dict(self):
        return {"source": self.source, "board": self.board, "file": self.name, "size": self.size,
                "action": self.action, "record": self.record_id, "status": self.status,
                "message": self.message}


def import_paths(library, paths):
    """Take every path in turn; [(path, board key or None, [Taken])]."""
    return [_import_one(library, path) for path in paths]


def _import_one(library, path):
    shown = str(path)
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return shown, None, [Taken(shown, None, os.path.basename(shown)).refuse(exc.strerror or str(exc))]
    if stat.S_ISDIR(mode):
        games = os.path.join(path, "games")
        if os.path.isdir(games):
            board = _board_of_folder(path)
            return shown, board, [_take_file(library, os.path.join(games, n), board, n, strict=True)
                                  for n in sorted(os.listdir(games))]
        board = "file:" + os.path.abspath(path)
        return shown, board, [_take_file(library, os.path.join(path, n), board, n)
                              for n in sorted(os.listdir(path)) if n.endswith(".dgn")]
    if not stat.S_ISREG(mode):
        return shown, None, [Taken(shown, None, os.path.basename(shown)).refuse(
            "not a file (a device or a pipe): a game record or a library is a file")]
    if _is_sqlite(path):
        return shown, "library", merge(library, path)
    board = "file:" + os.path.dirname(os.path.abspath(path))
    return shown, board, [_take_file(library, path, board, os.path.basename(path), named=shown)]


def _board_of_folder(folder):
    """A board folder's key: the sim's id as sync files it, else the folder."""
    try:
        with open(os.path.join(folder, SIM_ID_FILE), encoding="ascii") as f:
            found = f.read().strip()
        if len(found) == 16 and int(found, 16) >= 0:
            return "sim-" + found
    except (OSError, ValueError):
        pass
    return "folder:" + os.path.abspath(folder)


def _is_sqlite(path):
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def _take_file(library, path, board, name, strict=False, named=None):
    """One record file. ``strict``: a board's games folder, where sync
    would refuse (and say so) what is not a record; elsewhere a folder's
    other files are simply not records."""
    taken = Taken(named or path, board, name)
    reason = store.check_file_name(name)
    if reason is not None:
        return taken.refuse(reason)
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return taken.refuse(exc.strerror or str(exc))
    if not stat.S_ISREG(mode):
        return taken.refuse("not a file: a game record is a file")
    try:
        data = read_limited(path, store.MAX_RECORD, "game record")
    except PipkeeperError as exc:
        taken.action, taken.message = "refused", exc.message
        return taken
    if not data:
        return taken.refuse("an empty file")
    taken.size = len(data)
    return _take(library, taken, data)


def _take(library, taken, data, live=True, first_synced=None):
    rid, facts, what = library.take(taken.board, taken.name, data, live=live, first_synced=first_synced)
    taken.record_id, taken.status = rid, facts.status
    taken.action = what
    if facts.status == "rejected":
        # (as sync says it: a record the engine rejects, or one that is not
        # UTF-8 text, whose line and byte the flag names)
        where = "line {}: ".format(facts.error_line) if facts.error_line else ""
        taken.message = "{}: kept but flagged: {}{}".format(taken.source, where, facts.error)
    return taken


# -- another library ----------------------------------------------------------------

def merge(library, path):
    """Every record of the library at ``path`` into ``library``, oldest
    first, as sync would have taken them; its player names where this
    library has none for that spelling. [Taken], one per record."""
    shown = str(path)
    if os.path.exists(library.path) and os.path.samefile(library.path, path):
        return [Taken(shown, None, os.path.basename(shown)).refuse("that is this library")]
    try:
        other = store.connect_read_only(str(path))
    except PipkeeperError as exc:
        return [Taken(shown, None, os.path.basename(shown)).refuse(exc.message)]
    try:
        other.row_factory = sqlite3.Row
        version = other.execute("PRAGMA user_version").fetchone()[0]
        if version > len(store.MIGRATIONS):
            return [Taken(shown, None, os.path.basename(shown)).refuse(
                "a library of a newer pipkeeper (schema {}, this one knows {})".format(
                    version, len(store.MIGRATIONS)))]
        tables = {r[0] for r in other.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "records" not in tables:
            return [Taken(shown, None, os.path.basename(shown)).refuse(
                "not a pipkeeper library (it has no games table)")]
        rows = other.execute("SELECT id, board, name, live, first_synced, last_synced "
                             "FROM records ORDER BY id").fetchall()
        out = [_merge_record(library, other, shown, row) for row in rows]
        if "player_names" in tables:
            ours = library.player_names()
            theirs = {r["spelling"]: r["name"] for r in other.execute("SELECT spelling, name FROM player_names")
                      if isinstance(r["spelling"], str) and isinstance(r["name"], str)
                      and r["spelling"] not in ours and r["spelling"] == fold(r["spelling"])
                      and _name_ok(r["name"])}
            if theirs:
                library.set_player_names(theirs)
        return out
    except sqlite3.DatabaseError as exc:
        return [Taken(shown, None, os.path.basename(shown)).refuse(
            "cannot read it as a library ({})".format(exc))]
    finally:
        other.close()


def _name_ok(name):
    """A player's name another library holds: one a record could have
    written (no control characters, a line's length at most)."""
    return 0 < len(name.strip()) <= 200 and not any(unicodedata.category(c) == "Cc" for c in name)


def _merge_record(library, other, shown, row):
    board = row["board"] if isinstance(row["board"], str) else None
    taken = Taken("{}#{}".format(shown, row["id"]), board, row["name"], 0)
    reason = store.check_file_name(row["name"])
    if reason is None and (not board or any(ord(c) < 32 for c in board) or len(board) > 4096):
        reason = "an unreadable board"
    if reason is not None:
        return taken.refuse(reason)
    size = other.execute("SELECT length(dgn), typeof(dgn) FROM records WHERE id = ?", (row["id"],)).fetchone()
    if size[1] not in ("blob", "text"):
        return taken.refuse("no record text")
    if size[0] > store.MAX_RECORD:
        return taken.refuse("{} bytes is too big for a game record (the limit is {})".format(
            size[0], store.MAX_RECORD))
    data = other.execute("SELECT dgn FROM records WHERE id = ?", (row["id"],)).fetchone()[0]
    data = data.encode("utf-8", "surrogateescape") if isinstance(data, str) else bytes(data)
    if not data:
        return taken.refuse("an empty record")
    taken.size = len(data)
    first, last = _time(row["first_synced"]), _time(row["last_synced"])
    live = bool(row["live"])
    if live:
        # the board's file as it was synced last: whichever library heard
        # from the board later holds it live, the other copy as an old game
        ours = library.last_synced(board, row["name"])
        held = library.held(board, row["name"])
        related = held.startswith(data) or data.startswith(held[:held.rfind(b"\n") + 1])
        if ours is not None and not related and ours >= (last or 0):
            live = False
    return _take(library, taken, data, live=live, first_synced=first)


def _time(value):
    """A time from another library, when it is one (seconds since 1970)."""
    return float(value) if isinstance(value, (int, float)) and 0 < value < 1e11 else None
