"""Between rounds: the dealer screen, the round sheet, the game's end.

Dealer (before each round): the centre double, tiles per hand, the yard and
its reserve, and who leads. DOWN moves the leader to the next seat; A starts
the round (``round D-D lead S``). Where the centre double is held in a hand
and may be hunted for (chickenfoot-cross, mexican-train), B "Nobody" starts
the hunt: players draw in turn from the seat on the cursor; B "No" passes the
hunt on, A "Found" names the finder. Under ``skip_missing_doubles`` B
"Nobody" asks of the next double still to open a round instead, and the
round opens on the first someone holds; nobody holding any, the first is
drawn for. In chicken-scratch B "Nobody" steps down
to the next double not yet used; when none is left the deal is void
(``redeal``), and the dealer screen comes back saying so: shuffle all the
tiles and draw new hands (``_redealt``; also in place of the round's
sheet, which the table had left for the dealer already). UP undoes the
last event.

Sheet (after each round): A goes on to the dealer, B fixes a past score,
UP undoes the score, DOWN opens the menu. End: A new game, B the sheet, C
the sheet to a phone as QR codes (firmware/flows/qr.py), UP undo, DOWN menu.

Fixing a score (``fix ROUND SEAT PIPS``, the sheet of the round summary or
of the menu): B, then the round (UP/DOWN move the highlighted row, from the
last one round; A takes it), then the player (UP/DOWN move along the row;
A takes the cell), then the pips on the score screen with its own keys
(firmware/flows/score.py). C goes back a step. Corrected cells carry a mark.

ui keys: "s": "dealer" with "l": leader seat (1-based), "d": the double
(chicken-scratch; under skip_missing_doubles the one asked of), "h":
[seats that drew while hunting]; "s": "sheet",
while fixing with "f": 1 (the round) or 2 (the player), "r": the round
(0-based), "i": the seat (0-based), "o": 1 when the sheet was the round
summary (so C comes back to it, not to the menu's sheet).
"""

from shared_engine.engine import ROUND, REDEAL, UNDO
from firmware.core import labels, sheet_rows
from firmware.words import plural, preset
from firmware.flows import screens

# The helper this flow imports where it uses it, which the app keeps with
# the flow between frames (firmware/app.py render).
DRAWS_WITH = ("firmware.flows.rules_line",)


def _names(ctx):
    return ctx.game.players


def _unused(g):
    return [d for d in g.rules.rounds if d not in g.used]


def _double(g, ui):
    if g.rules.skip_missing and ui.get("d") is not None:
        return ui["d"]       # the doubles nobody holds passed over (dealer_press)
    d = g.next_double()
    if d is None:
        d = ui.get("d")
        if d is None:
            left = _unused(g)
            d = max(left) if left else None
    return d


def _default_lead(g):
    return (len(g.results) + g.redeals) % g.n + 1


def _redealt(g):
    """Whether the last event was a void deal (``redeal``): read from the
    undo history, which a restore keeps (shared_engine/checkpoint.py), as
    the UI state does not outlive an event (App.apply)."""
    t = g.history.tail
    return g.round is None and bool(t) and t[-1] == REDEAL


def dealer_view(ctx, ui):
    g = ctx.game
    rules = g.rules
    d = _double(g, ui)
    n = g.n
    lead = ui.get("l") or _default_lead(g)
    hunt = ui.get("h")
    yard = rules.tiles - n * rules.hand_size - (0 if rules.centre_in_hand else 1)
    v = {
        "round": "%d/%d" % (len(g.results) + 1, len(rules.rounds)),
        "preset": preset(rules.name),
        "centre": "%d-%d" % (d, d) if d is not None else None,
        "hand": rules.hand_size,
        "yard": yard,
        "reserve": rules.reserve,
        "lead": None,
        "house": _rules_line(g),
    }
    if d is None:
        v["centre_text"] = ("No double left to start",)
    if _redealt(g) and not ui.get("s"):
        v["redeal"] = ("Nobody held a double: shuffle all the tiles and draw new hands",)
    name = ctx.name(lead)
    if hunt is not None:
        v["hunt"] = ("Nobody holds it: draw in turn. {name} draws: found it?", name)
        v["labels"] = labels("Found", "No", None, "undo", None)
        return "dealer", v
    if not rules.centre_in_hand:
        v["hunt"] = ("Whoever draws the {tile} first leads. Is it {name}?",
                     v["centre"] or ("the double",), name)
        v["labels"] = labels("Start", None, None, "undo", "next")
        return "dealer", v
    v["hunt"] = ("Whoever holds the {tile} places it and leads. Is it {name}?",
                 v["centre"] or ("the double",), name)
    v["labels"] = labels("Start", "Nobody", None, "undo", "next")
    return "dealer", v


