"""The board in another language: a message drawn from the bitmaps the
laptop rendered (host/pipkeeper/i18n/render.py documents the file).

Only the chosen language's pack is opened, and it is read by offset: a
template's tokens and each word's bitmap are read from flash when drawn,
so a press holds a few hundred bytes of it, never the catalogue. A
message's slots are filled with its values (a name, a number, a tile, or
a message of its own); a string the fonts cannot draw (a name in Persian
or Cyrillic) is a bitmap of a names file; numbers in Persian are drawn
with Persian digits. Right-to-left languages lay each line's tokens out
from the right.

A laid-out line is a message ``(LINE, tokens)``; a token is a tuple
(spaces before, width, pack or None, fragment offset or string).
"""

import framebuf


# firmware.text, handed over by text as it loads this module (``_loaded``):
# this module is text's own extension for other languages, loaded only when
# one is drawn, and never imports text itself (no import circle).
text = None

LINE = ""           # the key of a laid-out line: no template is empty
_MONO = framebuf.MONO_HLSB
_HEAD = 132
_buf = bytearray(8)
_pal = None
# A list to note the messages ``fit`` had to cut a word of (the catalogue's,
# not a name's): the tests set it to check that every text fits its place.
CUT = None
# A list to note where ``draw`` put each token (x, width): the tests compare
# each with the shaping engine's own rendering of the whole line.
POS = None


def key_hash(s):
    """djb2 over the UTF-8 bytes, 24 bits (render.key_hash)."""
    h = 5381
    for b in text._utf8(s):
        h = (h * 33 + b) & 0xFFFFFF
    return h


def _u24(b, i):
    return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16)


class Pack:
    """A pack or names file, open for reading."""

    def __init__(self, path):
        # Frozen into the scorer's own image: its bytes, read in place in
        # flash (no file, no copy: an entry is a slice, a word's bitmap is
        # drawn from where it lies); else the file.
        mem = text.data_bytes(path) if path[0] != "/" else None
        self.mem = mem
        self.path = path        # (which file drew a word: the simulated board's text view)
        if mem is not None:
            self.f = f = None
            head = mem[:_HEAD]
        else:
            self.f = f = open(path, "rb")
            head = f.read(_HEAD)
        # PKL2, a language's templates: a word's two fragments (small, mid);
        # PKL1, a names file (and an older pack): three (small, mid, big)
        self.step = 9 if head[:4] == b"PKL2" else 13
        if head[:4] != b"PKL1" and self.step == 13:
            self.close()
            raise OSError("not a language pack: " + path)
        self.rtl = head[4] & 1
        self.space = head[5:8]
        self.n = head[8] | (head[9] << 8)
        if mem is not None:
            self.index = memoryview(mem)[_HEAD:_HEAD + 8 * self.n]
        else:
            self.index = f.read(8 * self.n)     # searched in memory: no seek a message
        self.digits = head[12:_HEAD]
        self.numerals = _u24(head, 12) != 0      # digits of its own (Persian)
        self.memo = {}

    def entry(self, key, size):
        """``size`` bytes of ``key``'s entry (``size`` None: a template's,
        its count of tokens then ``step`` bytes a token), b"" when the pack has
        none. Kept while the pack is open (one frame): a screen measures a
        text, fits it and draws it, each asking again, and each ask would
        hash the key in bytecode and seek the file."""
        e = self.memo.get(key)
        if e is None:
            e = b""
            off = self.find(key)
            if off and self.mem is not None:
                if size is None:
                    size = 1 + self.step * self.mem[off]
                e = memoryview(self.mem)[off:off + size]
            elif off:
                f = self.f
                f.seek(off)
                if size is None:
                    size = 1 + self.step * f.read(1)[0]
                    f.seek(off)
                e = f.read(size)
            self.memo[key] = e
        return e

    def close(self):
        if self.f is not None:
            self.f.close()

    def find(self, key):
        """The offset of ``key``'s entry, 0 if the pack has none."""
        h = key_hash(key)
        b = self.index
        lo = 0
        hi = self.n - 1
        while lo <= hi:
            mid = (lo + hi) >> 1
            v = _u24(b, 8 * mid)
            if v == h:
                return _u24(b, 8 * mid + 4)
            if v < h:
                lo = mid + 1
            else:
                hi = mid - 1
        return 0

    def width(self, off):
        if self.mem is not None:
            return self.mem[off] | (self.mem[off + 1] << 8)
        f = self.f
        f.seek(off)
        f.readinto(_buf)
        return _buf[0] | (_buf[1] << 8)

    def digit(self, d, size):
        """(offset, width) of digit ``d``'s fragment at a size."""
        return _frag(self, self.digits, 4 * (10 * size + d), 0)


