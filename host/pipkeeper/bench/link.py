"""`pipkeeper bench sync` and `bench flash`: our transfers against mpremote's.

Both run on a virtual board (the MicroPython unix port on a pty, see
ptyboard.py) in a scratch folder, so they need no hardware and measure the
protocol, not a USB stack. mpremote is driven in-process through the same
calls its `cp` makes (`fs_listdir`, `fs_readfile`/`fs_writefile` with their
default 256-byte chunks and a progress callback, as `cp` passes one), so its
process start-up is not counted against it; both sides include connecting
and entering the raw REPL.

sync: a backlog of 50 simulated game records (real games from
shared_engine.simulate, ~9 KB each) on a board flashed by pipkeeper (so
pklink is there, as on any board we flashed).
  sync_kb_per_s          record bytes / seconds for `sync` into an empty library
  mpremote_cp_kb_per_s   the same bytes / seconds for mpremote's cp of /games
  sync_vs_mpremote       their ratio
  incremental_sync_wire_bytes  bytes both ways on the wire for a sync after
                         one event was appended to one game
flash:
  flash_full_s           `flash` onto an empty board (compile cache warm)
  flash_noop_s           `flash` again, nothing changed
  mpremote_cp_r_s        mpremote writing the same files (mkdir + fs_writefile)
"""

import os
import shutil
import tempfile
import time

from pipkeeper.board import flash, link, sync
from pipkeeper.library.store import Library
from pipkeeper.sim.ptyboard import PtyBoard

GAMES = 50


def make_backlog(games_dir, n=GAMES):
    """n game records as the board writes them (NNNN.dgn): (bytes, the next
    event of game 7, which is left half-played)."""
    from shared_engine import simulate

    os.makedirs(games_dir, exist_ok=True)
    total = 0
    pending = None
    rules = ("chickenfoot", "chickenfoot-cross", "chicken-scratch", "mexican-train")
    for i in range(n):
        text = simulate.simulate(rules[i % 4] if i % 5 else "chickenfoot", 2 + i % 3, seed=1000 + i).record()
        data = text.encode("utf-8")
        if i == 6:
            # Game 7 is still being played: its next event comes later.
            lines = data.splitlines(True)
            data, pending = b"".join(lines[:len(lines) // 2]), lines[len(lines) // 2]
        with open(os.path.join(games_dir, "{:04d}.dgn".format(i + 1)), "wb") as f:
            f.write(data)
        total += len(data)
    return total, pending


def _mpremote(port):
    from mpremote.transport_serial import SerialTransport

    t = SerialTransport(port, baudrate=115200, timeout=0.5)
    t.enter_raw_repl(soft_reset=False)
    return t


def _mpremote_close(t):
    try:
        t.exit_raw_repl()
    finally:
        t.close()


def mpremote_cp_games(port, dest):
    """What `mpremote cp -r :games dest` does, in-process. Returns bytes copied."""
    t = _mpremote(port)
    total = 0
    try:
        for entry in t.fs_listdir("/games"):
            data = t.fs_readfile("/games/" + entry.name, progress_callback=lambda a, b: None)
            with open(os.path.join(dest, entry.name), "wb") as f:
                f.write(data)
            total += len(data)
    finally:
        _mpremote_close(t)
    return total


def mpremote_cp_files(port, items):
    """What `mpremote cp -r` of the build does: mkdir each folder, write each file."""
    t = _mpremote(port)
    try:
        made = set()
        for item in items:
            parts = item.remote.split("/")[1:-1]
            path = ""
            for part in parts:
                path += "/" + part
                if path not in made:
                    made.add(path)
                    if not t.fs_exists(path):
                        t.fs_mkdir(path)
            t.fs_writefile(item.remote, item.data, progress_callback=lambda a, b: None)
    finally:
        _mpremote_close(t)


def bench_sync(games=GAMES):
    scratch = tempfile.mkdtemp(prefix="pipkeeper-bench-")
    try:
        root = os.path.join(scratch, "board")
        total, pending = make_backlog(os.path.join(root, "games"), games)
        with PtyBoard(root) as board:
            with link.connect(board.port) as l:
                flash.flash(l)
            db = os.path.join(scratch, "library.sqlite3")
            start = time.perf_counter()
            with Library(db) as library:
                with link.connect(board.port) as l:
                    result = sync.sync(l, library)
            sync_s = time.perf_counter() - start
            fetched = sum(e.fetched for e in result.entries)
            if fetched != total:
                raise RuntimeError("sync fetched {} of {} bytes".format(fetched, total))

            dest = os.path.join(scratch, "mpremote")
            os.makedirs(dest)
            start = time.perf_counter()
            copied = mpremote_cp_games(board.port, dest)
            mp_s = time.perf_counter() - start

            with open(os.path.join(root, "games", "0007.dgn"), "ab") as f:
                f.write(pending)  # one event, as the board appends it
            with Library(db) as library:
                with link.connect(board.port) as l:
                    inc = sync.sync(l, library)
            grown = [e for e in inc.entries if e.action == "grown"]
            if len(grown) != 1:
                raise RuntimeError("the incremental sync did not find the one grown game")
        sync_kbs = total / 1024 / sync_s
        mp_kbs = copied / 1024 / mp_s
        return {
            "games": games,
            "backlog_bytes": total,
            "sync_s": round(sync_s, 3),
            "sync_kb_per_s": round(sync_kbs, 1),
            "mpremote_cp_s": round(mp_s, 3),
            "mpremote_cp_kb_per_s": round(mp_kbs, 1),
            "sync_vs_mpremote": round(sync_kbs / mp_kbs, 2),
            "incremental_sync_wire_bytes": inc.wire_bytes,
        }
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def bench_flash():
    scratch = tempfile.mkdtemp(prefix="pipkeeper-bench-")
    try:
        with PtyBoard(os.path.join(scratch, "board")) as board:
            with link.connect(board.port) as l:
                flash.flash(l, dry_run=True)  # warms the compile cache: we time copying
            start = time.perf_counter()
            with link.connect(board.port) as l:
                full = flash.flash(l)
            full_s = time.perf_counter() - start
            start = time.perf_counter()
            with link.connect(board.port) as l:
                noop = flash.flash(l)
            noop_s = time.perf_counter() - start
            items = full.copied
        with PtyBoard(os.path.join(scratch, "board2")) as board:
            start = time.perf_counter()
            mpremote_cp_files(board.port, items)
            mp_s = time.perf_counter() - start
        return {
            "files": len(items),
            "bytes": sum(len(i.data) for i in items),
            "flash_full_s": round(full_s, 3),
            "flash_noop_s": round(noop_s, 3),
            "flash_noop_copied": len(noop.copied),
            "mpremote_cp_r_s": round(mp_s, 3),
        }
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
