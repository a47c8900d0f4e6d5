"""Plan the button presses that make the board record a given game.

The board's flows (firmware/core.py and firmware/flows/*) are pure Python,
so they run here on CPython: for each event of a target game (from
shared_engine.simulate) the planner searches the presses that make the
flows emit exactly that event, starting from the UI state the board is in.
The presses are then played on the real firmware (MicroPython unix port)
and its record compared with the target (tests/firmware/test_games.py);
the power-cut tests and `pipkeeper bench firmware` (presses per play and per
score entry) use it too.
"""

import json
from collections import deque

from shared_engine import engine
from shared_engine.engine import Game, ROUND, HAND, SCORE
from firmware import core
from firmware.flows import setup as setup_flow
from firmware.flows import house as house_flow
from firmware.flows import rule_sets

# score entry's fields (flows/score_facts.py) and their place in a score
# event's facts (shared_engine/facts.py)
FACT_OF_FIELD = {"blank_ends": 0, "doubles_pips": 1, "open_train": 2, "unsatisfied": 3,
                 "out_on_double": 4}

BUTTONS = ("A", "B", "C", "UP", "DOWN")


def normalize(rules, events):
    """Target events as the board can enter them: no hands; no hunt in
    chickenfoot (there the hunt is face down before the deal and the board
    only asks who found the double)."""
    out = []
    for ev in events:
        if ev[0] == HAND:
            continue
        if ev[0] == ROUND and rules == "chickenfoot":
            ev = (ROUND, ev[1], ev[2], ())
        out.append(ev)
    return out


def press_all(ctx, ui, buttons):
    """The flows' answer to ``buttons`` pressed from ``ui``: (ui, the last act)."""
    act = None
    for b in buttons:
        ui, act = core.step(ctx, ui, b)
    return ui, act


def number_presses(v):
    """The presses that enter ``v`` from 0 on the score screen (UP +1, B
    +10, DOWN -1), the fewest: 19 is +10 +10 -1, as a person would."""
    tens, units = divmod(v, 10)
    if units > 5:
        return ["B"] * (tens + 1) + ["DOWN"] * (10 - units)
    return ["B"] * tens + ["UP"] * units


