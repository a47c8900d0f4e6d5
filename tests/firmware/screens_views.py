"""One view per screen kind (and the variants worth seeing) for the golden
frames in tests/firmware/golden/. Keys are documented in each screen's
module docstring (firmware/screens/*.py)."""

L_TURN = ["Play", "Draw", "Pass", "undo", "more"]

VIEWS = [
    {"name": "setup-rules", "screen": "menu", "view": {
        "title": "New game: rules", "items": ["chickenfoot", "chickenfoot-cross", "chicken-scratch", "mexican-train"],
        "cursor": 0, "note": "Chicken Foot, double-9, 10 rounds", "labels": ["OK", None, None, "up", "down"]}},
    {"name": "setup-players", "screen": "menu", "view": {
        "title": "Players (4)", "items": [["Ann", "1"], ["Bob", "2"], ["Cy", "3"], ["Di", "4"], ["Ed", ""], ["Flo", ""], ["Gus", ""], ["Hal", ""]],
        "cursor": 4, "note": "B: in/out, seats in order taken", "labels": ["Next", "In/out", "Back", "up", "down"]}},
    {"name": "setup-options", "screen": "menu", "view": {
        "title": "Options: chickenfoot", "items": [["Tracking", "full"], ["Set: double", "9"], ["Rounds", "all"], ["0-0 counts 50", "no"]],
        "cursor": 0, "note": "B: change   A: start the game", "labels": ["Start", "Change", "Back", "up", "down"]}},
    {"name": "dealer", "screen": "dealer", "view": {
        "round": "1/10", "preset": "chickenfoot", "centre": "9-9", "hand": 11, "yard": 10, "reserve": 1, "lead": None,
        "hunt": "All draw face down in turn; who finds it leads: Ann?", "labels": ["Start", None, None, "undo", "next"]}},
    {"name": "dealer-hunt", "screen": "dealer", "view": {
        "round": "4/13", "preset": "mexican-train", "centre": "9-9", "hand": 12, "yard": 43, "reserve": 0, "lead": None,
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
        "hands": [["Ann", 9], ["Bob", 4], ["Cy", 12], ["Di", 6]], "current": 3,
        "status": ["! Di cannot pass: they must draw first", "Satisfy 5-5 on Bob's train", "Marked: Ann, Cy"], "labels": L_TURN}},
    {"name": "picker", "screen": "picker", "view": {
        "title": "Ann plays", "right": "toe on 4", "groups": [["4-9"], ["4-8", "4-7"], ["4-6", "4-5", "4-3", "4-2"], ["4-1", "4-0"]],
        "labels": ["4-9", "2", "4", "back", "2"]}},
    {"name": "menu", "screen": "menu", "view": {
        "title": "Menu", "items": ["Play a double", "Score the round now", "Score sheet", "Undo", "History", "End the game", "New game"],
        "cursor": 0, "note": None, "labels": ["OK", "undo", "Back", "up", "down"]}},
    {"name": "score", "screen": "score", "view": {
        "title": "Score R3 7-7", "right": "2/3", "name": "Bob", "pips": 23, "db": False, "out": False,
        "entered": [["Ann", "out"], ["Cy", "12"]], "message": None, "labels": ["OK", "+10", "0-0", "+1", "-1"]}},
    {"name": "score-refused", "screen": "score", "view": {
        "title": "Score R3 7-7", "right": "3/3", "name": "Di", "pips": 2, "db": True, "out": False,
        "entered": [["Ann", "out"], ["Bob", "23"]], "message": "Di's 4 tiles make at least 9 pips, not 2",
        "labels": ["OK", "+10", "0-0", "+1", "-1"]}},
    {"name": "sheet", "screen": "sheet", "view": {
        "title": "After round 3 of 10", "names": ["Ann", "Bob", "Cy", "Di"],
        "rows": [["9-9", [0, 12, 31, 4]], ["8-8", [20, 0, 5, 9]], ["7-7", [3, 8, 0, 60]]],
        "totals": [23, 20, 36, 73], "mark": [2], "labels": ["Next", None, None, "undo", "more"]}},
    {"name": "end", "screen": "end", "view": {
        "winners": ["Bob"], "why": "tie-break, most rounds won", "title": "chickenfoot-cross, 10 rounds",
        "totals": [["Ann", 45], ["Bob", 40], ["Cy", 80], ["Di", 40]], "labels": ["New", "Sheet", None, "undo", "more"]}},
    {"name": "history", "screen": "menu", "view": {
        "title": "History (3 games)", "items": [["0003 mexican-train", "4p"], ["0002 chickenfoot", "3p"], ["0001 chicken-scratch", "4p"]],
        "cursor": 1, "note": None, "labels": ["Show", None, "Back", "up", "down"]}},
    {"name": "error", "screen": "error", "view": {
        "message": "OSError: [Errno 28] ENOSPC", "where": "press A", "labels": ["OK", None, None, None, None]}},
]
