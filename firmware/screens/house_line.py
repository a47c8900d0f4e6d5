"""The house rules in play, in the small font under a screen's own lines
(firmware/flows/rules_line.py makes them): the end screen's and History's
sheet's.

A module of its own, imported by those screens only when they have house
rules to show, and let go with the screens between presses: screens/ui.py,
which every screen loads on every press, stays as small as it was.
"""

from firmware import text


def draw(fb, s, y, width, room):
    """``s`` wrapped to ``width`` in the small font from ``y``, at most
    ``room`` lines, whole words; "..." after the last when some are left
    out. Returns the y under them."""
    parts = text.wrap(s, None, width)
    cut = len(parts) > room
    if cut:
        parts = text.wrap(s, None, width - 28)      # room for the "..." (from x 2)
    for i in range(min(len(parts), room)):
        x = text.draw(fb, parts[i], 2, y)
        if cut and i == room - 1:
            text.draw(fb, "...", x + 2, y)
        y += 10
    return y
