"""The words of a simulated board's frame, as text in its language.

The board sends each text as it draws it (firmware/board_sim_words.py):
a string, a message of the catalogue, or a line a language laid out from
its pack's fragments. Here each becomes the text a player reads on the
screen: a message in the frame's language (pipkeeper.i18n.say, Persian
digits in Persian), a laid-out line read back word by word from the pack
that drew it (pipkeeper.i18n.unpack), a word the board cut short cut as
much. For the text view of a terminal too small for the picture
(pipkeeper.sim.terminal).
"""

import os

from pipkeeper import i18n
from pipkeeper.i18n import unpack
from shared_engine.messages import slots

LINE = ""           # a laid-out line's key (firmware/lang.py)


class Reader:
    """Reads a board's texts back; ``sim`` tells where its packs are (its
    firmware's folder, or its flash's /lib/i18n/) and which names its
    names file holds."""

    def __init__(self, sim):
        self.sim = sim
        self._packs = {}

    def _pack(self, name):
        """(bytes, {fragment offset: text}) of the board's file ``name``
        ("cy.bin", "words.bin", "names.bin"), read once."""
        got = self._packs.get(name)
        if got is None:
            got = (b"", {})
            data = None
            for path in self._paths(name):
                try:
                    with open(path, "rb") as f:
                        data = f.read()
                    break
                except OSError:
                    continue
            if data is not None:
                try:
                    if name == "names.bin":
                        got = (data, unpack.names(data, self.sim.names or []))
                    elif name == "words.bin":
                        got = (data, unpack.names(data, list(i18n.ENDONYMS.values())))
                    elif name[:-4] in i18n.LANGS:
                        got = (data, unpack.language(data, name[:-4]))
                except (ValueError, IndexError):
                    got = (b"", {})
            self._packs[name] = got
        return got

    def _paths(self, name):
        sim = self.sim
        if name == "names.bin":
            return [os.path.join(sim.dir, "pipkeeper", name)]
        out = []
        if sim.src:
            out.append(os.path.join(sim.src, "firmware", "i18n", name))
        out.append(os.path.join(sim.dir, "lib", "i18n", name))
        return out

    def frame(self, lang, items, whole):
        """The frame's words: {"lang", "whole", "t": [[x, y, line height,
        colour, text, x after it], ...]}."""
        out = []
        for item in items:
            try:
                x, y, h, c, s, end = item[:6]
                raw = len(item) > 6 and item[6]
                out.append([x, y, h, c, self.text(lang, s, raw), end])
            except (TypeError, ValueError, IndexError, KeyError):
                whole = False
        return {"lang": lang, "whole": whole, "t": out}

    def text(self, lang, s, raw=False):
        """One drawn text as words. ``raw``: drawn by framebuf's own font
        (ASCII digits even in Persian)."""
        if isinstance(s, str):
            return s if raw else i18n.localized(s, lang)
        if isinstance(s, int):
            return i18n.localized("%d" % s, lang)
        if s and s[0] == LINE:
            return self._line(lang, s[1])
        key = s[0]
        t = i18n.templates(lang).get(key, key) if lang in i18n.LANGS else key
        for i, name in enumerate(slots(key)):
            v = s[1 + i]
            if isinstance(v, int) and name.startswith("seat"):
                v = "seat %d" % v
            t = t.replace("{%s}" % name, self.text(lang, v))
        return i18n.localized(t, lang)

    def _line(self, lang, tokens):
        out = []
        for spaces, w, pack, v in tokens:
            if pack is None:
                word = i18n.localized(v, lang)
            else:
                data, words = self._pack(pack)
                off = abs(v)
                word = words.get(off, "?")
                full = unpack.width(data, off) if data else w
                if 0 < w < full:        # a bitmap the board clipped
                    word = word[:max(1, len(word) * w // full)]
            out.append(" " * spaces + word if out else word)
        return "".join(out)
