"""Views the board's flows make, for the layout test (test_layout.py): every
screen kind at a given player count, with the longest names a roster allows.

The flows (firmware/flows/*) are pure Python and run here on CPython; a
simulated game (shared_engine.simulate) takes them through every state of
every round, and each state's views are sampled (the first of each kind and
those with the most text). The views are then drawn on the MicroPython unix
port by mp_layout.py, which measures every string drawn.
"""

import json

from firmware import core
from firmware.flows import error as error_flow
from firmware.flows import setup as setup_flow
from firmware.words import preset
from shared_engine import simulate
from shared_engine.presets import NAMES as PRESETS

MAX_NAME = 12     # host/pipkeeper/roster.py: what a roster name may be
COUNTS = range(2, 11)    # what the presets take with their default sets (mexican-train: 10)


def longest_names(n):
    """``n`` distinct names of MAX_NAME letters, of the widest letter."""
    return ["W" * (MAX_NAME - 1) + chr(65 + i) for i in range(n)]


class _Store:
    """What the set-up flow reads from the board's flash: a roster."""

    def __init__(self, names):
        self.names = names

    def read_json(self, name, default=None):
        if name == "roster.json":
            return {"names": self.names}
        return default


def _size(view):
    return len(json.dumps(view))


def _setup_views(n):
    names = longest_names(20)
    ctx = core.Ctx(store=_Store(names))
    pl = list(range(n))
    out = []
    for c in range(len(PRESETS)):
        out.append(core.view(ctx, {"s": "setup", "pg": 0, "c": c, "pr": 0, "pl": pl}))
    for c in (0, n, 19):
        out.append(core.view(ctx, {"s": "setup", "pg": 1, "c": c, "pr": 0, "pl": pl}))
    out.append(core.view(ctx, {"s": "setup", "pg": 1, "c": 0, "pr": 0, "pl": [0],
                               "msg": "Take at least 2 players (B)"}))
    for pr in range(len(PRESETS)):
        for c in range(6):
            out.append(core.view(ctx, {"s": "setup", "pg": 2, "c": c, "pr": pr, "pl": pl,
                                       "rules_set": "W" * 16}))
    if n == 4:
        out += _house_views(ctx, pl)
    # the engine's refusal of a set-up (chickenfoot takes at most 8)
    ui, _ = core.step(ctx, {"s": "setup", "pg": 2, "c": 0, "pr": 0, "pl": list(range(12))}, "A")
    if ui.get("msg"):
        out.append(core.view(ctx, ui))
    return out


def widest_house(rules):
    """A house rules value for every row of preset ``rules``, each the
    longest on the page that is not the preset's own."""
    from firmware.flows import house, rule_sets
    widest = {}
    for key, _, values in house.rows(rules):
        widest[key] = max((v for v in values if v != rule_sets.default(rules, key)),
                          key=lambda v: len(str(house.shown(v))))
    return widest


def _with_house(name_view, rules):
    """The view with the line of house rules at its longest (every rule)."""
    from firmware.flows.rules_line import house_line
    name, v = name_view
    v = dict(v)
    from firmware.flows.rule_sets import in_play
    v["house"] = house_line(list(in_play(rules, widest_house(rules)).items()))
    return name, v


def _house_views(ctx, pl):
    """The House rules page of each preset at every row, its values at their
    longest."""
    from firmware.flows import house, rule_sets
    out = []
    for pr in range(len(PRESETS)):
        rules = PRESETS[pr]
        widest = widest_house(rules)
        for row in range(len(house.rows(rules)) + 1):
            for changed in ({}, widest):
                out.append(core.view(ctx, {"s": "house", "pg": 2, "c": 3, "pr": pr, "pl": pl,
                                           "row": row, "house": changed, "rules_set": rule_sets.OWN}))
    return out


class _Sampler:
    """Keeps, per screen kind, the first view and the one with the most text."""

    def __init__(self):
        self.first = {}
        self.most = {}

    def add(self, key, name_view):
        if key not in self.first:
            self.first[key] = name_view
        if key not in self.most or _size(name_view[1]) > _size(self.most[key][1]):
            self.most[key] = name_view

    def views(self):
        out = []
        for d in (self.first, self.most):
            for key in sorted(d):
                out.append(d[key])
        return out


