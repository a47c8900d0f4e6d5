# Runs on the MicroPython unix port (not collected by pytest):
#   micropython -X heapsize=4M mp_layout.py VIEWS_JSON MPY_TREE  (the views of
# a whole player count at once: a larger heap than the board's)
# Draws each [screen, view] of VIEWS_JSON with the firmware's own screen
# module, measuring every string drawn (text.draw, framebuf's text) and the
# button labels (screens.ui.buttons), and prints one JSON line per view: the
# problems found, [] when none. test_layout.py reads them.
#   - a string's ink outside the panel, or over a button label, or (outside
#     the labels) below the line over the A/B/C bar;
#   - a sentence (a string with a space) cut short by text.fit;
#   - a word of the view's sentences (note, message, status, hunt) not drawn.
import sys
import json
import framebuf
from mp_screens import prepare

sys.path.insert(0, sys.argv[2])
from firmware import text
from firmware.screens import ui

W = 296
H = 128
drawn = []       # (string, box, a label?)
marks = []       # boxes drawn by the labels (A/B/C fills, UP/DOWN arrows)
cuts = []
labelling = [False]


def ink(s, x, y, f):
    if f is None:
        return (x, y, 8 * len(s), 8)
    top = 99
    bot = -1
    for c in text._codes(s):
        i = text._index(f, c)
        if f.ROWS[i]:
            top = min(top, f.TOPS[i])
            bot = max(bot, f.TOPS[i] + f.ROWS[i])
    if bot < 0:
        return None
    return (x, y + top, text.width(s, f), bot - top)


from shared_engine import fill  # noqa: E402

_draw = text.draw
_fit = text.fit
_buttons = ui.buttons


def draw(fb, s, x, y, f=None, c=1):
    if f is not None:
        e = fill(s)         # a message: its English, as text draws it
        b = ink(e, x, y, f)
        if b:
            drawn.append((e, b, labelling[0]))
    return _draw(fb, s, x, y, f, c)


def fit(s, f, maxw):
    r = _fit(s, f, maxw)
    if r != fill(s):
        cuts.append(fill(s))
    return r


def buttons(fb, labels):
    labelling[0] = True
    try:
        _buttons(fb, labels)
    finally:
        labelling[0] = False


text.draw = draw
text.fit = fit
ui.buttons = buttons


class Measured:
    def __init__(self, fb):
        self.fb = fb

    def text(self, s, x, y, c=1):
        if s:
            drawn.append((s, (x, y, 8 * len(s), 8), labelling[0]))
        self.fb.text(s, x, y, c)

    def fill_rect(self, x, y, w, h, c):
        if labelling[0]:
            marks.append((x, y, w, h))
        self.fb.fill_rect(x, y, w, h, c)

    def hline(self, x, y, w, c):
        if labelling[0] and w < W:
            marks.append((x, y, w, 1))
        self.fb.hline(x, y, w, c)

    def __getattr__(self, name):
        return getattr(self.fb, name)


def meets(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def sentences(v):
    """The view's sentences, in English (a message filled: shared_engine.fill)."""
    from shared_engine import fill
    out = []
    for k in ("note", "message", "hunt"):
        if v.get(k):
            out.append(fill(v[k]))
    out += [fill(s) for s in v.get("status") or []]
    return out


def check(v):
    bad = []
    labels = [b for s, b, lab in drawn if lab] + marks
    for s, b, lab in drawn:
        x, y, w, h = b
        if x < 0 or y < 0 or x + w > W or y + h > H:
            bad.append("%r outside the panel at %r" % (s, b))
        if lab:
            continue
        if y + h > ui.BAR_Y - 1:
            bad.append("%r runs into the A/B/C bar at %r" % (s, b))
        for l in labels:
            if meets(b, l):
                bad.append("%r at %r overlaps a label at %r" % (s, b, l))
    for s in cuts:
        if " " in s.strip():
            bad.append("%r cut short" % s)
    words = set()
    for s, b, lab in drawn:
        if not lab:
            for w in s.split():
                words.add(w)
    for line in sentences(v):
        for w in line.split():
            if w not in words:
                bad.append("%r of %r not drawn" % (w, line))
                break
    return bad


def main():
    views = json.loads(open(sys.argv[1]).read())
    buf = bytearray(4736)
    fb = Measured(framebuf.FrameBuffer(buf, W, H, framebuf.MONO_HLSB))
    for screen, v in views:
        mod = __import__("firmware.screens." + screen, None, None, ("x",))
        del drawn[:]
        del marks[:]
        del cuts[:]
        v = prepare(screen, v)
        mod.draw(v, fb)
        print(json.dumps(check(v)))


main()
