"""Engine benchmark, run by the MicroPython unix port (never on CPython).

    micropython -X heapsize=160K engine_bench.py MODE FILE...

MODE:
  import   import the engine and the reader, print the heap they retain
  replay   replay each record (parse + apply, read from its file line by
           line, as the board does); print events and microseconds
  kinds    replay the first record timing parse + apply per event kind
  peak     replay the first record collecting garbage after every event;
           print the highest live heap seen (imports included) and the
           heap before the engine was imported
  lines    import the engine and the reader, read the first record's
           lines and do nothing else (the baseline that callgrind
           subtracts from ``replay``)

Prints one JSON object on its last line. The host side (``pipkeeper bench
engine``) starts it, under callgrind too, and reads that line.
"""

import gc
import json
import sys
import time

mode = sys.argv[1]
files = sys.argv[2:]
gc.collect()
base = gc.mem_alloc()


if mode == "lines":
    from shared_engine import dgn  # noqa: F401 (imported, as in "replay")
    gc.collect()
    n = 0
    for line in open(files[0], "rb"):
        n += 1
    print(json.dumps({"lines": n}))
elif mode == "import":
    from shared_engine import dgn  # noqa: F401 (the import is what is measured)
    gc.collect()
    print(json.dumps({"import_heap_bytes": gc.mem_alloc() - base}))
elif mode == "replay":
    from shared_engine import dgn
    out = []
    for path in files:
        gc.collect()
        t0 = time.ticks_us()
        dgn.replay_lines(open(path, "rb"), keep_rounds=2)
        us = time.ticks_diff(time.ticks_us(), t0)
        out.append([path, us])
    print(json.dumps({"files": out}))
elif mode == "kinds":
    from shared_engine import dgn
    from shared_engine.engine import Game
    names = {1: "round", 2: "hand", 3: "play", 4: "draw", 5: "pass", 6: "blocked",
             7: "score", 8: "redeal", 9: "undo", 10: "end"}
    tags = []
    game = None
    per = {}
    ticks = time.ticks_us
    diff = time.ticks_diff
    for line in open(files[0], "rb"):
        s = line.strip()
        if not s or s[0] == 59:  # ";"
            continue
        if s[0] == 91:  # "["
            tags.append(dgn.parse_tag(s.decode()))
            continue
        if game is None:
            rec = dgn.Record()
            rec.tags = tags
            game = rec.new_game()
            game.keep_rounds = 2
        t0 = ticks()
        ev = dgn.parse_event(dgn.strip_comment(s))
        game.apply(ev)
        us = diff(ticks(), t0)
        k = names[ev[0]]
        if k == "play" and ev[2] == ev[3]:
            k = "play double"
        acc = per.get(k)
        if acc is None:
            per[k] = [1, us]
        else:
            acc[0] += 1
            acc[1] += us
    print(json.dumps({"kinds": per}))
elif mode == "peak":
    from shared_engine import dgn
    gc.collect()
    after_import = gc.mem_alloc()
    peak = [after_import]

    def lines(path):
        for line in open(path, "rb"):
            yield line
            gc.collect()
            a = gc.mem_alloc()
            if a > peak[0]:
                peak[0] = a

    dgn.replay_lines(lines(files[0]), keep_rounds=2)
    print(json.dumps({"peak_heap_bytes": peak[0] - base,
                      "peak_replay_heap_bytes": peak[0] - after_import,
                      "import_heap_bytes": after_import - base}))
else:
    raise SystemExit("unknown mode " + mode)
