"""The game library: an SQLite file whose source of truth is the DGN text.

`records` holds every record's bytes verbatim, where it came from (board id
and file name) and whether the engine accepted it. `games`, `seats` and
`rounds` are derived from those bytes (see `derive.py`) for queries; they
are rewritten in the same transaction as the record, and rebuilt wholesale
when the derivation changes, so they can never disagree with the text.

Sync state is the record itself: the bytes we hold of a board's file are the
live row for (board, name), and the next sync asks only for what follows.

Identity: a game is one row. A board file that grows updates its row in
place (ids stay stable for `show`). A board file that no longer starts with
what we hold (the board was wiped and its counter restarted) gets a new row;
the old game stays in the library, no longer live. The same game reaching
the library twice ([Game] id equal, or the same bytes, one a prefix of the
other) is marked `duplicate_of` the longer and left out of listings and
statistics: importing is idempotent.

Records reach the library by `store` alone: sync calls it as each file
arrives, `take` (`pipkeeper import`: files, folders, other libraries) with
a whole file in hand, by sync's rule; `restore` puts back what `forget`
left in the bin.

Players (`player_names`) and the bin are the library's own, beside the
records: a rename, a merge or a forget never rewrites a record's text.

Schema changes are numbered migrations applied in order on open
(`PRAGMA user_version`); a library from a newer pipkeeper is refused.
"""

import hashlib
import json
import os
import sqlite3
import time
import unicodedata
from pathlib import Path

from pipkeeper.library import derive
from pipkeeper.closing import Closing
from pipkeeper.errors import PipkeeperError

DB_ENV = "PIPKEEPER_DB"

# The largest game record pipkeeper takes, from a board (sync) or a file
# (replay): a 13-round game recorded tile by tile is ~25 KB; 1 MB is far
# beyond any real record and small enough to hold in memory and in one
# SQLite row.
MAX_RECORD = 1024 * 1024
# The longest record file name taken (a board's are "0001.dgn").
MAX_FILE_NAME = 64

MIGRATIONS = [
    # 1: records + derived tables
    """
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE records(
        id INTEGER PRIMARY KEY,
        board TEXT NOT NULL,
        name TEXT NOT NULL,
        live INTEGER NOT NULL DEFAULT 1,
        dgn BLOB NOT NULL,
        size INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        game_id TEXT,
        status TEXT NOT NULL CHECK (status IN ('ok', 'rejected')),
        error TEXT,
        error_line INTEGER,
        duplicate_of INTEGER REFERENCES records(id),
        first_synced REAL NOT NULL,
        last_synced REAL NOT NULL
    );
    CREATE UNIQUE INDEX records_live ON records(board, name) WHERE live = 1;
    CREATE INDEX records_game_id ON records(game_id);
    CREATE INDEX records_sha ON records(sha256);
    CREATE TABLE games(
        record_id INTEGER PRIMARY KEY REFERENCES records(id) ON DELETE CASCADE,
        rules TEXT, date TEXT, event TEXT,
        players TEXT NOT NULL,      -- JSON list, seat order
        n_rounds INTEGER NOT NULL,
        over INTEGER NOT NULL,
        winners TEXT NOT NULL,      -- JSON list of seats
        report TEXT NOT NULL        -- JSON: FORMAT.md's replay report
    );
    CREATE TABLE seats(
        record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        player TEXT NOT NULL,
        total INTEGER NOT NULL,
        won INTEGER NOT NULL,
        rounds INTEGER NOT NULL,
        round_score_sum INTEGER NOT NULL,
        rounds_out INTEGER NOT NULL,
        feet_started INTEGER NOT NULL,
        PRIMARY KEY (record_id, seat)
    );
    CREATE INDEX seats_player ON seats(player);
    """,
    # 2: the records `pipkeeper forget` let go of, as the board still names them
    """
    CREATE TABLE forgotten(
        board TEXT NOT NULL,
        name TEXT NOT NULL,
        size INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        forgotten REAL NOT NULL,
        PRIMARY KEY (board, name)
    );
    """,
    # 3: the league's players (`pipkeeper players`), and the bin that keeps
    # what `forget` removed for BIN_DAYS (`forget --undo` takes it back)
    """
    CREATE TABLE player_names(
        spelling TEXT PRIMARY KEY,
        name TEXT NOT NULL
    );
    CREATE TABLE bin(
        entry INTEGER PRIMARY KEY,
        game INTEGER NOT NULL,
        record_id INTEGER NOT NULL,
        board TEXT NOT NULL,
        name TEXT NOT NULL,
        live INTEGER NOT NULL,
        dgn BLOB NOT NULL,
        first_synced REAL NOT NULL,
        last_synced REAL NOT NULL,
        forgotten REAL NOT NULL
    );
    CREATE INDEX bin_game ON bin(game);
    """,
]

