"""Presses on USB power: the MicroPython unix port side of the second half
of tests/firmware/test_random_presses.py.

    micropython -X heapsize=N -m random_presses WORKDIR BUTTONS_FILE

(MICROPYPATH as for powercut.py: the compiled harness, firmware and engine.)

The presses of BUTTONS_FILE (one a line; the test writes the random series
it pressed in power-cycle mode with onepress.py) on USB power:
``firmware.app.main`` itself runs, with a board whose ``wake_button()`` is
None (a plain power-on) and whose ``wait_press()`` hands out the presses of
the file (and checks the press before each one), so one App takes all of
them, as on USB. The
flash is LittleFS over ``flashsim.Flash`` (WORKDIR/flash.img, 256 blocks
of 4K, formatted afresh) mounted at /flash.

Per press: nothing raises, exactly one panel update, the app does not end
on its error screen. Output: "BAD ..." lines (at most 50), then one
"RESULT {...}" line with counts ("refresh": one letter per panel update, F
a full refresh, P a fast one, the power-on's first); the records (and /log.txt) are copied to
WORKDIR/games/ (WORKDIR/log.txt) at the end.
"""

import gc
import json
import os

import flashsim as fsim
from usbsession import usb_session

NBLOCKS = 256


def out(*a):
    print(*a)


def run_usb(workdir, buttons):
    fsim.format_image(workdir + "/flash.img", NBLOCKS)
    dev = fsim.Flash(workdir + "/flash.img", NBLOCKS)
    fsim.mount(dev)
    board = fsim.board_class()()
    n = 0
    with open(buttons) as f:
        for line in f:
            n += 1
    # One byte per panel update, made before the firmware runs (a list grown
    # press by press would need ever bigger blocks of the firmware's heap).
    flags = bytearray(n + 2)
    update = board.update

    def recording_update(buf, full=False, old=None):
        if board.updates < len(flags):
            flags[board.updates] = 70 if full else 80     # "F" / "P"
        update(buf, full, old)

    board.update = recording_update
    counts = {"presses": 0, "errscreens": 0, "raised": 0, "update_mismatch": 0}
    bad = [0]
    state = {"i": 0, "b": None, "upd": 0, "app": None}
    f = open(buttons)

    def note(what):
        bad[0] += 1
        if bad[0] <= 50:
            out("BAD " + what)

    def wait_press():
        # main() asks for the next press once the last one (or the
        # power-on) is done: check that one, then hand out the next.
        app = state["app"]
        if state["b"] is not None:
            i, b = state["i"], state["b"]
            counts["presses"] += 1
            if board.updates != state["upd"] + 1:
                counts["update_mismatch"] += 1
                note("press %d (%s): %d panel updates" % (i, b, board.updates - state["upd"]))
            if app.ui.get("s") == "err":
                counts["errscreens"] += 1
                note("press %d (%s): error screen: %s" % (i, b, app.ui.get("m")))
        while True:
            line = f.readline()
            if not line:
                return None
            b = line.strip()
            if b:
                break
        state["i"] += 1
        state["b"] = b
        state["upd"] = board.updates
        return b

    try:
        # no wake button: a plain power-on; state["app"] for the checks in wait_press
        app = usb_session(board, wait_press, state)
    except BaseException as e:
        counts["raised"] += 1
        note("press %d (%s) raised %r" % (state["i"], state["b"], e))
        app = state["app"]
    f.close()
    bad = bad[0]
    st = app.store
    app = None
    state["app"] = None
    gc.collect()
    counts["min_free"] = gc.mem_free()
    counts["updates"] = board.updates
    counts["block_writes"] = dev.ops
    counts["bad"] = bad
    counts["refresh"] = bytes(flags[:board.updates]).decode()
    try:
        os.mkdir(workdir + "/games")
    except OSError:
        pass
    for name in st.list_games():
        fsim.copy_file(st.path("games", name), workdir + "/games/" + name)
    if st.size(st.path("log.txt")) > 0:
        fsim.copy_file(st.path("log.txt"), workdir + "/log.txt")
    fsim.umount()
    dev.close()
    out("RESULT " + json.dumps(counts))


def main():
    import sys
    run_usb(sys.argv[1], sys.argv[2])


if __name__ == "__main__":
    main()
