"""The four rule presets of RULES.md as data, and the options that tell them
apart, resolved into one ``Rules`` object the engine reads.

A preset is a dict of option defaults plus a few structural facts the options
do not cover (the layout, where the centre double comes from, whether rounds
go in a fixed order). ``Rules(name, players, options)`` looks a preset up
by name, applies the record's options (strings, as in a DGN file) and checks
them, raising ``ValueError`` with a sentence a player understands.

The house rules of RULES.md (issue 31) are options too. Their table (every
option, its values, its default per preset, the presets it applies to) is
``house.OPTIONS``: loaded only where options are given or listed, so that a
game of the presets' defaults costs the board's heap nothing more. ``Rules``
writes their defaults once more (its ``get(name, default)`` lines), where
tests/engine/test_house_rules.py holds them to the table.
"""

from shared_engine import tiles
from shared_engine.tiles import Refused

# Layouts: open ends around a centre double with chicken feet, or trains.
FOOT = 0
TRAINS = 1

# Option names accepted by every preset (RULES.md, "Options").
OPTION_NAMES = (
    "set", "hand_size", "start_trains", "lead_plays_centre", "drawn_tile",
    "yard_reserve", "double_blank_50", "rounds", "tie_break",
    "positive_scoring",
)

TIE_SHARED = "shared"
TIE_ROUNDS = "most_rounds_won,lowest_nonzero_round"


PRESETS = {
    # seed 000_1b8e90a0c2cb7e77.txt
    "chickenfoot": {
        "set": "9", "hand_size": "2:21 3:14 4:11 5:8 6:7 7:6 8:5",
        "start_trains": "players", "lead_plays_centre": "yes",
        "drawn_tile": "must", "yard_reserve": "2p2-else1",
        "double_blank_50": "no", "tie_break": TIE_SHARED,
        "positive_scoring": "no",
        "layout": FOOT, "centre_in_hand": False, "hunt": True,
        "fixed_order": True, "min_players": 2, "max_players": 8,
    },
    # seeds 001_24d6b1ff14a46793.txt and 004_e411e2fb467f07e5.txt
    "chickenfoot-cross": {
        "set": "9", "hand_size": "7", "start_trains": "4",
        "lead_plays_centre": "no", "drawn_tile": "may",
        "yard_reserve": "none", "double_blank_50": "yes",
        "tie_break": TIE_ROUNDS, "positive_scoring": "no",
        "layout": FOOT, "centre_in_hand": True, "hunt": True,
        "fixed_order": True, "min_players": 2, "max_players": 20,
    },
    # seed 003_48f4501dfa4ad8d2.txt
    "chicken-scratch": {
        "set": "6", "hand_size": "5", "start_trains": "4",
        "lead_plays_centre": "no", "drawn_tile": "must",
        "yard_reserve": "none", "double_blank_50": "no",
        "tie_break": TIE_SHARED, "positive_scoring": "no",
        "layout": FOOT, "centre_in_hand": True, "hunt": False,
        "fixed_order": False, "min_players": 2, "max_players": 20,
    },
    # seed 002_27fe7f81b53bf024.txt
    "mexican-train": {
        "set": "12", "hand_size": "2:12 3:12 4:12 5:12 6:12 7:10 8:10 9:8 10:8",
        "start_trains": "none", "lead_plays_centre": "no",
        "drawn_tile": "must", "yard_reserve": "none",
        "double_blank_50": "no", "tie_break": TIE_SHARED,
        "positive_scoring": "no",
        "layout": TRAINS, "centre_in_hand": True, "hunt": True,
        "fixed_order": True, "min_players": 2, "max_players": 20,
    },
}

NAMES = ("chickenfoot", "chickenfoot-cross", "chicken-scratch", "mexican-train")


def find_preset(name):
    """The preset called ``name``; ValueError naming the known ones if none is.

    The record reader asks this before anything else about a record's tags,
    so a mistyped [Rules] is the first error a player reads.
    """
    found = PRESETS.get(name)
    if found is None:
        raise ValueError("unknown rules %r: use one of %s" % (name, ", ".join(NAMES)))
    return found


