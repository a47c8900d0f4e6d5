"""Power cuts on USB power, in one process: the MicroPython unix port side
of the in-process power-cut tests in tests/firmware/test_power_cut.py and
of ``pipkeeper bench firmware``'s flash figures.

    micropython -X heapsize=16M -m usbpower play  WORKDIR
    micropython -X heapsize=16M -m usbpower sweep WORKDIR EVERY

(MICROPYPATH as mpbuild.py sets it.) The same harness as the cold-boot
runs: the flash is LittleFS on ``flashsim.Flash`` (WORKDIR/flash.img, every
block write journalled), and a flash after a cut is checked by
``powercut.check``; only the presses come to one App, as on USB power, so
a whole long game plays in seconds.

play: formats WORKDIR/flash.img (and keeps it as base.img), powers on, and
    hands one App every press of WORKDIR/presses.txt, with every block write
    journalled to WORKDIR/journal.bin. Writes what the cold-boot clean run
    writes for ``powercut.check``: steps.txt, record.dgn, clean.json. Prints
    "RESULT {...}": presses, ops (block writes), updates (panel updates,
    the power-on's included), blocks_per_press_mean / _max (distinct flash
    blocks a press writes), presses_over_2_blocks, final_record_bytes, path.
sweep: after a play, for every EVERY-th op k (and the last): the flash a
    power cut at op k leaves, op k torn and dropped, rebuilt from base.img
    and the journal, powered on in this process and checked with
    ``powercut.check``. Prints "RESULT {...}": cuts, failures (the first 20
    of them: k, mode, text), errscreens (cuts whose power-on showed the
    error screen that the next press cleared).
"""

import gc
import json
import struct
import sys

import flashsim as fsim
from usbsession import usb_session
import powercut

TestBoard = fsim.board_class()


class CountingFlash(fsim.Flash):
    """Notes the blocks each press writes (a program or an erase)."""

    def __init__(self, path, journal=None):
        fsim.Flash.__init__(self, path, fsim.NBLOCKS, journal)
        self.touched = {}

    def _op(self, kind, block, off, data):
        self.touched[block] = 1
        fsim.Flash._op(self, kind, block, off, data)


def play(workdir):
    img = workdir + "/flash.img"
    fsim.format_image(img)
    fsim.copy_file(img, workdir + "/base.img")
    journal = open(workdir + "/journal.bin", "wb")
    dev = CountingFlash(img, journal)
    fsim.mount(dev)
    board = TestBoard()
    presses = powercut.read_presses(workdir)
    steps = open(workdir + "/steps.txt", "w")
    state = {"app": None, "i": 0, "b": None, "first": 1}
    blocks = []

    def note():
        # the press (or the power-on) before this call is done: its step
        app = state["app"]
        st = app.store
        path = st.current()
        size = st.size(path) if path else -1
        steps.write(json.dumps([state["i"], state["b"], state["first"], dev.ops, size, app.ui]) + "\n")
        if state["b"] is not None:
            blocks.append(len(dev.touched))
        dev.touched = {}
        state["first"] = dev.ops + 1

    def wait_press():
        note()
        for b in presses:
            state["i"] += 1
            state["b"] = b
            return b
        return None

    usb_session(board, wait_press, state)
    steps.close()
    journal.close()
    st = state["app"].store
    path = st.current()
    size = st.size(path) if path else 0
    if path:
        fsim.copy_file(path, workdir + "/record.dgn")
    with open(workdir + "/clean.json", "w") as f:
        f.write(json.dumps({"path": path}))
    state["app"] = None
    fsim.umount()
    dev.close()
    n = len(blocks)
    powercut.out("RESULT " + json.dumps({
        "presses": state["i"], "ops": dev.ops, "updates": board.updates,
        "blocks_per_press_mean": sum(blocks) / n if n else 0,
        "blocks_per_press_max": max(blocks) if n else 0,
        "presses_over_2_blocks": sum(1 for x in blocks if x > 2),
        "final_record_bytes": size, "path": path,
    }))


def read_op(j):
    """The next op of the journal file ``j``: (kind, block, off, n, data)
    or None at its end."""
    head = j.read(fsim.HDR_LEN)
    if len(head) < fsim.HDR_LEN:
        return None
    kind, block, off, n = struct.unpack(fsim.HDR, head)
    return kind, block, off, n, j.read(n) if n else None


class UndoFlash(fsim.Flash):
    """Keeps what each block held before its first write since the last
    ``undo()``, which puts it back: a check's power-on writes (it repairs a
    torn record), and the next cut must start from the flash as it was."""

    def __init__(self, path):
        fsim.Flash.__init__(self, path, fsim.NBLOCKS)
        self.saved = {}

    def keep(self, block):
        if block not in self.saved:
            buf = bytearray(fsim.BS)
            self.f.seek(block * fsim.BS)
            self.f.readinto(buf)
            self.saved[block] = buf

    def _op(self, kind, block, off, data):
        self.keep(block)
        fsim.Flash._op(self, kind, block, off, data)

    def undo(self):
        for block in self.saved:
            self.f.seek(block * fsim.BS)
            self.f.write(self.saved[block])
        self.saved = {}


def sweep(workdir, every):
    img = workdir + "/cut.img"
    fsim.copy_file(workdir + "/base.img", img)
    with open(workdir + "/steps.txt") as f:
        total = 0
        for line in f:
            total = json.loads(line)[3]
    cuts = 0
    failures = []
    errscreens = 0
    j = open(workdir + "/journal.bin", "rb")
    dev = UndoFlash(img)        # the flash as ops 1..k-1 left it
    k = 0
    while True:
        op = read_op(j)
        if op is None:
            break
        k += 1
        if k % every == 0 or k == total:
            for mode in ("torn", "drop"):
                if mode == "torn":
                    dev.keep(op[1])
                    fsim.apply_op(dev.f, *op, torn=True)
                r = powercut.check_flash(workdir, dev, k)
                dev.undo()
                cuts += 1
                if r["status"] == "errscreen":
                    errscreens += 1
                elif r["status"] != "ok" and len(failures) < 20:
                    failures.append({"k": k, "mode": mode, "text": r["text"]})
                gc.collect()
        fsim.apply_op(dev.f, *op)
    dev.close()
    j.close()
    powercut.out("RESULT " + json.dumps({"cuts": cuts, "failures": failures,
                                         "errscreens": errscreens}))


def main():
    argv = sys.argv
    while argv and argv[0] not in ("play", "sweep"):
        argv = argv[1:]
    if argv[0] == "play":
        play(argv[1])
    else:
        sweep(argv[1], int(argv[2]))


if __name__ == "__main__":
    main()