# How long `forget` keeps what it removed, for `forget --undo`: a month of
# weekly game nights, time enough to notice the wrong game went.
BIN_DAYS = 30


def check_file_name(name):
    """None if a record's file name (a board's, or a file's `pipkeeper
    import` is given) is safe to use, else the reason it is refused: sync
    and import take the same names."""
    if not isinstance(name, str) or not name:
        return "an empty or unreadable name"
    if len(name) > MAX_FILE_NAME:
        return "a name longer than {} characters".format(MAX_FILE_NAME)
    if "/" in name or "\\" in name:
        return "a path, not a file name"
    if name in (".", "..") or ".." in name:
        return "a name with '..'"
    for ch in name:
        if unicodedata.category(ch) == "Cs":      # a file name's byte that is not UTF-8
            return "a name that is not UTF-8 text"
        if ch in "\x7f" or ord(ch) < 32 or unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
            return "a name with control characters"
    if not name.endswith(".dgn"):
        return "not a game record (.dgn)"
    if name.startswith("."):
        return "a hidden file"
    return None


def is_simulated(board):
    """Whether the library's key ``board`` is a simulated board's: "sim-"
    and its id (pipkeeper.board.link.BoardInfo.board_id), or "virtual", as
    every sim was called before each had an id of its own."""
    return board == "virtual" or board.startswith("sim-")


def is_imported(board):
    """Whether the library's key ``board`` is not a board's but files'
    (`pipkeeper import`): "file:" and a folder of records, or "folder:" and
    a board's flash copied to a folder without a sim's id."""
    return board.startswith("file:") or board.startswith("folder:")


def default_path():
    """$PIPKEEPER_DB, else library.sqlite3 in the user's data directory."""
    env = os.environ.get(DB_ENV, "").strip()
    if env:
        return env
    import platformdirs

    return os.path.join(platformdirs.user_data_dir("pipkeeper", appauthor=False), "library.sqlite3")


