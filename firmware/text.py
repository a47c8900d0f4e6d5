"""Text on the framebuffer: the bitmap fonts (font_big, font_mid) and
framebuf's own 8-pixel font (``f`` None).

Where MicroPython has its native emitter (the RP2040 ports, the unix port),
a string's glyphs go from the font's bitmaps straight into the
framebuffer's bytes in native code (``_blit``, below), and its width is
summed there too: the font's .bin file is read into the heap in one call
when a frame first uses the font (3-6 KB, let go once the frame is drawn;
in the scorer's own image it is frozen and read in place). Pure helpers
(``width``, ``fit``, ``wrap``) measure without drawing, so layouts can be
checked on the laptop.

Elsewhere (and into a stand-in for a FrameBuffer, as the layout tests
draw), one ``framebuf.blit`` per character: each glyph is copied from the
bitmaps into one small buffer allocated once per font, and blitted from
there; no loop over pixels. The blit source is a ``FrameBuffer`` over that
buffer: one for each row width up to the widest glyph's (a glyph of ``w``
pixels is stored in rows of ``(w + 7) // 8`` bytes, and a FrameBuffer's
stride is fixed). Drawing a character then allocates nothing, and it runs
on every MicroPython from 1.23 (blitting from a ``(buffer, w, h, format)``
tuple came in 1.26). Those FrameBuffers are as tall as the tallest glyph:
the rows below a shorter glyph are cleared, and the padding bits at the
right of each row are 0 in the .bin, so only the glyph's own ink is drawn.
"""

import framebuf

from shared_engine import fill

# A text is a string, drawn as it is (a name, a tile, a number), or a
# message of the catalogue (shared_engine/messages.py): in English its template
# is filled here; in another language firmware/lang.py draws it from the
# bitmaps the laptop rendered. LANG: that language's pack (None: English);
# NAMES: the roster's names file (bitmaps of names the fonts cannot draw).
# Both set by ``use``; the names here are few on purpose (each costs the
# board an entry in MicroPython's table of interned names).
LANG = None
NAMES = None


def use(lang, names=None):
    """Draw messages in ``lang`` ("en": the English of the templates) from
    now on; ``names``: the roster's names file. Only that language's pack
    is opened, and only then is firmware/lang.py loaded."""
    global LANG, NAMES
    NAMES = names
    if LANG is not None:
        LANG.close()
        LANG = None
    if lang and lang != "en":
        LANG = _loaded().pack(lang)


def _lang(s):
    """firmware.lang when ``s`` may need it: a message in a language with a
    pack, a string beyond ASCII (a names file may hold it), any string in a
    language with digits of its own (lang decides)."""
    if isinstance(s, str):
        if LANG is None and (NAMES is None or len(s) == len(_utf8(s))):
            return None
    elif LANG is None and s[0]:       # ("": a line lang has laid out already)
        if NAMES is None:
            return None
        t = english(s)                # kept for the frame: the drawing needs it next
        if len(t) == len(_utf8(t)):
            return None               # plain ASCII: the fonts draw it as it is
    m = _loaded()
    return m if m.wants(s) else None


def _ascii(s):
    """``s`` for framebuf's own font, which draws a byte a character, ASCII
    only: a letter with a mark as its base letter, anything else as "?"."""
    out = bytearray()
    for c in _codes(s):
        if c >= 127:
            j = _FROM.find(chr(c))
            c = ord(_TO[j]) if j >= 0 else 63
        out.append(c)
    return out.decode()


def _loaded():
    """firmware.lang, handed this module (it draws with text's fonts)."""
    from firmware import lang
    if lang.text is None:
        import sys
        lang.text = sys.modules[__name__]
    return lang


_MONO = framebuf.MONO_HLSB
_FB = getattr(framebuf, "FrameBuffer", None)   # the native drawing writes into a real one's bytes only

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
        f.GLYPH = None          # the glyph buffers of the framebuf way (``_glyphs``), made when first needed
        p = f.__file__
        f.PATH = p[:p.rfind(".")] + ".bin"
        f.DATA = f.BITS = None
        _fonts[name] = f
    return f


