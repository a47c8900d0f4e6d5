"""``pipkeeper bench powercut``: power cuts inside the flash's own erase and
program, on the emulated RP2040 (issue 25).

The unix port's sweep (tests/firmware/test_power_cut.py) cuts between
Python statements, over a POSIX file. On the board a cut falls inside
LittleFS on NOR flash: in the middle of a 4 KB sector erase (the sector
left partly erased, unevenly) or of a page program (a prefix written, the
next byte half done). The emulator cuts there (js/emulator.mjs "a power cut
inside one", ``Emulator.cut``); this module sweeps it over a stretch of the
scripted game pressed on battery, where every press is a cold boot.

1. The clean run: the presses, one cold boot each, on a flashed board; for
   each press the flash ops it does (``Emulator.journal``), the flash image
   before and after it, and a probe of the state it leaves: one more press,
   ``PROBE`` (it moves the UI only), its frame and its cold boot's time,
   after which the image after the press is laid back. A sync from the
   laptop (``sync_before``) marks the games on the board before one press.
2. A case: the image before press i, the power cut inside its n-th op
   after a fraction f of it; then the next press (the probe) powers the
   board on, as on battery. Passed when the board restores the state of
   press i - 1 (the last one done) or of press i (the one in flight): the
   probe's frame is that state's probe frame; the record is that state's,
   byte for byte, and replays without a warning (``pipkeeper replay``'s
   reading); every other file under /games and /pipkeeper is that
   state's (ui.json, the checkpoint, the resting mark and the log aside: the probe writes
   them); LittleFS mounts, and was not formatted; no fault was logged.
3. Figures: cut points, failures, formats, lines lost, the time, and the
   probe's cold boot against the clean probe's of the same state: power-on
   to the first SPI byte of its frame, as every cold boot of the project is
   timed (the player's wait: the restore, and the full replay when the
   checkpoint was lost, included); and its awake time less the panel's
   refresh against the clean probe's (the same, and the writes that follow
   the frame: the checkpoint written again, the battery's cost).

``update.py`` beside it cuts the firmware updates (item 3 of the issue).
"""

import os
import secrets
import shutil
import statistics
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pipkeeper.errors import PipkeeperError
from pipkeeper.wording import counted
from pipkeeper.board import flashfs, images

PROBE = "DOWN"                           # the next press after a cut (moves the UI only)
FRACTIONS = (0.05, 0.35, 0.65, 0.95)     # where in an op the power goes, the whole sweep
SAMPLE_FRACTIONS = (0.3, 0.8)            # the device tests' sample
SAMPLE_OPS = 4                           # ... and the ops of a press it cuts, at most
UPDATE_POINTS = 8                        # ops of a firmware update cut (powercut_update.spread)
UPDATE_FRACTIONS = (0.5,)
KEEP = ("/games/", "/pipkeeper/")        # what the players own: never lost
# (the resting mark too: the probe removes it before its refresh and, where
# it cuts its power, writes its own picture's: firmware/picture.py)
REWRITTEN = ("/pipkeeper/ui.json", "/pipkeeper/checkpoint", "/pipkeeper/rest", "/log.txt", "/log.old")
SCRIPT = "scripted_game.txt"
ENDS = ("off", "sleep")                  # how a press on battery ends: power cut, or asleep (issue 23)


def script():
    """The presses of tests/data/scripted_game.txt."""
    from pipkeeper.sim import unix as sim
    from pipkeeper.paths import repo_root
    return sim.parse_script((repo_root() / "tests" / "data" / SCRIPT).read_text())


class State:
    """What the flash holds once a press is done, and what the probe shows."""

    def __init__(self, index, image, files, frame, times):
        self.index = index          # the press (-1: before the first press swept)
        self.image = image
        self.files = files          # {path: bytes}
        self.frame = frame          # the probe's frame (the panel's bytes)
        # the probe's cold boot (power-on -> first SPI byte) and its awake time less the refresh
        self.boot_ms, self.awake_ms = times


