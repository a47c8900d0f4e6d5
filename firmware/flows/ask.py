"""Ending the game, asked first: A ends it, C goes back to the menu.

A game ended by a stray press would need an undo its players may not know
of. A module of its own, not play's: play is loaded on every turn's press,
and this screen is seldom seen.

ui keys: "s": "ask", "c": the menu's cursor to go back to.
"""

from shared_engine.engine import END
from firmware.core import labels


def view(ctx, ui, k):
    return "menu", {
        "title": ("End the game?",),
        "items": [("End the game",)],
        "cursor": 0,
        "note": ("The game stops here: the totals so far decide who wins.",),
        "labels": labels("OK", None, "Back", None, None),
    }


def press(ctx, ui, k, button):
    if button == "A":
        return {}, (END,)
    if button == "C":
        return {"s": "menu", "c": ui.get("c", 0)}, None
    return ui, None
