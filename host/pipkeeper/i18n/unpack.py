"""A pack or names file read back: which text each fragment draws.

The board draws a language's line from fragments (firmware/lang.py): a
laid-out line names each word by its fragment's offset in a pack, never
by its text, which the board does not have. The laptop does: given the
texts a file was made from (render.pack: the catalogue's templates;
render.names: the strings), the file's index finds each one's entry and
its tokens, and so each fragment's text. For the simulated board's text
view (pipkeeper.sim.words), which writes the words a frame shows.

The layout is render.py's: a header of ``render.HEADER`` bytes, the index
(hash, offset: 4 + 4 bytes a key, sorted by hash), the entries (a count
of tokens; per token a flag byte, and for a word three fragment offsets,
3 bytes each with the fragment's width in the 4th), the fragments (each
its width in 2 bytes first).
"""

import struct

from pipkeeper import i18n
from pipkeeper.i18n import render


def _index(data):
    """{hash: entry offset} of a pack's bytes."""
    if data[:4] != render.MAGIC or len(data) < render.HEADER:
        raise ValueError("not a pack")
    n = struct.unpack_from("<H", data, 8)[0]
    out = {}
    for i in range(n):
        h, off = struct.unpack_from("<II", data, render.HEADER + 8 * i)
        out[h] = off
    return out


def _words_of(data, off):
    """The fragment offsets of each word token of the entry at ``off``, in
    order: [(small, mid, big)], 0 where a size has none."""
    n = data[off]
    i = off + 1
    out = []
    for _ in range(n):
        flag = data[i]
        i += 1
        if flag & 0x20:
            continue
        out.append(tuple(struct.unpack_from("<I", data, i + 4 * k)[0] & 0xFFFFFF for k in range(3)))
        i += 12
    return out


def width(data, off):
    """The width in pixels of the fragment at ``off``."""
    return struct.unpack_from("<H", data, off)[0]


def language(data, lang):
    """{fragment offset: its word} of ``lang``'s pack (its bytes)."""
    index = _index(data)
    out = {}
    for english, template in i18n.templates(lang).items():
        off = index.get(render.key_hash(english))
        if off is None:
            continue
        words = [v for _, kind, v in render.tokens(template, english) if kind == "w"]
        for word, offs in zip(words, _words_of(data, off)):
            for o in offs:
                if o:
                    out[o] = i18n.localized(word, lang)
    return out


def names(data, strings):
    """{fragment offset: its string} of a names file made of ``strings``."""
    index = _index(data)
    out = {}
    for s in strings:
        off = index.get(render.key_hash(s))
        if off is None:
            continue
        for offs in _words_of(data, off)[:1]:
            for o in offs:
                if o:
                    out[o] = s
    return out
