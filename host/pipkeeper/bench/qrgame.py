"""Finished games for the QR screen (issue 34): the sheet a board sends to a
phone, for the benchmark (``pipkeeper bench device``: the press that shows
the code) and the tests that read the codes back from the board's frames.

A game of ``n`` players, 2 to 8, played to its end by the engine's
simulation, with names in the language's own script (Persian, Mongolian
Cyrillic, Welsh, Irish and Swedish letters), laid on a board's flash as
its game in progress, shown in that language: the board boots onto its end
screen, and C shows the codes.
"""

from pipkeeper.bench import firmware as bench_firmware

NAMES = {
    "en": ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"],
    "cy": ["Siân", "Dafydd", "Gwenllïan", "Rhodri", "Eluned", "Ŵyn", "Ffion", "Iolo"],
    "ga": ["Áine", "Seán", "Niamh", "Pádraig", "Siobhán", "Órla", "Ciarán", "Bríd"],
    "sv": ["Örjan", "Åsa", "Björn", "Märta", "Lars", "Ingrid", "Sven", "Karin"],
    "mn": ["Батцэцэг", "Болд", "Сарнай", "Тэмүүлэн", "Оюун", "Ганбаатар", "Цэцэг", "Нараа"],
    "fa": ["فاطمه", "زهرا", "علی", "مریم", "رضا", "سارا", "حسین", "نرگس"],
}

# The largest sheet: Mexican Train's 13 rounds for 8 players.
LARGEST = ("mexican-train", 8, {})


def game(rules, n, lang, seed=1, options=None):
    """(tags, events) of a finished game as a board in full tracking
    records it, its players named in ``lang``'s script."""
    from shared_engine import simulate
    sim = simulate.simulate(rules, n, seed=seed, options=options)
    events = simulate.to_board(list(sim.events))
    tags = [("Rules", [rules]), ("Players", NAMES[lang][:n])]
    for k, v in sorted((options or {}).items()):
        tags.append(("Option", [k, v]))
    tags.append(("Game", ["q%03d-%04d" % (n, seed)]))
    tags.append(("Date", ["2026-12-06"]))
    return tags, events


def write(folder, rules, n, lang, seed=1, options=None):
    """A board's flash (``folder``) whose game in progress is ``game``'s,
    over: the board shows its end screen."""
    tags, events = game(rules, n, lang, seed, options)
    return bench_firmware.write_board(folder, tags, events, lang)
