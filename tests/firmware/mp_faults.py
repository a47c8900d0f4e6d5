# The fault path on the MicroPython unix port (not collected by pytest):
#   micropython -X heapsize=160K mp_faults.py MPY_TREE WORKDIR NAME
# test_fault_steps.py runs each NAME. A file of its own, small: the test
# file is compiled into the same 160 KB heap as the firmware it tests, and
# a press that restores a game needs the room a board has (mp_units.py
# alone takes some 50 KB of it).

import sys
import os
sys.path.insert(0, sys.argv[1])
from shared_engine import fill  # noqa: E402,F401
WORK = sys.argv[2]
NAME = sys.argv[3]
# One case of a test that has several (t_a_fault_at_each_step...): each runs
# on a heap of its own, as each is a board's own boot (one process for all
# left the last cases no 4.7 KB block for a new App's framebuffer).
CASE = int(sys.argv[4]) if len(sys.argv) > 4 else None
STEP_CASES = 14     # t_a_fault_at_each_step...'s cases (test_fault_steps.py runs each)


from firmware.board import Board  # noqa: E402


class _Board(Board):
    """A panel that keeps each frame's CRC (4.7 KB a frame would fill the heap)."""
    flash_root = WORK
    name = "test"

    def __init__(self):
        self.frames = []

    def prepare(self):
        pass

    def update(self, buf, full=False, old=None):
        from binascii import crc32
        self.frames.append((crc32(buf), full))


def _crc_of(draw):
    """The CRC of a frame drawn by ``draw(fb)``."""
    import framebuf
    from binascii import crc32
    buf = bytearray(4736)
    draw(framebuf.FrameBuffer(buf, 296, 128, framebuf.MONO_HLSB))
    return crc32(buf)


def _fill_heap(keep):
    """Fill the heap with small blocks held by ``keep``, as a press that ran
    out of memory leaves it."""
    try:
        while True:
            keep.append(bytearray(64))
    except MemoryError:
        pass


def t_a_fault_on_a_full_heap_tells_players_logs_and_the_next_press_goes_on():
    # Issue 22: a press ran out of memory with the heap full of the game and
    # its modules; the error screen then could not be imported and the raw
    # exception was drawn cut mid-word, and the log was lost.
    from firmware import app, core
    from firmware.flows.error import say
    from firmware.screens import error
    mem = _crc_of(lambda fb: error.draw({"message": say("mem")}, fb))
    a = app.App(_Board())
    a.boot()
    a.render(True)

    def heavy_draw():
        a.ctx.game = None               # (roomy calls this three times: the last ballast goes first)
        a.ctx.game = ballast = []       # what the press holds: the game's
        _fill_heap(ballast)
        raise MemoryError("memory allocation failed, allocating 640 bytes")

    a.draw = heavy_draw
    a.press("A")
    del a.draw
    frame, full = a.board.frames[-1]
    assert full and a.ui["s"] == "err" and a.ui["m"].startswith("MemoryError"), a.ui
    assert frame == mem                 # the players' sentence, as ever
    log = open(WORK + "/log.txt").read()
    assert "MemoryError: memory allocation failed, allocating 640 bytes" in log, log
    # The next press carries on: the set-up's first page again.
    a.press("A")
    assert a.ui.get("s") != "err", a.ui
    assert core.kind(a.ctx, a.ui) == "setup"
    assert a.board.frames[-1][0] != frame
    a.press("A")
    assert a.ui.get("pg") == 1, a.ui


_GAME = '[Rules "chickenfoot"]\n[Players "Ann" "Bob" "Cy"]\n[Tracking "quick"]\nround 9-9 lead 1\n'


def _game_on_flash():
    """A fresh flash with a game in progress (Ann to play); its record's path."""
    from firmware.storage import Storage
    for name in ("log.txt", "log.old", "pipkeeper/ui.json", "pipkeeper/checkpoint"):
        try:
            os.remove(WORK + "/" + name)
        except OSError:
            pass
    st = Storage(WORK)
    st.ensure_dirs()
    path = st.path("games", "0001.dgn")
    with open(path, "w") as f:
        f.write(_GAME)
    st.set_current(path)
    return path


def _events(path):
    return [l for l in open(path).read().split("\n") if l and l[0] != "["]


def _inject(obj, name, exc, app_=None):
    """``obj.name`` raises ``exc`` (the heap filled first, held as the game
    is, when ``app_`` is given) until the function returned is called."""
    orig = getattr(obj, name)

    def failing(*args, **kw):
        if app_ is not None:
            app_.ctx.game = ballast = []
            _fill_heap(ballast)
        raise exc

    setattr(obj, name, failing)
    return lambda: setattr(obj, name, orig)


