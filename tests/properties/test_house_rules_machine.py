"""Hypothesis state machine over random house-rule mixes (issue 31), on
CPython: test_engine_state_machine's machine, its game set up with a mix
of house rules drawn from the table of options (shared_engine/house.py),
its events offered with what those rules add (a missed call caught, a
first-turn run's pass, score lines and fixes with facts, a round on a
double still to open one). The same invariants hold after every step,
and one more: each scored round's score is its facts counted by the
rules (scoring.count), never anything stored beside them.
"""

from hypothesis import settings, strategies as st
from hypothesis.stateful import initialize, invariant

from shared_engine import dgn, engine, house, scoring
from shared_engine.engine import CAUGHT, FIX, PASS, ROUND, SCORE
from shared_engine.presets import NAMES

from test_engine_state_machine import EngineMachine, PRESETS

# The values a mix takes for each option of the table, where it applies.
VALUES = {
    "double_blank": ("0", "25", "50"), "blank_end": ("0", "5"),
    "doubles_count_double": ("no", "yes"), "out_bonus": ("0", "10"), "double_out": ("0", "50"),
    "open_train": ("0", "10"), "unsatisfied_double": ("0", "10"), "blocked_cap": ("no", "yes"),
    "skip_missing_doubles": ("no", "yes"), "call_last_tile": ("0", "1", "2"),
    "first_turn_run": ("no", "yes"), "voluntary_pass": ("no", "yes"), "no_draw_end": ("no", "yes"),
    "target_score": ("0", "60", "200"), "drawn_tile": ("must", "may", "until"),
    "double_cover": ("any", "own"),
    "tie_break": ("shared", "most_rounds_won,lowest_nonzero_round", "most_outs"),
    "positive_scoring": ("no", "yes"),
}


class HouseMachine(EngineMachine):
    @initialize(rules=st.sampled_from(NAMES), data=st.data())
    def start(self, rules, data):
        lo, hi = PRESETS[rules]
        n = data.draw(st.integers(lo, min(hi, 5)), label="players")
        opts = {}
        for row in house.rows():
            k = row[0]
            if k in VALUES and house.applies(row, rules):
                opts[k] = data.draw(st.sampled_from(VALUES[k]), label=k)
        if opts.get("positive_scoring") == "yes":
            for k in house.LOWEST_WINS:
                opts.pop(k, None)
        self.rules = rules
        self.options = opts
        self.names = ["P%d" % (i + 1) for i in range(n)]
        self.game = engine.Game(rules, self.names, opts)
        self.events = []
        self.last_totals = [0] * n
        self.plays = 0
        self.plays_stack = []

    def candidates(self, pick):
        out = EngineMachine.candidates(self, pick)
        g = self.game
        n = g.n
        r = g.round
        if r is None and g.rules.skip_missing:
            from shared_engine import variants
            left = variants.doubles_left(g)
            if left:
                out.insert(1, (ROUND, left[pick % len(left)], pick % n + 1, ()))
        if r is not None:
            s = pick % n
            out.append((CAUGHT, s + 1, ()))
            out.append((PASS, r.to_move + 1))
            pips = tuple((pick * (i + 5)) % 70 if r.hands[i] else 0 for i in range(n))
            db = tuple(1 if (pick >> i) & 1 and i == s else 0 for i in range(n))
            claims = (tuple((pick >> i) % 3 for i in range(n)), tuple(2 * ((pick >> i) % 7) for i in range(n)),
                      tuple((pick >> (i + 2)) & 1 for i in range(n)), None,
                      None, tuple(1 if i == (pick // 5) % n and not pips[i] else 0 for i in range(n)))
            out.append((SCORE, pips, db, tuple(c if c and any(c) else None for c in claims)))
        if g.results:
            res = g.results[pick % len(g.results)]
            s = (pick // 3) % n
            out.append((FIX, pick % len(g.results) + 1, s + 1, res[3][s], res[4][s],
                        ((pick >> 2) % 2, 2 * ((pick >> 3) % 3), (pick >> 4) & 1, 0, 0,
                         1 if res[2] == s else 0)))
        return out

    def totals_may_fall(self):
        return bool(self.game.rules.out_bonus)

    @invariant()
    def record_replays_to_live_state(self):
        if not hasattr(self, "game"):
            return
        from shared_engine import report
        tags = [("Rules", [self.rules]), ("Players", self.names)]
        tags += [("Option", [k, v]) for k, v in sorted(self.options.items())]
        again = dgn.replay(dgn.write(tags, self.events))
        assert report.report(again) == report.report(self.game)

    @invariant()
    def each_score_is_its_facts_counted(self):
        if not hasattr(self, "game"):
            return
        g = self.game
        for res in g.results:
            assert scoring.count(g, res[3], res[4], res[2], res[7]) == tuple(res[1])


HouseMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=60, deadline=None)
TestHouseMachine = HouseMachine.TestCase