def _game_views(rules, n, seed, tracking):
    names = longest_names(n)
    sampler = _Sampler()
    sim = simulate.Simulation(rules, names, seed=seed)
    ctx = core.Ctx(game=sim.game, tracking=tracking)
    ctx.free = 16000                      # "Flash nearly full" on the screens too
    g = sim.game

    def on_event(s, ev):
        k = core.kind(ctx, {})
        if k == "turn":
            sampler.add("turn", core.view(ctx, {}))
            r = g.round
            if not r.drew and r.drawable(g.rules):
                # what the engine says to a pass before a draw
                msg = ctx.words("seat %d cannot pass: they must draw first (%d tiles may be drawn)"
                                % (r.to_move + 1, r.drawable(g.rules)))
                sampler.add("turn-refused", core.view(ctx, {"msg": msg}))
            sampler.add("menu", core.view(ctx, {"s": "menu", "c": 0}))
            if tracking == "full":
                try:
                    sampler.add("pick", core.view(ctx, {"s": "pick", "p": []}))
                except Exception:
                    pass
        elif k in ("sheet", "end"):
            sampler.add(k, core.view(ctx, {}))
            if k == "end":
                sampler.add("end-house", _with_house(core.view(ctx, {}), rules))
            if k == "sheet":
                dealer()
            if k == "end":
                sampler.add("end-sheet", core.view(ctx, {"s": "sheet"}))
                sampler.add("sheet-house", _with_house(core.view(ctx, {"s": "sheet"}), rules))  # History's
                sampler.add("end-menu", core.view(ctx, {"s": "menu", "c": 0}))
        elif k == "score":
            for i in range(n):
                ui = {"s": "score", "i": i, "p": [7 + 13 * j for j in range(n)],
                      "d": [j % 2 for j in range(n)]}
                sampler.add("score-%d" % (i == n - 1), core.view(ctx, ui))
            msg = ctx.words("seat %d's hand of %d tiles makes at least %d, not %d" % (n, 4, 9, 2))
            sampler.add("score-refused", core.view(ctx, {"s": "score", "i": n - 1, "msg": msg}))

    def dealer():
        sampler.add("dealer", core.view(ctx, {"s": "dealer"}))
        sampler.add("dealer-house", _with_house(core.view(ctx, {"s": "dealer"}), rules))
        sampler.add("dealer-hunt", core.view(ctx, {"s": "dealer", "h": [1]}))

    dealer()
    sim.on_event = on_event
    sim.run()
    return sampler.views()


def _fault_views():
    out = []
    for m in ("OSError: [Errno 28] ENOSPC", "OSError: [Errno 5] EIO", "OSError: [Errno 2] ENOENT",
              "MemoryError: memory allocation failed", "PanelError: UC8151 did not answer",
              "/games/0012.dgn does not replay: line 9: there is no seat 9",
              "ValueError: the checkpoint is cut short", "TypeError: x"):
        out.append(error_flow.view(None, {"s": "err", "m": m, "w": "restore"}, "err"))
    return out


def _history_views(n):
    items = [[("{game} {rules}", "%04d" % (12 - i), preset(PRESETS[i % len(PRESETS)])),
              ("{n}p", n)] for i in range(12)]
    lab = core.labels("Show", "Delete", "Back", "up", "down")
    out = [("menu", {"title": ("History ({games})", ("{n} games", 12)), "items": items, "cursor": c,
                     "note": None, "labels": lab}) for c in (0, 11)]
    out.append(("menu", {"title": ("Delete game {game}?", "0012"), "items": [items[0]], "cursor": 0,
                         "note": "The laptop holds it (synced). Deleting cannot be undone.",
                         "labels": core.labels("Delete", None, "Keep", None, None)}))
    return out


def views(n, seeds=(1,)):
    """[(screen, view)] for ``n`` players: set-up, history, faults, and
    every screen of a simulated game of each preset, in both trackings."""
    out = _setup_views(n) + _history_views(n) + _fault_views()
    for rules in PRESETS:
        for seed in seeds:
            for tracking in ("quick", "full"):
                try:
                    out += _game_views(rules, n, seed, tracking)
                except ValueError:
                    pass          # the preset does not take n players
    return out