class Library(Closing):
    """One open library. Use as a context manager, or call close().

    ``read_only``: for the commands that only read (games, show, stats,
    export). The library must exist (nothing is created, not even its
    folder) and is opened with SQLite's ``mode=ro``; in a folder no one can
    write, where SQLite cannot make the files a WAL reader needs, it is
    read as the unchanging file it then is (``immutable=1``). A library
    written by an older pipkeeper is brought up to date first where it can
    be written. Writing (sync) creates the library and its folder."""

    def __init__(self, path=None, read_only=False):
        self.path = str(path or default_path())
        self.read_only = read_only
        if read_only:
            self.db = self._connect_read_only()
        else:
            self.db = self._connect()
        self.db.row_factory = sqlite3.Row
        try:
            self.db.execute("PRAGMA foreign_keys = ON")
            if read_only:
                self._check_readable()
            else:
                # WAL: a crash (or Ctrl-C) mid-sync rolls back to the last
                # committed game; NORMAL skips an fsync per game, which is what
                # makes a 50-game import quick, and loses nothing committed
                # short of a power cut.
                self.db.execute("PRAGMA journal_mode = WAL")
                self.db.execute("PRAGMA synchronous = NORMAL")
                self._migrate()
                self._check_derived()
        except sqlite3.OperationalError as exc:
            self.db.close()
            if _cannot_write(exc):
                raise PipkeeperError("read-only: {} (pipkeeper cannot write the library there: {})".format(
                    self.path, exc))
            raise PipkeeperError("{} is not a pipkeeper library ({})".format(self.path, exc))
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise PipkeeperError("{} is not a pipkeeper library ({})".format(self.path, exc))
        except BaseException:
            self.db.close()
            raise

    def _connect(self):
        folder = os.path.dirname(os.path.abspath(self.path))
        if os.path.isdir(self.path):
            raise PipkeeperError("{} is a folder, not a library file".format(self.path))
        if not _writable(self.path, folder):
            raise PipkeeperError("read-only: {} (pipkeeper cannot write the library there)".format(self.path))
        try:
            os.makedirs(folder, exist_ok=True)
            return sqlite3.connect(self.path, isolation_level=None, timeout=10)
        except (OSError, sqlite3.Error) as exc:
            raise PipkeeperError("cannot open the library {}: {}".format(self.path, exc))

    def _connect_read_only(self):
        return connect_read_only(self.path)

    def _check_readable(self):
        """A library of ours and current; one of an older pipkeeper is
        upgraded (as any open for writing does) where it can be written."""
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        has_records = self.db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'records'").fetchone()
        if version == 0 or not has_records:
            raise PipkeeperError("{} is not a pipkeeper library (it has no games table)".format(self.path))
        if version > len(MIGRATIONS):
            raise PipkeeperError(_NEWER.format(self.path, version, len(MIGRATIONS)))
        row = None
        if version == len(MIGRATIONS):
            row = self.db.execute("SELECT value FROM meta WHERE key = 'derived_version'").fetchone()
        if row is None or row[0] != str(derive.VERSION):
            self.db.close()
            if not _writable(self.path, os.path.dirname(os.path.abspath(self.path))):
                raise PipkeeperError("read-only: {} (an older pipkeeper wrote it, and it must be brought "
                                     "up to date where it can be written)".format(self.path))
            with Library(self.path):
                pass
            self.db = self._connect_read_only()
            self.db.row_factory = sqlite3.Row

    def close(self):
        self.db.close()

    # -- schema ----------------------------------------------------------------
    def _migrate(self):
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > len(MIGRATIONS):
            raise PipkeeperError(_NEWER.format(self.path, version, len(MIGRATIONS)))
        for number in range(version + 1, len(MIGRATIONS) + 1):
            with self.transaction():
                for statement in _statements(MIGRATIONS[number - 1]):
                    self.db.execute(statement)
                self.db.execute("PRAGMA user_version = {}".format(number))

    def _check_derived(self):
        row = self.db.execute("SELECT value FROM meta WHERE key = 'derived_version'").fetchone()
        if row is None or row[0] != str(derive.VERSION):
            self.rebuild()

    def transaction(self):
        return _Transaction(self.db)

    def rebuild(self):
        """Recompute every derived row from the records' text."""
        with self.transaction():
            for row in self.db.execute("SELECT id, dgn FROM records").fetchall():
                self._derive_into(row["id"], row["dgn"])
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('derived_version', ?)",
                            (str(derive.VERSION),))

    # -- what sync needs ------------------------------------------------------
    def held(self, board, name):
        """The bytes we hold of board:/games/name (b"" if none)."""
        row = self.db.execute("SELECT dgn FROM records WHERE board = ? AND name = ? AND live = 1",
                              (board, name)).fetchone()
        return bytes(row["dgn"]) if row else b""

    def last_synced(self, board, name):
        """When the live record of board:/games/name last changed (None: none)."""
        row = self.db.execute("SELECT last_synced FROM records WHERE board = ? AND name = ? AND live = 1",
                              (board, name)).fetchone()
        return row["last_synced"] if row else None

    def held_sizes(self, board):
        """{name: bytes held} for every live record of `board`, and for
        every file of it a `forget` let go of, at the size it had then: the
        board leaves those out of its listing, so sync does not bring a
        forgotten game back (one that has grown since comes back: it is
        news)."""
        sizes = {r["name"]: r["size"] for r in self.db.execute(
            "SELECT name, size FROM forgotten WHERE board = ?", (board,))}
        sizes.update({r["name"]: r["size"] for r in self.db.execute(
            "SELECT name, size FROM records WHERE board = ? AND live = 1", (board,))})
        return sizes

    def store(self, board, name, data, replaced=False, first_synced=None):
        """Record that board:/games/name now holds `data`, in one transaction.

        `replaced`: the file no longer starts with what we held, so it is a
        different game: the old row stays, not live, and a new one starts.
        `first_synced`: when the library first had the game, for a record
        merged from another library (its sync order); now by default.
        Returns (record id, Derived, what) with what in new|grown|same.
        """
        data = bytes(data)
        facts = derive.derive(data)
        now = time.time()
        digest = hashlib.sha256(data).hexdigest()
        with self.transaction():
            row = self.db.execute(
                "SELECT id, sha256 FROM records WHERE board = ? AND name = ? AND live = 1",
                (board, name)).fetchone()
            if row is not None and replaced:
                self.db.execute("UPDATE records SET live = 0 WHERE id = ?", (row["id"],))
                row = None
            if row is not None and row["sha256"] == digest:
                return row["id"], facts, "same"
            if row is None:
                rid, what = self._insert(board, name, data, facts, digest, True,
                                         first_synced or now, now), "new"
            else:
                rid, what = row["id"], "grown"
                self.db.execute(
                    "UPDATE records SET dgn=?, size=?, sha256=?, game_id=?, status=?, error=?, "
                    "error_line=?, last_synced=? WHERE id = ?",
                    (data, len(data), digest, facts.game_id, facts.status, facts.error,
                     facts.error_line, now, rid))
                self._write_derived(rid, facts)
                self._dedupe(rid, facts.game_id, data, digest)
            self.db.execute("DELETE FROM forgotten WHERE board = ? AND name = ?", (board, name))
        return rid, facts, what

    def take(self, board, name, data, live=True, first_synced=None):
        """Take a whole record from outside a sync (`pipkeeper import`: a
        file, a simulated board's folder, another library) by sync's rule:
        the bytes held for (board, name) grown by `data` are the same game
        grown; bytes that no longer start with what is held (to its last
        whole line) are another game, and the held one stays, no longer
        live; `data` that the held bytes already contain whole is "same".
        ``live=False``: a record another library keeps as an old game of a
        board (replaced since): it joins the library as one, unless the
        library holds its bytes already. Returns what `store` returns, with
        "replaced" for a new game that took the held one's place."""
        data = bytes(data)
        if not live:
            digest = hashlib.sha256(data).hexdigest()
            row = self.db.execute("SELECT id FROM records WHERE sha256 = ?", (digest,)).fetchone()
            facts = derive.derive(data)
            if row is not None:
                return row["id"], facts, "same"
            now = time.time()
            with self.transaction():
                rid = self._insert(board, name, data, facts, digest, False, first_synced or now, now)
            return rid, facts, "new"
        held = self.held(board, name)
        if held and held.startswith(data):
            row = self.db.execute("SELECT id FROM records WHERE board = ? AND name = ? AND live = 1",
                                  (board, name)).fetchone()
            return row["id"], derive.derive(held), "same"
        whole = held[:held.rfind(b"\n") + 1]
        replaced = bool(held) and not data.startswith(whole)
        rid, facts, what = self.store(board, name, data, replaced=replaced, first_synced=first_synced)
        return rid, facts, "replaced" if replaced and what == "new" else what

    def _insert(self, board, name, data, facts, digest, live, first_synced, last_synced, rid=None):
        """A new row for a record (inside the caller's transaction), its
        derived rows and its place among its duplicates; its id."""
        cur = self.db.execute(
            "INSERT INTO records(id, board, name, live, dgn, size, sha256, game_id, status, error, "
            "error_line, first_synced, last_synced) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (rid, board, name, 1 if live else 0, data, len(data), digest, facts.game_id,
             facts.status, facts.error, facts.error_line, first_synced, last_synced))
        rid = cur.lastrowid
        self._write_derived(rid, facts)
        self._dedupe(rid, facts.game_id, data, digest)
        return rid

    def forget(self, rid):
        """Remove game ``rid`` and every copy of it the library keeps as its
        duplicate, in one transaction; the board files they were still
        live for are noted (`forgotten`) so that sync leaves them. What goes
        is kept in the bin for BIN_DAYS (`restore` takes it back), and what
        the bin held longer than that is let go. Returns the ids removed."""
        with self.transaction():
            ids = [rid]
            for r in ids:      # the duplicates of the duplicates too
                ids += [row["id"] for row in self.db.execute(
                    "SELECT id FROM records WHERE duplicate_of = ?", (r,)) if row["id"] not in ids]
            marks = ",".join("?" * len(ids))
            now = time.time()
            for row in self.db.execute(
                    "SELECT board, name, size, sha256 FROM records WHERE live = 1 AND id IN ({})".format(
                        marks), ids).fetchall():
                self.db.execute("INSERT OR REPLACE INTO forgotten VALUES (?,?,?,?,?)",
                                (row["board"], row["name"], row["size"], row["sha256"], now))
            self.db.execute(
                "INSERT INTO bin(game, record_id, board, name, live, dgn, first_synced, last_synced, "
                "forgotten) SELECT ?, id, board, name, live, dgn, first_synced, last_synced, ? "
                "FROM records WHERE id IN ({}) ORDER BY id".format(marks), [rid, now] + ids)
            self.db.execute("DELETE FROM bin WHERE forgotten < ?", (now - BIN_DAYS * 86400,))
            self.db.execute("UPDATE records SET duplicate_of = NULL WHERE duplicate_of IN ({})".format(
                marks), ids)
            self.db.execute("DELETE FROM records WHERE id IN ({})".format(marks), ids)
        return ids

    def binned(self):
        """What `forget` removed in the last BIN_DAYS, newest first: one
        dict per forgotten game, `game` (its number then), `forgotten`
        (a time), `until` (when the bin lets it go), `copies` (its
        duplicates that went with it) and the record's facts for a listing."""
        since = time.time() - BIN_DAYS * 86400
        out = []
        for row in self.db.execute(
                "SELECT game, forgotten, COUNT(*) AS n FROM bin WHERE forgotten >= ? "
                "GROUP BY game, forgotten ORDER BY forgotten DESC, game DESC", (since,)).fetchall():
            main = self.db.execute("SELECT * FROM bin WHERE game = ? AND forgotten = ? AND record_id = ?",
                                   (row["game"], row["forgotten"], row["game"])).fetchone()
            facts = derive.derive(bytes(main["dgn"]))
            out.append({"game": row["game"], "forgotten": row["forgotten"],
                        "until": row["forgotten"] + BIN_DAYS * 86400, "copies": row["n"] - 1,
                        "board": main["board"], "file": main["name"], "game_id": facts.game_id,
                        "status": facts.status,
                        "rules": facts.report["rules"] if facts.report else _first(facts.tags.get("Rules")),
                        "players": facts.report["players"] if facts.report else
                        list(facts.tags.get("Players") or [])})
        return out

    def restore(self, game=None):
        """Take back from the bin the game `forget` was given as ``game``
        (the latest forgotten when None), with the copies that went with
        it, in one transaction: each gets its old number back where no
        record has taken it since, and is live again for its board file
        unless a newer record is (the board's file grew and was synced
        since: the old one is then its duplicate). Returns [(old id, new id)]."""
        since = time.time() - BIN_DAYS * 86400
        if game is None:
            last = self.db.execute("SELECT game, forgotten FROM bin WHERE forgotten >= ? "
                                   "ORDER BY forgotten DESC, entry DESC LIMIT 1", (since,)).fetchone()
        else:
            last = self.db.execute("SELECT game, forgotten FROM bin WHERE game = ? AND forgotten >= ? "
                                   "ORDER BY forgotten DESC LIMIT 1", (int(game), since)).fetchone()
        if last is None:
            if game is None:
                raise PipkeeperError("nothing to take back: no game was forgotten in the last {} "
                                     "days".format(BIN_DAYS))
            raise PipkeeperError("no forgotten game {} in the last {} days (see `pipkeeper forget "
                                 "--list`)".format(game, BIN_DAYS))
        back = []
        with self.transaction():
            entries = self.db.execute("SELECT * FROM bin WHERE game = ? AND forgotten = ? ORDER BY record_id",
                                      (last["game"], last["forgotten"])).fetchall()
            for e in entries:
                data = bytes(e["dgn"])
                facts = derive.derive(data)
                live = bool(e["live"]) and self.db.execute(
                    "SELECT 1 FROM records WHERE board = ? AND name = ? AND live = 1",
                    (e["board"], e["name"])).fetchone() is None
                free = self.db.execute("SELECT 1 FROM records WHERE id = ?",
                                       (e["record_id"],)).fetchone() is None
                rid = self._insert(e["board"], e["name"], data, facts, hashlib.sha256(data).hexdigest(),
                                   live, e["first_synced"], e["last_synced"],
                                   rid=e["record_id"] if free else None)
                if live:
                    self.db.execute("DELETE FROM forgotten WHERE board = ? AND name = ?",
                                    (e["board"], e["name"]))
                back.append((e["record_id"], rid))
            self.db.execute("DELETE FROM bin WHERE game = ? AND forgotten = ?", (last["game"], last["forgotten"]))
        return back

    # -- players ---------------------------------------------------------------
    def player_names(self):
        """{spelling key: the player's name} as `players rename`/`merge` set them."""
        return {r["spelling"]: r["name"] for r in self.db.execute("SELECT spelling, name FROM player_names")}

    def set_player_names(self, names):
        """Point each spelling key of ``names`` ({key: name}) at its name, in
        one transaction. The records are never rewritten."""
        with self.transaction():
            for key, name in names.items():
                self.db.execute("INSERT OR REPLACE INTO player_names VALUES (?, ?)", (key, name))

    def seat_names(self):
        """(record id, player as written) for every seat of every listed game
        the engine accepts, in the library's order."""
        return [(r["record_id"], r["player"]) for r in self.db.execute(
            "SELECT s.record_id, s.player FROM seats s JOIN records r ON r.id = s.record_id "
            "WHERE r.duplicate_of IS NULL AND r.status = 'ok' ORDER BY s.record_id, s.seat")]

    # -- derived rows ---------------------------------------------------------
    def _derive_into(self, rid, data):
        facts = derive.derive(bytes(data))
        self.db.execute("UPDATE records SET game_id=?, status=?, error=?, error_line=? WHERE id=?",
                        (facts.game_id, facts.status, facts.error, facts.error_line, rid))
        self._write_derived(rid, facts)

    def _write_derived(self, rid, facts):
        self.db.execute("DELETE FROM games WHERE record_id = ?", (rid,))
        self.db.execute("DELETE FROM seats WHERE record_id = ?", (rid,))
        rep = facts.report
        if rep is None:
            return
        tags = facts.tags
        self.db.execute(
            "INSERT INTO games(record_id, rules, date, event, players, n_rounds, over, winners, report) "
            "VALUES (?,?,?,?,?,?,?,?,?)",
            (rid, rep["rules"], _first(tags.get("Date")), _first(tags.get("Event")),
             json.dumps(rep["players"]), len(rep["rounds"]), 1 if rep["over"] else 0,
             json.dumps(rep["winners"]), json.dumps(rep)))
        for s in facts.seats:
            self.db.execute(
                "INSERT INTO seats VALUES (?,?,?,?,?,?,?,?,?)",
                (rid, s["seat"], s["player"], s["total"], s["won"], s["rounds"],
                 s["round_score_sum"], s["rounds_out"], s["feet_started"]))

    def _dedupe(self, rid, game_id, data, digest):
        """Mark the shorter of two copies of one game as the other's duplicate."""
        others = self.db.execute(
            "SELECT id, dgn FROM records WHERE id != ? AND (sha256 = ? OR (game_id IS NOT NULL AND game_id = ?))",
            (rid, digest, game_id)).fetchall()
        self.db.execute("UPDATE records SET duplicate_of = NULL WHERE id = ?", (rid,))
        for other in others:
            theirs = bytes(other["dgn"])
            if theirs.startswith(data) and (len(theirs) > len(data) or other["id"] < rid):
                self.db.execute("UPDATE records SET duplicate_of = ? WHERE id = ?", (other["id"], rid))
                self.db.execute("UPDATE records SET duplicate_of = NULL WHERE id = ? AND duplicate_of = ?",
                                (other["id"], rid))
                break
            if data.startswith(theirs):
                self.db.execute("UPDATE records SET duplicate_of = ? WHERE id = ?", (rid, other["id"]))

    # -- what the commands read -------------------------------------------------
    def games(self, include_hidden=False):
        """One dict per game, oldest first (rejected records included, flagged)."""
        where = "" if include_hidden else "WHERE r.duplicate_of IS NULL"
        rows = self.db.execute(
            "SELECT r.id, r.board, r.name, r.live, r.size, r.game_id, r.status, r.error, r.error_line, "
            "r.duplicate_of, r.first_synced, r.last_synced, g.rules, g.date, g.event, g.players, "
            "g.n_rounds, g.over, g.winners, g.report FROM records r LEFT JOIN games g ON g.record_id = r.id "
            "{} ORDER BY r.id".format(where)).fetchall()
        out = []
        for row in rows:
            g = _game_dict(row)
            g.update(_scores(row["report"]))
            if g["rules"] is None:  # rejected: what its tags say, for the listing
                dgn = self.db.execute("SELECT dgn FROM records WHERE id = ?", (g["id"],)).fetchone()[0]
                tags = derive.tags_of(bytes(dgn))
                g["rules"] = _first(tags.get("Rules"))
                g["players"] = list(tags.get("Players") or [])
                g["date"] = g["date"] or _first(tags.get("Date"))
            out.append(g)
        return out

    def find(self, ref):
        """The record `ref` names: library id, [Game] id, file name, or a unique prefix."""
        ref = str(ref).strip()
        rows = []
        if ref.isdigit():
            rows = self.db.execute("SELECT id FROM records WHERE id = ?", (int(ref),)).fetchall()
        if not rows:
            rows = self.db.execute(
                "SELECT id FROM records WHERE (game_id = ? OR name = ?) AND duplicate_of IS NULL",
                (ref, ref)).fetchall()
        if not rows and ref.isdigit() and ref == str(int(ref)):
            # a number names a game by its number only: "0" was a prefix of every file's name
            raise PipkeeperError("no game {!r} in the library (see `pipkeeper games`)".format(ref))
        if not rows:
            like = ref.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            rows = self.db.execute(
                "SELECT id FROM records WHERE (game_id LIKE ? ESCAPE '\\' OR name LIKE ? ESCAPE '\\') "
                "AND duplicate_of IS NULL", (like, like)).fetchall()
        if not rows:
            raise PipkeeperError("no game {!r} in the library (see `pipkeeper games`)".format(ref))
        if len(rows) > 1:
            raise PipkeeperError("{!r} names {} games; use the number from `pipkeeper games`".format(
                ref, len(rows)))
        return self.record(rows[0]["id"])

    def record(self, rid):
        row = self.db.execute("SELECT * FROM records WHERE id = ?", (rid,)).fetchone()
        if row is None:
            raise PipkeeperError("no game {} in the library".format(rid))
        out = dict(row)
        out["dgn"] = bytes(row["dgn"])
        g = self.db.execute("SELECT report FROM games WHERE record_id = ?", (rid,)).fetchone()
        out["report"] = json.loads(g["report"]) if g else None
        return out

    def reports(self):
        """(game dict, report) for every listed game the engine accepted."""
        out = []
        for g in self.games():
            if g["status"] == "ok":
                row = self.db.execute("SELECT report FROM games WHERE record_id = ?", (g["id"],)).fetchone()
                if row is not None:
                    out.append((g, json.loads(row["report"])))
        return out

    def played(self):
        """What the league reads: one dict per listed record (duplicates
        left out), oldest first: `id`, `status`, `first_synced`, the
        record's `date` and `event` tags, its `report` (None when the
        engine rejects it) and `feet` (chicken feet started, per seat)."""
        feet = {}
        for row in self.db.execute("SELECT record_id, seat, feet_started FROM seats ORDER BY record_id, seat"):
            feet.setdefault(row["record_id"], []).append(row["feet_started"])
        out = []
        for row in self.db.execute(
                "SELECT r.id, r.status, r.first_synced, g.date, g.event, g.report FROM records r "
                "LEFT JOIN games g ON g.record_id = r.id WHERE r.duplicate_of IS NULL ORDER BY r.id"):
            out.append({"id": row["id"], "status": row["status"], "first_synced": row["first_synced"],
                        "date": row["date"], "event": row["event"],
                        "report": json.loads(row["report"]) if row["report"] else None,
                        "feet": feet.get(row["id"], [])})
        return out

    def integrity(self):
        return self.db.execute("PRAGMA integrity_check").fetchone()[0]


