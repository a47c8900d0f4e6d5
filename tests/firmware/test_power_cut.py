"""A power cut at every block write of a scripted game: nothing acknowledged
is lost, the record replays, the board comes back.

The firmware runs on the MicroPython unix port (the compiled .mpy; a 160K
heap plus what the harness takes of it, measured: see mp/mpbuild.py) with
its flash on LittleFS (``VfsLfs2``, progsize 256 as on the rp2 port) over a
simulated flash of 128 blocks of 4096 bytes (mp/flashsim.py) mounted at
/flash, as on battery: every press is a cold boot, one micropython process
per press (mp/onepress.py: ``App(board)``, ``boot()``, ``press(b)``, the
state coming back from flash, on a fresh heap).

1. clean run: the script, a whole game planned by the firmware tests'
   planner (chicken-scratch, 3 players, quick tracking: set-up, every
   round's deal, plays, doubles, draws, passes, score entry, round sheets,
   fixes of past scores and the undo of one, the game's end) with undos and
   menu visits mixed in, is pressed once
   after a plain power-on; the device journals every block write ("op": a
   program or an erase, in order) and the test notes which ops each press
   did, what the record held and which screen it showed after it.
2. sweep: after a cut at op k the flash holds ops 1..k-1 plus op k torn
   (its first half done) or dropped (not done). The test rebuilds that
   image from the journal and powers the firmware on from it in a fresh
   micropython process (mp/powercut.py ``check``): the power-on raises
   nothing and updates the panel once; the game in progress is the clean
   run's record holding exactly what it held after the last acknowledged
   press (``press`` returned before op k) or after the press in flight,
   byte for byte (so every acknowledged record line is there); the screen
   is that same press's; the record replays with ``dgn.replay_lines``
   without warnings; no fault was logged. An error screen at power-on would
   be tolerated only if the next press cleared it (it is counted and
   listed). Every k from 1 to the clean run's op count with
   PIPKEEPER_FULL_FAULT_TESTS=1, both torn and dropped; by default every
   3rd k plus the first and last 20.
3. on USB power (mp/usbpower.py): one App takes every press of a whole
   game in one process (chickenfoot, quick tracking; and, slow, a long
   mexican-train game in full tracking) with the journal; then in that
   process the flash of a cut at every op (every 7th in the long game,
   PIPKEEPER_CUT_EVERY), torn and dropped, is powered on and checked as in
   2. The same run gives the flash blocks a press writes (at most 2 on
   average) and one panel update a press.
4. real cuts: for some k the press in flight runs again, from the flash
   the presses before it left, with the device's budget set to k (op k is
   torn or dropped and raises PowerCut, a BaseException the firmware cannot
   catch; the device is dead after it); once (three times in the full run)
   the whole script runs again from the blank flash that way. The flash it
   leaves must be byte for byte the image the sweep rebuilt for that k
   (so the sweep's images are what real cuts leave), the check passes on
   it, and when the power comes back on USB (``resume``: one App, no cold
   boots) pressing on from there ends the game with the clean run's record.
"""

import json
import os
import shutil
import struct
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "mp"))
import mpbuild  # noqa: E402

FULL = mpbuild.FULL
BS = 4096
NBLOCKS = 128
PROG, ERASE = 1, 2
HDR = struct.Struct("<BHHH")
WORKERS = 2

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800 if FULL else 300)]


# -- the script ------------------------------------------------------------------------

