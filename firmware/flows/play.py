"""Play: the turn screen, the tile picker (full tracking) and the game menu.

Turn screen buttons: A play, B draw (while the yard is open and the player
has not drawn), C pass, UP undo, DOWN the menu.
Quick tracking records ``SEAT play`` / ``draw`` / ``pass`` in one press; a
double (``SEAT play double``) and, in mexican-train, a play on another train
come from the menu. Full tracking: A opens the picker over the legal tiles
not yet on the table; a play then costs two or three presses.

Picker: the candidates, likely ones first (most pips first, as players shed
big tiles), are arranged in a tree of up to four groups a level, on A, B, C
and DOWN (a Huffman code over the likelihood, see ``_tree``): a group of one
tile is the pick, a larger group opens as the next level. UP goes back.

Menu: UP/DOWN move, A chooses, C goes back, B undoes; "End the game" asks
first (firmware/flows/ask.py).

ui keys: "s": "pick" with "p": the group indices chosen so far;
"s": "menu" with "c": cursor; "msg": the engine's reason for a refusal.
"""

from shared_engine.engine import (
    PLAY, DRAW, PASS, BLOCKED, UNDO, END, UNKNOWN, DOUBLE, MEXICAN,
)
from shared_engine.presets import TRAINS
from firmware.core import labels, tile_text
from firmware.flows import screens


def _seat(g):
    return g.round.to_move + 1


# -- the turn screen -----------------------------------------------------------

def _status(ctx, g):
    r = g.round
    rules = g.rules
    out = []
    s = r.to_move
    if r.drew:
        out.append(("Drew: play it or pass",) if rules.drawn_must else ("Drew: may play it, or pass",))
    if rules.layout == TRAINS:
        if r.od_train != -1:
            where = ("Mexican train",) if r.od_train == MEXICAN else (
                "{name}'s train", ctx.name(r.od_train))
            pip = "%d-%d" % (r.od_pip, r.od_pip) if r.od_pip >= 0 else ("the double",)
            out.append(("Satisfy {tile} on {train}", pip, where))
        elif not r.had_turn[s]:
            out.append(("First turn: own train only",))
        if any(r.markers):
            out.append(("*: marked, open to all",))
    else:
        if r.centre_left:
            out.append(("{tile} needs {trains}", "%d-%d" % (r.double, r.double),
                        ("1 more train",) if r.centre_left == 1 else ("{n} more trains", r.centre_left)))
        elif r.toes:
            on = "%d-%d" % (r.foot, r.foot) if r.foot >= 0 else ("the double",)
            out.append(("Foot on {tile}: {toes} to go", on,
                        ("1 toe",) if r.toes == 1 else ("{n} toes", r.toes)))
    if r.drawable(rules) == 0 and not r.drew:
        out.append(("Yard closed: play or pass",))
    run = rules.first_run and r.run == s                      # first_turn_run: the run's seat
    until = rules.draw_until and r.drew and r.drawable(rules)  # drawn_tile until: draw again
    if run or until:
        # the house rules' words, loaded only on a turn they change: loading
        # them on every turn cost the stock image's late cold boot 7.6 ms
        # with every rule on (bench device --house-rules, 2026-12-07)
        from firmware.flows import play_rules
        play_rules.status(out, run, until)
    if ctx.free < 32768:
        out.append(("Flash nearly full: sync games",))
    return out


def _round_text(g):
    return "%d/%d" % (len(g.results) + 1, len(g.rules.rounds))


def turn_view(ctx, ui):
    g = ctx.game
    r = g.round
    status = _status(ctx, g)
    if ui.get("msg"):
        status = [("! {refusal}", ui["msg"])] + status
    # markers (mexican-train) show as "*" by the hands; B offers a draw
    # only when the engine would take one (no names added for these: this
    # module is on every press's path)
    m = r.markers if g.rules.layout == TRAINS else [False] * (g.n + 1)
    return "turn", {
        "name": ctx.name(_seat(g)),
        "round": _round_text(g),
        "centre": "%d-%d" % (r.double, r.double),
        "yard": r.yard,
        "drawable": r.drawable(g.rules),
        "hands": [(g.players[i], r.hands[i], m[i + 1]) for i in range(g.n)],
        "current": r.to_move,
        "status": status,
        "labels": labels("Play", "Draw" if r.drawable(g.rules) and (not r.drew or g.rules.draw_until) else None,
                         "Pass", "undo", "more"),
    }


