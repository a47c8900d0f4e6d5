"""The simulated board's words: what the screens write, and where, sent to
the laptop for a terminal too small for the picture (`pipkeeper sim`,
host/pipkeeper/sim/words.py reads them back). Loaded by firmware/board_sim.py
only with PIPKEEPER_SIM_TEXT=1: a sim without it holds no more of the
unix port's 160 KB than a board holds of its own."""

import sys


class Words:
    """What the screens write, and where, for a terminal too small for the
    picture (`pipkeeper sim` in 80 columns: the board's 8-pixel font cannot
    be read at half size). Only on the simulated board, only when asked:
    the pixels drawn are the same.

    ``text.draw`` (and so ``right``, ``centre``), ``text.clear``,
    ``text.use`` and the framebuffer's own ``text`` and ``fill`` are
    wrapped, and each goes out at once on the panel channel:

    - ``L`` + 1 byte of length + the language's code: ``text.use``;
    - ``C``: the frame was cleared (a screen starts): the texts so far
      were of a drawing given up (a retry, the error screen instead);
    - ``T`` + 4 bytes of length (little-endian) + JSON
      ``[x, y, line height, colour, text, x after it, raw]``: one text
      drawn (raw 1: by framebuf's own font, as it is: ASCII digits even
      in Persian).
      A text is a string, a message (a list: its template, its values) or
      a line a language laid out, ``["", [token, ...](, box width)]``,
      each token ``[spaces before, width, pack, fragment offset]`` (pack:
      the file's name, "cy.bin", "names.bin"...) or ``[spaces, width,
      null, string]``: the host reads the words back from the packs;
    - ``X``: a text that could not be sent (no room on the heap): the
      frame's words are not whole.

    Why one record a text, sent as it is drawn: the whole frame's words
    kept in a list and sent as one JSON text after the drawing needed a
    block of 1-2 KB at the very moment the heap is fullest (a game's
    first screen in Welsh left 11 KB free in pieces of at most 512 bytes
    on the unix port's 160 KB), and the frame was lost (issue 32). Here
    each text costs a few short-lived strings, and a text that finds no
    room is noted (``X``), never a fault of the frame."""

    def __init__(self, panel):
        import framebuf
        words = self
        self.panel = panel
        self.depth = 0

        class Recording(framebuf.FrameBuffer):
            def text(self, s, x, y, c=1):
                if not words.depth:
                    words.sent(x, y, 8, c, s, x + 8 * len(s), 1)
                return super().text(s, x, y, c)

            def fill(self, c):
                words.tag(b"C")
                return super().fill(c)

        # The app makes its framebuffer after the board (``import framebuf``
        # then, which finds sys.modules' entry first): one of these.
        class Framebuf:
            pass
        for k in dir(framebuf):
            if not k.startswith("__"):
                setattr(Framebuf, k, getattr(framebuf, k))
        Framebuf.FrameBuffer = Recording
        sys.modules["framebuf"] = Framebuf
        self.start()

    def start(self):
        """Wrap firmware.text's functions (again, when a fault's tidy-up
        let the module go and it was loaded afresh)."""
        from firmware import text
        if text.draw is getattr(self, "_draw", None):
            return          # wrapped already (the module was not loaded again)
        draw, use, clear = text.draw, text.use, text.clear
        words = self

        def recorded_draw(fb, s, x, y, f=None, c=1):
            words.depth += 1
            try:
                end = draw(fb, s, x, y, f, c)
            finally:
                words.depth -= 1
            if not words.depth:
                words.sent(x, y, text.height(f), c, s, end)
            return end

        def recorded_use(lang, names=None):
            lang = lang or "en"
            b = lang.encode()
            words.tag(b"L" + bytes([len(b)]) + b)
            return use(lang, names)

        def recorded_clear(fb):
            words.tag(b"C")
            return clear(fb)

        self._draw = recorded_draw
        text.draw, text.use, text.clear = recorded_draw, recorded_use, recorded_clear

    def whole(self):
        """Whether the frame was drawn by the text wrapped here (a text
        module loaded afresh during the drawing, after a fault, is not)."""
        t = sys.modules.get("firmware.text")
        return t is None or t.draw is self._draw

    def tag(self, t):
        self.panel.write(t)

    def sent(self, x, y, h, c, s, end, raw=0):
        try:
            data = ("[%d,%d,%d,%d,%s,%d,%d]" % (x, y, h, c, _json(s), end, raw)).encode()
            p = self.panel
            p.write(b"T")
            p.write(len(data).to_bytes(4, "little"))
            p.write(data)
        except MemoryError:
            self.panel.write(b"X")


def _json(v):
    """``v`` (a text as firmware/text.py draws it) as JSON: a pack in a
    laid-out line by its file's name."""
    if isinstance(v, str):
        import json
        return json.dumps(v)
    if isinstance(v, int):
        return "%d" % v
    if v is None:
        return "null"
    if isinstance(v, (tuple, list)):
        return "[" + ",".join([_json(x) for x in v]) + "]"
    p = getattr(v, "path", None)        # a pack (firmware/lang.py)
    if isinstance(p, str):
        return _json(p[p.rfind("/") + 1:])
    return _json(str(v))
