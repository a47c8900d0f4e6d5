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

Schema changes are numbered migrations applied in order on open
(`PRAGMA user_version`); a library from a newer pipkeeper is refused.
"""

import hashlib
import json
import os
import sqlite3
import time
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
]


def is_simulated(board):
    """Whether the library's key ``board`` is a simulated board's: "sim-"
    and its id (pipkeeper.board.link.BoardInfo.board_id), or "virtual", as
    every sim was called before each had an id of its own."""
    return board == "virtual" or board.startswith("sim-")


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
        if os.path.isdir(self.path):
            raise PipkeeperError("{} is a folder, not a library file".format(self.path))
        if not os.path.exists(self.path):
            raise PipkeeperError("no library at {} (`pipkeeper sync` makes it; --db or ${} names "
                                 "another)".format(self.path, DB_ENV))
        uri = Path(os.path.abspath(self.path)).as_uri() + "?mode=ro"
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
            raise PipkeeperError("cannot open the library {}: {}".format(self.path, exc))
        except sqlite3.DatabaseError as exc:
            raise PipkeeperError("{} is not a pipkeeper library ({})".format(self.path, exc))

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

    def store(self, board, name, data, replaced=False):
        """Record that board:/games/name now holds `data`, in one transaction.

        `replaced`: the file no longer starts with what we held, so it is a
        different game: the old row stays, not live, and a new one starts.
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
            values = (data, len(data), digest, facts.game_id, facts.status, facts.error,
                      facts.error_line, now)
            if row is None:
                cur = self.db.execute(
                    "INSERT INTO records(board, name, dgn, size, sha256, game_id, status, error, "
                    "error_line, last_synced, first_synced) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (board, name) + values + (now,))
                rid, what = cur.lastrowid, "new"
            else:
                rid, what = row["id"], "grown"
                self.db.execute(
                    "UPDATE records SET dgn=?, size=?, sha256=?, game_id=?, status=?, error=?, "
                    "error_line=?, last_synced=? WHERE id = ?", values + (rid,))
            self._write_derived(rid, facts)
            self._dedupe(rid, facts.game_id, data, digest)
            self.db.execute("DELETE FROM forgotten WHERE board = ? AND name = ?", (board, name))
        return rid, facts, what

    def forget(self, rid):
        """Remove game ``rid`` and every copy of it the library keeps as its
        duplicate, in one transaction; the board files they were still
        live for are noted (`forgotten`) so that sync leaves them. Returns
        the ids removed."""
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
            self.db.execute("UPDATE records SET duplicate_of = NULL WHERE duplicate_of IN ({})".format(
                marks), ids)
            self.db.execute("DELETE FROM records WHERE id IN ({})".format(marks), ids)
        return ids

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

    def stats(self):
        """Per player: games, wins, average round score, rounds out, feet started."""
        rows = self.db.execute(
            "SELECT s.player AS player, COUNT(*) AS games, SUM(s.won) AS wins, "
            "SUM(s.rounds) AS rounds, SUM(s.round_score_sum) AS points, "
            "SUM(s.rounds_out) AS rounds_out, SUM(s.feet_started) AS feet_started "
            "FROM seats s JOIN records r ON r.id = s.record_id "
            "WHERE r.duplicate_of IS NULL AND r.status = 'ok' "
            "GROUP BY s.player ORDER BY wins DESC, games DESC, s.player").fetchall()
        out = []
        for r in rows:
            out.append({
                "player": r["player"],
                "games": r["games"],
                "wins": r["wins"],
                "rounds": r["rounds"],
                "average_round_score": round(r["points"] / r["rounds"], 2) if r["rounds"] else None,
                "rounds_out": r["rounds_out"],
                "feet_started": r["feet_started"],
            })
        return out

    def integrity(self):
        return self.db.execute("PRAGMA integrity_check").fetchone()[0]


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