def _glyph_buffers(f):
    """``f.BUF``, the buffer a glyph is read into, and ``f.GLYPH[n]``, a
    FrameBuffer over it for glyphs of ``n`` bytes a row, all as tall as the
    tallest glyph (``f.GROWS``)."""
    nmax = 1
    rmax = 1
    widths = f.WIDTHS
    rows = f.ROWS
    for i in range(len(widths)):
        if rows[i]:
            nmax = max(nmax, (widths[i] + 7) >> 3)
            rmax = max(rmax, rows[i])
    buf = bytearray(nmax * rmax)
    f.BUF = buf
    f.GROWS = rmax
    f.GLYPH = [None] + [framebuf.FrameBuffer(buf, 8 * n, rmax, _MONO)
                        for n in range(1, nmax + 1)]


def _bitmaps(f):
    """The font's .bin file as an in-memory stream (read in one call on the
    first drawing after a ``release``), from which a seek and a
    ``readinto`` copy a glyph without allocating anything; None when a
    fragmented heap has no block that large (the drawing then reads its
    glyphs from the file, as slow as that is). ``f.BITS``: the same bytes,
    which the native drawing (``_blit``) reads in place."""
    if f.DATA is None:
        import io
        if f.PATH[0] != "/":
            f.BITS = data_bytes(f.PATH)     # frozen: in the image's flash already
        else:
            with open(f.PATH, "rb") as src:
                try:
                    f.BITS = src.read()
                except MemoryError:
                    return None
        f.DATA = io.BytesIO(f.BITS)
    return f.DATA


def data_file(path):
    """The data file at ``path`` (a font's bitmaps, a language's pack) open
    for reading. In the scorer's own image the modules are frozen, and a
    frozen module's ``__file__`` is the name it was frozen under
    ("firmware/text.py"), not a path: the data beside it is frozen too
    (``pkdata``, host/pipkeeper/image/build.py), and a BytesIO over a frozen
    bytes object reads it in place, with no heap and no LittleFS."""
    if path[0] != "/":
        b = data_bytes(path)
        if b is not None:
            import io
            return io.BytesIO(b)
    return open(path, "rb")


def data_bytes(path):
    """The frozen data file at ``path`` (``data_file``): its bytes, in the
    image's flash; None where nothing is frozen."""
    try:
        from pkdata import FILES
    except ImportError:
        return None
    b = FILES.get(path)
    if b is None:
        raise OSError(2)
    return b


# English texts of the messages this frame drew (``english``).
_filled = {}


def english(m):
    """``fill(m)``, once a frame: a screen measures a text, fits it and
    draws it, and each fill makes strings (each piece, each number and the
    join a new string, looked up among the interned names, ~70 us apiece on
    the board)."""
    try:
        s = _filled.get(m)
    except TypeError:       # a value that is no key (a list): not kept
        return fill(m)
    if s is None:
        s = _filled[m] = fill(m)
    return s


def release():
    """Let the fonts' bitmaps go (3-6 KB each): the app calls this once a
    frame is drawn, so that they do not sit in the heap between presses;
    forget the frame's English texts; close the names files."""
    _filled.clear()
    if LANG is not None:
        LANG.memo = {}      # its entries read this frame (the pack stays open: ``use``)
    for f in _fonts.values():
        f.DATA = f.BITS = None
    import sys
    if "firmware.lang" in sys.modules:
        sys.modules["firmware.lang"].close()


# Strings are walked as their UTF-8 bytes, never character by character:
# MicroPython makes each one-character string by interning it (a look-up
# among all interned names, ~50 us on the board, and a new block of its
# table, which failed with MemoryError on a fragmented heap).
try:
    _utf8 = memoryview
    _utf8("")
except TypeError:  # CPython: str has no buffer
    def _utf8(s):
        return memoryview(s.encode())


