# Runs on the MicroPython unix port (not collected by pytest):
#
#   micropython -X heapsize=16M mp_flash.py PRESSES_FILE MPY_TREE [CUTS]
#
# The firmware on LittleFS (VfsLfs2) over a RAM block device, as on the
# board (4096-byte blocks, 256-byte programs like the RP2040 port). One run
# plays the presses (the app with an in-process board), logging every block
# write and erase and, after each press, the record's text and the number of
# block operations so far. Then, for the power cut at each block operation k
# (before it, and, for a write, with only its first half done): a copy of
# the flash as it was at that moment is mounted and the firmware boots from
# it. Every acknowledged press (one whose panel update happened before the
# cut) must be in the record; the record must replay; the boot must show a
# screen, not an error. Prints one JSON object.
#
# CUTS: "all" (default) or a number N: every N-th operation.

import sys
import os
import json
import gc
import vfs

PRESSES, TREE = sys.argv[1], sys.argv[2]
CUTS = sys.argv[3] if len(sys.argv) > 3 else "all"
sys.path.insert(0, TREE)

BS = 4096
NB = 64
PROG = 256


class RAMDev:
    """A block device with the extended interface LittleFS uses."""

    def __init__(self, data, log=None):
        self.data = data
        self.log = log

    def readblocks(self, n, buf, off=0):
        a = n * BS + off
        buf[:] = self.data[a:a + len(buf)]

    def writeblocks(self, n, buf, off=None):
        if off is None:
            # a whole-block write: erase first, as the simple interface does
            self.ioctl(6, n)
            off = 0
        a = n * BS + off
        if self.log is not None:
            self.log.append((0, n, off, bytes(buf)))
        self.data[a:a + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:
            return NB
        if op == 5:
            return BS
        if op == 6:
            if self.log is not None:
                self.log.append((1, arg, 0, None))
            a = arg * BS
            self.data[a:a + BS] = b"\xff" * BS
            return 0
        return 0


from firmware.board import Board  # noqa: E402
from firmware import app as appmod  # noqa: E402


class Board0(Board):
    def __init__(self):
        self.flash_root = "/fl"
        self.updates = 0

    def update(self, buf, full=False):
        self.updates += 1
        self.last = bytes(buf)


def mount(data, log=None):
    dev = RAMDev(data, log)
    fs = vfs.VfsLfs2(dev, progsize=PROG)
    vfs.mount(fs, "/fl")
    return dev


def record_text(st):
    p = st.current()
    if not p:
        return ""
    with open(p) as f:
        return f.read()


def main():
    presses = [x.strip() for x in open(PRESSES).read().split() if x.strip()]
    data = bytearray(b"\xff" * (BS * NB))
    vfs.VfsLfs2.mkfs(RAMDev(data), progsize=PROG)
    image0 = bytes(data)
    log = []
    mount(data, log)
    board = Board0()
    a = appmod.App(board)
    a.boot()
    a.render(True)
    # the record only ever grows: an acknowledged state is a length of it
    acks = [(len(log), 0)]
    blocks = []
    for b in presses:
        n0 = len(log)
        a.press(b)
        touched = {}
        for op in log[n0:]:
            touched[op[1]] = 1
        blocks.append(len(touched))
        p = a.store.current()
        acks.append((len(log), a.store.size(p) if p else 0))
    final_text = record_text(a.store)
    vfs.umount("/fl")
    total = len(log)
    # -- the sweep -------------------------------------------------------------
    step = 1 if CUTS == "all" else int(CUTS)
    cuts = 0
    failures = []
    cur = bytearray(image0)
    applied = 0

    def apply_op(img, op, half=False):
        kind, n, off, buf = op
        if kind == 1:
            a0 = n * BS
            img[a0:a0 + (BS // 2 if half else BS)] = b"\xff" * (BS // 2 if half else BS)
        else:
            a0 = n * BS + off
            m = len(buf) // 2 if half else len(buf)
            img[a0:a0 + m] = buf[:m]

    ai = 0
    for k in range(total + 1):
        while applied < k:
            apply_op(cur, log[applied])
            applied += 1
        if k % step and k != total:
            continue
        while ai + 1 < len(acks) and acks[ai + 1][0] <= k:
            ai += 1
        want = final_text[:acks[ai][1]]
        variants = [None] if k == total else [None, "half"]
        for v in variants:
            img = bytearray(cur)
            if v == "half":
                apply_op(img, log[k], half=True)
            cuts += 1
            why = check(img, want)
            if why:
                failures.append({"k": k, "variant": v, "why": why})
                if len(failures) > 20:
                    break
        gc.collect()
    per_press = blocks
    print(json.dumps({
        "presses": len(presses),
        "block_ops": total,
        "cuts": cuts,
        "failures": failures,
        "blocks_per_press_mean": sum(per_press) / len(per_press) if per_press else 0,
        "blocks_per_press_max": max(per_press) if per_press else 0,
        "presses_over_2_blocks": sum(1 for x in per_press if x > 2),
        "final_record_bytes": len(final_text),
        "updates": board.updates,
    }))


def check(img, want):
    from shared_engine import dgn
    try:
        mount(img)
    except OSError as e:
        return "mount: %s" % e
    try:
        board = Board0()
        a = appmod.App(board)
        a.boot()
        a.render(True)
        text = record_text(a.store)
        if not text.startswith(want):
            return "acknowledged presses lost: %d bytes kept of %d" % (len(text), len(want))
        if want and text:
            dgn.replay(text)
        if a.ui.get("s") == "err":
            return "error screen: %s" % a.ui.get("m")
        if board.updates != 1:
            return "%d updates at boot" % board.updates
        if not any(board.last):
            return "blank screen"
        try:
            os.stat("/fl/log.txt")
            return "a fault was logged: " + open("/fl/log.txt").read()[-200:]
        except OSError:
            pass
    except Exception as e:
        return "%s: %s" % (type(e).__name__, e)
    finally:
        vfs.umount("/fl")
    return None


main()