def turn_press(ctx, ui, button):
    g = ctx.game
    seat = _seat(g)
    if button == "A":
        if ctx.tracking == "full":
            plays = candidates(g)
            if plays is None:
                return {}, (PLAY, seat, UNKNOWN, UNKNOWN, None)
            if not plays:
                return {"msg": ("no tile fits: draw or pass",)}, None
            return {"s": "pick", "p": []}, None
        return {}, (PLAY, seat, UNKNOWN, UNKNOWN, None)
    if button == "B":
        r = g.round
        if not r.drawable(g.rules) or (r.drew and not g.rules.draw_until):
            return ui, None        # no draw offered (turn_view; drawn_tile until: again)
        return {}, (DRAW, seat, UNKNOWN, UNKNOWN)
    if button == "C":
        return {}, (PASS, seat)
    if button == "UP":
        return {}, (UNDO,)
    if button == "DOWN":
        return {"s": "menu", "c": 0}, None
    return ui, None


# -- the picker ------------------------------------------------------------------

def candidates(g):
    """The legal plays, likely first: most pips first, doubles first among
    equals, then by train. None when the open ends are not known."""
    plays = g.legal_plays()
    if plays is None:
        return None
    own = g.round.to_move + 1

    def key(p):
        t = p[2]
        tk = 0 if t is None or t == own else (1 if t == MEXICAN else 2 + t)
        return (-(p[0] + p[1]), 0 if p[0] == p[1] else 1, tk, -p[0])
    plays = sorted(plays, key=key)
    return plays


def _tree(g, items):
    """The picker's tree over ``items`` (likely first): a 4-ary Huffman
    code, so that likely tiles take fewer presses. The weights model a player
    who sheds the biggest tile that fits: the tile at rank i is played with
    probability ~ q(1-q)^i, q = the chance a given unseen tile is in their
    hand (tiles in hand / tiles not on the table). A node is a list of up to
    four children; a leaf is a play tuple."""
    n = len(items)
    if n <= 4:
        return list(items)
    r = g.round
    unseen = len(r.table) - sum(r.table)
    h = r.hands[r.to_move]
    q = h / unseen if unseen else 0.5
    if q < 0.02:
        q = 0.02
    if q > 0.9:
        q = 0.9
    import heapq
    heap = []
    w = q
    for i in range(n):
        heap.append((w, i, items[i]))
        w *= 1 - q
    k = n
    while (len(heap) - 1) % 3:
        heap.append((0.0, k, None))        # padding: an empty slot
        k += 1
    heapq.heapify(heap)
    while len(heap) > 1:
        kids = [heapq.heappop(heap) for _ in range(4)]
        kids.sort(key=lambda x: x[1])      # keep the likely-first order
        heapq.heappush(heap, (kids[0][0] + kids[1][0] + kids[2][0] + kids[3][0],
                              kids[0][1], [x[2] for x in kids if x[2] is not None]))
    return heap[0][2]


def _leaves(node):
    if isinstance(node, tuple):
        return [node]
    out = []
    for c in node:
        out += _leaves(c)
    return out


def _level(g, path):
    """The children of the picker's node at ``path`` (None if no such)."""
    node = _tree(g, candidates(g) or [])
    for i in path:
        if isinstance(node, tuple) or i >= len(node):
            return None
        node = node[i]
    if isinstance(node, tuple):
        return None
    return node


def _play_text(g, p):
    s = tile_text(p[0], p[1])
    t = p[2]
    if t is None or t == g.round.to_move + 1:
        return s
    if t == MEXICAN:
        return s + " mx"
    return s + " @%d" % t


_SLOTS = ("A", "B", "C", "DOWN")