def pack(lang):
    """The pack of ``lang`` (firmware/i18n/<lang>.bin beside the firmware),
    None when the board has none (then English)."""
    try:
        return Pack(folder() + lang + ".bin")
    except OSError:
        return None


_where = None


def folder():
    """Where the packs are: /lib/i18n/ on a board (`pipkeeper flash`), else
    beside the firmware's modules (the simulated board's tree). Found once:
    every frame opens its packs, and a failed open is a LittleFS look-up."""
    global _where
    if _where is None:
        p = text.__file__
        p = p[:p.rfind("/") + 1] + "i18n/"
        try:
            text.data_file(p + "words.bin").close()
        except OSError:
            p = "/lib/i18n/"
        _where = p
    return _where


# Set while this module draws or measures a string with text's own fonts,
# so that text does not hand the string back here.
_own = False


def wants(s):
    """Whether ``s`` is this module's to draw: a message, or a string that
    is not plain ASCII without digits (a name a names file may hold, digits
    to draw as the language writes them)."""
    if _own:
        return False
    if not isinstance(s, str):
        return True
    if len(s) != len(text._utf8(s)):
        return True
    p = text.LANG
    return p is not None and p.numerals and _has_digit(s)


def _fonts(fn, *a):
    """``fn`` of text (width, draw, fit) on a string, with text's own fonts."""
    global _own
    _own = True
    try:
        return fn(*a)
    finally:
        _own = False


_names = None


def names():
    """The names files (the languages' own names, the roster's)."""
    global _names
    if _names is None:
        _names = []
        for p in (folder() + "words.bin", text.NAMES):
            try:
                _names.append(Pack(p))
            except (OSError, TypeError):
                pass
    return _names


def close():
    """The frame is drawn: close the names files."""
    global _names
    if _names is not None:
        for p in _names:
            p.close()
        _names = None


def _size(f):
    if f is None:
        return 0
    return 1 if f.HEIGHT < 30 else 2


def _named(s, size, spaces, out):
    """A string as a names file's bitmap; False if no file has it."""
    for p in names():
        e = p.entry(s, 14)          # the count, the flag, 3 fragments
        if e:
            fo, w = _frag(p, e, 2, size)
            # a name written right to left: a negative offset, so that a
            # cut keeps its start, on the right
            out.append((spaces, w, p, -fo if e[1] & 0x10 else fo))
            return True
    return False


def _frag(p, e, i, size):
    """(offset, width) of the fragment at ``size`` of the word whose three
    fragments start at ``e[i]`` (the mid one for a size it lacks)."""
    k = i + 4 * size
    fo = _u24(e, k)
    if not fo:
        k = i + 4
        fo = _u24(e, k)
    return fo, e[k + 3] or p.width(fo)


def raw(s, size, spaces, out):
    """A string's token: a names file's bitmap, else the fonts' glyphs."""
    if len(s) != len(text._utf8(s)) and _named(s, size, spaces, out):
        return
    f = None if size == 0 else text.font("mid" if size == 1 else "big")
    out.append((spaces, _raw_width(s, f, size), None, s))


def _raw_width(s, f, size):
    p = text.LANG
    if p is not None and p.numerals and _has_digit(s):
        w = 0
        for digits, part in _runs(s):
            if digits:
                for b in part:
                    w += p.digit(b - 48, size)[1]
            else:
                w += _fonts(text.width, part, f)
        return w
    return _fonts(text.width, s, f)


def _has_digit(s):
    # s's UTF-8 bytes: each character taken from a str (``c in s`` over a
    # str of digits, ``s[i]``) is a new string, looked up among the
    # interned names (~70 us on the board)
    for b in text._utf8(s):
        if 48 <= b <= 57:
            return True
    return False


def _runs(s):
    """``s`` cut into runs: (True, the digits' bytes) and (False, a str of
    the other characters), walked as its UTF-8 bytes."""
    m = text._utf8(s)
    out = []
    i = 0
    n = len(m)
    while i < n:
        d = 48 <= m[i] <= 57
        j = i + 1
        while j < n and (48 <= m[j] <= 57) == d:
            j += 1
        out.append((d, bytes(m[i:j]) if d else bytes(m[i:j]).decode()))
        i = j
    return out


