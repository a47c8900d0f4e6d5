"""Score entry: the pips left in one player's hand, then the next player.

view keys:
    title     header, e.g. "Score R3 7-7"; ``right``: e.g. "2/4"
    name      the player being scored
    pips      the number entered so far (a message for a yes/no field)
    field     the words of the field being entered, when not the pips
              (firmware/flows/score_facts.py: "blank ends", ...), else None
    db        True when the player holds 0-0 (shown as "+ 0-0")
    out       True when this player went out (the score is 0)
    entered   [(name, text)] the players scored so far this round
    message   the engine's reason a score was refused, or None
    labels    (A, B, C, UP, DOWN)
"""

from firmware import text
from firmware.screens import ui


def draw(view, fb):
    ui.clear(fb)
    big = text.font("big")
    mid = text.font("mid")
    wmax = ui.SIDE_X - 4
    ui.header(fb, view["title"], view.get("right"), labels=view.get("labels"))
    # the players already scored, on the right; the name being scored
    # ends left of those beside it (the first two rows)
    y = 13
    room = 150
    msg = view.get("message")
    lines = text.wrap(msg, None, ui.SIDE_X - 6)[:3] if msg else ()
    entered = view.get("entered", ())
    # as many rows as there is room for above the refusal's box (or the bar)
    rows = (ui.BAR_Y - 1 - (16 + 10 * len(lines) if lines else 0) - y) // 10
    if len(entered) > rows:
        # more players than rows (Chicken Foot Cross takes 20): the last
        # ones, under a line that counts those left out
        text.right(fb, "+%d" % (len(entered) - rows + 1), wmax, y)
        y += 10
        entered = entered[len(entered) - rows + 1:]
    for nm, s in entered:
        text.right(fb, s, wmax, y)
        nm = text.fit(nm, None, 56)
        x = wmax - text.width(s, None) - 8
        text.right(fb, nm, x, y)
        if y < 30:
            room = min(room, x - text.width(nm, None) - 8)
        y += 10
    # the name's ink ends above the digits' (a Persian name's dots reach
    # 17 rows below its top)
    text.draw(fb, text.fit(view["name"], mid, room), 2, 12, mid)
    v = view["pips"]
    if isinstance(v, int):
        x = text.draw(fb, "%d" % v, 2, 25, big)
    else:           # a yes or no
        x = text.draw(fb, v, 2, 32, mid)
    if view.get("db"):
        text.draw(fb, "+ 0-0", x + 6, 39, mid)
    elif view.get("out"):
        text.draw(fb, ("went out",), x + 6, 39, mid)
    if view.get("field"):
        # what the number counts, under it (the players scored stay on the right)
        text.draw(fb, text.fit(view["field"], mid, 140), 2, 64, mid)
    if lines:
        y = ui.BAR_Y - 14 - 10 * len(lines)
        fb.fill_rect(0, y - 2, ui.SIDE_X - 2, 10 * len(lines) + 2, 1)
        for line in lines:
            text.draw(fb, line, 2, y, None, 0)
            y += 10
    ui.buttons(fb, view.get("labels"))