class Planner:
    def __init__(self, rules, players, tracking="quick", options=None, lang=None):
        self.rules = rules
        self.players = list(players)
        self.tracking = tracking
        self.options = dict(options or {})
        self.lang = lang
        self.ctx = core.Ctx(game=None, tags=[], tracking=tracking)
        self.ui = {}
        self.presses = []
        self.per_event = []     # (event, presses it took)

    # -- a whole game ------------------------------------------------------------

    def setup(self):
        """Presses from a fresh board (no game, no settings) to the new game."""
        ui = {}
        seq = []

        def press(b):
            nonlocal ui
            ui2, act = core.step(self.ctx, ui, b)
            seq.append(b)
            ui = ui2
            return act

        pr = setup_flow.PRESETS.index(self.rules)
        for _ in range(pr):
            press("DOWN")
        press("A")
        roster = setup_flow.roster(self.ctx)
        want = [roster.index(p) for p in self.players]
        cur = setup_flow._start(self.ctx, ui)["pl"]
        c = 0

        def toggle(i):
            nonlocal c
            while c != i:
                press("DOWN")
                c = (c + 1) % len(roster)
            press("B")

        if cur[:len(want)] == want:
            for i in cur[len(want):]:       # only drop the extra players
                toggle(i)
        else:
            for i in list(cur):             # everybody out, then in, in order
                toggle(i)
            for i in want:
                toggle(i)
        press("A")
        # options page: tracking first
        if self.tracking == "full":
            press("B")
        opts = setup_flow._options(pr, {})
        want = dict(self.options)
        if self.lang:             # the board's language, an option of the set-up
            want["lang"] = self.lang
        if "rounds" in want:      # the board offers the first k doubles
            want["rounds"] = str(len(want["rounds"].split()))
        for k, (key, label, values) in enumerate(opts):
            if key in want:
                while ui["c"] != k:
                    press("DOWN")
                while setup_flow._value(pr, ui["o"], ui["t"], key) != want[key]:
                    press("B")
        rows = house_flow.rows(self.rules)
        if any(r[0] in want for r in rows):
            # the House rules page: its row for each rule, B to the value
            while ui["c"] != rule_sets.OPTIONS_ROW:
                press("UP" if ui["c"] > rule_sets.OPTIONS_ROW else "DOWN")
            press("B")
            for j, (key, _, values) in enumerate(rows):
                if key not in want:
                    continue
                if want[key] not in values:
                    raise AssertionError("the board offers no %s=%s" % (key, want[key]))
                while ui.get("row", 0) != j + 1:
                    press("DOWN")
                while house_flow.value(self.rules, ui.get("house") or {}, key) != want[key]:
                    press("B")
            press("A")
        act = press("A")
        if not act or act[0] != "new":
            raise AssertionError("setup did not start a game: %r %r" % (act, ui))
        tags = act[1]
        opts = {}
        for name, vals in tags:
            if name == "Set":
                opts["set"] = vals[0]
            elif name == "Option":
                opts[vals[0]] = vals[1]
        self.ctx.game = Game(self.rules, self.players, opts)
        self.ctx.tags = tags
        self.ui = {}
        self.presses += seq
        return seq

    def event(self, ev):
        """Presses that record ``ev`` from the current UI state. The board's
        heap bookkeeping is off meanwhile (``heap.evict``: score entry lets
        go of its modules as it makes its line): on CPython it means nothing,
        and the search's thousands of trial presses imported the flows again
        at each (a fix with facts took minutes)."""
        from firmware import heap
        evict = heap.evict
        heap.evict = lambda *args, **kw: None
        try:
            return self._event(ev)
        finally:
            heap.evict = evict

    def _event(self, ev):
        g = self.ctx.game
        k = core.kind(self.ctx, self.ui)
        if ev[0] == SCORE and k in ("score", "turn", "menu"):
            seq = self._score(ev)
        elif ev[0] == engine.FIX:
            seq = self._search(ev, 60)     # the fewest presses: rounds, seats and pips to step
        else:
            seq = self._search(ev, 12 + (len(ev[3]) if ev[0] == ROUND else 0))
        g.apply(ev)
        self.ui = {}
        self.presses += seq
        self.per_event.append((ev, len(seq)))
        return seq

    # -- strategies ------------------------------------------------------------------

    def _fix_aim(self, ev, ui):
        """The value a correction's field being entered must reach: the
        pips, or (a field after them, the house rules' facts) the fact's
        mark in ``ev`` (without it the search wandered through every value
        of a fact up to the pips, and a fix with facts took minutes)."""
        if not ui.get("field"):
            return ev[3]
        from firmware.flows import fix_facts
        name = fix_facts.fix_fields(self.ctx.game, ui["i"], ui)[ui["field"]]
        marks = ev[5] if len(ev) > 5 else None
        return (marks[FACT_OF_FIELD[name]] or 0) if marks is not None else 0

    def _search(self, ev, depth=40):
        """Breadth-first over UI states until a press emits ``ev``."""
        start = self.ui
        seen = {json.dumps(start, sort_keys=True)}
        q = deque([(start, [])])
        while q:
            ui, seq = q.popleft()
            if len(seq) >= depth:
                continue
            for b in BUTTONS:
                ui2, act = core.step(self.ctx, ui, b)
                if act is not None:
                    if act == ev:
                        return seq + [b]
                    continue
                if ui2.get("s") in ("setup", "hist", "qr"):
                    continue     # never the way to a game event (qr: the end screen's codes)
                if ev[0] == engine.FIX and (ui2.get("s") in ("score", "pick") or (
                        ui2.get("s") == "fix" and (ui2["r"] != ev[1] - 1 or ui2["i"] != ev[2] - 1
                                                   or ui2["v"] > self._fix_aim(ev, ui2) + 9))):
                    continue     # score entry, another cell, 10 over: never on a shortest way
                key = json.dumps(ui2, sort_keys=True)
                if key not in seen:
                    seen.add(key)
                    q.append((ui2, seq + [b]))
        raise AssertionError("no presses record %r from %r" % (ev, self.ui))

    def _score(self, ev):
        pips, db = ev[1], ev[2]
        ctx = self.ctx
        ui = self.ui
        seq = []

        def press(b):
            nonlocal ui
            ui2, act = core.step(ctx, ui, b)
            seq.append(b)
            ui = ui2
            return act

        if core.kind(ctx, ui) != "score":
            # the round was not ended by play: score it from the menu
            seq += self._to_menu_item("Score the round now")
            ui = {"s": "score"}
        r = ctx.game.round
        out = r.out if r is not None and r.ended == engine.OUT else -1
        n = ctx.game.n
        told = ev[3] if len(ev) > 3 else None
        act = None
        for s in range(n):
            if s == out:
                continue
            for b in number_presses(pips[s]):
                press(b)
            if db[s]:
                press("C")
            act = press("A")
            # the fields the house rules ask after the pips (flows/score.py)
            while act is None and ui.get("i") == s and ui.get("field"):
                from firmware.flows import score_facts
                bits = score_facts.asked(ctx.game, ui)[s]
                name = (["pips"] + score_facts.fields(bits, ui["p"][s], ui["d"][s]))[ui["field"]]
                k = FACT_OF_FIELD[name]
                v = told[k][s] if told is not None and told[k] is not None else 0
                if name in ("open_train", "out_on_double"):
                    if v:
                        press("UP")
                else:
                    for b in number_presses(v):
                        press(b)
                act = press("A")
        if act != ev:
            raise AssertionError("score entry gave %r, not %r" % (act, ev))
        return seq

    def _to_menu_item(self, label):
        seq = []
        ui = self.ui
        ui, act = core.step(self.ctx, ui, "DOWN")
        seq.append("DOWN")
        from firmware.flows import play
        from shared_engine import fill
        items = [fill(x[0]) for x in play.menu_items(self.ctx)]
        for _ in range(items.index(label)):
            ui, act = core.step(self.ctx, ui, "DOWN")
            seq.append("DOWN")
        seq.append("A")
        return seq


