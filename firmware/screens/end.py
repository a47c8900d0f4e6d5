"""Game end: the winner, why, and the totals.

view keys:
    winners   names of the winners (several when the win is shared)
    why       one line: "lowest total", or the tie-break that decided it
    totals    [(name, total)] in seat order
    title     header (optional), e.g. "chickenfoot, 10 rounds"
    labels    (A, B, C, UP, DOWN)
"""

from firmware import text
from firmware.screens import ui


def draw(view, fb):
    ui.clear(fb)
    big = text.font("big")
    mid = text.font("mid")
    wmax = ui.SIDE_X - 4
    ui.header(fb, view.get("title") or ("Game over",), None)
    w = view["winners"]
    head = " & ".join(w) if w else ("No winner",)
    f = big if text.width(head, big) <= wmax else mid
    # in large type a row clear of the header's rule (row 10): an accent
    # over a capital (Å's ring, Ö's dots) reaches 6 rows above the capitals,
    # and at row 8 it crossed the rule and met the title's descenders
    # (Swedish, Irish: issue 32)
    text.draw(fb, text.fit(head, f, wmax), 2, 12 if f is big else 14, f)
    y = 44
    why = view.get("why", "")
    for line in text.wrap(("share the win: {why}" if len(w) > 1 else "wins: {why}", why), mid, wmax)[:2]:
        text.draw(fb, line, 2, y, mid)
        y += mid.HEIGHT - 2
    totals = view["totals"]
    n = len(totals)
    per_row = n if n <= 4 else (n + 1) // 2
    cw = (wmax + 2) // per_row
    for i in range(n):
        nm, t = totals[i]
        x = (i % per_row) * cw
        yy = y + 4 + (i // per_row) * 11
        s = "%d" % t
        # a score ends a character and a half before the next name
        # begins: one space between them read as one run (issue 32)
        text.draw(fb, text.fit(nm, None, cw - 8 * len(s) - 20), x + 1, yy)
        text.right(fb, s, x + cw - 12, yy)
    ui.buttons(fb, view.get("labels"))
