"""What the board cannot do, done on the laptop: each language's texts
rendered into small bitmaps with a real shaping engine (Pillow's raqm
layout: HarfBuzz shapes, FriBiDi orders), which the board blits
(firmware/lang.py).

A **pack** is one file, /lib/i18n/<lang>.bin on the board (beside the
bundle: a pack is read by offset as a screen is drawn, and on LittleFS a
read costs more the further it is into a file), made when the board is
flashed (and ``firmware/i18n/`` in the simulated board's tree): the language's
templates, each a list of tokens (a word or a slot), and every word
rendered once at the board's two text sizes; for Persian also its digits.
A **names** file, /pipkeeper/names.bin, made when the roster is pushed
(and ``firmware/i18n/words.bin`` at flash time for the languages' own
names), holds whole strings the board's fonts cannot draw (a name in
Persian, Mongolian, Welsh), rendered at the three sizes.

Both have one layout (integers little-endian)::

    b"PKL1" | flags (1: right to left) | space width at each size (3 bytes)
    | keys (2 bytes) | 2 bytes unused | digits: 3 sizes x 10 offsets (4 bytes)
    | index: keys x (hash, offset) sorted by hash (4 + 4 bytes)
    | entries | fragments

An entry is a count of tokens, then per token a byte (spaces before it,
2 bits; 0x20 for a slot, whose number is in the low 5 bits; in a names
file 0x10 for a name written right to left) and, for a
word, the offsets of its fragment at the small, mid and big size (0: none,
the board uses the mid one); a pack's magic is b"PKL2" and its words have
the small and mid offsets only (the board draws a pack's word at the big
size with the mid one). A fragment is its width (2 bytes), top (the
rows above it in the line, signed), rows, then the rows (MONO_HLSB, 1 = ink).
The hash is djb2 over the UTF-8 bytes, 24 bits (``key_hash``): a small int
on the board. A fragment's offset (in an entry, and the digits') is 3
bytes, its width in pixels the 4th (0 when 256 or more: then read from
the fragment), so a line is laid out without reading a fragment.

Sizes follow the board's fonts: "small" stands in for framebuf's 8x8 font
(its baseline on the 8th row), "mid" and "big" for font_mid and font_big
(the same pixel sizes and baselines, so a translated line sits where the
English one did).
"""

import re
import struct

from PIL import Image, ImageDraw, ImageFont

from pipkeeper import i18n
from shared_engine.messages import slots

MAGIC = b"PKL1"
# A pack's own magic: its words drawn at the small and mid sizes only, so an
# entry keeps two fragments a word, not three (the big one was always none:
# 4 bytes of every word of every template, ~27 KB over the five packs frozen
# into the own image, where issue 31's house rules ran it past the filesystem)
TEMPLATES = b"PKL2"
RTL_NAME = 0x10      # in a names file, a name written right to left
HEADER = 4 + 4 + 4 + 3 * 10 * 4
# (pixel size, baseline from the line's top) per size: small, mid, big
SIZES = ((10, 7), (15, 14), (30, 28))
_TOKEN = re.compile(r"(\{[^}]*\}| +)")


def key_hash(s):
    """The index's hash of a template or a name (firmware/lang.py has the same)."""
    h = 5381
    for b in s.encode("utf-8"):
        h = (h * 33 + b) & 0xFFFFFF
    return h


def font_path():
    from pipkeeper.i18n.bitmaps import find_font
    return find_font()


_FONTS = {}


def _font(size):
    f = _FONTS.get(size)
    if f is None:
        f = ImageFont.truetype(font_path(), size, layout_engine=ImageFont.Layout.RAQM)
        _FONTS[size] = f
    return f


def image(text, size, rtl, above=0):
    """``text`` shaped and rendered by raqm on one 1-bit line: (Image, the
    advance width), the baseline at the size's row (``above`` rows lower,
    room for ink above the line's top)."""
    px, base = SIZES[size]
    f = _font(px)
    ascent, descent = f.getmetrics()
    direction = "rtl" if rtl else "ltr"
    adv = int(round(f.getlength(text, direction=direction)))
    box = f.getbbox(text, direction=direction)
    w = max(1, adv, box[2])
    img = Image.new("1", (w, above + base + descent + 4), 0)
    d = ImageDraw.Draw(img)
    d.fontmode = "1"
    # anchored at the baseline: a word sits on the same row alone as in a
    # sentence (placed by its ink's top, Pillow's rounding may move it a row)
    d.text((0, above + base), text, font=f, fill=1, direction=direction, anchor="ls")
    return img, adv


