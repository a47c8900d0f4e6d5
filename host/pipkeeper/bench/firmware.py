"""``pipkeeper bench firmware``: what one press costs on the board, measured
on the MicroPython unix port (heap 160K) running the real firmware in the
simulated board's set-up (the flash a folder, the firmware compiled to .mpy).

The flash folder is mounted with the unix port's own VfsPosix (no Python
calls per file operation, as littlefs on the board); the sim itself mounts
it through sim/mp/flashdir.py, which the boot's reads would pay for.

Figures (issue "The board" and the performance issue):
  boot_to_frame_ms            wall clock, cold boot to the start of the panel
                              update: imports, restore of a large game in
                              progress (Mexican Train, 8 players, last round,
                              late in it, full tracking), render
  boot_to_frame_instructions  callgrind, the same, above a baseline run that
                              only starts the interpreter and the bootstrap
  boot_to_frame_instructions_first_round   the same game early in round 1
  boot_to_frame_rp2040_ms_estimate         PERFORMANCE.md's conversion
  import_instructions         of the boot figure, the imports alone
  render_instructions         the busiest screen, drawn into the framebuffer
  render_instructions_by_screen
  peak_heap_bytes             the smallest heap the late boot runs in
                              (so fragmentation counts), 2 KB steps
  panel_updates_per_press, flash_blocks_written_per_press
                              over a scripted game on a LittleFS RAM flash
  presses_per_play_full, presses_per_score_entry
                              planned over simulated games (full tracking)
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from pipkeeper.bench import engine as bench_engine, callgrind
from pipkeeper.sim import unix as sim
from pipkeeper.errors import PipkeeperError
from pipkeeper.paths import micropython_binary, repo_root

HEAP = "160K"
SCREENS = ("turn", "menu", "pick", "sheet", "score")
SCRIPT = Path(__file__).parent / "mp" / "firmware_bench.py"


def write_board(folder, tags, events, lang="en"):
    """A board's flash holding a game in progress with these events, shown
    in ``lang`` (its [Lang] tag; the board's setting too)."""
    from shared_engine import dgn

    folder = Path(folder)
    (folder / "games").mkdir(parents=True, exist_ok=True)
    (folder / "pipkeeper").mkdir(exist_ok=True)
    tags = [t for t in tags if t[0] not in ("Tracking", "Lang")] + [("Tracking", ["full"])]
    if lang != "en":
        tags.append(("Lang", [lang]))
    (folder / "games" / "0001.dgn").write_text("".join(dgn.lines(tags, events)), encoding="utf-8")
    (folder / "pipkeeper" / "current").write_text("/games/0001.dgn\n")
    (folder / "pipkeeper" / "settings.json").write_text('{"counter": 1, "lang": "%s"}' % lang)
    return folder


def cut_points(events):
    """(early, late): 8 events into round 1; 80% through the last round."""
    from shared_engine.engine import ROUND

    starts = [i for i, ev in enumerate(events) if ev[0] == ROUND]
    early = starts[0] + 8
    last = starts[-1]
    late = last + int((len(events) - last) * 0.8)
    return early, late


def _run(folder, src, mode, screen="", heap=HEAP, under_callgrind=False, plain_posix=True):
    env = dict(os.environ)
    env.update(PIPKEEPER_SIM_DIR=str(folder), PIPKEEPER_SIM_SRC=str(src),
               PIPKEEPER_BENCH_MODE=mode, PIPKEEPER_BENCH_SCREEN=screen)
    for k in ("PIPKEEPER_SIM_BUTTONS", "PIPKEEPER_SIM_PANEL", "PIPKEEPER_SIM_WAKE",
              "PIPKEEPER_SIM_BATTERY"):
        env.pop(k, None)
    cmd = [micropython_binary(), "-X", "heapsize=" + heap, "-c",
           sim.bootstrap(plain_posix) + "exec(open({!r}).read())\n".format(
               _bench_path(folder))]
    if under_callgrind:
        n, out = callgrind.count(cmd, env=env)
        return n, json.loads(out.strip().splitlines()[-1])
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode:
        return None, {"failed": ((proc.stdout + proc.stderr).strip().splitlines() or ["?"])[-1]}
    return None, json.loads(proc.stdout.strip().splitlines()[-1])


def _bench_path(folder):
    """The bench script, copied onto the board's flash (the host's files are
    out of reach once the bootstrap has remounted the root)."""
    dst = Path(folder) / ".bench.py"
    if not dst.exists():
        dst.write_bytes(SCRIPT.read_bytes())
    return "/.bench.py"


def _boot(folder, src, writes=False):
    """One cold boot (``writes``: as the board, which then leaves its
    checkpoint on the flash; the plain mount cannot rename it into place)."""
    _, out = _run(folder, src, "boot", plain_posix=not writes)
    if "failed" in out or out.get("error"):
        raise PipkeeperError("the firmware did not boot on the benchmark's game: {}".format(
            out.get("failed") or out.get("error")))
    return out


def smallest_heap(folder, src, lo=16, hi=160):
    """The smallest heap (KB, 2 KB steps) a cold boot runs in. Each try
    boots a fresh copy of the board's flash: a boot that runs out of memory
    may change what is on it."""
    import shutil

    while hi - lo > 2:
        mid = (lo + hi) // 2 // 2 * 2
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "flash"
            shutil.copytree(folder, copy)
            _, out = _run(copy, src, "boot", heap="%dK" % mid)
        if "failed" in out or out.get("error"):
            lo = mid
        else:
            hi = mid
    return hi * 1024


def planned_presses(games=3):
    """Average presses per play (full tracking) and per player's score entry,
    from the planner the firmware tests use (tests/firmware/planner.py)."""
    _tests_on_path()
    from planner import Planner, normalize
    from firmware.flows.setup import DEFAULT_ROSTER
    from shared_engine.engine import PLAY, SCORE
    from shared_engine.simulate import Simulation, to_board

    plays = []
    scores = []
    for seed in range(1, games + 1):
        for rules, n in (("chickenfoot", 4), ("mexican-train", 4), ("chickenfoot-cross", 3)):
            s = Simulation(rules, list(DEFAULT_ROSTER[:n]), seed).run()
            p = Planner(rules, s.names, tracking="full")
            p.setup()
            events = normalize(rules, to_board(s.events))
            for ev in events[:160]:
                p.event(ev)
            for ev, k in p.per_event:
                if ev[0] == PLAY:
                    plays.append(k)
                elif ev[0] == SCORE:
                    scores.append(k / n)
    return (round(statistics.mean(plays), 2) if plays else None,
            round(statistics.mean(scores), 2) if scores else None)


def _tests_on_path():
    """The firmware tests' planner and harness (a checkout's tests/firmware)."""
    root = repo_root()
    for p in (str(root), str(root / "tests" / "firmware")):
        if p not in sys.path:
            sys.path.insert(0, p)
    return root / "tests" / "firmware"


def flash_and_panel(rules="mexican-train", players=4, seed=3):
    """Block writes and panel updates per press over a whole planned game
    (full tracking) on LittleFS over a simulated flash, on USB power: the
    firmware tests' power-cut harness (tests/firmware/mp/usbpower.py
    ``play``, on the firmware it compiles), with no power cuts."""
    folder = _tests_on_path()
    from planner import plan_game
    sys.path.insert(0, str(folder / "mp"))
    try:
        import mpbuild
    finally:
        sys.path.remove(str(folder / "mp"))

    presses, _, _ = plan_game(rules, players, seed, "full")
    build = mpbuild.build(repo_root())
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "presses.txt").write_text("\n".join(presses) + "\n")
        proc = subprocess.run([micropython_binary(), "-X", "heapsize=16M", "-m", "usbpower",
                               "play", tmp], capture_output=True, text=True, cwd=tmp,
                              env=mpbuild.micropython_env(build))
    lines = [x for x in proc.stdout.splitlines() if x.startswith("RESULT ")]
    if proc.returncode or not lines:
        raise PipkeeperError("the flash harness failed: " + (proc.stdout + proc.stderr)[-300:])
    res = json.loads(lines[-1][len("RESULT "):])
    return {
        "presses_measured": len(presses),
        "flash_blocks_written_per_press": round(res["blocks_per_press_mean"], 2),
        "flash_blocks_written_max_press": res["blocks_per_press_max"],
        "presses_over_2_blocks": res["presses_over_2_blocks"],
        # one update at the power-on before the first press
        "panel_updates_per_press": round((res["updates"] - 1) / len(presses), 3),
    }