def tokens(m, size, spaces=0, out=None):
    """The tokens of ``m`` (a message, string or number) at a size."""
    if out is None:
        out = []
    if isinstance(m, int):
        m = "%d" % m
    if isinstance(m, str):
        raw(m, size, spaces, out)
        return out
    key = m[0]
    if key == LINE:
        out += m[1]
        return out
    p = text.LANG
    entry = p.entry(key, None) if p is not None else b""
    if not entry:
        return _english(m, size, spaces, out)    # English, or not in the catalogue

    n = entry[0]
    i = 1
    first = True
    for _ in range(n):
        flag = entry[i]
        sp = spaces if first else flag >> 6
        first = False
        if flag & 0x20:
            tokens(m[1 + (flag & 0x1F)], size, sp, out)
            i += 1
        else:
            # (a PKL2 word has no big fragment: the mid one, as a PKL1's 0 says)
            fo, w = _frag(p, entry, i + 1, 1 if size > 1 and p.step == 9 else size)
            out.append((sp, w, p, fo))
            i += p.step
    return out


def _english(m, size, spaces, out):
    """The tokens of a message in English: its template's words drawn by
    the fonts (a line breaks between them), each value as its own tokens (a
    name from a names file: English sentences name players of any script)."""
    t = m[0]
    k = 1
    sp = spaces
    i = 0
    while True:
        j = t.find("{", i)
        parts = (t[i:] if j < 0 else t[i:j]).split(" ")
        for q in range(len(parts)):
            if q:
                sp += 1
            w = parts[q]
            if w:
                raw(w, size, sp, out)
                sp = 0
        if j < 0:
            return out
        v = m[k]
        k += 1
        if isinstance(v, int) and t.startswith("seat", j + 1):
            v = "seat %d" % v
        tokens(v, size, sp, out)
        sp = 0
        i = t.find("}", j) + 1


def _space(spaces, size):
    if not spaces:
        return 0
    p = text.LANG
    return spaces * (p.space[size] if p is not None else (8 if size == 0 else 5))


def _total(toks, size):
    w = 0
    first = True
    for t in toks:
        w += t[1] + (0 if first else _space(t[0], size))
        first = False
    return w


def width(m, f):
    """Pixels ``m`` takes: a line laid out in its box, the box."""
    if not isinstance(m, str) and len(m) > 2 and m[0] == LINE:
        return m[2]
    size = _size(f)
    return _total(tokens(m, size), size)


def _rtl():
    p = text.LANG
    return p is not None and p.rtl


def fit(m, f, maxw):
    """``m`` cut to ``maxw`` pixels, or ``m`` as it is. Right to left, a
    line laid out in its box (LINE, tokens, maxw): drawn against the box's
    right edge, where its reader starts."""
    size = _size(f)
    toks = tokens(m, size)
    if _total(toks, size) <= maxw:
        return (LINE, toks, maxw) if _rtl() else m
    dot = []
    raw(".", size, 0, dot)
    room = maxw - dot[0][1]
    keep = []
    x = 0
    if CUT is not None:
        own = 0
        for t in toks:
            own += t[2] is not None and t[2] is text.LANG
    for t in toks:
        w = t[1] + (_space(t[0], size) if keep else 0)
        if x + w > room:
            if CUT is not None and own:
                CUT.append((m, maxw))
            if not keep:
                # the first token alone is too wide: a bitmap is clipped, a
                # string cut with its dot, as in English
                if t[2] is not None:
                    right = t[3] < 0 or (t[2] is text.LANG and t[2].rtl)
                    return _line([(t[0], maxw, t[2], -abs(t[3]) if right else t[3])], maxw)
                s = _fonts(text.fit, t[3], _font(size), maxw)
                return _line([(t[0], _fonts(text.width, s, _font(size)), None, s)], maxw)
            break
        keep.append(t)
        x += w
        if CUT is not None:
            own -= t[2] is not None and t[2] is text.LANG
    return _line(keep + dot, maxw)


def _line(toks, maxw):
    return (LINE, toks, maxw) if _rtl() else (LINE, toks)


def _font(size):
    return None if size == 0 else text.font("mid" if size == 1 else "big")


