"""The final sheet to a phone: a finished game's result as plain text in QR
codes (firmware/qr.py), which a phone's camera shows with no app.

Opened from the end screen (C) and from History's sheet of a finished game
(B); C goes back there. Where the text does not fit one code, it is paged
(the text: firmware/flows/sheet_text.py), each page a code of its own
headed "pipkeeper <game> k/n": DOWN shows the next page (after the last,
the first again), UP the one before.

ui keys: "s": "qr", "p": the page shown (0-based), "g": the record (a
History file name; none: the game in progress), "c": History's cursor,
"t": the first round of History's sheet shown (firmware/flows/history.py).
"""

from firmware.core import labels


# What this screen knows of the game's codes: (what they are of, how many,
# their texts). A press that pages needs the count, and its view one page:
# the first that needs them makes them, and they are kept while the board
# stays on this screen (the app lets a flow go when another screen is
# drawn), so that no press makes them twice. Made again at every page,
# they cost a press on USB 40 ms (a History record's: a replay of it, 500
# ms, on the stock image) and 10 KB of the unix port's heap beside the
# encoder, against the 1.5 KB they hold.
_known = None


def _of(ctx, ui):
    """(what the codes are of, the language): the record History names,
    else the game in progress as it stands."""
    g = ctx.game
    lang_code = getattr(g, "lang", None) or (ctx.store.read_json("settings.json") or {}).get("lang", "en")
    name = ui.get("g")
    return (name, lang_code, None if name else (id(g), getattr(g, "lines", None), len(g.results))), lang_code


def _texts(ctx, ui, lang_code):
    """The texts (bytes) of the codes of the game the ui names. What made
    them is let go at once (firmware/heap.py evict): their module and the
    engine's helpers it loaded (the winners and their tie-breaks: some
    10 KB of the unix port's heap), so that the drawing, which loads the
    encoder, is not the press's peak on top of them."""
    from firmware import heap
    from firmware.flows import sheet_text
    try:
        return sheet_text.texts(ctx, ui, lang_code)
    finally:
        sheet_text = None
        heap.evict(("firmware.flows.sheet_text",) + heap.AFTER_RESTORE)


def count(ctx, ui):
    """How many codes the game's sheet takes."""
    global _known
    of, lang_code = _of(ctx, ui)
    if _known is None or _known[0] != of:
        texts = _texts(ctx, ui, lang_code)
        _known = (of, len(texts), texts)
    return _known[1]


# The modules of the largest symbol (version 6: firmware/qr.py size_of),
# kept here so that the view does not load the encoder.
MODULES = 41 * 41


def view(ctx, ui, k):
    global _known
    # The bytearray the screen builds the symbol in, its largest block:
    # allocated first, on the heap the press has just collected, before the
    # texts are made and scatter it (made after them, its 1.7 KB found no
    # room on the own image's heap where the end screen still drew).
    symbol = bytearray(MODULES)
    of, lang_code = _of(ctx, ui)
    texts = _known[2] if _known is not None and _known[0] == of else None
    if texts is None:
        texts = _texts(ctx, ui, lang_code)
    n = len(texts)
    _known = (of, n, texts)
    p = min(ui.get("p", 0), n - 1)
    return "qr", {
        "text": texts[p],
        "symbol": symbol,
        "page": ("%d/%d" % (p + 1, n)) if n > 1 else None,
        "hint": ("Point a phone's camera at the code",),
        "labels": labels(None, None, "Back", "prev" if p else None, "next" if n > 1 else None),
    }


def press(ctx, ui, k, button):
    if button == "C":
        if ui.get("g"):
            u = {"s": "hist", "c": ui.get("c", 0), "g": ui["g"]}
            if "t" in ui:
                u["t"] = ui["t"]
            return u, None
        return {}, None
    if button in ("UP", "DOWN"):
        n = count(ctx, ui)
        p = ui.get("p", 0)
        p = (p + 1) % n if button == "DOWN" else max(p - 1, 0)
        out = dict(ui)
        out["p"] = p
        return out, None
    return ui, None
