"""The error screen: something went wrong; the next press carries on.

view keys:
    message   what went wrong, in words (wrapped over several lines)
    where     optional: the module or step, small
    labels    (A, B, C, UP, DOWN); default: A "OK"

The screen that reports faults must not fail the way the fault did: when
the bitmap fonts cannot be read or drawn (a damaged .bin, a framebuf that
lacks what text.draw needs), ``plain`` shows the same message with
framebuf's own 8x8 font, ``fill_rect`` and ``hline`` only, which every
MicroPython has; it imports nothing from the firmware.
"""

_W = 296
_H = 128
_BAR_Y = 115        # the top of the A/B/C bar (screens.ui.BAR_Y)
_A_X = 49           # the centre of A's label (screens.ui)
_COLS = 36          # 8-pixel characters on a line, with a margin
_LINE = 10


def draw(view, fb):
    try:
        _with_fonts(view, fb)
    except Exception:
        plain(fb, view.get("message"), view.get("where"))


def _with_fonts(view, fb):
    from firmware import text
    from firmware.screens import ui
    ui.clear(fb)
    mid = text.font("mid")
    fb.fill_rect(0, 0, _W, 11, 1)
    text.draw(fb, ("Something went wrong",), 2, 2, None, 0)
    # the message in the mid font when it takes at most five lines, else in
    # the small one (nine lines), never cut short
    m = view.get("message") or "error"
    f = mid
    lines = text.wrap(m, f, ui.W - 6)
    if len(lines) > 5:
        f = None
        lines = text.wrap(m, f, ui.W - 6)
    y = 14
    for line in lines[:9]:
        text.draw(fb, line, 3, y, f)
        y += 10 if f is None else mid.HEIGHT
    if view.get("where"):
        fb.text(text.fit(view["where"], None, ui.W - 4), 2, ui.BAR_Y - 10, 1)
    ui.buttons(fb, view.get("labels") or (("OK",), None, None, None, None))


def _header(fb):
    fb.fill_rect(0, 0, _W, 11, 1)
    fb.text("Something went wrong", 2, 2, 0)


def plain(fb, message, where=None):
    """The error screen in framebuf's own font: the header, the message over
    up to nine lines, where it happened, and A's "OK" (in English: this is
    the screen of last resort)."""
    if not isinstance(message, (str, type(None))):
        from shared_engine import fill
        message = fill(message)
    fb.fill(0)
    _header(fb)
    y = 14
    for line in lines(message or "error", _COLS)[:9]:
        fb.text(line, 3, y, 1)
        y += _LINE
    if where:
        fb.text(where[:_COLS], 2, _BAR_Y - 10, 1)
    fb.hline(0, _BAR_Y - 1, _W, 1)
    fb.fill_rect(_A_X - 11, _BAR_Y + 1, 22, _H - _BAR_Y - 1, 1)
    fb.text("OK", _A_X - 8, _BAR_Y + 3, 0)


def lines(s, n):
    """``s`` in lines of at most ``n`` characters, broken at spaces where
    there are any (a longer word is cut)."""
    out = []
    line = ""
    for word in s.split():
        while len(word) > n:
            if line:
                out.append(line)
                line = ""
            out.append(word[:n])
            word = word[n:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= n:
            line = line + " " + word
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    return out
