"""The turn screen: whose turn it is, in large type, and the table at a glance.

view keys:
    name      the player whose turn it is
    round     e.g. "3/10" (round number / rounds in the game)
    centre    the centre double, e.g. "7-7"
    yard      tiles in the yard; ``drawable``: how many of them may be drawn
    hands     [(name, tiles in hand), ...] in seat order
    current   index in ``hands`` of the player to move
    status    up to 3 short lines: trains to start, toes owed, double to
              satisfy, markers, "drew: play it or pass" ...
    labels    (A, B, C, UP, DOWN) button words
"""

from firmware import text
from firmware.screens import ui


def draw(view, fb):
    ui.clear(fb)
    big = text.font("big")
    mid = text.font("mid")
    wmax = ui.SIDE_X - 2
    d = view.get("drawable")
    if d is not None and d != view["yard"]:
        yard = ("yard {n} ({k})", view["yard"], d)
    else:
        yard = ("yard {n}", view["yard"])
    ui.header(fb, ("R{round}  {tile}", view["round"], view["centre"]), yard)
    name = text.fit(view["name"], big, wmax)
    text.draw(fb, name, 2, 6, big)
    # the hands: up to four cells a row, the current player's inverted
    hands = view["hands"]
    n = len(hands)
    per_row = n if n <= 4 else (n + 1) // 2
    cw = (wmax + 2) // per_row
    y0 = 44
    for i in range(n):
        nm, count = hands[i]
        x = (i % per_row) * cw
        y = y0 + (i // per_row) * 11
        s = "%d" % count
        label = text.fit(nm, None, cw - 8 * len(s) - 14)
        if i == view["current"]:
            fb.fill_rect(x, y - 1, cw - 4, 10, 1)
            text.draw(fb, label, x + 1, y, None, 0)
            text.right(fb, s, x + cw - 6, y, None, 0)
        else:
            text.draw(fb, label, x + 1, y)
            text.right(fb, s, x + cw - 6, y, None, 1)
    rows = (n + per_row - 1) // per_row
    y = y0 + rows * 11 + 1
    lines = []
    for line in view.get("status", ()):
        if line[0] == "! {refusal}" or line[:1] == "!":
            lines += text.wrap(line, mid, wmax)[:2]   # a refusal: say it all
        else:
            lines.append(text.fit(line, mid, wmax))
    for line in lines:
        if y + mid.HEIGHT > ui.BAR_Y + 1:
            break
        text.draw(fb, line, 2, y - 2, mid)
        y += mid.HEIGHT - 2
    ui.buttons(fb, view.get("labels"))
