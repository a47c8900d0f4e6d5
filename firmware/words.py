"""Words the screens between turns build: a preset's name and a count.

A module of its own, loaded by the screens that need them (set-up, the
dealer, the end, History, the sheet sent to a phone) and not by the turn
screen, which writes its few counts inline: core is loaded on every
press, and the heaviest game on USB has little heap to spare
(tests/firmware/test_games.py). How a game was won is not here (it is
in firmware/flows/rounds.py): this module is loaded at set-up, and that
name more in the table of names took a game in Swedish out of memory as
it started (test_i18n_games.py). Not a flow (firmware.flows.*): the app
lets those go between presses, and the flows and the dealer's screen that
hold these names would keep a copy of a module let go (it would be
loaded twice).
"""

# The presets by id (shared_engine/presets.py), in set-up's order, and
# their names as players read them: messages of the catalogue, so that
# each language says them its own way (a record keeps the id).
PRESETS = ("chickenfoot", "chickenfoot-cross", "chicken-scratch", "mexican-train")
_TITLES = (("Chicken Foot",), ("Chicken Foot Cross",), ("Chicken Scratch",), ("Mexican Train",))


def preset(rules):
    """The name of the preset whose id is ``rules``, in the board's
    language; an id it does not know (a record's, "?") as it is."""
    return _TITLES[PRESETS.index(rules)] if rules in PRESETS else rules


def plural(n, a, b):
    """A count in words: the message ``a`` for 1 ("1 game"), else ``b``
    with ``n`` in its slot ("{n} games"). Each language translates both; a
    test and an ``if`` are all the board pays (the languages here need no
    other form: Welsh, Persian and Mongolian put a noun after a number in
    the singular, Swedish has one and other)."""
    return (a,) if n == 1 else (b, n)