def connect_read_only(path):
    """An SQLite connection that only reads the library file ``path`` (a
    pipkeeper library or its backup), never writes it, nor makes a file
    beside it where it cannot."""
    if os.path.isdir(path):
        raise PipkeeperError("{} is a folder, not a library file".format(path))
    if not os.path.exists(path):
        raise PipkeeperError("no library at {} (`pipkeeper sync` makes it; --db or ${} names "
                             "another)".format(path, DB_ENV))
    uri = Path(os.path.abspath(path)).as_uri() + "?mode=ro"
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10)
        try:
            db.execute("PRAGMA user_version").fetchone()
        except sqlite3.OperationalError:
            # no -shm beside it and no right to make one: nobody can
            # change this file while we read it
            db.close()
            db = sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None, timeout=10)
        return db
    except sqlite3.OperationalError as exc:
        raise PipkeeperError("cannot open the library {}: {}".format(path, exc))
    except sqlite3.DatabaseError as exc:
        raise PipkeeperError("{} is not a pipkeeper library ({})".format(path, exc))


_NEWER = ("the library {} was written by a newer pipkeeper (schema {}, this one knows {}); "
          "upgrade pipkeeper")


def _writable(path, folder):
    """Whether pipkeeper may write the library at ``path``: the file (when
    there is one) and its folder (SQLite writes its journal beside it), or
    the nearest folder that exists when there is none yet."""
    if os.path.exists(path) and not os.access(path, os.W_OK):
        return False
    while folder and not os.path.isdir(folder):
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return os.access(folder, os.W_OK | os.X_OK)


