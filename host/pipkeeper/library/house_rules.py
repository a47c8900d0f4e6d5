"""The options of a game as a person reads them on the laptop: what each
one means and where it comes from (`pipkeeper rules`), and the rules in
play, the options a game sets beyond its preset's defaults, as one short
line ("0-0 = 25, out −10") for `replay`, `show`, `games` and the exports.

The options themselves (names, values, defaults per preset, the presets
they apply to) are the engine's table, shared_engine/house.py; this module
adds only the words for people. Their exact rules are docs/RULES.md.
"""

from shared_engine import house

PRESETS = house.NAMES

# What each option sets, and where it comes from (RULES.md, "Options" and
# "House rules"; "sheets" are Cardinal's and Fundex's rule sheets).
ABOUT = {
    "set": ("the set: double-N", "the seeds"),
    "hand_size": ("tiles dealt to each player (a number, or players:tiles ...)", "the seeds"),
    "start_trains": ("trains or arms the centre double needs before other plays "
                     "(a number, players or none)", "the seeds"),
    "lead_plays_centre": ("the leader's first turn is a play on the centre double", "seed 000"),
    "drawn_tile": ("a drawn tile that fits must or may be played; until: draw until one fits",
                   "the seeds; until: the sheets' \"draw until playable\""),
    "yard_reserve": ("tiles that stay in the yard", "seed 000"),
    "rounds": ("the centre doubles in order, e.g. \"9 8 7\"", "the seeds"),
    "tie_break": ("how a tie on the totals is broken", "seeds 001 and 004; most_outs: epresas's app, "
                  "the Mexican Train calculators"),
    "positive_scoring": ("the winner scores the others' pips (highest total wins)", "seed 002's tables"),
    "double_blank": ("0-0 left in a hand counts this", "seeds 001/004 (50), hcherndon's scorer, "
                     "Gr8Gatsby's app (25 or 50)"),
    "double_blank_50": ("older records: 0-0 counts 50 (double_blank says it now)", "seeds 001/004"),
    "blank_end": ("each blank end of a tile left in a hand counts this", "Gr8Gatsby's app"),
    "doubles_count_double": ("a double left in a hand counts twice its pips", "Gr8Gatsby's app"),
    "out_bonus": ("the player who goes out scores minus this", "Gr8Gatsby's app"),
    "double_out": ("a player who goes out on a double scores this instead",
                   "hcherndon's scorer (\"ended on a double\")"),
    "open_train": ("a player whose train carries a marker at the round's end adds this",
                   "Cardinal's and Fundex's sheets, score calculators"),
    "unsatisfied_double": ("a double (or chicken foot) left unsatisfied adds this to who played it",
                           "Gr8Gatsby's app"),
    "blocked_cap": ("in a round nobody went out of, the lowest hand scores 0", "Gr8Gatsby's app"),
    "skip_missing_doubles": ("a round opens on the first double still to open one that someone holds",
                             "hcherndon's scorer (its default), the sheets"),
    "call_last_tile": ("a player caught not calling their last tile draws this many",
                       "Cardinal's and Fundex's sheets (1 in Chicken Foot, 2 in Mexican Train)"),
    "first_turn_run": ("on their first turn a player may play any number of tiles on their own train",
                       "Cardinal's rules"),
    "voluntary_pass": ("a player may draw and pass although they could play", "issue 31's sources"),
    "no_draw_end": ("the round ends when a player cannot play and the yard is empty", "issue 31's sources"),
    "target_score": ("the game ends after the round a total reaches this (0: none)", "issue 31's sources"),
    "double_cover": ("own: only the player who laid a double must cover it (\"follow up\")",
                     "the sheets"),
}


def table():
    """Every option as a dict: name, values (words), about, source, the
    presets it applies to, and its default in each (None: the preset
    works it out, or it does not apply)."""
    out = []
    for row in house.rows():
        name, values = row[0], row[1]
        span = house.span(values)
        about, source = ABOUT.get(name, ("", ""))
        out.append({
            "option": name,
            "values": ("{} to {}".format(span[0], span[1]) if span else
                       ", ".join(values.split()) if values else "(its own form)"),
            "about": about,
            "source": source,
            "applies": [p for p in PRESETS if house.applies(row, p)],
            "defaults": dict((p, house.default(row, p) if house.applies(row, p) else None)
                             for p in PRESETS),
        })
    return out


# -- the rules in play -------------------------------------------------------------

# Options the sheet shows by itself (its rounds, its players' hands): not
# in the rules line.
SHAPE = ("set", "hand_size", "rounds")


# Each option in play in a few words: a number's template, a switch's
# (yes, no), or a word's phrase.
NUMBERS = {
    "double_blank": "0-0 = {}", "blank_end": "blank end +{}", "out_bonus": "out \u2212{}",
    "double_out": "out on a double +{}", "open_train": "open train +{}",
    "unsatisfied_double": "unsatisfied double +{}", "call_last_tile": "last tile not called: draw {}",
    "target_score": "to {}", "start_trains": "start trains {}",
}
SWITCHES = {
    "doubles_count_double": ("doubles count double", "doubles count once"),
    "blocked_cap": ("blocked: lowest hand 0", "blocked: no cap"),
    "skip_missing_doubles": ("skip missing doubles", "draw for missing doubles"),
    "first_turn_run": ("first-turn run", "no first-turn run"),
    "voluntary_pass": ("may pass", "no voluntary pass"),
    "no_draw_end": ("ends when nobody can draw", "plays on with the yard empty"),
    "positive_scoring": ("winner scores the others", "lowest total wins"),
    "lead_plays_centre": ("leader plays on the centre", "the centre is the leader's turn"),
    "double_blank_50": ("0-0 = 50", "0-0 = 0"),
}
WORDS = {
    "drawn_tile": {"must": "drawn tile must be played", "may": "drawn tile may be played",
                   "until": "draw until it fits"},
    "double_cover": {"own": "only the layer covers a double", "any": "anyone covers a double"},
    "tie_break": {"most_outs": "ties: most outs", "shared": "ties shared",
                  "most_rounds_won,lowest_nonzero_round": "ties: most rounds won"},
    "yard_reserve": {"none": "no yard reserve", "2p2-else1": "yard reserve 2, else 1"},
}


def _phrase(name, value):
    """One option in play, in a few words."""
    if name in NUMBERS:
        return NUMBERS[name].format(value)
    if name in SWITCHES:
        return SWITCHES[name][0 if value == "yes" else 1]
    return WORDS.get(name, {}).get(value) or "{} {}".format(name.replace("_", " "), value)


def summary(house_rules):
    """The rules in play as one line ("0-0 = 25, out −10"), from a report's
    ``house_rules`` ({name: value}, the options that are not the preset's
    defaults); "" for a game of its preset's rules."""
    return ", ".join(_phrase(k, v) for k, v in (house_rules or {}).items() if k not in SHAPE)
