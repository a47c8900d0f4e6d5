"""The dealer screen at the start of each round: what to set up.

view keys:
    round     e.g. "3/10"; ``preset``: the preset's name (a message)
    centre    the centre double, e.g. "7-7" (None in chicken-scratch before
              the holder of the highest double is known: ``centre_text`` then)
    centre_text  a line to show instead of the double (optional)
    hand      tiles each player draws
    lead      name of the player who leads, or None when the double is
              hunted for: then ``hunt`` is the line saying how
    yard      tiles left in the yard after the deal; ``reserve`` tiles that
              stay there (0 for none)
    redeal    optional: the line that says the deal was void and the
              tiles go back to be shuffled (chicken-scratch), first
    labels    (A, B, C, UP, DOWN)
"""

from firmware import text
from firmware.words import plural
from firmware.screens import ui


def draw(view, fb):
    ui.clear(fb)
    big = text.font("big")
    mid = text.font("mid")
    wmax = ui.SIDE_X - 2
    ui.header(fb, ("Round {round}  {rules}", view["round"], view.get("preset", "")), None)
    c = view.get("centre")
    x = 2
    if c:
        x = text.draw(fb, c, 2, 6, big) + 8
        text.draw(fb, ("centre",), x, 16, mid)
    else:
        text.draw(fb, text.fit(view.get("centre_text", ""), mid, wmax), 2, 18, mid)
    y = 36      # under the big double's ink (rows 12 to 34)
    lines = [("Each player draws {n}", view["hand"])]
    if view.get("redeal"):
        lines.insert(0, view["redeal"])
    if view.get("lead"):
        lines.append(("{name} leads", view["lead"]))
    elif view.get("hunt"):
        lines.append(view["hunt"])
    # the yard in plain words: what is in it, and the tiles that must stay
    tiles = plural(view["yard"], "1 tile", "{n} tiles")
    k = view.get("reserve")
    if not k:
        lines.append(("{tiles} in the yard", tiles))
    elif k == 1:
        lines.append(("{tiles} in the yard: leave the last one there", tiles))
    else:
        lines.append(("{tiles} in the yard: leave the last {k} there", tiles, k))
    # in the mid font when all fit (four lines); else the yard's line, then
    # every line, in the small one: a long sentence in some language never
    # pushes a line off the screen
    n = len(lines)
    for k in (n, n - 1, 0):
        parts = []
        for i in range(n):
            f = mid if i < k else None
            for part in text.wrap(lines[i], f, wmax):
                parts.append((part, f))
        end = y
        for part, f in parts:
            end += 10 if f is None else mid.HEIGHT
        if end - (2 if f is None else 0) <= ui.BAR_Y - 1:     # the last line's ink, above the bar's rule
            break
    for part, f in parts:
        if y + text.height(f) > ui.BAR_Y - 1:
            break
        text.draw(fb, part, 2, y, f)
        y += 10 if f is None else mid.HEIGHT
    ui.buttons(fb, view.get("labels"))
