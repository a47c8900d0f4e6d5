"""``pipkeeper bench engine``: how fast and how small the shared engine is,
on CPython and on the MicroPython unix port, from one run over one corpus
of simulated games.

Figures (issue "The shared engine", with the callgrind ones of the
performance issue):
  cpython_events_per_s, micropython_events_per_s   parse + apply
  micropython_replay_largest_ms, micropython_peak_heap_bytes
      the largest game (Mexican Train, 8 players, 13 rounds, full tracking)
      replayed from its file with the heap capped at 160K
  micropython_import_heap_bytes   what importing the engine and reader keeps
  engine_mpy_bytes                the modules the board loads, as .mpy
  apply_instructions_per_event    callgrind, above a read-the-lines baseline
  apply_worst_kind, apply_worst_kind_instructions
      the costliest event kind (its share of the time, scaled to the count)
"""

import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from pipkeeper.bench import callgrind
from pipkeeper.errors import PipkeeperError
from pipkeeper.board.mpy import engine_build
from pipkeeper.paths import micropython_binary, repo_root

HEAP = "160K"
# What the board loads of the engine (the simulator and the JSON report stay on the laptop).
BOARD_MODULES = ("__init__", "tiles", "presets", "engine", "moves", "scoring", "dgn", "checkpoint")
CORPUS = (
    ("chickenfoot", (2, 4, 8)),
    ("chickenfoot-cross", (2, 4, 7)),
    ("chicken-scratch", (2, 4, 5)),
    ("mexican-train", (2, 4, 8, 10)),
)
SEEDS = (1, 2, 3)
LARGEST = ("mexican-train", 8, (1, 2, 3, 4, 5))


def write_corpus(folder):
    """Simulated games as DGN files; returns (all files, the largest game)."""
    from shared_engine import dgn
    from shared_engine.simulate import simulate

    folder = Path(folder)
    files = []
    for rules, counts in CORPUS:
        for n in counts:
            for seed in SEEDS:
                sim = simulate(rules, n, seed, bots=["greedy", "random"] * 5)
                path = folder / "{}-{}p-{}.dgn".format(rules, n, seed)
                path.write_text(sim.record())
                files.append(path)
    largest = folder / "largest-mexican-train-8p.dgn"
    largest.write_text(dgn.write(*largest_game()))
    return files, largest


def largest_game():
    """(tags, events) of the largest game of LARGEST's seeds, as the board
    records it: full tracking, no hands, drawn tiles unknown."""
    from shared_engine.simulate import simulate, to_board

    rules, n, seeds = LARGEST
    best = None
    for seed in seeds:
        sim = simulate(rules, n, seed, bots=["greedy"] * n)
        if best is None or sim.count > best.count:
            best = sim
    return best.tags, to_board(best.events)


def _mp(root, build, mode, files):
    script = Path(__file__).parent / "mp" / "engine_bench.py"
    cmd = [micropython_binary(), "-X", "heapsize=" + HEAP, str(script), mode, *map(str, files)]
    env = {"MICROPYPATH": "{}:.frozen".format(build)}
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=str(root), env=env)
    if proc.returncode:
        raise PipkeeperError("micropython {} failed: {}".format(
            mode, ((proc.stderr + proc.stdout).strip().splitlines() or ["?"])[-1]))
    return cmd, env, json.loads(proc.stdout.strip().splitlines()[-1])


def _events(path):
    from shared_engine import dgn

    return len(dgn.read(path.read_text()).events)


def cpython_events_per_s(files):
    from shared_engine import dgn

    texts = [p.read_text() for p in files]
    events = sum(len(dgn.read(t).events) for t in texts)
    best = None
    for _ in range(3):
        t0 = time.perf_counter()
        for t in texts:
            dgn.replay(t)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return events / best


def run(with_callgrind=True):
    root = repo_root()
    build = engine_build(root)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        files, largest = write_corpus(tmp)
        out["corpus_games"] = len(files)
        out["cpython_events_per_s"] = round(cpython_events_per_s(files))
        counts = {str(p): _events(p) for p in files + [largest]}
        _, _, rep = _mp(root, build, "replay", files)
        events = sum(counts[f[0]] for f in rep["files"])
        us = sum(f[1] for f in rep["files"])
        out["corpus_events"] = events
        out["micropython_events_per_s"] = round(events / (us / 1e6))
        times = []
        for _ in range(5):
            _, _, one = _mp(root, build, "replay", [largest])
            times.append(one["files"][0][1] / 1000)
        out["largest_game_events"] = counts[str(largest)]
        out["micropython_replay_largest_ms"] = round(statistics.median(times), 2)
        _, _, peak = _mp(root, build, "peak", [largest])
        out["micropython_peak_heap_bytes"] = peak["peak_heap_bytes"]
        out["micropython_peak_replay_heap_bytes"] = peak["peak_replay_heap_bytes"]
        _, _, imp = _mp(root, build, "import", [])
        out["micropython_import_heap_bytes"] = imp["import_heap_bytes"]
        sizes = {p.stem: p.stat().st_size for p in (build / "shared_engine").glob("*.mpy")}
        out["engine_mpy_bytes"] = sum(sizes.get(m, 0) for m in BOARD_MODULES)
        out["engine_mpy_bytes_by_module"] = {m: sizes.get(m, 0) for m in BOARD_MODULES}
        _, _, kinds = _mp(root, build, "kinds", [largest])
        per = kinds["kinds"]
        if with_callgrind and callgrind.available():
            cmd_base, env, _ = _mp(root, build, "lines", [largest])
            cmd_full, env, _ = _mp(root, build, "replay", [largest])
            base, _ = callgrind.count(cmd_base, cwd=str(root), env=env)
            full, _ = callgrind.count(cmd_full, cwd=str(root), env=env)
            n = out["largest_game_events"]
            mean = (full - base) / n
            out["apply_instructions_per_event"] = round(mean)
            out["apply_rp2040_ms_per_event_estimate"] = round(callgrind.rp2040_ms(mean), 3)
            total_us = sum(v[1] for v in per.values())
            # Each kind's share of the measured time, scaled to the count.
            est = {k: round((v[1] / total_us) * (full - base) / v[0]) for k, v in per.items()}
            worst = max(est, key=lambda k: est[k])
            out["apply_instructions_by_kind"] = est
            out["apply_worst_kind"] = worst
            out["apply_worst_kind_instructions"] = est[worst]
        else:
            out["apply_instructions_per_event"] = None
            out["callgrind"] = callgrind.skipped(with_callgrind)
        out["micropython_us_by_kind"] = {k: round(v[1] / v[0], 1) for k, v in per.items()}
    return out
