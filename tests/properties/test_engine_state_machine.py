"""Hypothesis state machine over random event sequences, on CPython.

Each step offers the engine one event drawn from everything a player could
press at that moment (quick and full plays, draws, passes, blocked, scores,
redeal, undo, end, corrections of scored rounds, the next round) and checks, after every step:
- a refused event changes nothing and says why in a sentence;
- the record written so far replays to the live state (undo included);
- tiles are conserved: hands + yard + played + the centre = the set;
- totals never go down but by a correction, and are the sum of the rounds
  as scored and corrected; a finished game has winners.
"""

from hypothesis import event, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from shared_engine import dgn, engine, report
from shared_engine.engine import (
    BLOCKED, DOUBLE, DRAW, END, FIX, PASS, PLAY, REDEAL, ROUND, SCORE, UNDO, UNKNOWN,
)

PRESETS = {
    "chickenfoot": (2, 8),
    "chickenfoot-cross": (2, 7),
    "chicken-scratch": (2, 5),
    "mexican-train": (2, 10),
}


class EngineMachine(RuleBasedStateMachine):
    @initialize(rules=st.sampled_from(sorted(PRESETS)), data=st.data())
    def start(self, rules, data):
        lo, hi = PRESETS[rules]
        n = data.draw(st.integers(lo, hi), label="players")
        self.rules = rules
        self.names = ["P%d" % (i + 1) for i in range(n)]
        self.game = engine.Game(rules, self.names)
        self.events = []
        self.last_totals = [0] * n
        self.plays = 0  # plays in the round in progress (table tiles besides the centre)
        self.plays_stack = []

    def candidates(self, pick):
        """Events a player could press now (many of them illegal)."""
        g = self.game
        n = g.n
        out = []
        r = g.round
        if r is None:
            d = g.next_double()
            if d is None:
                unused = [x for x in g.rules.rounds if x not in g.used]
                d = unused[pick % len(unused)] if unused else 0
            out.append((ROUND, d, pick % n + 1, ()))
            out.append((REDEAL,))
            out.append((END,))
        else:
            seat = (r.to_move + 1) if not r.ended else (pick % n + 1)
            plays = g.legal_plays() or []
            for a, b, t in plays[:6]:
                out.append((PLAY, seat, a, b, None if t == seat else t))
            target = None
            if g.rules.layout == 1:
                target = [None, 0, (pick // 7) % n + 1][pick % 3]
            out.append((PLAY, seat, UNKNOWN, UNKNOWN, target))
            out.append((PLAY, seat, DOUBLE, DOUBLE, target))
            out.append((DRAW, seat, UNKNOWN, UNKNOWN))
            out.append((PASS, seat))
            out.append((BLOCKED,))
            pips = tuple((pick * (i + 3)) % 60 if r.hands[i] else 0 for i in range(n))
            out.append((SCORE, pips, (0,) * n))
            out.append((REDEAL,))
        if g.results:
            res = g.results[pick % len(g.results)]
            s = (pick // 3) % n
            p = res[3][s] + (pick // 11) % 5 - 2
            out.append((FIX, pick % len(g.results) + 1, s + 1, p if p > 0 else 0, (pick // 7) % 2))
        out.append((UNDO,))
        return out

    def totals_may_fall(self):
        """A score may lower a total (the house rules' out_bonus)."""
        return False

    @rule(pick=st.integers(0, 10_000), which=st.integers(0, 10_000))
    def step(self, pick, which):
        cands = self.candidates(pick)
        # Weight toward the moves that advance a game.
        ev = cands[which % len(cands)] if which % 4 else cands[0]
        g = self.game
        before = report.report(g)
        try:
            g.apply(ev)
        except engine.IllegalEvent as e:
            assert str(e) and "\n" not in str(e)
            assert report.report(g) == before, "a refused event changed the state"
            return
        self.events.append(ev)
        if ev[0] != UNDO and ev[0] != FIX and not self.totals_may_fall():
            for a, b in zip(before["totals"], g.totals):
                assert b >= a, "a total went down"
        event(("round", "hand", "play", "draw", "pass", "blocked", "score", "redeal",
               "undo", "end", "fix", "caught")[ev[0] - 1])

    @invariant()
    def record_replays_to_live_state(self):
        if not hasattr(self, "game"):
            return
        text = dgn.write([("Rules", [self.rules]), ("Players", self.names)], self.events)
        again = dgn.replay(text)
        assert report.report(again) == report.report(self.game)

    @invariant()
    def totals_are_the_rounds(self):
        if not hasattr(self, "game"):
            return
        g = self.game
        assert g.totals == [sum(res[1][s] for res in g.results) for s in range(g.n)]

    @invariant()
    def tiles_conserved(self):
        if not hasattr(self, "game"):
            return
        r = self.game.round
        if r is None:
            return
        played = sum(1 for ev in _round_events(self.game) if ev[0] == PLAY)
        assert sum(r.hands) + r.yard + played + 1 == self.game.rules.tiles

    @invariant()
    def finished_game_has_winners(self):
        if not hasattr(self, "game"):
            return
        g = self.game
        if g.over and g.results:
            winners, how = g.winners()
            assert winners


def _round_events(game):
    """The events of the round in play, from the engine's own history."""
    out = []
    for x in game.history:
        ev = engine.unpack(x)
        if ev[0] == ROUND:
            out = []
        out.append(ev)
    return out


EngineMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=60, deadline=None)
TestEngineMachine = EngineMachine.TestCase