def plan_game(rules, n_players, seed, tracking="quick", options=None, lang=None, fixes=None):
    """(presses, target events, planner) for a simulated game (set up in
    ``lang`` when given). ``fixes(game, ev)``, when given, is called after
    each event is planned (``game`` the planner's, as it stands) and
    returns events to record there: corrections (``fix``) and undos, a
    table's second thoughts."""
    from shared_engine import simulate
    sim = simulate.simulate(rules, n_players, seed=seed, options=options)
    evs = list(sim.events)
    evs = simulate.to_quick(evs) if tracking == "quick" else simulate.to_board(evs)
    evs = normalize(rules, evs)
    if fixes is not None:
        return _plan_with_fixes(rules, n_players, tracking, options, lang, evs, fixes)
    names = list(setup_flow.DEFAULT_ROSTER[:n_players])
    p = Planner(rules, names, tracking, options, lang)
    p.setup()
    for ev in evs:
        p.event(ev)
    return p.presses, evs, p


def _plan_with_fixes(rules, n_players, tracking, options, lang, evs, fixes):
    names = list(setup_flow.DEFAULT_ROSTER[:n_players])
    p = Planner(rules, names, tracking, options, lang)
    p.setup()
    out = []
    for ev in evs:
        p.event(ev)
        out.append(ev)
        for extra in fixes(p.ctx.game, ev) or ():
            p.event(extra)
            out.append(extra)
    return p.presses, out, p