def _codes(s):
    """The code points of ``s``, decoded from its UTF-8 bytes (a generator:
    one allocation per string, none per character)."""
    m = _utf8(s)
    k = 0
    end = len(m)
    while k < end:
        c = m[k]
        if c < 0xC0:
            k += 1
        elif c < 0xE0:
            c = ((c & 0x1F) << 6) | (m[k + 1] & 0x3F)
            k += 2
        elif c < 0xF0:
            c = ((c & 0x0F) << 12) | ((m[k + 1] & 0x3F) << 6) | (m[k + 2] & 0x3F)
            k += 3
        else:
            c = (((c & 0x07) << 18) | ((m[k + 1] & 0x3F) << 12)
                 | ((m[k + 2] & 0x3F) << 6) | (m[k + 3] & 0x3F))
            k += 4
        yield c


def _index(f, c):
    """The glyph of code point ``c`` in font ``f``."""
    if 32 <= c < 127:
        return c - 32
    ch = chr(c)
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
    if not isinstance(s, str) or NAMES is not None or LANG is not None:
        m = _lang(s)
        if m is not None:
            return m.width(s, f)
        if not isinstance(s, str):
            s = english(s)
    if f is None:
        return 8 * len(s)
    if _width is not None:
        b, sub = _glyph_run(s, f)
        return _width(b, len(b), sub, f.WIDTHS)
    w = f.WIDTHS
    n = 0
    for c in _codes(s):
        n += w[_index(f, c)]
    return n


def draw(fb, s, x, y, f=None, c=1):
    """Draw ``s`` with its line top at ``y``; return the x after it.
    ``c`` 1 draws ink on paper, 0 paper on ink (inverse video).

    Ink on paper: the glyph's 0 pixels are transparent (key 0), and so is
    everything in the glyph FrameBuffer outside the glyph (all 0). Inverse
    video: the glyph's box is filled with ink, then its ink is drawn as
    paper through the palette (0 -> 1, 1 -> 0) with key 1, which leaves its
    paper and the zeros around it alone (framebuf compares the key after the
    palette). Either way the pixels are those of a blit of the glyph's own
    ``w`` x ``h`` box. The loop over the characters is inlined: a helper
    function called per character with this many arguments would have its
    frame allocated on the heap."""
    if not isinstance(s, str) or NAMES is not None or LANG is not None:
        m = _lang(s)
        if m is not None:
            return m.draw(fb, s, x, y, f, c)
        if not isinstance(s, str):
            s = english(s)
    if f is None:
        if len(s) != len(_utf8(s)):
            s = _ascii(s)
        fb.text(s, x, y, c)
        return x + 8 * len(s)
    global _inverse
    if c == 0 and _inverse is None:
        _inverse = framebuf.FrameBuffer(bytearray(b"\x80"), 2, 1, _MONO)
    pal = _inverse if c == 0 else None
    data = _bitmaps(f)
    if data is None:
        with data_file(f.PATH) as data:
            return _glyphs(fb, s, x, y, f, pal, data)
    if _blit is not None and type(fb) is _FB:
        b, sub = _glyph_run(s, f)
        return _blit(fb, b, len(b), sub, x, y, f.BITS, f.WIDTHS, f.TOPS, f.ROWS, f.OFFS, c)
    return _glyphs(fb, s, x, y, f, pal, data)


def _glyphs(fb, s, x, y, f, pal, data):
    if f.GLYPH is None:
        _glyph_buffers(f)       # (a loop over the font's glyphs: 5 ms on the RP2040)
    widths = f.WIDTHS
    tops = f.TOPS
    rows = f.ROWS
    offs = f.OFFS
    buf = f.BUF
    glyph = f.GLYPH
    rmax = f.GROWS
    for c in _codes(s):
        i = _index(f, c)
        w = widths[i]
        h = rows[i]
        if h:
            n = (w + 7) >> 3
            g = glyph[n]
            data.seek(offs[2 * i] | (offs[2 * i + 1] << 8))
            data.readinto(buf)
            if h < rmax:
                g.fill_rect(0, h, 8 * n, rmax - h, 0)
            if pal is None:
                fb.blit(g, x, y + tops[i], 0)
            else:
                fb.fill_rect(x, y + tops[i], w, h, 1)
                fb.blit(g, x, y + tops[i], 1, pal)
        x += w
    return x


