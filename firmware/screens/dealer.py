"""The dealer screen at the start of each round: what to set up.

view keys:
    round     e.g. "3/10"; ``preset``: the preset's name
    centre    the centre double, e.g. "7-7" (None in chicken-scratch before
              the holder of the highest double is known: ``centre_text`` then)
    centre_text  a line to show instead of the double (optional)
    hand      tiles each player draws
    lead      name of the player who leads, or None when the double is
              hunted for: then ``hunt`` is the line saying how
    yard      tiles left in the yard after the deal; ``reserve`` tiles that
              stay there (0 for none)
    labels    (A, B, C, UP, DOWN)
"""

from firmware import text
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
    if view.get("lead"):
        lines.append(("{name} leads", view["lead"]))
    elif view.get("hunt"):
        lines.append(view["hunt"])
    if view.get("reserve"):
        lines.append(("Yard {n}, last {k} stay", view["yard"], view["reserve"]))
    else:
        lines.append(("Yard {n}", view["yard"]))
    for line in lines:
        for part in text.wrap(line, mid, wmax):
            if y + mid.HEIGHT > ui.BAR_Y - 1:      # a line's ink, above the bar's rule
                break
            text.draw(fb, part, 2, y, mid)
            y += mid.HEIGHT
    ui.buttons(fb, view.get("labels"))
