"""Every screen as the flows make it (messages of the catalogue, not English
text), at the longest player names allowed, one in each script: the views
of the golden frames in every language (tests/firmware/test_i18n_screens.py).

The flows run here on CPython (as the test planner runs them), over games
the engine plays to the state each screen needs; the views go to the
MicroPython side as JSON, a message (a tuple) as {"m": [...]} so that it
stays apart from a list (a menu row).
"""

import json
import os

from firmware import core
from firmware.storage import Storage
from shared_engine.engine import (Game, ROUND, PLAY, DRAW, PASS, SCORE, FIX, UNKNOWN, DOUBLE, END,
                                   REDEAL, IllegalEvent)
from shared_engine.messages import message

# 12 letters, the roster's longest (pipkeeper.roster.MAX_NAME), in each script
NAMES = ["Wolfgang Ali", "Gwenllian Ŵy", "Áine Ní Bhrí", "Örjan Åström",
         "Батцэцэг Бат", "فاطمه زهرایی"]


def store(folder):
    os.makedirs(str(folder), exist_ok=True)
    st = Storage(str(folder))
    st.ensure_dirs()
    st.write_json("roster.json", {"names": NAMES + ["Ann", "Bob"]})
    return st


def _ctx(st, game=None, tracking="quick"):
    return core.Ctx(game=game, tracking=tracking, store=st)


def _view(ctx, ui):
    name, v = core.view(ctx, ui)
    v.pop("symbol", None)       # (the QR screen's scratch bytearray: the screen makes one without)
    return name, v


def _to_move(g):
    return g.round.to_move + 1


def _refusal(ctx, g, ev):
    try:
        g.apply(ev)
    except IllegalEvent as e:
        return ctx.words(message(e))
    raise AssertionError("the engine took %r" % (ev,))


