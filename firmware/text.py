"""Text on the framebuffer: the bitmap fonts (font_big, font_mid) and
framebuf's own 8-pixel font (``SMALL``).

One ``framebuf.blit`` per character: the glyph is read from the font's .bin
file (it stays on flash, not in the heap) into one small buffer allocated
once per font, and blitted from there; no loop over pixels. Pure
helpers (``width``, ``fit``, ``wrap``) measure without drawing, so layouts
can be checked on the laptop.
"""

import framebuf

SMALL = None   # framebuf's built-in 8x8 font
_MONO = framebuf.MONO_HLSB

# Letters a font lacks drawn as their base letter (the big font is ASCII only).
_FROM = "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿ"
_TO = "AAAAAAACEEEEIIIIDNOOOOOOUUUUYTsaaaaaaaceeeeiiiidnoooooouuuuyty"

_fonts = {}
_inverse = None


def font(name):
    """The font module ``font_<name>`` (imported on first use)."""
    f = _fonts.get(name)
    if f is None:
        f = __import__("firmware.font_" + name, None, None, ("x",))
        f.BUF = bytearray(f.MAXG)
        f.MV = memoryview(f.BUF)
        p = f.__file__
        f.PATH = p[:p.rfind(".")] + ".bin"
        _fonts[name] = f
    return f


def _index(f, ch):
    c = ord(ch)
    if 32 <= c < 127:
        return c - 32
    i = f.CHARS.find(ch)
    if i < 0:
        j = _FROM.find(ch)
        if j >= 0:
            i = f.CHARS.find(_TO[j])
    return i if i >= 0 else 31   # "?"


def height(f):
    return 8 if f is None else f.HEIGHT


def width(s, f):
    """Pixel width of ``s`` in font ``f`` (None: framebuf's 8x8 font)."""
    if f is None:
        return 8 * len(s)
    w = f.WIDTHS
    n = 0
    for ch in s:
        n += w[_index(f, ch)]
    return n


def draw(fb, s, x, y, f=None, c=1):
    """Draw ``s`` with its line top at ``y``; return the x after it.
    ``c`` 1 draws ink on paper, 0 paper on ink (inverse video)."""
    if f is None:
        fb.text(s, x, y, c)
        return x + 8 * len(s)
    global _inverse
    pal = None
    key = 0
    if c == 0:
        # Inverse video is always drawn on a filled (ink) background: map the
        # glyph's paper to ink and its ink to paper, with no transparent key
        # (framebuf versions differ in whether the key is compared before or
        # after the palette; with no key both agree).
        if _inverse is None:
            _inverse = framebuf.FrameBuffer(bytearray(b"\x80"), 2, 1, _MONO)
        pal = _inverse
        key = -1
    widths = f.WIDTHS
    tops = f.TOPS
    rows = f.ROWS
    offs = f.OFFS
    mv = f.MV
    with open(f.PATH, "rb") as data:
        for ch in s:
            i = _index(f, ch)
            w = widths[i]
            h = rows[i]
            if h:
                o = offs[2 * i] | (offs[2 * i + 1] << 8)
                n = ((w + 7) >> 3) * h
                data.seek(o)
                data.readinto(mv[:n])
                fb.blit((mv[:n], w, h, _MONO), x, y + tops[i], key, pal)
            x += w
    return x


def fit(s, f, maxw):
    """``s``, cut with "." so that it is at most ``maxw`` pixels wide."""
    if width(s, f) <= maxw:
        return s
    dot = width(".", f)
    while s and width(s, f) + dot > maxw:
        s = s[:-1]
    return s + "."


def wrap(s, f, maxw):
    """Split ``s`` into lines at spaces so each fits ``maxw`` pixels."""
    out = []
    line = ""
    for word in s.split():
        t = word if not line else line + " " + word
        if width(t, f) <= maxw or not line:
            line = t
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    return [fit(x, f, maxw) for x in out]


def centre(fb, s, cx, y, f=None, c=1):
    """Draw ``s`` centred on ``cx``."""
    return draw(fb, s, cx - width(s, f) // 2, y, f, c)


def right(fb, s, rx, y, f=None, c=1):
    """Draw ``s`` ending at ``rx``."""
    return draw(fb, s, rx - width(s, f), y, f, c)