class Press:
    def __init__(self, index, button, ops, before, after):
        self.index = index
        self.button = button
        self.ops = ops              # [(kind, offset, bytes)] as the clean run did them
        self.before = before        # State of the press before (acknowledged)
        self.after = after          # State of this press (in flight)


def record_of(files):
    """(path, bytes) of the game in progress in ``files``, or (None, None)."""
    cur = files.get("/pipkeeper/current")
    if not cur or not cur.strip():
        return None, None
    path = "/" + cur.decode(errors="replace").strip().lstrip("/")
    return path, files.get(path)


def replay_flags(data):
    """What `pipkeeper replay` says of a record's bytes: [] when it replays
    clean, else its error or warnings."""
    from pipkeeper.library.reading import decode_record, record_warnings
    from shared_engine import dgn
    try:
        text = decode_record(data)
        game = dgn.replay(text)
    except Exception as exc:        # whatever the reader raises is a flag
        return ["does not replay: %s" % exc]
    return ["warning: %s" % w for w in record_warnings(dgn, game, text)]


def lines_lost(kept, had):
    """Lines of the record ``had`` (bytes, done before the cut) that ``kept``
    (bytes or None) does not hold whole."""
    if not had:
        return 0
    kept = kept or b""
    n = 0
    while n < min(len(kept), len(had)) and kept[n] == had[n]:
        n += 1
    return had.count(b"\n", n)


def judge(files, frame, press):
    """(problems, the State matched or None, lines lost, formatted) of the
    board after a cut in ``press`` and the probe: ``files`` the flash's
    files (None: LittleFS does not mount), ``frame`` the probe's."""
    before, after = press.before, press.after
    _, had = record_of(before.files)
    if files is None:
        return ["LittleFS does not mount"], None, (had or b"").count(b"\n"), True
    kept = {p for p in before.files if p.startswith(KEEP) or p == "/main.py"} & set(after.files)
    if kept and not kept & set(files):
        return ["the flash was formatted (none of %d files left)" % len(kept)], None, \
            (had or b"").count(b"\n"), True
    problems = []
    path, rec = record_of(files)
    lost = lines_lost(rec if path == record_of(before.files)[0] else None, had)
    if lost:
        problems.append("%d record lines lost" % lost)
    matched = None
    for state in (before, after):
        if record_of(state.files) == (path, rec) and frame == state.frame:
            matched = state
    if matched is None:
        if (path, rec) not in (record_of(before.files), record_of(after.files)):
            problems.append("the record (%s, %s bytes) is neither press %d's nor press %d's" % (
                path, None if rec is None else len(rec), before.index, after.index))
        else:
            problems.append("the frame is neither press %d's state's nor press %d's" % (
                before.index, after.index))
        return problems, None, lost, False
    for p in set(before.files) | set(after.files) | set(files):
        if not p.startswith(KEEP) or p in REWRITTEN or p.endswith(".new"):
            continue
        if files.get(p) not in (before.files.get(p), after.files.get(p)):
            problems.append("%s is neither press %d's nor press %d's" % (p, before.index, after.index))
    if rec is not None:
        problems += replay_flags(rec)
    if files.get("/log.txt") != matched.files.get("/log.txt"):
        tail = (files.get("/log.txt") or b"")[-300:].decode(errors="replace").replace("\n", " | ")
        problems.append("a fault was logged: %s" % tail)
    return problems, matched, lost, False