def t_a_fault_at_each_step_of_a_press_and_the_next_press_recovers():
    # Issue 22: PRODUCT.md's promise, step by step. A fault where the press
    # works (the restore, the step, the drawing, the record's write, its
    # tags) shows the players' sentence and is logged; the press after it
    # dismisses it and the one after that plays on, the record whole. A
    # fault after the update (the panel, ui.json, the checkpoint) is logged
    # and the press itself goes on. Out of memory with the heap full, and a
    # flash error.
    import gc
    from firmware import app, core
    from firmware.storage import Storage
    from firmware.flows.error import say, kind
    from firmware.screens import error

    def board_with_game():
        gc.collect()
        path = _game_on_flash()
        a = app.App(_Board())
        a.boot()
        a.render(True)
        assert core.kind(a.ctx, a.ui) == "turn", a.ui
        return a, path

    # the error screens to expect, drawn while the heap is whole
    shown = {}
    for k in ("mem", "flash", "panel"):
        shown[k] = _crc_of(lambda fb: error.draw({"message": say(k)}, fb))

    def check_shown(a, where, k):
        assert a.ui.get("s") == "err" and a.ui["w"] == where, (where, a.ui)
        assert kind(a.ui)[0] == k, (where, a.ui)
        assert a.board.frames[-1][0] == shown[k], (where, open(WORK + "/log.txt").read())
        assert ("[%s]" % where) in open(WORK + "/log.txt").read(), where

    def check_goes_on(a, path, before):
        # The record is whole: the press's play is in it or not (a drawing
        # that failed came after the play was written), never half of it.
        mid = _events(path)
        assert mid in (before, before + ["1 play"]), mid
        n = len(a.board.frames)
        a.press("A")                        # dismisses the error screen
        assert a.ui.get("s") != "err", (a.ui, open(WORK + "/log.txt").read()[-700:])
        assert len(a.board.frames) == n + 1
        assert _events(path) == mid
        a.press("A")                        # and the game goes on
        seat = len(mid) - len(before) + 1
        assert _events(path) == mid + ["%d play" % seat], (_events(path), a.ui)

    def in_a_press(obj, name, where, exc, k):
        a, path = board_with_game()
        before = _events(path)
        stop = _inject(obj, name, exc, a if exc is full else None)
        a.press("A")                    # however often App.roomy tries
        stop()
        check_shown(a, where, k)
        check_goes_on(a, path, before)

    def in_a_boot(name, exc, k):
        # the restore of a cold boot (and its tags)
        path = _game_on_flash()
        before = _events(path)
        gc.collect()
        a = app.App(_Board())
        stop = _inject(app, name, exc, a if exc is full else None)
        a.boot()
        a.render(True)
        stop()                          # the boot failed; the flash is well
        check_shown(a, "restore", k)
        check_goes_on(a, path, before)

    def after_the_update(obj, name, where, button):
        a, path = board_with_game()
        before = _events(path)
        a.ctx.game.cp_due = True            # (a round's start writes one)
        stop = _inject(obj or a.board, name, OSError(5))
        a.press(button)
        stop()
        assert a.ui.get("s") != "err", (where, a.ui)
        assert ("[%s]" % where) in open(WORK + "/log.txt").read(), where
        if button == "A":
            assert _events(path) == before + ["1 play"], (where, _events(path))
            a.press("B")
            assert _events(path) == before + ["1 play", "2 draw"], (where, _events(path))
        else:
            assert a.ui.get("s") == "menu", a.ui
            a.press("DOWN")
            assert '"menu"' in open(WORK + "/pipkeeper/ui.json").read()

    def panel_fails(times):
        a, path = board_with_game()
        before = _events(path)
        n = len(a.board.frames)
        update = a.board.update
        left = [times]

        def failing(buf, full=False, old=None):      # (the board's update: firmware/board.py)
            if left[0]:
                left[0] -= 1
                raise OSError(5)
            update(buf, full, old)

        a.board.update = failing
        a.press("A")
        del a.board.update
        assert _events(path) == before + ["1 play"], _events(path)
        if times == 1:
            assert a.ui.get("s") != "err" and len(a.board.frames) == n + 1, a.ui
            return
        check_shown(a, "panel", "panel")
        check_goes_on(a, path, before)

    full = MemoryError("memory allocation failed, allocating 640 bytes")
    cases = []
    for exc, k in ((full, "mem"), (OSError(5), "flash")):
        # the record's line is written once the frame is out (App.commit):
        # its fault is told on a frame of its own
        for obj, name, where in ((core, "step", "press A"), (app.App, "draw", "draw"),
                                 (Storage, "append", "record")):
            cases.append((in_a_press, (obj, name, where, exc, k)))
        for name in ("restore", "read_tags"):
            cases.append((in_a_boot, (name, exc, k)))
    # After the update: logged, and the press is done all the same (a play
    # with a checkpoint due; opening the menu, which writes ui.json).
    for args in ((app, "write_checkpoint", "checkpoint", "A"),
                 (Storage, "write_json", "ui", "DOWN")):
        cases.append((after_the_update, args))
    # The panel (issue 32): an update that failed was only logged, and the
    # press after it answered a screen nobody saw (the leader moved unseen).
    # Once: the second try shows the frame. Twice: the press is recorded as
    # pressed, the error screen comes instead, and the next press dismisses
    # it, never acting on the screen before.
    cases.append((panel_fails, (1,)))
    cases.append((panel_fails, (2,)))
    assert len(cases) == STEP_CASES
    for i in range(len(cases)):
        if CASE is None or CASE == i:
            fn, args = cases[i]
            fn(*args)
            gc.collect()

if __name__ == "__main__":
    globals()["t_" + NAME]()
    print("ok")
