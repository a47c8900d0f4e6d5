# Firmware benchmark, run by the MicroPython unix port after the simulated
# board's bootstrap (pipkeeper.sim.unix.bootstrap: the flash folder is "/", the
# compiled firmware is on sys.path). Never imported by CPython.
#
# PIPKEEPER_BENCH_MODE:
#   none     nothing more (the baseline: the interpreter and the bootstrap)
#   import   import what a cold boot imports, stop
#   boot     a cold boot to the start of the panel update: App, restore, render
#   render   the same, then the screen PIPKEEPER_BENCH_SCREEN drawn 10 times more
# Prints one JSON line: microseconds, heap, the screen shown.
import gc
import json
import os
import time

mode = os.getenv("PIPKEEPER_BENCH_MODE")
gc.collect()
base = gc.mem_alloc()
t0 = time.ticks_us()
out = {"mode": mode}
if mode == "import":
    from firmware import app  # noqa: F401 (the import is what is measured)
    from shared_engine import dgn  # noqa: F401
elif mode in ("boot", "render"):
    from firmware import app
    from firmware.board_sim import SimBoard

    board = SimBoard()
    a = app.App(board)
    a.boot()
    screen = os.getenv("PIPKEEPER_BENCH_SCREEN") or ""
    if screen:
        a.ui = {"s": screen}
    a.render(True)
    out["boot_us"] = time.ticks_diff(time.ticks_us(), t0)
    from firmware import core

    out["screen"] = core.view(a.ctx, a.ui)[0]
    out["error"] = a.ui.get("m") if a.ui.get("s") == "err" else None
    if mode == "render":
        t1 = time.ticks_us()
        for _ in range(10):
            a.render(False)
        out["render_us"] = time.ticks_diff(time.ticks_us(), t1) // 10
    out["updates"] = board.updates
gc.collect()
out["heap_after"] = gc.mem_alloc() - base
print(json.dumps(out))
