"""One view per screen kind (and the variants worth seeing) for the golden
frames in tests/firmware/golden/. Keys are documented in each screen's
module docstring (firmware/screens/*.py)."""

L_TURN = ["Play", "Draw", "Pass", "undo", "more"]

VIEWS = [
    {"name": "setup-rules", "screen": "menu", "view": {
        "title": "New game: rules", "items": ["Chicken Foot", "Chicken Foot Cross", "Chicken Scratch", "Mexican Train"],
        "cursor": 0, "note": "Chicken Foot, double-9, 10 rounds", "labels": ["OK", None, None, "up", "down"]}},
    {"name": "setup-players", "screen": "menu", "view": {
        "title": "Players (4)", "items": [["Ann", "1"], ["Bob", "2"], ["Cy", "3"], ["Di", "4"], ["Ed", ""], ["Flo", ""], ["Gus", ""], ["Hal", ""]],
        "cursor": 4, "note": "B: in/out, seats in order taken", "labels": ["Next", "In/out", "Back", "up", "down"]}},
    {"name": "setup-options", "screen": "menu", "view": {
        "title": "Options: Chicken Foot", "items": [["Tracking", "full"], ["Set: double", "9"], ["Rounds", "all"], ["0-0 counts 50", "no"]],
        "cursor": 0, "note": "B: change   A: start the game", "labels": ["Start", "Change", "Back", "up", "down"]}},
    {"name": "dealer", "screen": "dealer", "view": {
        "round": "1/10", "preset": "Chicken Foot", "centre": "9-9", "hand": 11, "yard": 10, "reserve": 1, "lead": None,
        "hunt": "Whoever draws the 9-9 first leads. Is it Ann?", "labels": ["Start", None, None, "undo", "next"]}},
    {"name": "dealer-hunt", "screen": "dealer", "view": {
        "round": "4/13", "preset": "Mexican Train", "centre": "9-9", "hand": 12, "yard": 43, "reserve": 0, "lead": None,
        "hunt": "Nobody holds it: draw in turn. Cy draws: found it?", "labels": ["Found", "No", None, "undo", None]}},
    {"name": "turn", "screen": "turn", "view": {
        "name": "Annabelle", "round": "3/10", "centre": "7-7", "yard": 12, "drawable": 11,
        "hands": [["Ann", 7], ["Bob", 9], ["Cy", 11], ["Di", 3]], "current": 0,
        "status": ["Foot on 4-4: 2 toes to go"], "labels": L_TURN}},
    {"name": "turn-8-players", "screen": "turn", "view": {
        "name": "Bob", "round": "1/10", "centre": "9-9", "yard": 4, "drawable": 3,
        "hands": [["Ann", 5], ["Bob", 5], ["Cy", 5], ["Di", 5], ["Ed", 4], ["Flo", 5], ["Gus", 5], ["Hal", 5]], "current": 1,
        "status": ["9-9 needs 3 more trains"], "labels": L_TURN}},
    {"name": "turn-mexican", "screen": "turn", "view": {
        "name": "Di", "round": "5/13", "centre": "8-8", "yard": 30, "drawable": 30,
        "hands": [["Ann", 9, True], ["Bob", 4, False], ["Cy", 12, True], ["Di", 6, False]], "current": 3,
        "status": ["! Di cannot pass: they must draw first", "Satisfy 5-5 on Bob's train", "*: marked, open to all"],
        "labels": L_TURN}},
    {"name": "picker", "screen": "picker", "view": {
        "title": "Ann plays", "right": "toe on 4", "groups": [["4-9"], ["4-8", "4-7"], ["4-6", "4-5", "4-3", "4-2"], ["4-1", "4-0"]],
        "labels": ["4-9", "2", "4", "back", "2"]}},
    {"name": "menu", "screen": "menu", "view": {
        "title": "Menu", "items": ["Play a double", "Score the round now", "Score sheet", "Undo", "History", "End the game", "New game"],
        "cursor": 0, "note": None, "labels": ["OK", "Undo", "Back", "up", "down"]}},
    {"name": "score", "screen": "score", "view": {
        "title": "Score R3 7-7", "right": "2/3", "name": "Bob", "pips": 23, "db": False, "out": False,
        "entered": [["Ann", "out"], ["Cy", "12"]], "message": None, "labels": ["OK", "+10", "0-0", "+1", "-1"]}},
    {"name": "score-refused", "screen": "score", "view": {
        "title": "Score R3 7-7", "right": "3/3", "name": "Di", "pips": 2, "db": True, "out": False,
        "entered": [["Ann", "out"], ["Bob", "23"]], "message": "Di's hand of 4 tiles makes at least 9, not 2",
        "labels": ["OK", "+10", "0-0", "+1", "-1"]}},
    {"name": "sheet", "screen": "sheet", "view": {
        "title": "After round 3 of 10", "names": ["Ann", "Bob", "Cy", "Di"],
        "rows": [["9-9", [0, 12, 31, 4]], ["8-8", [20, 0, 5, 9]], ["7-7", [3, 8, 0, 60]]],
        "totals": [23, 20, 36, 73], "mark": [2], "labels": ["Next", None, None, "undo", "more"]}},
    {"name": "sheet-fix-player", "screen": "sheet", "view": {
        "title": "Fix round 2: whose score?", "right": "8-8", "names": ["Ann", "Bob", "Cy", "Di"],
        "rows": [["9-9", [0, 12, 31, 4]], ["8-8", [20, 0, 5, 9]], ["7-7", [3, 8, 0, 60]]],
        "totals": [23, 20, 36, 73], "mark": [2], "fixed": [[0, 2], [1, 3]], "cursor": [1, 3],
        "labels": ["OK", None, "Back", "prev", "next"]}},
    {"name": "sheet-fix-round", "screen": "sheet", "view": {
        "title": "Fix: which round?", "right": "3-3", "names": ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"],
        "rows": [["%d-%d" % (d, d), [d, 2 * d, 0, 3, 10 * d, 7, 5, 1]] for d in range(12, 1, -1)],
        "totals": [77, 154, 0, 33, 770, 77, 55, 11], "mark": [3], "fixed": [[9, 4]], "cursor": [9, None],
        "labels": ["OK", None, "Back", "up", "down"]}},
    {"name": "fix", "screen": "score", "view": {
        "title": "Fix R2 8-8", "right": "was 9", "name": "Di", "pips": 19, "db": False, "out": False,
        "entered": [["Ann", "20"], ["Bob", "out"], ["Cy", "5"]], "message": None,
        "labels": ["OK", "+10", "0-0", "+1", "-1"]}},
    {"name": "end", "screen": "end", "view": {
        "winners": ["Bob"], "why": "tie-break, most rounds won", "title": "Chicken Foot Cross, 10 rounds",
        "totals": [["Ann", 45], ["Bob", 40], ["Cy", 80], ["Di", 40]], "labels": ["New", "Sheet", "QR code", "undo", "more"]}},
    # issue 34: the final sheet to a phone, one code (3 pixels a module) and a page of five (2)
    {"name": "qr", "screen": "qr", "view": {
        "text": {"utf8": "pipkeeper 1a2b-0003\nChicken Foot, 2 rounds\n1. Ann 19\n2. Bob 35\nAnn wins: lowest total"},
        "page": None, "hint": "Point a phone's camera at the code", "labels": [None, None, "Back", None, None]}},
    {"name": "qr-paged", "screen": "qr", "view": {
        "text": {"utf8": "pipkeeper 1a2b-0004 2/5\nRounds: 12 11 10 9 8 7 6 5 4 3 2 1 0\n"
                         "Ann: 12 0 35 8 19 0 4 22 16 0 9 11 3\nBob: 0 28 14 30 0 17 25 6 0 13 8"},
        "page": "2/5", "hint": "Point a phone's camera at the code", "labels": [None, None, "Back", "prev", "next"]}},
    {"name": "history", "screen": "menu", "view": {
        "title": "History (3 games)", "items": [["0003 Mexican Train", "4p"], ["0002 Chicken Foot", "3p"], ["0001 Chicken Scratch", "4p"]],
        "cursor": 1, "note": None, "labels": ["Show", None, "Back", "up", "down"]}},
    {"name": "error", "screen": "error", "view": {
        "message": "The screen did not answer as the badger2040 build expects (BUSY, GP26). "
                   "Check the wiring, or set the build: pipkeeper flash --board NAME",
        "where": "board check", "labels": [None, None, None, None, None]}},
    # The defects of issue 12, drawn fixed: notes that were cut mid-word,
    # the scroll mark over "down", a long name in a menu item, status lines
    # at 8 seats with the longest names, a tile and its train in DOWN's
    # column; the error screen as players now read it (flows/error.py) and
    # History offering to delete a synced game, with its confirmation.
    {"name": "setup-rules-mexican", "screen": "menu", "view": {
        "title": "New game: rules", "items": ["Chicken Foot", "Chicken Foot Cross", "Chicken Scratch", "Mexican Train"],
        "cursor": 3, "note": "Mexican Train, double-12, 13 rounds", "labels": ["OK", None, None, "up", "down"]}},
    {"name": "menu-scrolled", "screen": "menu", "view": {
        "title": "Menu", "items": ["Play on Mexican train", "Play a double", "Double on Mexican",
                                   "Play on WWWWWWWWWWWB's train", "Double on WWWWWWWWWWWB's train",
                                   "Score the round now", "Score sheet", "Undo", "History", "End the game", "New game"],
        "cursor": 4, "note": None, "labels": ["OK", "Undo", "Back", "up", "down"]}},
    {"name": "turn-8-long-names", "screen": "turn", "view": {
        "name": "WWWWWWWWWWWB", "round": "3/13", "centre": "11-11", "yard": 20, "drawable": 9,
        "hands": [["WWWWWWWWWWW" + c, 6, c in "CF"] for c in "ABCDEFGH"], "current": 1,
        "status": ["! WWWWWWWWWWWB cannot pass: they must draw first (9 tiles may be drawn)",
                   "Satisfy 11-11 on WWWWWWWWWWWB's train", "*: marked, open to all",
                   "Flash nearly full: sync games"], "labels": L_TURN}},
    {"name": "turn-yard-closed", "screen": "turn", "flow": ["chickenfoot", 4, "yard-closed"]},
    {"name": "picker-trains", "screen": "picker", "view": {
        "title": "Ann plays", "right": "on 8", "groups": [["8-12"], ["8-11 mx", "8-10"], ["8-9 @2", "8-7"], ["8-6 mx", "8-5 @3"]],
        "labels": ["8-12", "2", "2", "back", "2"]}},
    {"name": "error-full", "screen": "error", "flow": ["fault", "OSError: [Errno 28] ENOSPC"]},
    {"name": "error-record", "screen": "error", "flow": [
        "fault", "/games/0007.dgn does not replay: line 4: there is no seat 9"]},
    {"name": "history-synced", "screen": "menu", "view": {
        "title": "History (3 games)", "items": [["0003 Mexican Train", "4p"], ["0002 Chicken Foot", "3p"], ["0001 Chicken Scratch", "4p"]],
        "cursor": 1, "note": None, "labels": ["Show", "Delete", "Back", "up", "down"]}},
    # issue 22: "End the game" asks first
    {"name": "menu-end", "screen": "menu", "view": {
        "title": "End the game?", "items": ["End the game"], "cursor": 0,
        "note": "The game stops here: the totals so far decide who wins.",
        "labels": ["OK", None, "Back", None, None]}},
    # issue 32: 8 players' 3-digit totals apart and clear of "more"; the
    # first rounds of Mexican Train's 13, paged back to (the scroll bar);
    # a picker's boxes that cannot hold their tiles say how many more, a
    # tile and its train kept together in DOWN's box; a shared win
    {"name": "sheet-8-players", "screen": "sheet", "view": {
        "title": "After round 13 of 13", "names": ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"],
        "rows": [["%d-%d" % (d, d), [d * 3 + i for i in range(8)]] for d in range(12, -1, -1)],
        "totals": [349, 359, 369, 379, 389, 399, 309, 319], "mark": [1], "top": 0,
        "labels": ["Next", "Fix", "latest", "undo", "more"]}},
    {"name": "picker-overflow", "screen": "picker", "view": {
        "title": "Ann plays", "right": "on 12",
        "groups": [["12-%d" % d for d in range(12)], ["12-12"], [],
                   ["12-6 mx", "12-5 @3", "12-4", "12-3 mx"]],
        "labels": ["12", "12-12", None, "back", "4"]}},
    {"name": "end-shared", "screen": "end", "view": {
        "winners": ["Ann", "Cy"], "why": "tied totals", "title": "Chicken Foot, 10 rounds",
        "totals": [["Ann", 45], ["Bob", 140], ["Cy", 45], ["Di", 100], ["Ed", 61]],
        "labels": ["New", "Sheet", None, "undo", "more"]}},
    {"name": "history-delete", "screen": "menu", "view": {
        "title": "Delete game 0002?", "items": [["0002 Chicken Foot", "3p"]], "cursor": 0,
        "note": "The laptop holds it (synced). Deleting cannot be undone.",
        "labels": ["Delete", None, "Keep", None, None]}},
]


def _yard_closed(rules, n):
    """The turn view the flow makes once the yard is closed (a simulated
    game played on until no tile may be drawn)."""
    from firmware import core
    from shared_engine import simulate
    found = []

    def on_event(sim, ev):
        g = sim.game
        r = g.round
        if not found and r is not None and not r.ended and core.kind(ctx, {}) == "turn" \
                and r.drawable(g.rules) == 0 and not r.drew:
            found.append(core.view(ctx, {})[1])

    sim = simulate.Simulation(rules, ["Ann", "Bob", "Cy", "Di"][:n], seed=1, on_event=on_event)
    ctx = core.Ctx(game=sim.game)
    sim.run()
    return found[0]


def resolved():
    """VIEWS with the views made by the flows filled in ("flow")."""
    from firmware.flows import error
    out = []
    for item in VIEWS:
        f = item.get("flow")
        if f:
            item = dict(item)
            if f[0] == "fault":
                item["view"] = error.view(None, {"s": "err", "m": f[1], "w": "restore"}, "err")[1]
            else:
                item["view"] = _yard_closed(f[0], f[1])
            del item["flow"]
        out.append(item)
    return out
