"""Player names compared as people write them.

A record keeps a name exactly as the board or a person wrote it; the
library compares names by their *spelling key*, ``fold(name)``, so that the
same person written on two boards, or typed on two keyboards, is one
player:

- Unicode compatibility normalisation, NFKC: a Welsh ŵ typed as one
  character (U+0175) or as w and a combining circumflex (U+0302) is the
  same letter, and so are the Arabic presentation forms some old
  keyboards emit and the letters they stand for. NFKC rather than NFC
  because the compatibility forms (full-width Latin, ligatures, the
  presentation forms) are other ways of typing the same letters, not
  other letters; the name shown stays as it was written.
- case folded (``str.casefold``: "ANN", "Ann" and "ann"; Ŵ and ŵ);
- the format characters removed (Unicode category Cf): the zero-width
  non-joiner of Persian spelling (U+200C, as in مریم‌السادات) and the
  joiner change how the letters join, not which letters they are, and a
  keyboard without the non-joiner types the name without it; the
  direction marks and isolates (U+200E, U+2066..U+2069) that copying a
  name out of a right-to-left text brings with it are invisible. The
  Arabic tatweel (U+0640), which only stretches a joined letter, goes too;
- the Arabic letters that a Persian name is often typed with on an Arabic
  keyboard are read as the Persian ones: yeh (ي U+064A) and alef maksura
  (ى U+0649) as Persian yeh (ی U+06CC), kaf (ك U+0643) as keheh (ک U+06A9);
- spaces trimmed, and a run of blanks read as one space.

Accents stay: "Sian" and "Siân" are two spellings `pipkeeper players merge`
may join, never one the library decides alone (in Welsh the circumflex is
part of the name), and a space stays a word break ("مریم السادات" and
"مریم‌السادات" differ by more than how the letters join).
"""

import unicodedata

from pipkeeper.errors import PipkeeperError

# The longest name `players rename` takes: as long as a name may be where
# a person types it for the league (the board's own roster is shorter, 12,
# to fit its screen; a record typed by hand may hold more).
MAX_NAME = 40

_ARABIC_AS_PERSIAN = {
    0x064A: 0x06CC,  # ARABIC LETTER YEH -> ARABIC LETTER FARSI YEH
    0x0649: 0x06CC,  # ARABIC LETTER ALEF MAKSURA -> ARABIC LETTER FARSI YEH
    0x0643: 0x06A9,  # ARABIC LETTER KAF -> ARABIC LETTER KEHEH
    0x0640: None,    # ARABIC TATWEEL: stretches a joined letter, no letter itself
}


def fold(name):
    """The spelling key of ``name``: two names are one player's when their
    keys are equal (the module's docstring says what is folded, and why)."""
    text = unicodedata.normalize("NFKC", str(name))
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    text = text.translate(_ARABIC_AS_PERSIAN).casefold()
    # casefold can undo the composition (ǰ, İ): normalise once more
    text = unicodedata.normalize("NFKC", text)
    return " ".join(text.split())


def check_new_name(name):
    """A name a person gives a player (`players rename`), trimmed; one line
    saying why when it cannot be one: empty, too long, control characters
    (the joiners a name's spelling uses are format characters, and allowed)."""
    text = unicodedata.normalize("NFC", str(name)).strip()
    if not fold(text):
        raise PipkeeperError("an empty player name")
    if len(text) > MAX_NAME:
        raise PipkeeperError("the name {!r} is longer than {} characters".format(text, MAX_NAME))
    if any(unicodedata.category(c) in ("Cc", "Co", "Cs", "Cn", "Zl", "Zp") for c in text):
        raise PipkeeperError("the name {!r} has control characters".format(text))
    if '"' in text or "\\" in text:
        raise PipkeeperError("the name {!r}: no quotes or backslashes, please (a record could "
                             "not hold it as it is)".format(text))
    return text