def wrap(m, f, maxw):
    size = _size(f)
    lines = []
    line = []
    x = 0
    for t in tokens(m, size):
        w = t[1] + (_space(t[0], size) if line else 0)
        if line and x + w > maxw:
            lines.append((LINE, line))
            line = [(0,) + t[1:]]
            x = t[1]
        else:
            line.append(t)
            x += w
    if line:
        lines.append((LINE, line))
    return [fit(l, f, maxw) for l in lines]


def draw(fb, m, x, y, f, c):
    """Draw ``m`` with its line's top at ``y``; the x after it."""
    size = _size(f)
    toks = tokens(m, size)
    total = _total(toks, size)
    rtl = _rtl()
    if rtl and not isinstance(m, str) and len(m) > 2 and m[0] == LINE:
        x += m[2] - total            # against its box's right edge
    at = 0
    first = True
    for t in toks:
        if not first:
            at += _space(t[0], size)
        first = False
        xx = x + total - at - t[1] if rtl else x + at
        if POS is not None:
            POS.append((xx, t[1]))
        if t[2] is None:
            _raw_draw(fb, t[3], xx, y, f, c, size)
        else:
            _blit(fb, t[2], t[3], xx, y, c, t[1])
        at += t[1]
    return x + total


def _raw_draw(fb, s, x, y, f, c, size):
    p = text.LANG
    if p is not None and p.numerals and _has_digit(s):
        for digits, part in _runs(s):
            if digits:
                for b in part:
                    x = _blit(fb, p, p.digit(b - 48, size)[0], x, y, c, 999, True)
            else:
                x = _fonts(text.draw, fb, part, x, y, f, c)
        return x
    return _fonts(text.draw, fb, s, x, y, f, c)


def _blit(fb, p, off, x, y, c, clip, keep=False):
    """Blit the fragment at ``off`` of pack ``p``, at most ``clip`` pixels
    wide (its left part; its right part for an offset given negative, a
    text written right to left); the x after it."""
    global _pal
    right = off < 0
    if right:
        off = -off
    # a digit's bitmap is kept in the pack's memo for the frame (a screen
    # draws a dozen numbers from ten bitmaps); the rest is read from flash
    got = p.memo.get(off) if keep else None
    mem = p.mem
    if got is None and mem is not None:
        w = mem[off] | (mem[off + 1] << 8)
        top = mem[off + 2] - 256 if mem[off + 2] > 127 else mem[off + 2]
        rows = mem[off + 3]
        if rows and not (right and (w if clip >= w else clip) < w) and \
                text.bitmap(fb, mem, (w + 7) >> 3, w if clip >= w else clip, rows, x, y + top, c,
                            off + 4):
            return x + (w if clip >= w else clip)
        data = bytearray(mem[off + 4:off + 4 + ((w + 7) >> 3) * rows]) if rows else None
        got = (w, top, rows, data)
        if keep:
            p.memo[off] = got
    if got is None:
        fl = p.f
        fl.seek(off)
        fl.readinto(_buf)
        w = _buf[0] | (_buf[1] << 8)
        top = _buf[2] - 256 if _buf[2] > 127 else _buf[2]
        rows = _buf[3]
        data = None
        if rows:
            data = bytearray(((w + 7) >> 3) * rows)
            fl.seek(off + 4)
            fl.readinto(data)
        if keep:
            p.memo[off] = (w, top, rows, data)
    else:
        w, top, rows, data = got
    if rows:
        stride = (w + 7) >> 3
        shown = w if clip >= w else clip
        if not (right and shown < w) and text.bitmap(fb, data, stride, shown, rows, x, y + top, c):
            return x + shown
        g = framebuf.FrameBuffer(data, shown, rows, _MONO, stride * 8)
        if right and shown < w:
            g = framebuf.FrameBuffer(bytearray(((shown + 7) >> 3) * rows), shown, rows, _MONO)
            g.blit(framebuf.FrameBuffer(data, w, rows, _MONO), shown - w, 0)
        if c:
            fb.blit(g, x, y + top, 0)
        else:
            if _pal is None:
                _pal = framebuf.FrameBuffer(bytearray(b"\x80"), 2, 1, _MONO)
            fb.fill_rect(x, y + top, shown, rows, 1)
            fb.blit(g, x, y + top, 1, _pal)
    return x + (w if clip >= w else clip)