def _glyph_run(s, f):
    """(buffer, sub): the glyphs of ``s`` in font ``f`` for the native
    drawing, each a byte that less ``sub`` is its index: an ASCII string
    is its own bytes (index = code - 32), anything else is mapped a
    character at a time (``_index``) into a new bytearray."""
    b = _utf8(s)
    if len(b) == len(s):
        return b, 32
    out = bytearray(len(s))
    i = 0
    for c in _codes(s):
        out[i] = _index(f, c)
        i += 1
    return out, 0


# Drawing in native code (viper) where MicroPython has it: a glyph's rows
# go from the font's bitmaps straight into the framebuffer's bytes, shifted
# to the pixel, where framebuf's blit went pixel by pixel through the
# glyph's FrameBuffer (and a seek and a read of the bitmaps, a clear of its
# rows): about 200 us a character on the RP2040, some 40 ms of a menu's
# frame. Only into a FrameBuffer itself (the layout tests' stand-in for one
# records the drawing and takes the framebuf way), the board's
# (firmware.board: 296 x 128,
# MONO_HLSB, rows of 37 bytes, the leftmost pixel in the top bit); the
# pixels are exactly those of the blits (tests/firmware: the golden frames).
_blit = _width = None
try:
    import micropython

    @micropython.viper
    def _width_native(s: ptr8, n: int, sub: int, widths: ptr8) -> int:
        w = 0
        k = 0
        while k < n:
            i = s[k] - sub
            if sub and (i < 0 or i > 94):
                i = 31              # a control character: "?", as _index
            w += widths[i]
            k += 1
        return w

    @micropython.viper
    def _blit_native(dst: ptr8, s: ptr8, n: int, sub: int, x: int, y: int, bits: ptr8,
                     widths: ptr8, tops: ptr8, rows: ptr8, offs: ptr8, ink: int) -> int:
        # ink 1: the glyph's 1 pixels set; 0 (inverse video): its box set,
        # then its 1 pixels cleared. A row of a glyph is (w + 7) // 8 bytes,
        # the leftmost pixel in the top bit, the bits past w zero.
        k = 0
        while k < n:
            i = s[k] - sub
            k += 1
            if sub and (i < 0 or i > 94):
                i = 31              # a control character: "?", as _index
            w = widths[i]
            h = rows[i]
            if h:
                nb = (w + 7) >> 3
                o = offs[2 * i] | (offs[2 * i + 1] << 8)
                yy = y + tops[i]
                r = 0
                while r < h:
                    if yy >= 0 and yy < 128:
                        base = yy * 37
                        if not ink:
                            px = x
                            while px < x + w:
                                if px >= 0 and px < 296:
                                    j = base + (px >> 3)
                                    dst[j] = dst[j] | (0x80 >> (px & 7))
                                px += 1
                        b = 0
                        while b < nb:
                            v = bits[o + b]
                            if v:
                                px = x + 8 * b
                                sh = px & 7
                                bx = px >> 3
                                if bx >= 0 and bx < 37:
                                    j = base + bx
                                    if ink:
                                        dst[j] = dst[j] | (v >> sh)
                                    else:
                                        dst[j] = dst[j] & (0xFF ^ (v >> sh))
                                if sh and bx >= -1 and bx < 36:
                                    j = base + bx + 1
                                    t = (v << (8 - sh)) & 0xFF
                                    if ink:
                                        dst[j] = dst[j] | t
                                    else:
                                        dst[j] = dst[j] & (0xFF ^ t)
                            b += 1
                    o += nb
                    yy += 1
                    r += 1
            x += w
        return x

    @micropython.viper
    def _clear_native(dst: ptr32, words: int):
        k = 0
        while k < words:
            dst[k] = 0
            k += 1

    @micropython.viper
    def _bitmap_native(dst: ptr8, data: ptr8, o: int, stride: int, shown: int, h: int,
                       x: int, y: int, ink: int):
        # A bitmap of ``h`` rows of ``stride`` bytes from ``data[o]`` (a word
        # of a language's pack), its left ``shown`` pixels, as _blit_native
        # draws a glyph. Its row loop is _blit_native's, written twice on
        # purpose: a viper function calls another through the object
        # protocol, its arguments boxed, and sharing it would add such a
        # call a glyph to every text drawn (not measured). Change both.
        nb = (shown + 7) >> 3
        keep = 0xFF
        if shown & 7:
            keep = (0xFF << (8 - (shown & 7))) & 0xFF
        yy = y
        r = 0
        while r < h:
            if yy >= 0 and yy < 128:
                base = yy * 37
                if not ink:
                    px = x
                    while px < x + shown:
                        if px >= 0 and px < 296:
                            j = base + (px >> 3)
                            dst[j] = dst[j] | (0x80 >> (px & 7))
                        px += 1
                b = 0
                while b < nb:
                    v = data[o + b]
                    if b == nb - 1:
                        v = v & keep
                    if v:
                        px = x + 8 * b
                        sh = px & 7
                        bx = px >> 3
                        if bx >= 0 and bx < 37:
                            j = base + bx
                            if ink:
                                dst[j] = dst[j] | (v >> sh)
                            else:
                                dst[j] = dst[j] & (0xFF ^ (v >> sh))
                        if sh and bx >= -1 and bx < 36:
                            j = base + bx + 1
                            t = (v << (8 - sh)) & 0xFF
                            if ink:
                                dst[j] = dst[j] | t
                            else:
                                dst[j] = dst[j] & (0xFF ^ t)
                    b += 1
            o += stride
            yy += 1
            r += 1

    _blit = _blit_native
    _width = _width_native
