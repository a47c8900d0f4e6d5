"""Power cuts: the MicroPython unix port side of the checks in
tests/firmware/test_power_cut.py (the presses themselves run one process
each with onepress.py; on USB power, all in one process, usbpower.py).

    micropython -X heapsize=N -m powercut check  WORKDIR IMAGE K
    micropython -X heapsize=N -m powercut resume WORKDIR IMAGE FROM

(MICROPYPATH as mpbuild.py sets it. Run from a folder outside the checkout,
or the source packages there would shadow the compiled ones.)

WORKDIR holds the clean run, written by the test: presses.txt (one button
a line), steps.txt (one JSON line per press, 0 = the power-on:
[i, button, its first op, its last op, record size after (-1: no game),
ui after]; press i was acknowledged once its last op was done),
record.dgn (the final record), clean.json ({"path": the record's path on
the board, ...}). The flash is LittleFS on ``flashsim.Flash`` mounted at
/flash (128 blocks).

check: power on from the flash image IMAGE (what a cut at op K left) in
    this fresh process, as the board does when the power comes back
    (``firmware.app.main`` with no wake button and no presses: boot and one
    full render), and compare with the clean run (see ``check``). Prints "RESULT {...}" with
    "status": "ok" | "errscreen" | "FAIL", "text", "match" (the press whose
    state the flash holds: the acknowledged one or the one in flight).
    IMAGE is changed (the power-on may repair the record).

resume: after a check, the power comes back on USB and the game goes on:
    ``firmware.app.main`` runs with no wake button (a plain power-on) and
    a board whose ``wait_press()`` hands out presses FROM..end, so one App
    takes them all, as on USB; the final record goes to WORKDIR/resume.dgn
    for the test to compare with the clean one.
"""

import gc
import json
import sys

import flashsim as fsim
from usbsession import usb_session
from firmware import app as fapp

TestBoard = fsim.board_class()
MOUNT = fsim.MOUNT


def out(*a):
    print(*a)
    try:
        sys.stdout.flush()
    except AttributeError:
        pass


def read_presses(workdir):
    """The presses, one at a time (no list on the heap)."""
    with open(workdir + "/presses.txt") as f:
        for x in f:
            x = x.strip()
            if x:
                yield x


# -- checking a flash after a cut -------------------------------------------------

def steps_at(workdir, k):
    """(the last press acknowledged before op k, the press in flight at op
    k), as steps.txt lines; before the power-on, a virtual step -1."""
    prev = [-1, None, 0, 0, -1, {}]
    with open(workdir + "/steps.txt") as f:
        for line in f:
            cur = json.loads(line)
            if cur[3] >= k:
                return prev, cur
            prev = cur
    raise ValueError("op %d is past the clean run" % k)


def clean_prefix_equal(path, size, clean):
    """The file at ``path`` is ``size`` bytes, the clean record's first."""
    with open(path, "rb") as a:
        with open(clean, "rb") as b:
            left = size
            while left > 0:
                x = a.read(256 if left > 256 else left)
                y = b.read(len(x))
                if not x or x != y:
                    return False
                left -= len(x)
            return a.read(1) == b""


def tail(path, n=400):
    with open(path, "rb") as f:
        sz = f.seek(0, 2)
        f.seek(sz - n if sz > n else 0)
        return f.read().decode().replace("\n", " | ")


