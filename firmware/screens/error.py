"""The error screen: something went wrong; the next press carries on.

view keys:
    message   what went wrong, in words (wrapped over several lines)
    where     optional: the module or step, small
    labels    (A, B, C, UP, DOWN); default: A "OK"
"""

from firmware import text
from firmware.screens import ui


def draw(view, fb):
    ui.clear(fb)
    mid = text.font("mid")
    fb.fill_rect(0, 0, ui.W, 11, 1)
    fb.text("Something went wrong", 2, 2, 0)
    y = 14
    for line in text.wrap(view.get("message") or "error", mid, ui.W - 6)[:5]:
        text.draw(fb, line, 3, y, mid)
        y += mid.HEIGHT
    if view.get("where"):
        fb.text(text.fit(view["where"], None, ui.W - 4), 2, ui.BAR_Y - 10, 1)
    ui.buttons(fb, view.get("labels") or ("OK", None, None, None, None))