# Rows kept above a line's top: the small size's baseline is on its 7th
# row (as framebuf's 8x8 font has it), and an accent over a small letter
# rises one row higher; cut at the line's top, the circumflex of "Siân"
# kept only its two feet and read as a diaeresis ("Siän"). One row: a
# header at the panel's row 1 and a highlighted cell one row above its
# text have exactly that room (an accent over a capital, Welsh's Ŵ, is
# still cut at the small size).
ABOVE = 1


def fragment(text, size, rtl):
    """The bytes of a fragment: ``text`` rendered, cropped to its inked
    rows (its top may be above the line's: negative)."""
    from pipkeeper.i18n.bitmaps import inked_rows
    img, _ = image(text, size, rtl, ABOVE)
    if size == 0 and not rtl and " " not in text:
        img = _closed_up(img)
    w = img.size[0]
    top, rows, data = inked_rows(img, w)
    return struct.pack("<HbB", w, top - ABOVE, rows) + data


def _closed_up(img):
    """A word at the small size with each run of paper columns between its
    letters cut to one. Why: at 10 pixels, FreeType's monochrome hinting
    leaves some letters two columns apart ("w" and "y"), a gap that reads as
    a space next to the one column between the others: Welsh "mwy" (more)
    read "mw y" (issue 32). Left to right only: in Persian a gap is where
    letters that do not join part, and the shaping engine's own."""
    px = img.load()
    w, h = img.size
    inked = [any(px[x, y] for y in range(h)) for x in range(w)]
    if not any(inked):
        return img
    first = inked.index(True)
    last = w - 1 - inked[::-1].index(True)
    keep = [x for x in range(w) if not (first < x < last and not inked[x] and not inked[x - 1])]
    if len(keep) == w:
        return img
    out = img.crop((0, 0, len(keep), h))
    opx = out.load()
    for i, x in enumerate(keep):
        for y in range(h):
            opx[i, y] = px[x, y]
    return out


def tokens(template, english):
    """A template as tokens: (spaces before, "w", word) or (spaces before,
    "s", the slot's number in the English template)."""
    names = slots(english)
    out = []
    spaces = 0
    for part in _TOKEN.split(template):
        if not part:
            continue
        if part[0] == " ":
            spaces = len(part)
            continue
        if part[0] == "{" and part[-1] == "}":
            out.append((min(spaces, 3), "s", names.index(part[1:-1])))
        else:
            out.append((min(spaces, 3), "w", part))
        spaces = 0
    return out


class _Writer:
    def __init__(self, rtl, lang):
        self.rtl = rtl
        self.lang = lang
        self.frags = {}
        self.widths = {}
        self.blob = bytearray()
        self.entries = []

    def frag(self, text, size):
        k = (text, size)
        if k not in self.frags:
            data = fragment(text, size, self.rtl)
            self.frags[k] = len(self.blob)
            self.widths[len(self.blob)] = struct.unpack_from("<H", data)[0]
            self.blob += data
        return self.frags[k]

    def entry(self, key, toks, sizes=(0, 1)):
        e = bytearray([len(toks)])
        for spaces, kind, v in toks:
            if kind == "s":
                e.append((spaces << 6) | 0x20 | v)
            else:
                e.append(spaces << 6)
                word = i18n.localized(v, self.lang)
                offs = [self.frag(word, s) if s in sizes else -1 for s in range(3)]
                e += b"".join(struct.pack("<i", o) for o in offs)
        self.entries.append((key_hash(key), key, bytes(e)))

    def pack(self, digits=False, magic=MAGIC):
        seen = {}
        for h, key, _ in self.entries:
            if h in seen and seen[h] != key:
                raise ValueError("hash collision: %r and %r" % (seen[h], key))
            seen[h] = key
        dig = [-1] * 30
        if digits:
            for s in range(3):
                for d in range(10):
                    dig[s * 10 + d] = self.frag(i18n.PERSIAN_DIGITS[d], s)
        entries = sorted(self.entries)
        at = HEADER + 8 * len(entries)
        index = bytearray()
        k = 3 if magic == MAGIC else 2        # fragments a word
        for h, _, e in entries:
            index += struct.pack("<II", h, at)
            at += 1 + sum(1 if f & 0x20 else 1 + 4 * k for f in _flags(e))
        base = at
        def fix(o):
            """A fragment's place in the file, its width in the top byte
            (0 for 256 pixels or more: then read from the fragment)."""
            if o < 0:
                return 0
            w = self.widths[o]
            return (base + o) | ((w if w < 256 else 0) << 24)
        # entries hold offsets into the fragments: move them past the entries
        out = bytearray()
        for h, _, e in entries:
            n = e[0]
            b = bytearray(e[:1])
            i = 1
            for _ in range(n):
                flag = e[i]
                b.append(flag)
                i += 1
                if not flag & 0x20:
                    for s in range(3):
                        if s < k:
                            b += struct.pack("<I", fix(struct.unpack_from("<i", e, i)[0]))
                        i += 4
            out += b
        # a space a little wider at the small size, as framebuf's font has them
        spaces = bytes(max(4 if s == 0 else 0, int(round(_font(SIZES[s][0]).getlength(" "))))
                       for s in range(3))
        head = magic + bytes([1 if self.rtl else 0]) + spaces + struct.pack("<HH", len(entries), 0)
        head += b"".join(struct.pack("<I", fix(o)) for o in dig)
        return bytes(head + index + out + self.blob)