def check(workdir, prev, cur, clean_path):
    """The firmware powers on from the mounted flash. Returns (status,
    text, matched step or None), status "ok", "errscreen" (the power-on
    showed the error screen and the next press cleared it) or "FAIL".

    Checks: the power-on raises nothing and updates the panel once; the
    game in progress is the clean run's record, holding exactly what it
    held after the acknowledged press or after the one in flight (byte for
    byte); the screen is the one of that same press (unless it is the error
    screen, which one press must clear); the record replays with
    dgn.replay_lines without warnings (a torn line was repaired); no fault
    was logged without an error screen."""
    board = TestBoard()
    try:
        app = fapp.main(board)   # no wake button, no presses: a plain power-on
    except BaseException as e:
        return "FAIL", "power-on raised %r" % (e,), None
    if board.updates != 1:
        return "FAIL", "power-on gave %d panel updates" % board.updates, None
    err = app.ui.get("m") if app.ui.get("s") == "err" else None
    st = app.store
    ui = json.loads(json.dumps(app.ui))     # as steps.txt has it
    # The game let go before the check opens a file (as a fault sheds the
    # heap; a next press restores it): the firmware's heap is the board's,
    # and since it keeps the panel's picture module (issue 33) a late
    # game's power-on left no 1,200 bytes for LittleFS's file cache.
    app.shed()
    gc.collect()
    path = st.current()
    size = st.size(path) if path else -1
    note = ""
    if err is not None:
        note = "error screen at power-on: %s" % err
        try:
            app.press("A")
        except BaseException as e:
            return "FAIL", note + "; the next press raised %r" % (e,), None
        if board.updates != 2:
            return "FAIL", note + "; the next press gave %d updates" % (board.updates - 1), None
        if app.ui.get("s") == "err":
            return "FAIL", note + "; it stays after a press: %s" % app.ui.get("m"), None
    app = None
    gc.collect()
    match = None
    for step in (prev, cur):
        if size == step[4] and (err is not None or ui == step[5]):
            match = step
    if match is None:
        if size not in (prev[4], cur[4]):
            if path is None:
                what = "no game in progress: the acknowledged record (%d bytes) is lost" % prev[4]
            else:
                what = "record %s is %d bytes, not %d (acknowledged) or %d (in flight)" % (
                    path, size, prev[4], cur[4])
            return "FAIL", what + ("; " + note if note else ""), None
        return "FAIL", "screen %s is neither the acknowledged %s nor the in-flight %s" % (
            ui, prev[5], cur[5]), None
    if path is not None:
        if path != clean_path:
            return "FAIL", "current game %s, not %s" % (path, clean_path), None
        if not clean_prefix_equal(path, size, workdir + "/record.dgn"):
            return "FAIL", "record differs from the clean run's first %d bytes" % size, None
        from shared_engine import dgn
        try:
            with open(path, "rb") as f:
                g = dgn.replay_lines(f, 2)
        except Exception as e:
            return "FAIL", "record does not replay: %r" % (e,), None
        if g.warnings:
            return "FAIL", "replay warnings: %s" % (g.warnings,), None
        g = None
    log = st.path("log.txt")
    if st.size(log) > 0 and err is None:
        return "FAIL", "a fault was logged: " + tail(log), None
    if err is not None:
        return "errscreen", note + " | log: " + tail(log), match
    return "ok", "", match


def check_flash(workdir, dev, k):
    """``check`` on the flash device ``dev`` (holding what a cut at op
    ``k`` left): {"k", "press" (in flight), "status", "text", "match"}."""
    with open(workdir + "/clean.json") as f:
        clean_path = json.loads(f.read())["path"]
    prev, cur = steps_at(workdir, k)
    gc.collect()
    try:
        fsim.mount(dev)
    except Exception as e:
        status, text, match = "FAIL", "LittleFS does not mount: %r" % (e,), None
    else:
        status, text, match = check(workdir, prev, cur, clean_path)
        fsim.umount()
    return {"k": k, "press": cur[0], "status": status, "text": text,
            "match": match[0] if match else None}


def run_check(workdir, img, k):
    dev = fsim.Flash(img)
    res = check_flash(workdir, dev, k)
    dev.close()
    out("RESULT " + json.dumps(res))


def run_resume(workdir, img, first):
    dev = fsim.Flash(img)
    fsim.mount(dev)
    board = TestBoard()
    res = {"from": first}
    presses = read_presses(workdir)
    state = {"i": 0, "n": 0, "app": None, "b": None}

    def wait_press():
        # main() asks for the next press once the last one (or the
        # power-on) is done: stop at an error screen, else hand it out.
        app = state["app"]
        if state["b"] is not None and app.ui.get("s") == "err":
            res["error"] = "press %d: %s" % (state["i"], app.ui.get("m"))
            return None
        for b in presses:
            state["i"] += 1
            if state["i"] >= first:
                state["n"] += 1
                state["b"] = b
                return b
        return None

    usb_session(board, wait_press, state)    # a plain power-on, then the presses on USB
    n = state["n"]
    state["app"] = None
    gc.collect()
    from firmware.storage import Storage
    st = Storage(MOUNT)
    if "error" in res and st.size(st.path("log.txt")) > 0:
        res["log"] = tail(st.path("log.txt"), 700)
    path = st.current()
    res["presses"] = n
    res["updates"] = board.updates
    res["path"] = path
    res["records"] = st.list_games()
    if path:
        fsim.copy_file(path, workdir + "/resume.dgn")
    fsim.umount()
    dev.close()
    out("RESULT " + json.dumps(res))


def main():
    argv = sys.argv
    while argv and argv[0] not in ("check", "resume"):
        argv = argv[1:]
    mode = argv[0]
    workdir = argv[1]
    if mode == "check":
        run_check(workdir, argv[2], int(argv[3]))
    else:
        run_resume(workdir, argv[2], int(argv[3]))


if __name__ == "__main__":
    main()