class Sweep:
    """One build (a MicroPython image) and a flash image with the scorer."""

    def __init__(self, firmware, work, flashed, presses=None, log=print, workers=None):
        self.firmware = firmware
        self.work = Path(work)
        self.work.mkdir(parents=True, exist_ok=True)
        self.base = self.work / "base.img"
        shutil.copyfile(str(flashed), str(self.base))
        self.presses = list(presses if presses is not None else script())
        self.log = log
        self.workers = workers or max(1, min(2, os.cpu_count() or 1))
        self.clean_frames = {}      # press -> its last frame in the clean run
        # One board, one flash chip: every copy of it (the clean run, the cut
        # runs) answers with the same unique id, so a game started in a cut
        # run has the clean run's [Game] id.
        self.uid = secrets.token_hex(8)

    def _board(self, name, image=None):
        from pipkeeper.sim.rp2040.board import EmulatedBoard, FLASH_FILE
        folder = self.work / name
        folder.mkdir(parents=True, exist_ok=True)
        if image is not None:
            shutil.copyfile(str(image), str(folder / FLASH_FILE))
        return EmulatedBoard(str(folder), self.firmware, power_cycle=True, uid=self.uid)

    # -- the clean run -------------------------------------------------------------------

    def clean(self, swept, sync_before=None, first=0):
        """Press the script from press ``first`` (the base image holds the
        presses before it) up to the last press in ``swept`` (indices into
        the presses); for each swept press its Press. ``sync_before``: the
        index of a press a `pipkeeper sync` comes before."""
        swept = sorted(set(swept))
        board = self._board("clean", self.base)
        out = []
        i = first
        try:
            state = None
            for i in range(first, swept[-1] + 1):
                if i % 20 == 0:
                    self.log("  press %d of %d ..." % (i, swept[-1] + 1))
                if i == sync_before:
                    self._sync(board)
                    state = None
                if i not in swept:
                    _press(board, self.presses[i])
                    state = None
                    continue
                if state is None:
                    state = self._state(board, i - 1)
                board.emu.journal(on=True)
                frames = _press(board, self.presses[i])
                ops = board.emu.journal(on=False)
                self.clean_frames[i] = frames[-1].data if frames else None
                after = self._state(board, i)
                out.append(Press(i, self.presses[i], ops, state, after))
                state = after
        except PipkeeperError as exc:
            raise PipkeeperError("the clean run, press %d (%s): %s" % (i, self.presses[i], exc))
        finally:
            board.close()
        return out

    def _state(self, board, index):
        """The State the board's flash holds now: saved, probed, laid back."""
        from pipkeeper.sim.rp2040.board import FLASH_FILE
        board.emu.save()
        image = self.work / ("state_%d.img" % index)
        shutil.copyfile(os.path.join(board.dir, FLASH_FILE), str(image))
        files = _files(image)
        frame, times = self._probe(board)
        shutil.copyfile(str(image), os.path.join(board.dir, FLASH_FILE))
        board.emu.load()
        return State(index, image, files, frame, times)

    def _probe(self, board):
        """The probe press: (its frame, (its cold boot, its awake time))."""
        frames = _press(board, PROBE)
        last = board.last
        if last.get("reason") not in ENDS or not frames:
            return None, (None, None)
        return frames[-1].data, _times(board)

    def _sync(self, board):
        """`pipkeeper sync` on USB power, as after a game night: the board
        marks the games the laptop holds (/pipkeeper/synced)."""
        from pipkeeper.board import link, sync
        from pipkeeper.library.store import Library
        from pipkeeper.sim.rp2040.board import SerialPort
        board.emu.power(on=False)
        board.emu.power(usb=True)
        try:
            with Library(str(self.work / "library.sqlite3")) as library:
                with SerialPort(board) as port:
                    with link.connect(port.path, run_main=True) as lk:
                        sync.sync(lk, library)
                    board.emu.run(3000)
        finally:
            board.emu.power(on=False)
            board.emu.power(usb=False)
            board.emu.save()
        board._new_frames()

    # -- the cuts ------------------------------------------------------------------------

    def cases(self, presses, fractions=FRACTIONS):
        """(press, op number from 1, fraction) for every op of every press."""
        return [(p, n, f) for p in presses for n in range(1, len(p.ops) + 1) for f in fractions]

    def sample_cases(self, presses, per_press=SAMPLE_OPS):
        """The device tests' fixed sample: of each press, its first and last
        flash ops, its erases, and ops spread evenly between, ``per_press``
        at most, each at ``SAMPLE_FRACTIONS`` in turn (the bench cuts every
        op at each of ``FRACTIONS``)."""
        return [(p, n, SAMPLE_FRACTIONS[(p.index + n) % len(SAMPLE_FRACTIONS)])
                for p in presses for n in sample_ops(p.ops, per_press)]

    def run_cases(self, cases):
        """Each case on one of ``workers`` boards; a list of result dicts."""
        results = []
        lock = threading.Lock()
        local = threading.local()
        boards = []

        def one(case):
            if not hasattr(local, "board"):
                with lock:
                    local.board = self._board("worker%d" % len(boards))
                    boards.append(local.board)
            r = self.cut_case(local.board, *case)
            with lock:
                results.append(r)
                if len(results) % 50 == 0:
                    f = summary(results, 0)
                    self.log("  %d of %s: %s, %s, %s lost, cold boot x%s at most" % (
                        len(results), counted(len(cases), "cut"), counted(f["failures"], "failure"),
                        counted(f["formats"], "format"), counted(f["lines_lost"], "line"),
                        f["cold_boot_ratio_max"]))
                    for line in f["failed"][-1:]:
                        self.log("    " + line)

        try:
            with ThreadPoolExecutor(self.workers) as pool:
                for f in [pool.submit(one, c) for c in cases]:
                    f.result()
        finally:
            for b in boards:
                b.close()
        results.sort(key=lambda r: (r["press"], r["op"], r["fraction"]))
        return results

    def cut_case(self, board, press, n, fraction):
        """The cut inside op ``n`` of ``press`` after ``fraction`` of it,
        then the probe: a result dict ("problems" empty when it passed)."""
        from pipkeeper.sim.rp2040.board import FLASH_FILE
        board.emu.power(on=False)
        shutil.copyfile(str(press.before.image), os.path.join(board.dir, FLASH_FILE))
        board.emu.load()
        seed = press.index * 7919 + n * 104729 + int(fraction * 1000)
        board.emu.cut(n, fraction, seed)
        r = {"press": press.index, "button": press.button, "op": n, "fraction": fraction,
             "kind": press.ops[n - 1][0], "offset": press.ops[n - 1][1], "problems": [],
             "lines_lost": 0, "formatted": False, "matched": None, "ratio": None,
             "awake_ratio": None}
        try:
            _press(board, press.button)
            if board.emu.last_cut is None:
                board.emu.cut(0)
                r["problems"].append("the press did fewer flash ops than in the clean run")
                return r
            frames = _press(board, PROBE)
            last = board.last
            if last.get("reason") not in ENDS:
                r["problems"].append("the probe press did not end (%s)" % last.get("reason"))
                board.emu.power(on=False)
            if board.emu.bootsels:
                r["problems"].append("the board fell into BOOTSEL")
                board.emu.bootsels.clear()
            board.emu.save()
            files = _files(os.path.join(board.dir, FLASH_FILE))
            frame = frames[-1].data if frames else None
            problems, matched, lost, formatted = judge(files, frame, press)
        except PipkeeperError as exc:
            r["problems"].append(str(exc))
            board.emu.power(on=False)
            return r
        r["problems"] += problems
        r["lines_lost"] = lost
        r["formatted"] = formatted
        if matched is not None:
            r["matched"] = "in flight" if matched is press.after else "done"
            boot, awake = _times(board)
            if matched.boot_ms and boot:
                r["ratio"] = round(boot / matched.boot_ms, 3)
            if matched.awake_ms and awake:
                r["awake_ratio"] = round(awake / matched.awake_ms, 3)
            r["boot_ms"] = boot
        return r


