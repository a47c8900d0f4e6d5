"""Whole simulated games under the house rules (issue 31): every rule on,
and random mixes, in every preset. Each game is written as its record's
lines one event at a time and read back into a second game as the
simulator plays it, as the simulator wrote it (hands known), as quick
tracking and as the board's full tracking record it; each replays to the
same scores, totals and winners, and (on CPython) a checkpoint taken now
and then restores to the same game. Runs on CPython and MicroPython (fewer games
there: the unix port's 160 KB heap and its speed); Hypothesis sweeps more
mixes in tests/properties."""

import gc
import sys

from shared_engine import dgn, report
from shared_engine.engine import Game, SCORE
from shared_engine.mixes import every_rule, mix
from shared_engine.simulate import Simulation, to_board, to_quick


MICRO = sys.implementation.name == "micropython"
PRESETS = ("chickenfoot", "chickenfoot-cross", "chicken-scratch", "mexican-train")


class Mirror:
    """The record's replay, an event at a time: each event of the
    simulator, converted as a form of tracking records it, is written as
    its line and read back into a game of its own."""

    def __init__(self, sim, conv):
        self.game = Game(sim.game.rules.name, sim.names, sim.options)
        self.game.keep_rounds = 2
        self.conv = conv
        self.count = 0
        self.kinds = {}

    def __call__(self, sim, ev):
        for e in ((ev,) if self.conv is None else self.conv((ev,))):
            line = dgn.format_event(e)
            again = dgn.parse_event(line)
            assert again == e, (line, again, e)
            self.game.apply(again)
            self.count += 1
            self.kinds[e[0]] = self.kinds.get(e[0], 0) + 1
            if e[0] == SCORE:
                assert self.game.totals == sim.game.totals, line
            if not MICRO and self.count % 97 == 0:
                # a checkpoint now restores to the same game (on MicroPython
                # a third game beside these two does not fit the heap:
                # test_house_scoring restores the facts there)
                from shared_engine import checkpoint
                back = checkpoint.restore(checkpoint.snapshot(self.game))
                assert back.results == self.game.results and back.totals == self.game.totals
                assert report.state(back) == report.state(self.game), line
                back = None


# MicroPython plays three rounds a game: two games of 13 rounds with every
# fact kept do not fit the unix port's heap beside the simulator's hands.
SHORT = {"chickenfoot": "9 8 7", "chickenfoot-cross": "9 8 7", "chicken-scratch": "6 5 4",
         "mexican-train": "12 11 10"}


def play(rules, n, seed, options, conv):
    gc.collect()
    if MICRO:
        options = dict(options, rounds=SHORT[rules])
    names = ["P%d" % (i + 1) for i in range(n)]
    sim = Simulation(rules, names, seed, ["greedy", "random"] * 5, options, keep_events=False)
    sim.game.keep_rounds = 2
    mirror = Mirror(sim, conv)
    sim.on_event = mirror
    sim.run()
    g = sim.game
    m = mirror.game
    assert g.over and m.over
    assert m.totals == g.totals
    assert [r[1] for r in m.results] == [r[1] for r in g.results]
    assert m.winners() == g.winners()
    return sim, mirror


def _forms():
    return (None, to_quick, to_board) if not MICRO else (None, to_board)


def test_every_rule_on_in_every_preset():
    for rules in PRESETS:
        for n in ((2, 3) if MICRO else (2, 4, 5)):
            for conv in _forms():
                sim, mirror = play(rules, n, 5 + n, every_rule(rules), conv)
                rep = report.report(sim.game)
                assert rep["house_rules"], rules
                assert [r for r in rep["rounds"] if "facts" in r] == rep["rounds"]
                sim = mirror = rep = None    # before the next game: the heap holds one


def test_every_rule_is_played():
    # over these games each rule's event or fact turns up at least once
    from shared_engine.engine import CAUGHT
    want = (CAUGHT, "blank_ends", "doubles_pips", "unsatisfied", "missed_calls", "open_trains")
    seen = {}
    for i in range(8):
        if not [k for k in want if k not in seen]:
            break
        rules = PRESETS[i % 4]
        sim, mirror = play(rules, 3 if MICRO else 4, 3 + i, every_rule(rules), None)
        for k, v in mirror.kinds.items():
            seen[k] = seen.get(k, 0) + v
        rounds = report.report(sim.game)["rounds"]
        sim = mirror = None
        for r in rounds:
            f = r["facts"]
            for key in ("blank_ends", "doubles_pips", "unsatisfied", "missed_calls"):
                if key in f and any(f[key]):
                    seen[key] = 1
            if f.get("open_trains"):
                seen["open_trains"] = 1
            if f.get("skipped"):
                seen["skipped"] = 1
    for k in want:
        assert k in seen, k


def test_random_mixes_replay_to_the_same_sheet():
    k = 0
    for rules in PRESETS:
        for seed in ((1, 2) if MICRO else (1, 2, 3, 4, 5, 6)):
            k += 1
            n = 2 + (seed + k) % (3 if MICRO else 4)     # 2 to 5 players (scratch: 5 at most)
            for conv in _forms():
                play(rules, n, seed, mix(rules, seed + 100 * k), conv)
                gc.collect()