def dealer_press(ctx, ui, button):
    g = ctx.game
    rules = g.rules
    lead = ui.get("l") or _default_lead(g)
    hunt = ui.get("h")
    d = _double(g, ui)
    base = {"s": "dealer", "l": lead}
    if ui.get("d") is not None:
        base["d"] = ui["d"]
    if button == "UP":
        return {}, (UNDO,)
    if hunt is not None:
        if button == "A":
            return {}, (ROUND, d, lead, tuple(hunt) + (lead,))
        if button == "B":
            base["h"] = hunt + [lead]
            base["l"] = lead % g.n + 1
            return base, None
        return ui, None
    if button == "A":
        if d is None:
            return {}, (REDEAL,)
        return {}, (ROUND, d, lead, ())
    if button == "DOWN":
        base["l"] = lead % g.n + 1
        return base, None
    if button == "B" and rules.centre_in_hand:
        if rules.skip_missing:
            from firmware.flows import play_rules
            return play_rules.nobody_holds(g, d, base), None
        if rules.hunt:
            base["h"] = []
            return base, None
        if not rules.fixed_order:
            # chicken-scratch: nobody holds this one, try the next lower.
            left = [x for x in _unused(g) if d is None or x < d]
            if not left:
                return {}, (REDEAL,)
            base["d"] = max(left)
            return base, None
    return ui, None


# -- the sheet and the end ------------------------------------------------------

def _first_seat(g, k):
    """The seat a fix of round k starts on: the first that did not go out."""
    return 1 if g.results[k][2] == 0 and g.n > 1 else 0


def sheet_view(ctx, ui):
    g = ctx.game
    if not ui and _redealt(g):
        return dealer_view(ctx, ui)
    rows, fixed = sheet_rows(g)
    tot = g.totals
    if tot:
        best = max(tot) if g.rules.positive else min(tot)
        mark = [s + 1 for s in range(g.n) if tot[s] == best]
    else:
        mark = []
    k = len(g.results)
    v = {
        "title": ("After round {k} of {n}", k, len(g.rules.rounds)),
        "right": None,
        "names": _names(ctx),
        "rows": rows,
        "totals": tot,
        "mark": mark,
        "fixed": fixed,
        "top": ui.get("t"),
        # C: "earlier" while rounds before those shown are left out,
        # "latest" on the first page; none when all are shown (below)
        "labels": labels("Next" if not g.over else "Back", "Fix" if rows else None,
                         "latest" if ui.get("t") is not None and ui["t"] <= 0 else "earlier",
                         "undo" if not ui.get("s") else None, "more"),
    }
    from firmware.sheet_pages import ROWS
    if len(rows) <= ROWS:
        v["labels"] = v["labels"][:2] + (None,) + v["labels"][3:]
    f = ui.get("f")
    if f and rows:
        r = ui.get("r", k - 1)
        res = g.results[r]
        if f == 1:
            v["title"] = ("Fix: which round?",)
            v["cursor"] = [r, None]
            v["labels"] = labels("OK", None, "Back", "up", "down")
        else:
            v["title"] = ("Fix round {n}: whose score?", r + 1)
            v["cursor"] = [r, ui.get("i", 0)]
            v["labels"] = labels("OK", None, "Back", "prev", "next")
        v["right"] = "%d-%d" % (res[0], res[0])
    return "sheet", v