def _times(board):
    """The last press's (cold boot, awake time) in ms: power-on to the first
    SPI byte of its frame; power-on to the power off or the sleep, less the
    panel's refresh (None where the press drew nothing)."""
    last = board.last
    on = last.get("power_on_at")
    first = last.get("update_at")
    if on is None or first is None or not board.emu.frames:
        return None, None
    refresh = board.emu.frames[-1].get("refresh_ns", 0)
    return round((first - on) / 1e6, 1), round((last["t"] - on - refresh) / 1e6, 1)


def sample_ops(ops, k):
    """Of ``ops`` ([(kind, ...)], "E" an erase), the 1-based numbers of at
    most ``k`` to cut: the first and the last, the erases, then ops spread
    evenly between."""
    n = len(ops)
    if n <= k:
        return list(range(1, n + 1))
    chosen = {1, n}
    for i in range(n):
        if len(chosen) < k and ops[i][0] == "E":
            chosen.add(i + 1)
    step = n / float(k)
    j = 0
    while len(chosen) < k and j < k:
        chosen.add(1 + int(j * step + step / 2))
        j += 1
    return sorted(chosen)[:k]


def lay_state(base, folder, out):
    """``base`` (a flash image with the scorer) holding the games and
    settings of the sim's flash ``folder`` instead of its own: a board at
    the same point of the game, without pressing it there."""
    shutil.copyfile(str(base), str(out))
    old = [p for p in (_files(out) or {}) if p.startswith(KEEP)]
    flashfs.write_files(str(out), {}, remove=old)
    flashfs.copy_tree(str(out), str(folder))
    return out