except (ImportError, SyntaxError, NameError, AttributeError):
    _clear_native = None    # a MicroPython without the native emitters
    _bitmap_native = None


def bitmap(fb, data, stride, shown, rows, x, y, c, at=0):
    """Draw the left ``shown`` pixels of a 1-bit bitmap (``rows`` rows of
    ``stride`` bytes, MONO_HLSB, from ``data[at]``) at x, y: ink where it has ink (``c`` 1),
    or inverse video, its box ink and its ink paper (``c`` 0). In native
    code into a real frame's bytes (framebuf's blit goes pixel by pixel:
    a word of a language's pack cost as much as the rest of its frame);
    True when drawn so, False when the caller must blit it itself."""
    if _bitmap_native is None or type(fb) is not _FB:
        return False
    _bitmap_native(fb, data, at, stride, shown, rows, x, y, c)
    return True


def clear(fb):
    """The whole frame to paper: a word at a time where native code runs
    (framebuf's fill goes pixel by pixel, 2.4 ms on the RP2040)."""
    if _clear_native is not None and type(fb) is _FB:
        _clear_native(fb, 4736 // 4)
    else:
        fb.fill(0)


def fit(s, f, maxw):
    """``s``, cut with "." so that it is at most ``maxw`` pixels wide."""
    if not isinstance(s, str) or NAMES is not None or LANG is not None:
        m = _lang(s)
        if m is not None:
            return m.fit(s, f, maxw)
        if not isinstance(s, str):
            s = english(s)
    if width(s, f) <= maxw:
        return s
    # the longest beginning that fits with its dot, measured in one pass
    x = width(".", f)
    n = 0
    for c in _codes(s):
        x += 8 if f is None else f.WIDTHS[_index(f, c)]
        if x > maxw:
            break
        n += 1
    return s[:n] + "."


def wrap(s, f, maxw):
    """Split ``s`` into lines at spaces so each fits ``maxw`` pixels."""
    if not isinstance(s, str):
        m = _lang(s)
        if m is not None:
            return m.wrap(s, f, maxw)
        s = english(s)
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
