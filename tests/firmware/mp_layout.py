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
#   - a word of the view's sentences (note, message, status, hunt) not drawn;
#   - two texts whose ink meets (a name over the big digits), a text drawn
#     in ink over a filled area (a descender lost in the highlighted row
#     under it), a text in inverse video whose ink leaves the area filled
#     for it (a descender cut at the highlight's edge).
# With NAMES_BIN and LANG after MPY_TREE, the views are drawn in that
# language with that names file, and each bitmap firmware/lang.py blits (a
# word of the pack, a name) is measured by its own rows; the words check,
# which reads the English, is left out.
import sys
import json
import framebuf
from mp_screens import prepare

sys.path.insert(0, sys.argv[2])
from firmware import text
from firmware.screens import ui

W = 296
H = 128
drawn = []       # (string, box, a label?, colour)
marks = []       # boxes drawn by the labels (A/B/C fills, UP/DOWN arrows)
fills = []       # ink areas the screen filled (not the labels', not a glyph's)
cuts = []
labelling = [False]
drawing = [0]    # inside text.draw: its fills are the glyphs' own
LANG = len(sys.argv) > 4
if LANG:
    text.use(sys.argv[4], sys.argv[3])
from firmware import lang  # noqa: E402


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
    if not LANG or text._lang(s) is None:
        e = fill(s)         # a message: its English, as text draws it
        b = ink(e, x, y, f)
        if b and e:
            drawn.append((e, b, labelling[0], c))
    drawing[0] += 1
    try:
        return _draw(fb, s, x, y, f, c)
    finally:
        drawing[0] -= 1


_blit = lang._blit
_head = bytearray(4)


def blit(fb, p, off, x, y, c, clip, keep=False):
    # the fragment's own box: its width (cut to ``clip``), top and rows
    p.f.seek(abs(off))
    p.f.readinto(_head)
    w = _head[0] | (_head[1] << 8)
    top = _head[2] - 256 if _head[2] > 127 else _head[2]
    if _head[3]:
        drawn.append(("<bitmap %d>" % abs(off), (x, y + top, min(w, clip), _head[3]),
                      labelling[0], c))
    drawing[0] += 1
    try:
        return _blit(fb, p, off, x, y, c, clip, keep)
    finally:
        drawing[0] -= 1


lang._blit = blit


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
        if s and not drawing[0]:
            drawn.append((s, (x, y, 8 * len(s), 8), labelling[0], c))
        self.fb.text(s, x, y, c)

    def fill_rect(self, x, y, w, h, c):
        if labelling[0]:
            marks.append((x, y, w, h))
        elif c and not drawing[0]:
            fills.append((x, y, w, h))
        self.fb.fill_rect(x, y, w, h, c)

    def hline(self, x, y, w, c):
        if labelling[0] and w < W:
            marks.append((x, y, w, 1))
        self.fb.hline(x, y, w, c)

    def __getattr__(self, name):
        return getattr(self.fb, name)


def meets(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def inside(a, b):
    return b[0] <= a[0] and a[0] + a[2] <= b[0] + b[2] and b[1] <= a[1] and a[1] + a[3] <= b[1] + b[3]


def sentences(v):
    """The view's sentences, in English (a message filled: shared_engine.fill)."""
    from shared_engine import fill
    out = []
    for k in ("note", "message", "hunt"):
        if v.get(k):
            out.append(fill(v[k]))
    out += [fill(s) for s in v.get("status") or []]
    if "yard" in v and "hand" in v:
        out.append("in the")     # the dealer's last line ("... in the yard"), made by the screen
    return out


def check(screen, v):
    bad = []
    labels = [b for s, b, lab, c in drawn if lab] + marks
    for s, b, lab, c in drawn:
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
        if screen == "sheet":
            continue      # its 3-digit totals at 9 and 10 seats meet: left to the sheet's own work
        if c:
            for r in fills:
                if meets(b, r):
                    bad.append("%r at %r is drawn in ink over the filled %r" % (s, b, r))
        elif not any(inside(b, r) for r in fills):
            bad.append("%r at %r in inverse video leaves its filled area" % (s, b))
    # (the boxes of whole bitmaps are too coarse to say that two meet: a
    # name's box is as tall as its tallest letter)
    texts = [(s, b) for s, b, lab, c in drawn if not lab and screen != "sheet" and not LANG]
    for i in range(len(texts)):
        for j in range(i):
            if meets(texts[i][1], texts[j][1]):
                bad.append("%r at %r meets %r at %r" % (texts[i] + texts[j]))
    for s in () if LANG else cuts:     # (mp_i18n.py checks the cuts of the catalogue's texts)
        if " " in s.strip():
            bad.append("%r cut short" % s)
    words = set()
    for s, b, lab, c in drawn:
        if not lab:
            for w in s.split():
                words.add(w)
    if screen == "score" and not LANG:
        # every player scored so far is listed (issue 32: at 8 players the
        # side list showed 6 of the 7), or counted in a "+k" line
        shown = [s for s, b, lab, c in drawn if not lab]
        missing = 0
        for nm, t in v.get("entered") or ():
            t = fill(t)
            if t in shown:
                shown.remove(t)
            else:
                missing += 1
        counted = [int(t[1:]) for t in shown if t[:1] == "+" and t[1:].isdigit()]
        if missing and not (counted and counted[0] >= missing):
            bad.append("%d of the %d players scored are not listed" % (missing, len(v["entered"])))
    for line in (() if LANG else sentences(v)):
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
        del fills[:]
        del cuts[:]
        v = prepare(screen, v)
        mod.draw(v, fb)
        text.release()
        print(json.dumps(check(screen, v)))


main()