def _press(board, button):
    """A press from a board that is off (a cold boot, as every press of the
    sweep is, so that a case starts where the clean run did); a board that
    went to sleep after it, its power kept (during a game, issue 23), has
    its power taken: what the press wrote is on the flash by then."""
    frames = board.press(button)
    if board.emu.powered:
        board.emu.power(on=False)
    return frames


def _files(image):
    """{path: bytes} of the image's files but the scorer's code under /lib
    (the bulk of the bytes, and no player's), or None: LittleFS does not
    mount it."""
    fs = flashfs.mount(str(image))
    if fs is None:
        return None
    out = {}
    for top, _dirs, names in fs.walk("/"):
        if top.startswith("/lib"):
            continue
        for name in names:
            path = top.rstrip("/") + "/" + name
            with fs.open(path, "rb") as f:
                out[path] = f.read()
    return out


def summary(results, seconds):
    """The figures of a sweep's results."""
    ratios = [r["ratio"] for r in results if r["ratio"] is not None]
    awake = [r["awake_ratio"] for r in results if r.get("awake_ratio") is not None]
    failed = [r for r in results if r["problems"]]
    return {
        "cut_points": len(results),
        "cut_erases": sum(1 for r in results if r["kind"] == "E"),
        "cut_programs": sum(1 for r in results if r["kind"] == "P"),
        "failures": len(failed),
        "formats": sum(1 for r in results if r["formatted"]),
        "lines_lost": sum(r["lines_lost"] for r in results),
        "restored_in_flight": sum(1 for r in results if r["matched"] == "in flight"),
        "restored_done": sum(1 for r in results if r["matched"] == "done"),
        "cold_boot_ratio_max": max(ratios) if ratios else None,
        "cold_boot_ratio_median": round(statistics.median(ratios), 3) if ratios else None,
        "awake_ratio_max": max(awake) if awake else None,
        "awake_ratio_median": round(statistics.median(awake), 3) if awake else None,
        "seconds": round(seconds, 1),
        "failed": ["press %d (%s) op %d (%s at 0x%X) at %.2f: %s" % (
            r["press"], r["button"], r["op"], r["kind"], r["offset"], r["fraction"],
            "; ".join(r["problems"])) for r in failed[:20]],
    }


def sync_point():
    """The press a sync comes before in the whole sweep: the second round's
    first (a round boundary, with its checkpoint and a full refresh), as
    after a night's first game is synced."""
    from pipkeeper.paths import repo_root
    n = rounds = 0
    for line in (repo_root() / "tests" / "data" / SCRIPT).read_text().splitlines():
        press = line.split("#")[0].strip()
        if not press:
            continue
        if "# round" in line:
            rounds += 1
            if rounds == 2:
                return n
        n += 1
    raise PipkeeperError("%s has no second round" % SCRIPT)


