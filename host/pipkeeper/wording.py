"""How pipkeeper says a count and a near miss, in one place for every
message: "1 file" but "2 files"; "did you mean games?" after a mistyped
name. Small, and used across the tree (commands, board, sim, bench)."""

import difflib


def counted(n, noun, nouns=None):
    """``n`` and its noun, singular for one: counted(1, "file") is
    "1 file", counted(3, "file") "3 files"; ``nouns`` where the plural is
    not the noun and an s ("press", "presses")."""
    return "{} {}".format(n, noun if n == 1 else (nouns or noun + "s"))


def nearest(word, choices):
    """The names among ``choices`` nearest to ``word``, at most three: those
    it begins ("pico" for pico_inky_pack), then difflib's nearest (a ratio
    of 0.5 or more), nearest first."""
    word, choices = str(word), list(choices)
    begun = [c for c in choices if word and c.startswith(word) and c != word]
    near = difflib.get_close_matches(word, choices, n=3, cutoff=0.5)
    return (begun + [c for c in near if c not in begun])[:3]


def did_you_mean(word, choices):
    """"; did you mean X or Y?" naming the choices nearest to ``word``, or
    "" when none is near: the tail of a refusal of a mistyped name."""
    near = nearest(word, choices)
    return "; did you mean {}?".format(" or ".join(near)) if near else ""
