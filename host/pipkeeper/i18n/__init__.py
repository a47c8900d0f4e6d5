"""The board's languages: the catalogue of every text it shows, and the
laptop's rendering of it into bitmaps the board can blit.

- ``catalogue/``: one module per language, English the source
  (``catalogue/en.py`` lists every message; each other language maps each
  English template to its own, slots by name so that word order follows
  the language). ``sources.py`` finds the messages in the firmware and the
  engine.
- ``render.py``: a language's pack (fragments, templates, digits) for the
  bundle, and the names' bitmaps for the roster.

The board's side is firmware/lang.py; how a message is built,
shared_engine/messages.py.
"""

import importlib

from shared_engine.messages import slots

LANGS = ("en", "cy", "ga", "sv", "mn", "fa")
RTL = ("fa",)
PERSIAN_DIGITS = "۰۱۲۳۴۵۶۷۸۹"
ENDONYMS = {"en": "English", "cy": "Cymraeg", "ga": "Gaeilge", "sv": "Svenska",
            "mn": "Монгол", "fa": "فارسی"}


def english():
    """Every message, in the order of catalogue/en.py."""
    from pipkeeper.i18n.catalogue import en
    return en.MESSAGES


def templates(lang):
    """{English template: the language's template} (English: itself)."""
    if lang == "en":
        return {m: m for m in english()}
    if lang not in LANGS:
        raise ValueError("unknown language %r: use one of %s" % (lang, ", ".join(LANGS)))
    return dict(importlib.import_module("pipkeeper.i18n.catalogue." + lang).MESSAGES)


def problems(lang):
    """What is wrong with a language's catalogue: keys missing or unknown,
    templates whose slots differ from the English ones (one dropped, one
    invented, one twice)."""
    out = []
    source = english()
    cat = templates(lang)
    for m in source:
        if m not in cat:
            out.append("%s: missing %r" % (lang, m))
        elif sorted(slots(cat[m])) != sorted(slots(m)):
            out.append("%s: %r has slots %s, the English %s" % (lang, m, slots(cat[m]), slots(m)))
    for m in cat:
        if m not in source:
            out.append("%s: %r is not an English message" % (lang, m))
    return out


def cells(s):
    """How many terminal cells ``s`` takes: combining marks and format
    characters (a ZWNJ, a bidi isolate) none, wide letters two."""
    import unicodedata
    n = 0
    for c in s:
        if unicodedata.category(c) in ("Mn", "Me", "Cf"):
            continue
        n += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return n


def isolated(s):
    """``s`` as one unit in a line of other text: a name with letters
    written right to left (Persian) between Unicode's first-strong isolate
    and its end (U+2068, U+2069), so a terminal that orders bidirectional
    text keeps the columns around it in place; any other name as it is."""
    return "\u2068" + s + "\u2069" if any(rtl(c) for c in s) else s


def rtl(s):
    """Whether ``s`` is written right to left: its first letter of a
    direction is (Persian, Arabic, Hebrew)."""
    import unicodedata
    for c in s:
        b = unicodedata.bidirectional(c)
        if b in ("R", "AL"):
            return True
        if b == "L":
            return False
    return False


def localized(text, lang):
    """``text`` as the language writes it: Persian digits in Persian."""
    if lang == "fa":
        return text.translate({ord(str(d)): PERSIAN_DIGITS[d] for d in range(10)})
    return text


def say(lang, m):
    """The text of message ``m`` in ``lang`` (the laptop's side of what the
    board draws): its language's template, the values in their slots,
    Persian digits in Persian. A seat slot's value is a name here."""
    return localized(_filled(templates(lang), m), lang)


def _filled(cat, m):
    if isinstance(m, int):
        return "%d" % m
    if isinstance(m, str):
        return m
    key = m[0]
    names = slots(key)
    t = cat.get(key, key)
    for i, name in enumerate(names):
        t = t.replace("{%s}" % name, _filled(cat, m[1 + i]))
    return t