def run_build(firmware, log=print, fractions=FRACTIONS, workers=None, swept=None,
              update_points=UPDATE_POINTS):
    """The whole sweep on one build: the scorer flashed on a blank board
    (``pipkeeper flash``; nothing to flash on the own image), the scripted
    game on battery, a sync two thirds through, every op of every press
    cut at each of ``fractions``."""
    from pipkeeper.bench.device import Bench
    fw = images.load_firmware(firmware)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pipkeeper-bench-powercut-") as work:
        bench = Bench(firmware, os.path.join(work, "flashed"), log)
        sweep = Sweep(firmware, os.path.join(work, "sweep"), bench.clean, log=log, workers=workers)
        presses = sweep.presses
        swept = list(range(len(presses))) if swept is None else swept
        sync_at = sync_point()
        log("the clean run: %s on battery, each probed ..." % counted(len(swept), "press", "presses"))
        clean = sweep.clean(swept, sync_before=sync_at)
        cases = sweep.cases(clean, fractions)
        log("%s inside %s, %s ..." % (
            counted(len(cases), "cut"), counted(sum(len(p.ops) for p in clean), "flash op"),
            counted(sweep.workers, "worker")))
        results = sweep.run_cases(cases)
        figures = {"firmware": os.path.basename(fw.path), "build": fw.kind,
                   "presses": len(clean), "flash_ops": sum(len(p.ops) for p in clean),
                   "fractions": list(fractions), "sync_before_press": sync_at}
        figures.update(summary(results, time.monotonic() - t0))
        boots = [p.after.boot_ms for p in clean if p.after.boot_ms]
        figures["cold_boot_ms_median"] = round(statistics.median(boots), 1) if boots else None
        if update_points:
            log("cuts inside a firmware update ...")
            try:
                figures.update(update_cuts(firmware, clean[-1].after.image, os.path.join(work, "update"),
                                           update_points, log))
            except PipkeeperError as exc:        # the game sweep's figures stand
                figures["update_error"] = str(exc)
        figures["seconds_total"] = round(time.monotonic() - t0, 1)
    return figures


def update_cuts(firmware, base, work, points, log=print):
    """Item 3: cuts inside `pipkeeper flash` (pipkeeper.bench.powercut_update)
    on a board holding the game ``base``: on the own image, its update from
    an earlier release through BOOTSEL; on a stock one, the scorer's files
    sent again (--force)."""
    from pipkeeper.bench import powercut_update as upd
    fw = images.load_firmware(firmware)
    built = None
    if fw.scorer is not None:
        from pipkeeper.image import build
        earlier = build.build(fw.scorer.board, source=_source(), version="0.0.9", log=log)
        firmware = os.path.join(work, "earlier.uf2")
        os.makedirs(work, exist_ok=True)
        with open(firmware, "wb") as f:
            f.write(earlier.uf2())
        built = build.build(fw.scorer.board, source=_source(), log=log)
    update = upd.Update(firmware, base, work, built=built, log=log)
    return upd.run(update, points, UPDATE_FRACTIONS, log)


def run(firmwares=(), log=print, fractions=FRACTIONS, workers=None):
    """The figures of each build (upstream MicroPython of ../shared/rp2/
    when none is named): flat for one, ``{"builds": {...}}`` for several."""
    firmwares = list(firmwares) or [os.environ.get(images.ENV_FIRMWARE) or images.default_firmware()]
    if not firmwares[0]:
        raise PipkeeperError("name a MicroPython image with --firmware (or $%s)" % images.ENV_FIRMWARE)
    out = {}
    for fw in firmwares:
        if fw == "own":
            fw = own_image(log)
        figs = run_build(fw, log=log, fractions=fractions, workers=workers)
        out[figs["build"]] = figs
    return next(iter(out.values())) if len(out) == 1 else {"builds": out}


def own_image(log=print):
    """The scorer's own image for the Badger 2040, built (or found in the
    cache) from $PIPKEEPER_MICROPYTHON_SRC or ../shared/micropython/: the
    path of its UF2."""
    from pipkeeper.image import build
    built = build.build("badger2040", source=_source(), log=log)
    out = built.path.with_name("pipkeeper-badger2040-bench.uf2")
    built.write(out)
    return str(out)


def _source():
    """The MicroPython source the own image is built from: $PIPKEEPER_MICROPYTHON_SRC,
    else the tarball in ../shared/micropython/ (None: build says what to name)."""
    from pipkeeper.image import build
    src = os.environ.get(build.ENV_SOURCE)
    if not src:
        found = sorted((images.shared_rp2().parent / "micropython").glob("micropython-*.tar.gz"))
        src = str(found[-1]) if found else None
    return src
