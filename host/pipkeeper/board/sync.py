"""Pulling game records from a board into the library.

Records are append-only on the board, so for each file we send the board
the length and sha256 of the prefix we already hold (up to its last whole
line); the board checks the hash and sends only the bytes after it (all of
the file when the prefix does not match: a different game now has that
name). The board's half is pklink.F (onboard/pklink.py): one call per file,
all in one program, reading 3 KB blocks and printing them as base64 lines
followed by the sha256 of what it sent: no round trip per block as in
mpremote's `fs_readfile` (256 bytes per `eval`), and every byte checked end
to end. The listing itself (pklink.L) leaves out what we already hold,
so a sync with little new costs well under 2 KB on the wire. Base64, not raw bytes, because
a terminal line discipline between us and the board (the sim's pty, a USB
driver in cooked mode) may rewrite control characters.

Each file's bytes go into the library in their own transaction, once their
hash matches, so a pulled cable loses only the file in flight; the next
sync asks for exactly what is still missing.

Names come from the board and are not trusted: anything but a plain file
name ending in .dgn (no paths, no `..`, no control characters) is refused
with a message and not fetched; so is a file bigger than `MAX_RECORD`. A
record the engine rejects is still stored verbatim, flagged with the
engine's message; it never stops the other files.
"""

import binascii
import hashlib

from pipkeeper.errors import PipkeeperError
from pipkeeper.wording import counted
from pipkeeper.board.link import LinkLost
from pipkeeper.library.store import MAX_RECORD, check_file_name as check_name
from pipkeeper.progress import Null

GAMES_DIR = "/games"

class Entry:
    """One name in the board's /games/ and what sync did with it."""

    def __init__(self, name, size):
        self.name = name
        self.size = size
        self.held = 0
        self.action = None     # new | grown | same | replaced | refused | vanished
        self.record_id = None
        self.status = None     # the engine's verdict: ok | rejected
        self.message = None    # why refused, or the engine's error
        self.fetched = 0       # bytes of the record received
        self.whole = False     # the library now holds all of its bytes

    def as_dict(self):
        return {"file": self.name, "size": self.size, "action": self.action,
                "record": self.record_id, "status": self.status, "message": self.message,
                "fetched": self.fetched}


class SyncResult:
    def __init__(self, board):
        self.board = board
        self.entries = []
        self.wire_bytes = 0
        self.image = None       # the scorer's own image the board runs (identity's dict), or None

    def count(self, action):
        return sum(1 for e in self.entries if e.action == action)

    def as_dict(self):
        return {"board": self.board, "wire_bytes": self.wire_bytes, "image": self.image,
                "files": [e.as_dict() for e in self.entries]}


def shown(name):
    """A refused name made printable (escapes, quotes) for a message."""
    return ascii(name) if isinstance(name, str) else "?"


def entry_key(name, size):
    """pklink's 6-hex key of a (name, size) the library already holds."""
    return hashlib.sha256("{} {}".format(name, size).encode("utf-8")).hexdigest()[:6]


def list_games(link, known=None):
    """[(name, size)] in the board's /games/ (size -1: a folder), leaving out
    the entries `known` ({name: size}) already has: on a second sync the
    listing costs 6 bytes per game sent, not a line per game received."""
    import ast

    keys = "".join(sorted(entry_key(n, s) for n, s in (known or {}).items()))
    link.info()  # pklink's functions are defined
    out = []
    for line in link.exec("L({!r},{!r})".format(GAMES_DIR, keys), timeout=20).splitlines():
        line = line.decode("ascii", "replace").strip()
        if not line:
            continue
        size, _, literal = line.partition(" ")
        try:
            out.append((ast.literal_eval(literal), int(size)))
        except (ValueError, SyntaxError):
            raise PipkeeperError("the board's listing of {} was garbled; run sync again".format(GAMES_DIR))
    return sorted(out, key=lambda e: (str(e[0]), e[1]))


def sync(link, library, progress=None, max_record=MAX_RECORD):
    """Bring the library up to date with the board's /games/; a SyncResult.

    Raises LinkLost if the link breaks; what was complete by then is kept.
    """
    progress = progress or Null()
    board = link.info().board_id
    result = SyncResult(board)
    from pipkeeper.board import image_identity as identity
    own = identity.of_board(link)
    result.image = own.as_dict() if own else None
    held_sizes = library.held_sizes(board)
    todo = []
    for name, size in list_games(link, held_sizes):
        entry = Entry(name, size)
        result.entries.append(entry)
        reason = check_name(name)
        if size == -1:
            reason = "a folder, not a game record"
        if reason is not None:
            entry.action, entry.message = "refused", "{}: {}".format(shown(name), reason)
            continue
        if size < 0:
            entry.action, entry.message = "refused", "{}: cannot be read on the board".format(shown(name))
            continue
        if size > max_record:
            entry.action = "refused"
            entry.message = "{}: {} bytes is too big for a game record (the limit is {})".format(
                shown(name), size, max_record)
            continue
        entry.held = held_sizes.get(name, 0)
        if size == entry.held:
            entry.action = "same"
            continue
        todo.append(entry)
    if todo:
        progress.total = sum(e.size - (e.held if e.size > e.held else 0) for e in todo)
        _fetch(link, library, board, todo, progress)
        _mark_synced(link, todo)
    result.wire_bytes = link.wire_bytes
    return result