def script():
    """(presses, planner): a whole planned game with extra presses mixed in
    that leave the game where it was: undo + the same press again, and a
    trip through the menu."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    try:
        import planner                  # tests/firmware/planner.py
    except ImportError:
        from pipkeeper import planner   # (where it may move to)
    from shared_engine.engine import PLAY, DRAW, PASS

    presses, events, p = planner.plan_game("chicken-scratch", 3, 1, tracking="quick",
                                           fixes=_second_thoughts)
    n_setup = len(presses) - sum(n for _, n in p.per_event)
    out = list(presses[:n_setup])
    seen = {}
    pos = n_setup
    evs = p.per_event
    extra = 0
    for j, (ev, n) in enumerate(evs):
        seq = presses[pos:pos + n]
        pos += n
        out += seq
        nxt = evs[j + 1][0] if j + 1 < len(evs) else None
        turn = ev[0] in (PLAY, DRAW, PASS) and n == 1 and nxt is not None \
            and nxt[0] in (PLAY, DRAW, PASS)
        if not turn:
            continue
        c = seen.get(ev[0], 0) + 1
        seen[ev[0]] = c
        if c in (3, 20):
            out += ["UP", seq[0]]          # undo it, then record it again
            extra += 2
        elif ev[0] == DRAW and c == 10:
            out += ["DOWN", "DOWN", "UP", "C"]   # the menu, and back
            extra += 4
    assert pos == len(presses)
    assert extra >= 10, extra
    return out, p


def _second_thoughts(game, ev):
    """After the second round's score: a fix of round 1 (issue 24), undone,
    made again, and one of round 2 (the fix's own screens, its line and its
    undo are presses like any)."""
    from shared_engine.engine import FIX, SCORE, UNDO
    if ev[0] != SCORE or len(game.results) != 2:
        return ()
    out = []
    for r in (0, 1):
        res = game.results[r]
        s = 1 if res[2] == 0 else 0
        fix = (FIX, r + 1, s + 1, res[3][s] + 1, res[4][s])
        out += [fix, (UNDO,), fix] if r == 0 else [fix]
    return out


# -- the journal and the images -----------------------------------------------------------

def read_journal(path):
    data = Path(path).read_bytes()
    ops = []
    i = 0
    while i + HDR.size <= len(data):
        kind, block, off, n = HDR.unpack_from(data, i)
        i += HDR.size
        ops.append((kind, block, off, data[i:i + n]))
        i += n
    return ops


def apply_op(img, op, torn=False):
    """As flashsim.apply_op: an erase sets 0xFF, a program writes its
    bytes; torn: the first half only."""
    kind, block, off, data = op
    if kind == ERASE:
        n = BS // 2 if torn else BS
        img[block * BS:block * BS + n] = b"\xff" * n
        return
    n = len(data) // 2 if torn else len(data)
    a = block * BS + off
    img[a:a + n] = data[:n]


def images(base, ops, cases):
    """Yield (k, mode, image bytes) for the (k, mode) cases, k ascending:
    ops 1..k-1 done, and op k torn ("torn") or not at all ("drop")."""
    img = bytearray(base)
    want = {}
    for k, mode in cases:
        want.setdefault(k, []).append(mode)
    for k in range(1, len(ops) + 1):
        for mode in want.get(k, ()):
            if mode == "torn":
                c = bytearray(img)
                apply_op(c, ops[k - 1], torn=True)
                yield k, mode, bytes(c)
            else:
                yield k, mode, bytes(img)
        apply_op(img, ops[k - 1])


# -- running the harness -----------------------------------------------------------------

def parse(proc, what):
    res = None
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            res = json.loads(line[7:])
    if proc.returncode != 0 or res is None:
        raise AssertionError("%s failed (exit %d):\n%s\n%s" % (
            what, proc.returncode, proc.stdout[-3000:], proc.stderr[-3000:]))
    return res


class Harness:
    def __init__(self, micropython, build, workdir):
        self.workdir = Path(workdir)
        self.env = dict(mpbuild.micropython_env(build), PK_NBLOCKS=str(NBLOCKS))
        self.heap, self.extra = mpbuild.heap(micropython, build, "powercut", workdir)
        self.cmd = [micropython, "-X", "heapsize=%d" % self.heap, "-m", "powercut"]
        self.heap1, self.extra1 = mpbuild.heap(micropython, build, "onepress", workdir)
        self.one = [micropython, "-X", "heapsize=%d" % self.heap1, "-m", "onepress"]

    def run(self, *args, timeout=600):
        """powercut.py check|resume ..."""
        proc = subprocess.run(self.cmd + [str(a) for a in args], cwd=self.workdir,
                              env=self.env, capture_output=True, text=True, timeout=timeout)
        return parse(proc, "powercut " + " ".join(map(str, args)))

    def press(self, folder, button, ops, journal=None, budget=None, mode=None):
        """onepress.py in ``folder`` (its flash.img and last_ui.json)."""
        env = dict(self.env, PK_OPS=str(ops))
        if journal:
            env["PK_JOURNAL"] = str(journal)
        if budget:
            env["PK_BUDGET"] = str(budget)
            env["PK_CUT"] = mode
        proc = subprocess.run(self.one + [str(folder), button], cwd=folder, env=env,
                              capture_output=True, text=True, timeout=120)
        return parse(proc, "press %s" % button)


def play(h, folder, presses, journal=None, budget=None, mode=None):
    """Format a flash in ``folder``, power on, press the presses, one
    process each. Returns (steps, problems, kinds, min free) or, after a
    cut at op ``budget``, ("cut", the press in flight)."""
    folder.mkdir(exist_ok=True)
    h.press(folder, "format", 0)
    shutil.copyfile(folder / "flash.img", folder / "base.img")
    steps = []
    problems = []
    kinds = {}
    min_free = 1 << 30
    ops = 0
    kind = "setup"
    for i, b in enumerate(["poweron"] + list(presses)):
        first = ops + 1
        res = h.press(folder, b, ops, journal, budget, mode)
        if res.get("cut"):
            return "cut", i
        if i:
            kinds[kind] = kinds.get(kind, 0) + 1
            if res["updates"] != 1:
                problems.append("press %d: %d panel updates" % (i, res["updates"]))
        if not res["restored"]:
            problems.append("press %d: the cold boot did not restore the screen" % i)
        if res["err"]:
            problems.append("press %d (%s): error screen: %s" % (i, b, res["err"]))
        if res["log"]:
            problems.append("press %d (%s): a fault was logged" % (i, b))
        min_free = min(min_free, res["free"])
        ops = res["ops"]
        kind = res["kind"]
        steps.append([i, None if b == "poweron" else b, first, ops, res["size"], res["ui"]])
        path = res["path"]
    return steps, problems, kinds, min_free, path


@pytest.fixture(scope="module")
def clean(micropython_bin, tmp_path_factory, repo_root):
    """The clean run: (harness, its summary, presses, planner)."""
    build = mpbuild.build(repo_root)
    work = tmp_path_factory.mktemp("powercut")
    presses, plan = script()
    (work / "presses.txt").write_text("\n".join(presses) + "\n")
    h = Harness(micropython_bin, build, work)
    t0 = time.monotonic()
    steps, problems, kinds, min_free, path = play(h, work / "clean", presses,
                                                  journal=work / "journal.bin")
    h.press(work / "clean", "dump", 0)
    shutil.copyfile(work / "clean" / "base.img", work / "base.img")
    (work / "steps.txt").write_text("".join(json.dumps(s) + "\n" for s in steps))
    if path:
        shutil.copyfile(work / "clean" / "games" / Path(path).name, work / "record.dgn")
    res = {"presses": len(presses), "ops": steps[-1][3], "path": path, "kinds": kinds,
           "problems": problems, "min_free": min_free,
           "seconds": round(time.monotonic() - t0, 1)}
    (work / "clean.json").write_text(json.dumps(res))
    print("\nclean run: %d presses (one process each), %d block writes, %.1f s; heap %d "
          "(160K + %d for the harness), >= %d bytes free after a press"
          % (res["presses"], res["ops"], res["seconds"], h.heap1, h.extra1, min_free))
    return h, res, presses, plan, steps


def test_clean_run_plays_a_real_game(clean):
    h, res, presses, plan, steps = clean
    assert res["problems"] == [], res["problems"]
    assert res["presses"] == len(presses) >= 100
    # The record is the planned game (with the undos in it) and replays to
    # the same end.
    from shared_engine import dgn
    from shared_engine.engine import ROUND, PLAY, DRAW, PASS, SCORE, UNDO, FIX
    text = (h.workdir / "record.dgn").read_text()
    rec = dgn.read(text)
    kinds = {}
    for _, ev in rec.events:
        kinds[ev[0]] = kinds.get(ev[0], 0) + 1
    for k in (ROUND, PLAY, DRAW, PASS, SCORE, UNDO, FIX):
        assert kinds.get(k, 0) > 0, (k, kinds)
    g = dgn.replay(text)
    want = plan.ctx.game
    assert g.over and want.over
    assert g.totals == want.totals
    assert [r[1] for r in g.results] == [r[1] for r in want.results]
    assert [r[3] for r in g.results] == [r[3] for r in want.results]   # the fixes too
    for screen in ("setup", "dealer", "turn", "menu", "score", "sheet", "fix"):
        assert res["kinds"].get(screen, 0) > 0, res["kinds"]


def cases_for(total):
    if FULL:
        ks = range(1, total + 1)
    else:
        ks = sorted(set(range(1, total + 1, 3)) | set(range(1, 21))
                    | set(range(max(1, total - 19), total + 1)))
    return [(k, m) for k in ks for m in ("torn", "drop")]


def test_power_cut_sweep(clean):
    h, res, presses, plan, steps = clean
    total = res["ops"]
    cases = cases_for(total)
    base = (h.workdir / "base.img").read_bytes()
    ops = read_journal(h.workdir / "journal.bin")
    assert len(ops) == total
    results = []
    lock = threading.Lock()
    slots = threading.Semaphore(WORKERS * 3)    # images on disk at once

    def one(k, mode, path):
        try:
            r = h.run("check", h.workdir, path, k, timeout=120)
        except Exception as e:      # a crash of the harness is a failure too
            r = {"k": k, "status": "FAIL", "text": str(e)[-1500:], "press": None}
        finally:
            Path(path).unlink(missing_ok=True)
            slots.release()
        r["mode"] = mode
        with lock:
            results.append(r)

    t0 = time.monotonic()
    with ThreadPoolExecutor(WORKERS) as pool:
        futs = []
        for k, mode, img in images(base, ops, cases):
            slots.acquire()
            path = h.workdir / ("case_%d_%s.img" % (k, mode))
            path.write_bytes(img)
            futs.append(pool.submit(one, k, mode, path))
        for f in futs:
            f.result()
    secs = time.monotonic() - t0
    results.sort(key=lambda r: (r["k"], r["mode"]))
    fails = [r for r in results if r["status"] == "FAIL"]
    errs = [r for r in results if r["status"] == "errscreen"]
    ks = sorted({k for k, _ in cases})
    summary = ("power-cut sweep: %d block writes in the clean run (%d presses); "
               "%d cut points%s x torn/dropped = %d cases in %.1f s: %d ok, "
               "%d error screen cleared by the next press, %d FAILED"
               % (total, res["presses"], len(ks), "" if FULL else " (stride 3 + first/last 20)",
                  len(results), secs, len(results) - len(fails) - len(errs), len(errs), len(fails)))
    print("\n" + summary)
    for r in errs[:10]:
        print("  error screen: k=%d %s press %s: %s" % (r["k"], r["mode"], r["press"], r["text"]))
    lines = ["  k=%d %s (press %s): %s" % (r["k"], r["mode"], r["press"], r["text"])
             for r in fails[:40]]
    for line in lines:
        print(line)
    assert len(results) == len(cases)
    assert not fails, summary + "\n" + "\n".join(lines)


def strip_game_tag(text):
    """A record without its [Game ...] tag (a new game started again after
    a cut in its first press gets the next number)."""
    return "".join(x for x in text.splitlines(True) if not x.startswith("[Game "))


def real_cut_points(steps, total):
    """Some ks: the first op, set-up, the new-game press, presses that
    append a record line, presses that only move the UI, the last op."""
    new_game = next(s for s in steps if s[4] >= 0)
    events = [s for s, prev in zip(steps[1:], steps) if s[4] > prev[4] >= 0]
    ui_only = [s for s, prev in zip(steps[1:], steps) if s[4] == prev[4] >= 0 and s[3] >= s[2]]
    picks = {1, total, (new_game[2] + new_game[3]) // 2, new_game[3], steps[3][2]}
    n = 12 if FULL else 3
    for group in (events, ui_only):
        for s in group[len(group) // (n + 1)::max(1, len(group) // (n + 1))][:n]:
            picks.add(s[2])
            picks.add(s[3])
    return sorted(picks)


def test_real_power_cuts_match_the_sweep(clean):
    h, res, presses, plan, steps = clean
    total = res["ops"]
    base = (h.workdir / "base.img").read_bytes()
    ops = read_journal(h.workdir / "journal.bin")
    ks = real_cut_points(steps, total)
    cases = [(k, "torn" if i % 2 == 0 else "drop") for i, k in enumerate(ks)]
    whole = [ks[-2], ks[len(ks) // 2], ks[1]][:3 if FULL else 1]    # from the blank flash
    inflight = {}
    for k, _ in cases:
        inflight[k] = next(s for s in steps if s[3] >= k)
    before = [(inflight[k][2], "drop") for k, _ in cases]     # the flash before that press
    derived = {(k, m): img for k, m, img in images(base, ops, sorted(set(cases + before)))}
    clean_text = (h.workdir / "record.dgn").read_text()
    problems = []
    renamed = []
    t0 = time.monotonic()
    for k, mode in cases:
        step = inflight[k]
        folder = h.workdir / ("cut_%d" % k)
        if k in whole:
            got = play(h, folder, presses, budget=k, mode=mode)
            assert got == ("cut", step[0]), (k, got)
        else:
            folder.mkdir()
            (folder / "flash.img").write_bytes(derived[(step[2], "drop")])
            prev = steps[step[0] - 1][5] if step[0] > 0 else None
            if prev is not None:
                (folder / "last_ui.json").write_text(json.dumps(prev))
            b = step[1] or "poweron"
            r = h.press(folder, b, step[2] - 1, budget=k, mode=mode)
            assert r.get("cut") and r["ops"] == k, (k, r)
        img = folder / "flash.img"
        if img.read_bytes() != derived[(k, mode)]:
            problems.append("k=%d %s: the real cut left other bytes than the rebuilt image" % (k, mode))
        chk = h.run("check", h.workdir, img, k)
        if chk["status"] != "ok":
            problems.append("k=%d %s: %s %s" % (k, mode, chk["status"], chk["text"]))
            continue
        first = max(1, chk["match"] + 1)
        if first <= len(presses):
            rs = h.run("resume", h.workdir, img, first)
            got = (h.workdir / "resume.dgn").read_text() if rs.get("path") else ""
            if rs.get("error") or strip_game_tag(got) != strip_game_tag(clean_text):
                problems.append("k=%d %s: the game did not go on to the clean run's end "
                                "(USB session from press %d): %s" % (k, mode, first, rs))
            elif rs["path"] != res["path"]:
                renamed.append("k=%d %s: the game went on as %s; the board also keeps %s"
                               % (k, mode, rs["path"], rs["records"]))
        shutil.rmtree(folder)
    print("\nreal power cuts: %d (at ops %s; %s from the blank flash, the others from the "
          "flash before the press in flight), each rebuilt image identical, checked and "
          "played on to the end on USB power, in %.1f s; %d problems"
          % (len(cases), ks, whole, time.monotonic() - t0, len(problems)))
    for line in renamed:
        print("  " + line)
    assert not problems, "\n".join(problems)


# -- on USB power: a whole game in one process, a cut at every op ------------------------

def usb_power_run(micropython, root, work, presses, every):
    """(play's RESULT, sweep's RESULT) of mp/usbpower.py over ``presses``."""
    build = mpbuild.build(root)
    work.mkdir(exist_ok=True)
    (work / "presses.txt").write_text("\n".join(presses) + "\n")
    env = dict(mpbuild.micropython_env(build), PK_NBLOCKS=str(NBLOCKS))
    got = []
    for args in (["play", work], ["sweep", work, every]):
        proc = subprocess.run([micropython, "-X", "heapsize=16M", "-m", "usbpower"]
                              + [str(a) for a in args], cwd=work, env=env,
                              capture_output=True, text=True, timeout=1200)
        got.append(parse(proc, "usbpower " + args[0]))
    return got


def test_power_cut_at_every_block_write_on_usb_power(micropython_bin, repo_root, tmp_path):
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    from planner import plan_game
    # set-up included: a whole short game of well over 100 presses
    presses, _, _ = plan_game("chickenfoot", 3, 5, "quick", {"rounds": "9 8"})
    assert len(presses) >= 100
    play, sweep = usb_power_run(micropython_bin, repo_root, tmp_path / "usb", presses, 1)
    assert sweep["failures"] == [], sweep["failures"][:3]
    assert sweep["cuts"] == 2 * play["ops"] > 2 * len(presses)
    assert play["presses"] == len(presses)
    assert play["updates"] == len(presses) + 1
    assert play["blocks_per_press_mean"] <= 2
    print("\non USB power: %d presses, %d block writes, %d cuts checked (%d error screens "
          "cleared by the next press); %.2f blocks a press (at most %d)"
          % (play["presses"], play["ops"], sweep["cuts"], sweep["errscreens"],
             play["blocks_per_press_mean"], play["blocks_per_press_max"]))


def test_power_cuts_in_a_long_full_tracking_game(micropython_bin, repo_root, tmp_path):
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    from planner import plan_game
    presses, _, _ = plan_game("mexican-train", 4, 2, "full", {"rounds": "12 11 10"})
    every = int(os.environ.get("PIPKEEPER_CUT_EVERY", "7"))
    play, sweep = usb_power_run(micropython_bin, repo_root, tmp_path / "usb", presses, every)
    assert sweep["failures"] == [], sweep["failures"][:3]
    assert play["updates"] == len(presses) + 1
    assert play["blocks_per_press_mean"] <= 2