def sheet_press(ctx, ui, button):
    g = ctx.game
    if not ui and _redealt(g):
        return dealer_press(ctx, ui, button)
    f = ui.get("f")
    k = len(g.results)
    if f and k:
        return _fix_press(g, ui, f, button)
    if button == "A":
        if ui.get("s") or g.over or g.round is not None:
            return {}, None        # back to where we were
        return {"s": "dealer"}, None
    if button == "B" and k:
        return {"s": "sheet", "f": 1, "r": k - 1, "o": 0 if ui.get("s") else 1}, None
    if button == "C":
        from firmware.sheet_pages import ROWS
        if k <= ROWS:
            return ui, None         # all shown: nothing to page to
        u = dict(ui)
        u["t"] = _earlier(k, ui.get("t"), ROWS)
        if u["t"] is None:
            del u["t"]
        return u, None
    if button == "UP" and not ui.get("s"):
        return {}, (UNDO,)
    if button == "DOWN":
        return {"s": "menu", "c": 0}, None
    return ui, None


def _earlier(k, top, room):
    """The sheet's first round shown after C (``k`` rounds; ``top`` the
    first shown now, None for the last ones; ``room`` the rounds shown at
    once, firmware/sheet_pages.py): a page earlier, and from the
    first page back to the last rounds. Why C: on the round's sheet UP is
    undo and DOWN the menu, and the 13 rounds of Mexican Train showed only
    the last 8 (issue 32)."""
    if top is None:
        top = k - room
    if top <= 0:
        return None
    return max(0, top - room)


def _fix_press(g, ui, f, button):
    k = len(g.results)
    r = ui.get("r", k - 1)
    base = {"s": "sheet", "f": f, "r": r, "o": ui.get("o", 0)}
    if f == 1:
        if button == "UP":
            base["r"] = (r - 1) % k
        elif button == "DOWN":
            base["r"] = (r + 1) % k
        elif button == "A":
            base["f"] = 2
            base["i"] = _first_seat(g, r)
        elif button == "C":
            return ({} if ui.get("o") else {"s": "sheet"}), None
        return base, None
    i = ui.get("i", 0)
    base["i"] = i
    if button == "UP":
        base["i"] = (i - 1) % g.n
    elif button == "DOWN":
        base["i"] = (i + 1) % g.n
    elif button == "A":
        res = g.results[r]
        return {"s": "fix", "r": r, "i": i, "v": res[3][i], "b": res[4][i],
                "o": ui.get("o", 0)}, None
    elif button == "C":
        base["f"] = 1
        del base["i"]
    return base, None


def why(g, how):
    """How game ``g`` was won, as a message: its totals alone (``how``
    None: the lowest, or the highest under positive scoring), a shared win,
    or the tie-break that decided it (``Game.winners``)."""
    if how is None:
        return ("highest total",) if g.rules.positive else ("lowest total",)
    if how == "shared":
        return ("tied totals",)     # (the end screen: "Ann & Bob share the win: tied totals")
    return ("tie-break, {how}", (how,))


def end_view(ctx, ui):
    g = ctx.game
    seats, how = g.winners()
    return "end", {
        "winners": [ctx.name(s) for s in seats],
        "why": why(g, how) if seats else ("the game was stopped",),
        "totals": [(g.players[i], g.totals[i]) for i in range(g.n)],
        "title": ("{rules}, {rounds}, stopped" if g.stopped else "{rules}, {rounds}",
                  preset(g.rules.name), plural(len(g.results), "1 round", "{n} rounds")),
        "labels": labels("New", "Sheet", "QR code", "undo", "more"),
        "house": _rules_line(g),
    }


def end_press(ctx, ui, button):
    if button == "A":
        return {"s": "setup"}, None
    if button == "B":
        return {"s": "sheet"}, None
    if button == "C":
        return {"s": "qr"}, None       # the sheet to a phone (firmware/flows/qr.py)
    if button == "UP":
        return {}, (UNDO,)
    if button == "DOWN":
        return {"s": "menu", "c": 0}, None
    return ui, None


view, press = screens({"dealer": (dealer_view, dealer_press), "sheet": (sheet_view, sheet_press)},
                      (end_view, end_press))


def _rules_line(g):
    """The line of the house rules in play (firmware/flows/rules_line.py),
    its module loaded only for a game whose record gives options."""
    if not g.rules.given:
        return None
    from firmware.flows.rules_line import line
    return line(g)