def _mark_synced(link, todo):
    """Tell the board which records the library now holds whole: their
    "size name" lines go to its /pipkeeper/synced (pklink.Y; the listing
    rewrote that file with the ones held before), so that its History may
    offer to delete them and only them."""
    lines = ["{} {}\n".format(e.size, e.name) for e in todo if e.whole]
    if lines:
        link.exec("Y({!r})".format(lines), timeout=20)


def _fetch(link, library, board, todo, progress):
    """Run one board program that streams every file in `todo`."""
    prefixes = {}
    calls = []
    for e in todo:
        held = library.held(board, e.name) if e.held else b""
        # Ask only for whole lines we hold: the firmware drops a line torn by
        # a power cut and writes it again, and that must read as growth.
        held = held[:held.rfind(b"\n") + 1]
        if len(held) > e.size:  # shrank: it cannot start with what we hold
            held = b""
            e.action = "replaced"
        prefixes[e.name] = held
        calls.append("F(d,{!r},{},{},{!r})".format(
            e.name, len(held), e.size, hashlib.sha256(held).hexdigest() if held else ""))
    code = "d={!r}\n".format(GAMES_DIR) + "\n".join(calls) + "\n"
    reader = _Reader(library, board, todo, prefixes, progress)
    try:
        link.stream(code, reader.line, timeout=20)
    except LinkLost:
        raise
    if reader.index != len(todo):
        raise PipkeeperError("the board stopped sending after {} of {}; run sync again".format(
            reader.index, counted(len(todo), "file")))


class _Reader:
    """Turns the board's lines into stored records, one file at a time."""

    def __init__(self, library, board, todo, prefixes, progress):
        self.library = library
        self.board = board
        self.todo = todo
        self.prefixes = prefixes
        self.progress = progress
        self.index = 0
        self.entry = None
        self.offset = None
        self.chunks = []
        self.hash = None

    def _garbled(self, why):
        name = self.todo[self.index].name if self.index < len(self.todo) else "?"
        return PipkeeperError("the data for {} arrived garbled ({}); run sync again".format(shown(name), why))

    def line(self, raw):
        if self.index >= len(self.todo):
            if raw.strip():
                raise self._garbled("unexpected output")
            return
        entry = self.todo[self.index]
        if self.offset is None:  # before 'S': N, M or S
            if raw == b"N":
                entry.action, entry.message = "vanished", "{}: gone from the board".format(shown(entry.name))
                self.index += 1
            elif raw == b"M":
                entry.action = "replaced"
            elif raw.startswith(b"S "):
                self.offset = int(raw[2:])
                self.chunks = []
                self.hash = hashlib.sha256()
                if self.offset == 0 and self.prefixes[entry.name]:
                    entry.action = "replaced"
                    self.progress.total += len(self.prefixes[entry.name])
            elif raw.strip():
                raise self._garbled("expected a file header")
            return
        if raw.startswith(b"E "):
            self._finish(entry, raw[2:].strip().decode("ascii", "replace"))
            return
        try:
            data = binascii.a2b_base64(raw)
        except (binascii.Error, ValueError):
            raise self._garbled("bad base64") from None
        self.hash.update(data)
        self.chunks.append(data)
        entry.fetched += len(data)
        if self.offset + entry.fetched > entry.size:
            raise self._garbled("more bytes than the file holds")
        self.progress.advance(len(data))

    def _finish(self, entry, digest):
        if digest != self.hash.hexdigest():
            raise self._garbled("checksum mismatch")
        prefix = self.prefixes[entry.name] if self.offset else b""
        data = prefix + b"".join(self.chunks)
        if len(data) != entry.size:
            entry.action = entry.action or "grown"
            entry.message = "{}: the board sent {} of {}".format(shown(entry.name), len(data),
                                                                   counted(entry.size, "byte"))
        replaced = entry.action == "replaced"
        rid, facts, what = self.library.store(self.board, entry.name, data, replaced=replaced)
        entry.record_id = rid
        entry.whole = len(data) == entry.size
        entry.status = facts.status
        if not replaced:
            entry.action = what
        if facts.status == "rejected":
            where = "line {}: ".format(facts.error_line) if facts.error_line else ""
            entry.message = "{}: kept but flagged: {}{}".format(shown(entry.name), where, facts.error)
        self.index += 1
        self.offset = None
        self.chunks = []