def run(with_callgrind=True):
    root = repo_root()
    src = sim.build_tree(str(root))
    out = {}
    tags, events = bench_engine.largest_game()
    early, late = cut_points(events)
    with tempfile.TemporaryDirectory() as tmp:
        dirs = {}
        for name, upto in (("early", early), ("late", late)):
            d = write_board(Path(tmp) / name, tags, events[:upto])
            _boot(d, src, writes=True)  # the press before: it leaves the board's checkpoint
            dirs[name] = d
        out["largest_game_events_restored"] = late
        times = [_boot(dirs["late"], src)["boot_us"] for _ in range(5)]
        out["boot_to_frame_ms"] = round(statistics.median(times) / 1000, 2)
        times = [_boot(dirs["early"], src)["boot_us"] for _ in range(5)]
        out["boot_to_frame_ms_first_round"] = round(statistics.median(times) / 1000, 2)
        out["peak_heap_bytes"] = smallest_heap(dirs["late"], src)
        if with_callgrind and callgrind.available():
            none, _ = _run(dirs["late"], src, "none", under_callgrind=True)
            imp, _ = _run(dirs["late"], src, "import", under_callgrind=True)
            late_n, _ = _run(dirs["late"], src, "boot", under_callgrind=True)
            early_n, _ = _run(dirs["early"], src, "boot", under_callgrind=True)
            out["boot_to_frame_instructions"] = late_n - none
            out["boot_to_frame_instructions_first_round"] = early_n - none
            out["boot_late_vs_first_round"] = round((late_n - none) / (early_n - none), 3)
            out["boot_to_frame_rp2040_ms_estimate"] = round(callgrind.rp2040_ms(late_n - none), 1)
            out["import_instructions"] = imp - none
            by_screen = {}
            for screen in SCREENS:
                boot_n, b = _run(dirs["late"], src, "boot", screen, under_callgrind=True)
                rend_n, r = _run(dirs["late"], src, "render", screen, under_callgrind=True)
                if r.get("error") or r.get("screen") != screen:
                    continue
                by_screen[screen] = (rend_n - boot_n) // 10
            out["render_instructions_by_screen"] = by_screen
            if by_screen:
                busiest = max(by_screen, key=lambda k: by_screen[k])
                out["render_busiest_screen"] = busiest
                out["render_instructions"] = by_screen[busiest]
        else:
            out["callgrind"] = callgrind.skipped(with_callgrind)
    out.update(flash_and_panel())
    out["presses_per_play_full"], out["presses_per_score_entry"] = planned_presses()
    return out