def views(folder):
    """[(name, screen, view)] of every screen."""
    st = store(folder)
    out = []
    ctx = _ctx(st)
    out.append(("setup-rules",) + _view(ctx, {"s": "setup", "pg": 0, "c": 0}))
    out.append(("setup-players",) + _view(ctx, {"s": "setup", "pg": 1, "c": 5, "pl": [0, 1, 2, 3, 4, 5]}))
    out.append(("setup-options",) + _view(ctx, {"s": "setup", "pg": 2, "c": 0, "pr": 3, "pl": [0, 1, 2, 3]}))

    g = Game("mexican-train", NAMES, {})
    ctx = _ctx(st, g)
    out.append(("dealer",) + _view(ctx, {"l": 6}))
    out.append(("dealer-hunt",) + _view(ctx, {"s": "dealer", "l": 5, "h": [1, 2, 3, 4]}))
    # chickenfoot: the double hunted for face down, a tile kept in the yard
    out.append(("dealer-foot",) + _view(_ctx(st, Game("chickenfoot", NAMES[:4], {})), {"l": 4}))
    # chicken-scratch: nobody held a double, the deal is void (issue 32)
    s = Game("chicken-scratch", NAMES[:4], {"rounds": "6"})
    s.apply((REDEAL,))
    out.append(("dealer-redeal",) + _view(_ctx(st, s), {}))
    g.apply((ROUND, 12, 6, ()))
    for _ in range(3):
        g.apply((PLAY, _to_move(g), UNKNOWN, UNKNOWN, None))
    g.apply((DRAW, _to_move(g), UNKNOWN, UNKNOWN))
    why = _refusal(ctx, g, (DRAW, _to_move(g), UNKNOWN, UNKNOWN))
    out.append(("turn",) + _view(ctx, {}))
    out.append(("turn-refused",) + _view(ctx, {"msg": why}))
    g.apply((PASS, _to_move(g)))
    out.append(("menu",) + _view(ctx, {"s": "menu", "c": 3}))
    from firmware.flows import play
    end = [x[1] for x in play.menu_items(ctx)].index((END,))
    out.append(("menu-end",) + _view(ctx, core.step(ctx, {"s": "menu", "c": end}, "A")[0]))

    f = Game("chickenfoot", NAMES[:4], {"rounds": "9 8"})
    fctx = _ctx(st, f, "full")
    f.apply((ROUND, 9, 1, ()))
    f.apply((PLAY, 1, 9, 4, None))
    out.append(("picker",) + _view(fctx, {"s": "pick", "p": []}))
    out.append(("picker-level",) + _view(fctx, {"s": "pick", "p": [3]}))

    q = Game("chickenfoot", NAMES[2:6], {"rounds": "9 8"})
    qctx = _ctx(st, q)
    q.apply((ROUND, 9, 1, ()))
    for _ in range(4):
        q.apply((PLAY, _to_move(q), UNKNOWN, UNKNOWN, None))
    q.apply((PLAY, _to_move(q), DOUBLE, DOUBLE, None))
    out.append(("turn-foot",) + _view(qctx, {}))
    out.append(("score",) + _view(qctx, {"s": "score", "i": 1, "p": [12, 0, 0, 0], "d": [0, 0, 0, 0],
                                         "v": 7, "b": 0}))
    try:
        q.apply((SCORE, (12, 7, 0, 40), (0, 0, 1, 1)))
        raise AssertionError("two 0-0 taken")
    except IllegalEvent as e:
        refused = qctx.words(message(e))
    out.append(("score-refused",) + _view(qctx, {"s": "score", "i": 3, "p": [12, 7, 0, 40],
                                                 "d": [0, 0, 1, 1], "v": 40, "b": 1,
                                                 "msg": refused}))
    q.apply((SCORE, (42, 37, 50, 40), (0, 0, 0, 1)))   # (within what their tiles make: issue 32)
    out.append(("sheet",) + _view(qctx, {}))
    q.apply((ROUND, 8, 2, ()))
    q.apply((SCORE, (3, 0, 22, 5), (0, 0, 0, 0)))
    out.append(("end",) + _view(qctx, {}))
    out.append(("qr",) + _view(qctx, core.step(qctx, {}, "C")[0]))
    # fixing a score after the game is over, from the end's sheet
    out.append(("sheet-fix-round",) + _view(qctx, {"s": "sheet", "f": 1, "r": 0}))
    out.append(("sheet-fix-player",) + _view(qctx, {"s": "sheet", "f": 2, "r": 0, "i": 2}))
    out.append(("fix",) + _view(qctx, {"s": "fix", "r": 0, "i": 2, "v": 34, "b": 0}))
    why = _refusal(qctx, q, (FIX, 1, 1, 12, 1))
    out.append(("fix-refused",) + _view(qctx, {"s": "fix", "r": 0, "i": 0, "v": 12, "b": 1,
                                               "msg": why}))
    q.apply((FIX, 1, 3, 34, 0))
    out.append(("sheet-fixed",) + _view(qctx, {"s": "sheet"}))

    # Mexican Train's 13 rounds, paged back to the first (issue 32)
    m = Game("mexican-train", NAMES[:4], {})
    for k in range(13):
        m.apply((ROUND, 12 - k, k % 4 + 1, ()))
        m.apply((SCORE, (0, 10 * k, 2 * k, 3), (0, 0, 0, 0)))
    out.append(("sheet-scrolled",) + _view(_ctx(st, m), {"s": "sheet", "t": 0}))
    st.new_game(lambda n: '[Rules "chickenfoot"]\n[Players "%s" "%s"]\n' % (NAMES[4], NAMES[5]))
    out.append(("history",) + _view(_ctx(st), {"s": "hist", "c": 0}))
    from shared_engine import dgn
    st.new_game(lambda n: dgn.write([("Rules", ["chickenfoot"]), ("Players", NAMES[2:6])],
                                    [(ROUND, 9, 1, ()), (SCORE, (12, 7, 30, 40), (0, 0, 0, 1))]))
    out.append(("history-sheet",) + _view(_ctx(st), {"s": "hist", "c": 0, "g": st.list_games()[-1]}))
    out.append(("error",) + _view(_ctx(st), {"s": "err", "m": "/games/0007.dgn does not replay: "
                                                               "line 3: unknown event", "w": "restore"}))
    return out + house_views(st)


# the house rules of issue 31's example, and more ("0-0 = 25, out -10, ...")
HOUSE = {"double_blank": "25", "blank_end": "5", "out_bonus": "10", "tie_break": "most_outs"}


