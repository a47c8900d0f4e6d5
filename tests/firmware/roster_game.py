"""Issue 22's table: a flashed board with a roster of seven names, some
beyond ASCII, and the presses of a game up to its fourth round, then Menu,
New game, OK (the rules chosen: the players' page lists the roster).

The board's flash is made as a user makes it, with the CLI: `pipkeeper
sim --serial --dir D`, then `pipkeeper flash` and `pipkeeper roster NAMES`
against its port (``flash_with_roster``). The presses come from the
planner (planner.py), which runs the board's own flows on CPython with
the same roster."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "host"))

from boardkit import SimBoard  # noqa: E402  (the one place that starts a sim board)

# Welsh, Swedish, Persian and plain names: seven of them
NAMES = ("Ann", "Siân", "Örjan", "مریم", "Bob", "Dafydd", "Zahra")


def pipkeeper(port, *args):
    env = dict(os.environ, PIPKEEPER_PORT=port)
    r = subprocess.run([sys.executable, "-m", "pipkeeper", *args], env=env, cwd=ROOT,
                       capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def flash_with_roster(folder, names=NAMES):
    """``folder`` as a board's flash after `pipkeeper flash` and `pipkeeper
    roster NAMES` over its serial port."""
    with SimBoard(folder, ("-q",)) as board:
        pipkeeper(board.port, "flash")
        pipkeeper(board.port, "roster", *names)
    return folder


class _Roster:
    """What the set-up flow reads of the board's flash: the roster."""

    def __init__(self, names):
        self.names = list(names)

    def read_json(self, name):
        return {"names": self.names} if name == "roster.json" else None


def presses(names=NAMES, rules="chickenfoot", seed=3, rounds=3, moves=5):
    """(presses up to ``moves`` events into round ``rounds + 1``, then Menu
    -> New game -> OK; the planner)."""
    from planner import Planner, normalize
    from shared_engine import simulate
    from shared_engine.engine import ROUND
    game = simulate.simulate(rules, len(names), seed=seed)
    evs = normalize(rules, simulate.to_quick(list(game.events)))
    starts = [i for i, e in enumerate(evs) if e[0] == ROUND]
    p = Planner(rules, names, "quick")
    p.ctx.store = _Roster(names)
    p.setup()
    for ev in evs[:starts[rounds] + moves]:
        p.event(ev)
    return p.presses + p._to_menu_item("New game") + ["A"], p
