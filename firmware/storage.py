"""The board's flash: game records, settings, the roster, the log.

Layout (under the board's root, "/" on a board, the --dir folder in the sim):

    /games/<NNNN>.dgn       one DGN record per game, appended one event line
                            per press (open, append, close)
    /pipkeeper/current      the game in progress: its path from the root,
                            e.g. games/0007.dgn (one line)
    /pipkeeper/settings.json  {"counter": N, ...} board settings
    /pipkeeper/roster.json  {"names": [...], "defaults": {...}} (pushed from
                            the laptop by `pipkeeper roster`; optional)
    /pipkeeper/ui.json      where the buttons are: the screen and its cursor,
                            tied to the record's size (see firmware/app.py)
    /pipkeeper/synced       "size name" lines: the records the laptop holds
                            whole (written by `pipkeeper sync`, pklink.L/Y)
    /log.txt                faults, bounded (the previous one in /log.old)

Crash safety: a record only ever grows by whole lines; a line torn by a power
cut (no final newline) is dropped on the next boot by rewriting the file
atomically, and the game goes on. Every small file is written atomically: a
temporary file, then ``os.rename`` over the old one. On LittleFS (the board)
each close and rename is an atomic commit; on a FAT or host folder the
rename still makes the swap all-or-nothing. Games are never deleted here;
only History deletes one (firmware/flows/history.py), when players ask,
once the laptop holds it whole and when it is not the game in progress.
"""

import os

GAMES = "games"
HOME = "pipkeeper"
LOG_MAX = 8192
LOW_SPACE = 32768     # warn below this many free bytes
NO_SPACE = 8192       # refuse to start a new game below this
_ENOENT = 2           # OSError's number for a file that is not there


def _join(a, b):
    if a.endswith("/"):
        return a + b
    return a + "/" + b


class Storage:
    def __init__(self, root="/"):
        self.root = root
        self.games = _join(root, GAMES)
        self.home = _join(root, HOME)

    # -- plain files ----------------------------------------------------------

    def path(self, *parts):
        p = self.root
        for x in parts:
            p = _join(p, x)
        return p

    def ensure_dirs(self):
        for d in (self.games, self.home):
            try:
                os.mkdir(d)
            except OSError:
                pass   # exists

    def read(self, path, default=None):
        try:
            with open(path) as f:
                return f.read()
        except OSError:
            return default

    def write_atomic(self, path, data):
        """Replace ``path`` with ``data``: all of it or none of it."""
        tmp = path + ".new"
        with open(tmp, "w") as f:
            f.write(data)
        os.rename(tmp, path)

    def read_json(self, name, default=None):
        import json
        s = self.read(_join(self.home, name))
        if not s:
            return default
        try:
            return json.loads(s)
        except ValueError:
            return default

    def write_json(self, name, obj):
        import json
        self.write_atomic(_join(self.home, name), json.dumps(obj))

    def size(self, path):
        try:
            return os.stat(path)[6]
        except OSError:
            return -1

    # -- game records ---------------------------------------------------------

    def current(self):
        """The path of the game in progress, or None. The pointer file holds
        the path relative to the flash root ("games/0007.dgn").

        Only a pointer that is not there means no game: any other error
        reading it (a flash LittleFS cannot read, or none mounted: the
        scorer's own _boot.py mounts none rather than format a flash that
        holds games) is raised, and the restore shows the error screen.
        Taken for "no game", it would show the set-up, and a new game would
        take the old one's place as the game in progress (issue 25)."""
        try:
            with open(_join(self.home, "current")) as f:
                p = f.read()
        except OSError as e:
            if e.args and e.args[0] != _ENOENT:
                raise
            p = None
        if p:
            p = p.strip().lstrip("/")
        if p:
            p = _join(self.root, p)
            if self.size(p) >= 0:
                return p
        return None

    def set_current(self, path):
        """Make ``path`` the game in progress ("" for none)."""
        r = self.root.rstrip("/") + "/"
        if path.startswith(r):
            path = path[len(r):]
        self.write_atomic(_join(self.home, "current"), path + "\n")

    def plan_game(self):
        """The next game's record: (path, number, settings), nothing
        written (``new_game`` writes it)."""
        settings = self.read_json("settings.json", {}) or {}
        n = settings.get("counter", 0)
        names = self.list_games()
        while True:
            n += 1
            name = "%04d.dgn" % n
            if name not in names:
                break
        return _join(self.games, name), n, settings

    def new_game(self, header, extra=None, plan=None):
        """Start a record: a new numbered file holding ``header(number)``
        (the tag lines); it becomes the current game. ``extra`` is merged
        into settings.json; ``plan``: ``plan_game()``'s answer, when the
        caller took it first. Returns (path, number)."""
        path, n, settings = plan or self.plan_game()
        # The header goes in with the atomic write: a record is never empty.
        self.write_atomic(path, header(n))
        settings["counter"] = n
        if extra:
            for k in extra:
                settings[k] = extra[k]
        self.write_json("settings.json", settings)
        self.set_current(path)
        return path, n

    def append(self, path, line):
        """Add one event line to a record: open, append, close. The line is
        made before the file is opened, so that a MemoryError comes before a
        byte is written, and the append may be tried again (App.commit)."""
        data = line + "\n"
        with open(path, "a") as f:
            f.write(data)

    def repair(self, path):
        """Drop a torn last line (one without its newline). Returns True
        when the file was rewritten."""
        n = self.size(path)
        if n <= 0:
            return False
        with open(path, "rb") as f:
            f.seek(n - 1)
            if f.read(1) == b"\n":
                return False
            f.seek(0)
            data = f.read()
        cut = data.rfind(b"\n") + 1
        tmp = path + ".new"
        with open(tmp, "wb") as f:
            f.write(data[:cut])
        os.rename(tmp, path)
        return True

    def lines(self, path):
        """The record's lines, without newlines (a generator: no big string)."""
        with open(path) as f:
            for line in f:
                yield line.rstrip("\n")

    def list_games(self):
        try:
            names = [n for n in os.listdir(self.games) if n.endswith(".dgn")]
        except OSError:
            return []
        names.sort()
        return names

    # -- space and the log ----------------------------------------------------

    def free_bytes(self):
        try:
            st = os.statvfs(self.root)
            return st[0] * st[3]
        except (OSError, AttributeError):
            return 1 << 30

    def log(self, message):
        """Append to /log.txt, keeping it under LOG_MAX bytes."""
        path = _join(self.root, "log.txt")
        try:
            if self.size(path) > LOG_MAX:
                os.rename(path, _join(self.root, "log.old"))
            with open(path, "a") as f:
                f.write(message)
                if not message.endswith("\n"):
                    f.write("\n")
        except OSError:
            pass   # a full or broken flash must not turn a fault into a crash