def house_views(st):
    """The House rules page, score entry's fields and mending keys, and the
    line of the rules in play on the dealer, the end and History's sheet
    (issues 31 and 32)."""
    from firmware.flows import house, rule_sets
    out = []
    ctx = _ctx(st)
    out.append(("setup-house",) + _view(ctx, {"s": "house", "pg": 2, "c": 3, "pr": 3, "pl": [0, 1, 2, 3],
                                              "row": 0, "rules_set": "Thursday club",
                                              "house": {"double_blank": "25", "out_bonus": "10"}}))
    rows = house.rows("chickenfoot-cross")
    out.append(("setup-house-own",) + _view(ctx, {
        "s": "house", "pg": 2, "c": 3, "pr": 1, "pl": [0, 1, 2, 3], "row": len(rows) - 2,
        "rules_set": rule_sets.OWN, "house": dict(HOUSE, drawn_tile="until", target_score="250")}))
    out.append(("setup-options-house",) + _view(ctx, {"s": "setup", "pg": 2, "c": rule_sets.OPTIONS_ROW,
                                                      "pr": 3, "pl": [0, 1, 2, 3], "rules_set": rule_sets.LAST,
                                                      "house": {"double_blank": "25"}}))
    g = Game("chickenfoot", NAMES[:4], dict(HOUSE, rounds="9"))
    gctx = _ctx(st, g)
    out.append(("dealer-house",) + _view(gctx, {"l": 2}))
    g.apply((ROUND, 9, 2, ()))
    out.append(("score-field",) + _view(gctx, {"s": "score", "i": 1, "p": [12, 23, 0, 0], "d": [0, 0, 0, 0],
                                               "v": 2, "b": 0, "field": 1}))
    out.append(("score-more",) + _view(gctx, {"s": "score", "i": 0, "p": [0, 0, 0, 0], "d": [0, 0, 0, 0],
                                              "v": 250, "b": 0, "more": 1}))
    g.apply((SCORE, (12, 23, 0, 40), (0, 0, 1, 0), ((1, 3, 0, 2), None, None, None, None, None)))
    out.append(("end-house",) + _view(gctx, {}))
    e = Game("chickenfoot", NAMES + ["Ann", "Bob"], {"rounds": "9"})
    e.apply((ROUND, 9, 1, ()))
    out.append(("score-8",) + _view(_ctx(st, e), {"s": "score", "i": 7, "p": [7, 12, 0, 30, 4, 9, 21, 0],
                                                  "d": [0, 0, 1, 0, 0, 0, 0, 0], "v": 5, "b": 0}))
    from shared_engine import dgn
    st.new_game(lambda n: dgn.write([("Rules", ["chickenfoot"]), ("Players", NAMES[2:6])]
                                    + [("Option", [k, v]) for k, v in sorted(HOUSE.items())]
                                    + [("Option", ["rounds", "9 8"])],
                                    [(ROUND, 9, 1, ()), (SCORE, (12, 7, 30, 40), (0, 0, 0, 1))]))
    out.append(("history-sheet-house",) + _view(_ctx(st), {"s": "hist", "c": 0, "g": st.list_games()[-1]}))
    return out


def encode(x):
    """JSON-able, a message (tuple) as {"m": [...]}, bytes (UTF-8) as
    {"utf8": "..."}."""
    if isinstance(x, bytes):
        return {"utf8": x.decode()}
    if isinstance(x, tuple):
        return {"m": [encode(v) for v in x]}
    if isinstance(x, list):
        return [encode(v) for v in x]
    if isinstance(x, dict):
        return {k: encode(v) for k, v in x.items()}
    return x


def write(folder, path):
    """The views as JSON lines, one a view: the MicroPython side reads one
    at a time, holding no more of them in its 160 KB than the board would."""
    with open(path, "w", encoding="utf-8") as f:
        for n, s, v in views(folder):
            f.write(json.dumps({"name": n, "screen": s, "view": encode(v)}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    import sys
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        for n, s, v in views(d):
            print(n, s, v)
    sys.exit(0)
