"""One press on battery, as the board does it: the MicroPython unix port
side of tests/firmware/test_random_presses.py and test_power_cut.py.

    micropython -X heapsize=N -m onepress WORKDIR BUTTON [replay]
    micropython -X heapsize=N -m onepress WORKDIR poweron
    micropython -X heapsize=N -m onepress WORKDIR format
    micropython -X heapsize=N -m onepress WORKDIR dump

(MICROPYPATH as mpbuild.py sets it: the compiled harness, firmware and
engine.)

The process is one cold boot woken by BUTTON: the flash (WORKDIR/flash.img,
LittleFS over ``flashsim.Flash``; formatted when missing) is mounted at
/flash, then ``firmware.app.main`` runs with a board whose
``wake_button()`` is BUTTON (it boots, handles the press, and returns, as
this board has no more presses). The only other thing between the boot and
the press is a comparison of the UI the boot restored with the one the
previous press left (WORKDIR/last_ui.json, written by the previous process;
a dict compare, nothing allocated), made by a subclass of App whose boot()
does it. This script is small on purpose: the firmware's heap is tight,
and whatever a harness keeps on it shifts the firmware's objects.
``poweron`` is a plain power-on instead (no wake button: main() renders);
``format`` only formats the flash; ``dump`` copies /games/* and /log.txt
out of the flash into WORKDIR.

Environment: PK_NBLOCKS (flash size in 4K blocks, default 256);
PK_JOURNAL (a file: every block write is appended to it, see flashsim);
PK_OPS (block writes done before this process: the device counts on from
there); PK_BUDGET=K and PK_CUT=torn|drop: a power cut at op K (the op is
torn or dropped, then the device is dead and PowerCut, which the firmware
cannot catch, ends the press: the image file is what the flash holds).

After the press: one "RESULT {...}" line: updates (panel updates), full
(whether the last update was a full refresh), err
(the error screen's message or null), restored (the boot restored the
previous UI), ui (the UI after the press), kind (the screen the next press
lands on), msg (a refusal shown), path and size (the game in progress),
log (bytes in /log.txt), ops (block writes so far), free (heap free after
the press); with ``replay``, "replay": the game in progress replays with
``dgn.replay_lines`` ("ok" or the error). After a cut: {"cut": true,
"ops": ...}. WORKDIR/last_ui.json gets the UI.
"""

import json
import os
import sys

import flashsim as fsim


def dump(work):
    dev = fsim.Flash(work + "/flash.img", NBLOCKS)
    fsim.mount(dev)
    try:
        os.mkdir(work + "/games")
    except OSError:
        pass
    for name in os.listdir(fsim.MOUNT + "/games"):
        fsim.copy_file(fsim.MOUNT + "/games/" + name, work + "/games/" + name)
    try:
        fsim.copy_file(fsim.MOUNT + "/log.txt", work + "/log.txt")
    except OSError:
        pass
    fsim.umount()
    dev.close()
    print("RESULT {}")


NBLOCKS = int(os.getenv("PK_NBLOCKS") or 256)


def main():
    work = sys.argv[1]
    button = sys.argv[2]
    if button == "dump":
        dump(work)
        return
    img = work + "/flash.img"
    try:
        open(img, "rb").close()
    except OSError:
        fsim.format_image(img, NBLOCKS)
    if button == "format":
        print("RESULT {}")
        return
    try:
        with open(work + "/last_ui.json") as f:
            last = json.loads(f.read())
    except OSError:
        last = None
    journal = os.getenv("PK_JOURNAL")
    journal = open(journal, "ab") if journal else None
    dev = fsim.Flash(img, NBLOCKS, journal=journal)
    dev.ops = int(os.getenv("PK_OPS") or 0)
    dev.budget = int(os.getenv("PK_BUDGET") or 0)
    dev.torn = os.getenv("PK_CUT") != "drop"
    wake = None if button == "poweron" else button
    seen = [True]
    try:
        fsim.mount(dev)
        board = fsim.board_class()(battery=True)
        board.wake_button = lambda: wake
        from firmware import app as fapp
        Base = fapp.App

        class App(Base):
            # main() itself: App(board), boot(), the wake button's press
            # (or a plain power-on's render); only this boot() also notes
            # whether the UI came back as the last press left it.
            def boot(self):
                Base.boot(self)
                seen[0] = last is None or self.ui == last

        fapp.App = App
        app = fapp.main(board)
        restored = seen[0]
    except fsim.PowerCut:
        # The power is gone: nothing more reaches the flash. (No umount:
        # it would try to write.)
        dev.close()
        if journal is not None:
            journal.close()
        print("RESULT " + json.dumps({"cut": True, "ops": dev.ops}))
        return
    from firmware import core
    st = app.store
    ui = app.ui
    res = {"updates": board.updates, "full": board.last_full,
           "err": ui.get("m") if ui.get("s") == "err" else None,
           "restored": restored, "ui": ui, "kind": core.kind(app.ctx, ui),
           "msg": ui.get("msg"), "path": st.current()}
    res["size"] = st.size(res["path"]) if res["path"] else -1
    res["log"] = max(0, st.size(st.path("log.txt")))
    app = None
    import gc
    gc.collect()
    res["free"] = gc.mem_free()
    if len(sys.argv) > 3 and res["path"]:
        from shared_engine import dgn
        try:
            with open(res["path"], "rb") as f:
                g = dgn.replay_lines(f, 2)
            res["replay"] = "ok" if not g.warnings else "warnings %r" % (g.warnings,)
        except Exception as e:
            res["replay"] = repr(e)
    fsim.umount()
    res["ops"] = dev.ops
    dev.close()
    if journal is not None:
        journal.close()
    with open(work + "/last_ui.json", "w") as f:
        f.write(json.dumps(ui))
    print("RESULT " + json.dumps(res))


if __name__ == "__main__":
    main()