def pick_view(ctx, ui):
    g = ctx.game
    groups = _level(g, ui.get("p", [])) or []
    shown = []
    lab = [None, None, None, ("back",), None]
    for i in range(4):
        if i < len(groups):
            texts = tuple(_play_text(g, p) for p in _leaves(groups[i]))
            shown.append(texts)
            lab[(0, 1, 2, 4)[i]] = texts[0] if len(texts) == 1 else "%d" % len(texts)
        else:
            shown.append(())
    r = g.round
    if r.centre_left:
        right = ("on {tile}", "%d-%d" % (r.double, r.double))
    elif r.toes and r.foot >= 0:
        right = ("toe on {n}", r.foot)
    else:
        right = None
    return "picker", {
        "title": ("{name} plays", ctx.name(_seat(g))),
        "right": right,
        "groups": shown,
        "labels": tuple(lab),
    }


def pick_press(ctx, ui, button):
    g = ctx.game
    path = ui.get("p", [])
    if button == "UP":
        if path:
            return {"s": "pick", "p": path[:-1]}, None
        return {}, None
    i = _SLOTS.index(button)
    groups = _level(g, path) or []
    if i >= len(groups):
        return ui, None
    node = groups[i]
    if isinstance(node, tuple):
        p = node
        t = p[2]
        if t == g.round.to_move + 1:
            t = None
        return {}, (PLAY, _seat(g), p[0], p[1], t)
    return {"s": "pick", "p": path + [i]}, None


# -- the menu ---------------------------------------------------------------------

def menu_items(ctx):
    """[(label, action)] for the game menu."""
    g = ctx.game
    items = []
    r = g.round if g is not None else None
    if r is not None and not r.ended and not g.over:
        seat = _seat(g)
        if ctx.tracking != "full":
            if g.rules.layout == TRAINS:
                items.append((("Play on Mexican train",), (PLAY, seat, UNKNOWN, UNKNOWN, MEXICAN)))
            items.append((("Play a double",), (PLAY, seat, DOUBLE, DOUBLE, None)))
            if g.rules.layout == TRAINS:
                items.append((("Double on Mexican",), (PLAY, seat, DOUBLE, DOUBLE, MEXICAN)))
                for t in range(1, g.n + 1):
                    if t != seat and (r.markers[t] or r.od_train == t):
                        items.append((("Play on {name}'s train", ctx.name(t)),
                                      (PLAY, seat, UNKNOWN, UNKNOWN, t)))
                        items.append((("Double on {name}'s train", ctx.name(t)),
                                      (PLAY, seat, DOUBLE, DOUBLE, t)))
        if r.drawable(g.rules) == 0:
            items.append((("Blocked: nobody can play",), (BLOCKED,)))
        if g.rules.call_last and 1 in r.hands:    # (a seat down to its last tile)
            from firmware.flows import play_rules
            items += play_rules.caught(ctx, g)
        items.append((("Score the round now",), "score"))
    if g is not None and g.results:
        items.append((("Score sheet",), "sheet"))
    items.append((("Undo",), (UNDO,)))
    items.append((("History",), "hist"))
    if g is not None and not g.over:
        items.append((("End the game",), (END,)))
    items.append((("New game",), "setup"))
    return items


def menu_view(ctx, ui):
    items = menu_items(ctx)
    c = ui.get("c", 0)
    return "menu", {
        "title": ("Menu",),
        "items": [x[0] for x in items],
        "cursor": c if c < len(items) else 0,
        "note": ui.get("msg") or (("Flash nearly full: sync games",) if ctx.free < 32768 else None),
        "labels": labels("OK", "Undo", "Back", "up", "down"),
    }


def menu_press(ctx, ui, button):
    items = menu_items(ctx)
    c = ui.get("c", 0)
    if c >= len(items):
        c = 0
    if button == "UP":
        return {"s": "menu", "c": (c - 1) % len(items)}, None
    if button == "DOWN":
        return {"s": "menu", "c": (c + 1) % len(items)}, None
    if button == "C":
        return {}, None
    if button == "B":
        return {}, (UNDO,)
    act = items[c][1]
    if act == (END,):
        return {"s": "ask", "c": c}, None       # firmware/flows/ask.py
    if isinstance(act, str):
        if act == "score":
            return {"s": "score"}, None
        if act == "sheet":
            return {"s": "sheet"}, None
        if act == "hist":
            return {"s": "hist", "c": 0}, None
        if act == "setup":
            return {"s": "setup"}, None
    return {}, act


# -- dispatch ----------------------------------------------------------------------

view, press = screens({"pick": (pick_view, pick_press), "menu": (menu_view, menu_press)},
                      (turn_view, turn_press))
