"""The turn screen: whose turn it is, in large type, and the table at a glance.

view keys:
    name      the player whose turn it is
    round     e.g. "3/10" (round number / rounds in the game)
    centre    the centre double, e.g. "7-7"
    yard      tiles in the yard; ``drawable``: how many of them may be drawn
    hands     [(name, tiles in hand[, marked]), ...] in seat order; marked:
              the seat's train is open to all (shown as "*")
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
    ui.header(fb, ("R{round}  {tile}", view["round"], view["centre"]), yard,
              labels=view.get("labels"))
    # clear of the UP/DOWN labels, which reach 40 pixels into the panel
    tw = ui.SIDE_X - 14
    hands = view["hands"]
    n = len(hands)
    per_row = n if n <= 4 else (n + 1) // 2
    rows = (n + per_row - 1) // per_row
    # The status lines are wrapped whole, never cut: in the mid font under
    # the name in large type; where that leaves too little room (8 seats,
    # long names, a refusal), in the small font; then with the name in the
    # mid font too; at last without it (the inverted cell of the hands
    # names the player to move as well).
    status = view.get("status", ())
    for nf, y0, f in ((big, 44, mid), (big, 44, None), (mid, 31, None), (0, 14, None)):
        lines = []
        for line in status:
            lines += text.wrap(line, f, tw)
        step = 10 if f is None else mid.HEIGHT - 2
        y = y0 + rows * 11 + 1
        if y + step * len(lines) <= ui.BAR_Y + 1:
            break
    if nf != 0:
        text.draw(fb, text.fit(view["name"], nf, tw), 2, 6 if nf is big else 11, nf)
    # the hands: up to four cells a row, the current player's inverted; a
    # "*" after the count marks a train open to all (mexican-train)
    cw = (wmax + 2) // per_row
    for i in range(n):
        h = hands[i]
        x = (i % per_row) * cw
        yy = y0 + (i // per_row) * 11
        s = "%d" % h[1]
        if len(h) > 2 and h[2]:
            s += "*"
        label = text.fit(h[0], None, cw - 8 * len(s) - 14)
        c = 1
        if i == view["current"]:
            fb.fill_rect(x, yy - 1, cw - 4, 10, 1)
            c = 0
        text.draw(fb, label, x + 1, yy, None, c)
        text.right(fb, s, x + cw - 6, yy, None, c)
    for line in lines:
        if y + step > ui.BAR_Y + 1:
            break
        text.draw(fb, line, 2, y - 2 if f else y, f)
        y += step
    ui.buttons(fb, view.get("labels"))