class Rules:
    """Everything the engine needs to know about one game's rules.

    Plain attributes, resolved once when a game starts: the hot path reads
    ints and bools, never strings.
    """

    # The house rules (RULES.md, "House rules") at their defaults: class
    # attributes, read where a game does not set them. A game of the
    # presets' rules keeps none of them in its own dict: on the board each
    # attribute of its own is a slot of a table that grows by steps (the
    # 47 slots of every rule set are a block of 752 bytes on the unix
    # port's heap, which a power-cycled score press did not find).
    double_blank = 0
    db50 = False
    blank_end = 0
    doubles_double = False
    out_bonus = 0
    double_out = 0
    open_train = 0
    unsatisfied = 0
    blocked_cap = False
    skip_missing = False
    call_last = 0
    first_run = False
    voluntary_pass = False
    no_draw_end = False
    target = 0
    cover_own = False
    draw_until = False
    tie_outs = False
    facts = False

    def __init__(self, name, n_players, options, checked=False):
        preset = find_preset(name)
        old = True      # only the presets' options given: checked below, as ever
        for key in options:
            if key not in OPTION_NAMES:
                old = False
        if not old and not checked:
            # a house rule among them: every given option's value checked
            # against the table (shared_engine/house.py, a module a game of
            # the presets' options never loads: on the board, the press that
            # starts such a game has no heap to spare for it); not again for
            # a checkpoint's game, whose options were, when it began
            from shared_engine import house
            house.check_all(name, options)
        opt = {}
        for key in OPTION_NAMES:
            opt[key] = preset.get(key)
        get = options.get
        for key in options:
            if key in opt:
                opt[key] = options[key]
        self.name = name
        self.options = opt      # the presets' options; report.options has them all
        self.given = options    # as the record gave them
        self.layout = preset["layout"]
        self.centre_in_hand = preset["centre_in_hand"]
        self.hunt = preset["hunt"]
        self.fixed_order = preset["fixed_order"]
        n = n_players
        self.players = n
        if n < preset["min_players"] or n > preset["max_players"]:
            raise Refused("{rules} is for {least} to {most} players, not {n}",
                          name, preset["min_players"], preset["max_players"], n)
        top = _int(opt["set"], "set")
        if top not in tiles.SETS:
            raise ValueError("set must be one of 6, 9, 12, 15, 18, not %s" % opt["set"])
        self.top = top
        self.tiles = tiles.size(top)
        self.hand_size = _hand_size(opt["hand_size"], n)
        st = opt["start_trains"]
        if st == "players":
            self.start_trains = n if n < 8 else 8
        elif st == "none":
            self.start_trains = 0
        else:
            self.start_trains = _int(st, "start_trains")
            if self.start_trains < 0 or self.start_trains > top:
                raise ValueError("start_trains must be 0 to %d, not %s" % (top, st))
        if self.layout == TRAINS and self.start_trains:
            raise ValueError("mexican-train has no start phase: start_trains must be none")
        self.lead_plays_centre = _yes(opt["lead_plays_centre"], "lead_plays_centre")
        dt = opt["drawn_tile"]
        if dt not in ("must", "may", "until"):
            raise ValueError("drawn_tile must be must, may or until, not %r" % dt)
        self.drawn_must = dt != "may"       # must, or until: a drawn tile that fits is played
        if dt == "until":
            self.draw_until = True          # a player with no play draws until a tile fits
        yr = opt["yard_reserve"]
        if yr == "none":
            self.reserve = 0
        elif yr == "2p2-else1":
            self.reserve = 2 if n == 2 else 1
        else:
            raise ValueError("yard_reserve must be none or 2p2-else1, not %r" % yr)
        _yes(opt["double_blank_50"], "double_blank_50")
        tb = opt["tie_break"]
        if tb not in (TIE_SHARED, TIE_ROUNDS, "most_outs"):
            raise ValueError("tie_break must be %s, %s or most_outs, not %r" % (TIE_SHARED, TIE_ROUNDS, tb))
        self.tie_rounds = tb == TIE_ROUNDS
        if tb == "most_outs":
            self.tie_outs = True
        self.positive = _yes(opt["positive_scoring"], "positive_scoring")
        if self.positive and self.layout != TRAINS:
            raise ValueError("positive_scoring is a rule of mexican-train only")
        # 0-0's value: double_blank, else double_blank_50 (older records:
        # 50 or 0); house.check_all refuses the two where they disagree.
        db = get("double_blank")
        db = int(db) if db is not None else (50 if opt["double_blank_50"] == "yes" else 0)
        opt["double_blank_50"] = "yes" if db == 50 else "no"
        if db:
            self.double_blank = db
            self.db50 = db == 50
        rounds = opt["rounds"]
        if rounds is None:
            self.rounds = tuple(range(top, -1, -1))
        else:
            seq = []
            for word in rounds.split():
                d = _int(word, "rounds")
                if d < 0 or d > top:
                    raise ValueError("rounds: %d-%d is not in a double-%d set" % (d, d, top))
                if d in seq:
                    raise ValueError("rounds: %d-%d is named twice" % (d, d))
                seq.append(d)
            if not seq:
                raise ValueError("rounds names no double")
            self.rounds = tuple(seq)
        dealt = n * self.hand_size + (0 if self.centre_in_hand else 1)
        if dealt > self.tiles:
            raise ValueError("a double-%d set has %d tiles: too few for %d hands of %d" % (
                top, self.tiles, n, self.hand_size))
        if not old:
            # The house rules the record sets: in a module of their own, as
            # the class's attributes are their defaults and a game of the
            # presets' options never sets them (its heap keeps none of
            # their code: the board's cold boots on battery had no room)
            from shared_engine import house_set
            house_set.resolve(self, get)


def _yes(text, what):
    if text == "yes":
        return True
    if text == "no":
        return False
    raise ValueError("%s must be yes or no, not %r" % (what, text))


def _int(text, what):
    if not text or not text.isdigit():
        raise ValueError("%s must be a number, not %r" % (what, text))
    return int(text)


def _hand_size(text, n):
    """``hand_size`` is a number, or a table ``players:tiles ...``."""
    if text is None:
        raise ValueError("hand_size is missing")
    if ":" not in text:
        size = _int(text.strip(), "hand_size")
    else:
        size = None
        for pair in text.split():
            p, _, h = pair.partition(":")
            if _int(p, "hand_size") == n:
                size = _int(h, "hand_size")
        if size is None:
            raise ValueError("hand_size has no entry for %d players" % n)
    if size < 1:
        raise ValueError("hand_size must be at least 1")
    return size
