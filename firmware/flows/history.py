"""History: the games on the board, newest first, and each one's sheet.

UP/DOWN move, A shows the game's sheet (C there: back to the list; UP
and DOWN page through its rounds, "t": the first shown; B, for a
finished game, its QR codes: firmware/flows/qr.py, which come back to
the same page), C leaves. B deletes the game from the board, after a
confirming press of A (C keeps it), and is offered only for a game the
laptop holds whole (Storage.synced: synced, and not grown since) that is
not the game in progress: deleting is how players make room on a full
flash, and it never loses a game.

ui keys: "s": "hist", "c": cursor, "g": the record shown (file name),
"d": the record to delete, asked to confirm.
"""

from firmware.core import labels
from firmware.words import plural, preset

# The helper this flow imports where it uses it, which the app keeps with
# the flow between frames (firmware/app.py render).
DRAWS_WITH = ("firmware.flows.rules_line",)


def _games(ctx):
    st = ctx.store
    if st is None:
        return []
    names = st.list_games()
    names.reverse()
    return names


def _about(ctx, name):
    """(rules, players) from a record's first lines, cheaply."""
    st = ctx.store
    rules = "?"
    n = 0
    try:
        for line in st.lines(st.path("games", name)):
            if line.startswith("[Rules"):
                rules = line.split('"')[1]
            elif line.startswith("[Players"):
                n = line.count('"') // 2
            elif line and line[0] != "[":
                break
    except (OSError, IndexError):
        pass
    return rules, n


def synced(st, name):
    """Whether the laptop holds record ``name`` whole: /pipkeeper/synced
    (written by `pipkeeper sync`) lists it at the size it has now; a record
    that grew since is not synced. Here rather than in Storage: only
    History asks, and Storage is loaded on every press."""
    want = "%d %s" % (st.size(st.path("games", name)), name)
    try:
        for line in st.lines(st.path("pipkeeper", "synced")):
            if line == want:
                return True
    except OSError:
        pass
    return False


def _deletable(ctx, name):
    st = ctx.store
    return synced(st, name) and st.current() != st.path("games", name)


# (the path of the record whose sheet was last shown, whether its game is
# over): B on that sheet (its QR codes) is then taken without replaying
# the record again, 450 ms of the largest game's on the stock image, where
# the board stays up between presses (on USB this module is kept while
# its screen is shown; a cold boot replays it).
_shown = None


def _load(ctx, name):
    global _shown
    path = ctx.store.path("games", name)
    from shared_engine import dgn
    with open(path) as f:
        game = dgn.replay_lines(f, 1)
    _shown = (path, game.over)
    return game


def _over(ctx, name):
    known = _shown
    if known is not None and known[0] == ctx.store.path("games", name):
        return known[1]
    return _load(ctx, name).over


def view(ctx, ui, k):
    games = _games(ctx)
    g = ui.get("g")
    if g:
        try:
            game = _load(ctx, g)
        except Exception:
            from firmware.flows.error import say
            return "error", {"message": say("record", g[:-4]), "labels": labels(None, None, "Back")}
        from firmware.core import sheet_rows
        from firmware.sheet_pages import ROWS, first_row
        rows, fixed = sheet_rows(game)
        seats, how = game.winners()
        house = _rules_line(game)
        n = ROWS - 1 if house else ROWS       # (a line of house rules above the rounds)
        top = first_row(rows, ui.get("t"), None, n)
        more = len(rows) > top + n
        return "sheet", {
            "title": ("{game} {rules}", g[:-4], preset(game.rules.name)),
            "right": ("over",) if game.over else plural(len(game.results), "1 rd", "{n} rds"),
            "names": game.players,
            "rows": rows,
            "totals": game.totals,
            "mark": seats,
            "fixed": fixed,
            "top": top,
            # UP and DOWN page through the rounds (issue 32: only the last
            # 8 of Mexican Train's 13 could be seen)
            "labels": labels(None, "QR code" if game.over else None, "Back",
                             "earlier" if top > 0 else None, "later" if more else None),
            "house": house,
        }
    c = min(ui.get("c", 0), max(0, len(games) - 1))
    d = ui.get("d")
    if d:
        rules, n = _about(ctx, d)
        return "menu", {
            "title": ("Delete game {game}?", d[:-4]),
            "items": [[("{game} {rules}", d[:-4], preset(rules)), ("{n}p", n)]],
            "cursor": 0,
            "note": ("The laptop holds it (synced). Deleting cannot be undone.",),
            "labels": labels("Delete", None, "Keep", None, None),
        }
    items = []
    for i in range(len(games)):
        if abs(i - c) <= 6:
            rules, n = _about(ctx, games[i])
            items.append([("{game} {rules}", games[i][:-4], preset(rules)), ("{n}p", n)])
        else:
            items.append([games[i][:-4], ""])
    return "menu", {
        "title": ("History ({games})", plural(len(games), "1 game", "{n} games")),
        "items": items or [("no games yet",)],
        "cursor": c,
        "note": None,
        "labels": labels("Show", "Delete" if games and _deletable(ctx, games[c]) else None,
                         "Back", "up", "down"),
    }


def _paged(ctx, ui, later):
    """History's sheet a page earlier, or ``later``."""
    from firmware.core import sheet_rows
    from firmware.sheet_pages import ROWS, first_row
    try:
        game = _load(ctx, ui["g"])
        rows = sheet_rows(game)[0]
    except Exception:
        return ui
    n = ROWS - 1 if _rules_line(game) else ROWS
    u = dict(ui)
    u["t"] = first_row(rows, first_row(rows, ui.get("t"), None, n) + (n if later else -n), None, n)
    return u


def press(ctx, ui, k, button):
    games = _games(ctx)
    c = min(ui.get("c", 0), max(0, len(games) - 1))
    if ui.get("g"):
        if button == "C":
            return {"s": "hist", "c": c}, None
        if button == "B" and _over(ctx, ui["g"]):
            u = {"s": "qr", "g": ui["g"], "c": c}      # firmware/flows/qr.py
            if "t" in ui:
                u["t"] = ui["t"]
            return u, None
        if button in ("UP", "DOWN"):
            return _paged(ctx, ui, button == "DOWN"), None
        return ui, None
    d = ui.get("d")
    if d:
        if button == "A" and _deletable(ctx, d):
            import os
            os.remove(ctx.store.path("games", d))
            return {"s": "hist", "c": max(0, min(c, len(games) - 2))}, None
        if button in ("A", "C"):
            return {"s": "hist", "c": c}, None
        return ui, None
    if button == "C":
        return {}, None
    if not games:
        return ui, None
    if button == "UP":
        return {"s": "hist", "c": (c - 1) % len(games)}, None
    if button == "DOWN":
        return {"s": "hist", "c": (c + 1) % len(games)}, None
    if button == "A":
        return {"s": "hist", "c": c, "g": games[c]}, None
    if button == "B" and _deletable(ctx, games[c]):
        return {"s": "hist", "c": c, "d": games[c]}, None
    return ui, None


def _rules_line(g):
    """The line of the house rules in play (firmware/flows/rules_line.py),
    its module loaded only for a game whose record gives options."""
    if not g.rules.given:
        return None
    from firmware.flows.rules_line import line
    return line(g)