def _flags(e):
    """The token bytes of a written entry (3 offsets a word)."""
    i = 1
    for _ in range(e[0]):
        yield e[i]
        i += 1 if e[i] & 0x20 else 13


def pack(lang):
    """The pack of ``lang`` (bytes): every message of the catalogue but
    those the board only writes as text (``WRITTEN_ONLY``)."""
    w = _Writer(lang in i18n.RTL, lang)
    for english, template in i18n.templates(lang).items():
        if english not in WRITTEN_ONLY:
            w.entry(english, tokens(template, english))
    return w.pack(digits=lang == "fa", magic=TEMPLATES)


def names(strings, rtl_hint=False):
    """A names file: each string whole, at the three sizes. A string with
    right-to-left letters is laid out right to left."""
    w = _Writer(False, "en")
    for s in strings:
        w.rtl = i18n.rtl(s)
        w.entry(s, [(0, "w", s)], sizes=(0, 1, 2))
        if w.rtl:
            h, key, e = w.entries[-1]
            w.entries[-1] = (h, key, e[:1] + bytes([e[1] | RTL_NAME]) + e[2:])
    w.rtl = False
    return w.pack()


def drawable(s):
    """Whether the board's own fonts draw ``s`` at every size (printable
    ASCII: the 8x8 and the big font have nothing else); else it needs a
    bitmap in a names file."""
    return all(32 <= ord(c) < 127 for c in s)


def words_file():
    """words.bin: the languages' own names (the set-up
    page's choice), which English's fonts cannot draw."""
    return names([e for e in i18n.ENDONYMS.values() if not drawable(e)])


# The modules whose messages the board writes as text: the final sheet it
# sends to a phone in QR codes (WRITTEN), with the words it shares with the
# screens (a preset's name, how a game was won).
WRITTEN = "firmware/flows/sheet_text.py"
TEXT_SOURCES = (WRITTEN, "firmware/words.py")


# The messages the board writes as text and no screen draws (WRITTEN's but
# not the screens'): no bitmaps for them in the packs (1.7 KB of the
# scorer's own image, the five packs together). Named here rather than
# found in the sources, so that the packs' cache stays keyed by this
# package (packcache); tests/host/test_i18n.py finds them and checks.
WRITTEN_ONLY = ("{name} wins: {why}", "{names} win: {why}")


def texts(lang):
    """The board's words as text in ``lang`` (``<lang>.txt`` beside its
    pack; firmware/flows/sheet_text.py ``Words`` reads it): a first line of the
    language's ten digits, then "English<TAB>template" for each message of
    ``TEXT_SOURCES`` and the tie-breaks the engine names, digits as the
    language writes them, in UTF-8."""
    from pipkeeper.i18n import sources
    cat = i18n.templates(lang)
    found = sources.found(files=TEXT_SOURCES)
    keys = [k for k in found if found[k] != "dynamic"] + list(sources.TIE_BREAKS)
    lines = [i18n.localized("0123456789", lang)]
    for k in dict.fromkeys(keys):
        t = i18n.localized(cat[k], lang)
        if "\t" in k + t or "\n" in k + t:
            raise ValueError("a message with a tab or a line break: %r" % k)
        lines.append("%s\t%s" % (k, t))
    return ("\n".join(lines) + "\n").encode("utf-8")


def files():
    """{file name: bytes} of every pack, the languages' words as text and
    their own names."""
    out = {"%s.bin" % lang: pack(lang) for lang in i18n.LANGS if lang != "en"}
    out.update(("%s.txt" % lang, texts(lang)) for lang in i18n.LANGS if lang != "en")
    out["words.bin"] = words_file()
    return out