def _cannot_write(exc):
    text = str(exc).lower()
    return "readonly" in text or "read-only" in text


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception."""

    def __init__(self, db):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind, exc, tb):
        if kind is None:
            self.db.execute("COMMIT")
        else:
            self.db.execute("ROLLBACK")
        return False


def _statements(script):
    """The migration's statements (no `;` inside comments, by convention)."""
    return [s.strip() for s in script.split(";") if s.strip()]


def _first(values):
    return values[0] if values else None


def _scores(report_json):
    """A game's totals and per-round scores for the listing, so a script
    over `games --json` needs no second call per game: `totals` in seat
    order (as `players`) and `round_scores`, one `{"double", "scores",
    "out"}` per scored round as in the replay report; None for a record
    the engine rejects."""
    if not report_json:
        return {"totals": None, "round_scores": None}
    report = json.loads(report_json)
    return {"totals": report.get("totals"),
            "round_scores": [{"double": r.get("double"), "scores": r.get("scores"), "out": r.get("out")}
                             for r in report.get("rounds") or ()]}


def _game_dict(row):
    players = json.loads(row["players"]) if row["players"] else []
    winners = json.loads(row["winners"]) if row["winners"] else []
    return {
        "id": row["id"],
        "game_id": row["game_id"],
        "board": row["board"],
        "simulated": is_simulated(row["board"]),
        "file": row["name"],
        "on_board": bool(row["live"]),
        "size": row["size"],
        "status": row["status"],
        "error": (("line {}: ".format(row["error_line"]) if row["error_line"] else "") + row["error"])
        if row["error"] else None,
        "duplicate_of": row["duplicate_of"],
        "rules": row["rules"],
        "date": row["date"],
        "event": row["event"],
        "players": players,
        "rounds": row["n_rounds"],
        "over": bool(row["over"]) if row["over"] is not None else None,
        "winners": [players[s - 1] for s in winners if 1 <= s <= len(players)],
        "synced": row["last_synced"],
    }
