"""History: the games on the board, newest first, and each one's sheet.

UP/DOWN move, A shows the game's sheet (A or C there: back to the list),
C leaves. Records are read, never changed.

ui keys: "s": "hist", "c": cursor, "g": the record shown (file name).
"""

from firmware.core import labels


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


def _load(ctx, name):
    st = ctx.store
    from shared_engine import dgn
    with open(st.path("games", name)) as f:
        return dgn.replay_lines(f, 1)


def view(ctx, ui, k):
    games = _games(ctx)
    g = ui.get("g")
    if g:
        try:
            game = _load(ctx, g)
        except Exception as e:
            return "error", {"message": "%s: %s" % (g, e), "labels": labels("Back")}
        rows = [("%d-%d" % (res[0], res[0]), res[1]) for res in game.results]
        seats, how = game.winners()
        return "sheet", {
            "title": "%s %s" % (g[:-4], game.rules.name),
            "right": ("over",) if game.over else ("{n} rds", len(game.results)),
            "names": game.players,
            "rows": rows,
            "totals": game.totals,
            "mark": seats,
            "labels": labels("Back", None, "Back", None, None),
        }
    c = ui.get("c", 0)
    items = []
    for i in range(len(games)):
        if abs(i - c) <= 6:
            rules, n = _about(ctx, games[i])
            items.append([games[i][:-4] + " " + rules, ("{n}p", n)])
        else:
            items.append([games[i][:-4], ""])
    return "menu", {
        "title": ("History ({n} games)", len(games)),
        "items": items or [("no games yet",)],
        "cursor": c,
        "note": None,
        "labels": labels("Show", None, "Back", "up", "down"),
    }


def press(ctx, ui, k, button):
    games = _games(ctx)
    c = ui.get("c", 0)
    if ui.get("g"):
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
    return ui, None
