"""Every option of RULES.md as data, and what a table sees of a game's
options: the table of options (their values, their default per preset,
the presets they apply to), the check of a record's options against it, and
the house rules, the options in play that are not the preset's defaults (the rules
line of the board's screens and of the laptop's sheets: "0-0 = 25, out
-10").

Loaded only where options are given, checked or listed: ``presets.Rules``
resolves a game of the presets' defaults without it, so such a game costs
the board's heap nothing for the table. The board's set-up reads
``OPTIONS`` through ``rows`` (its "House rules" page); the laptop's
``pipkeeper rules`` and ``roster --option`` too.
"""

# The presets, in the order of presets.NAMES (here too: this module may not
# import presets, which loads it; tests/engine/test_house_rules.py holds
# the two the same, as it holds the defaults below to presets.PRESETS).
NAMES = ("chickenfoot", "chickenfoot-cross", "chicken-scratch", "mexican-train")

# One line an option, NAME|VALUES|DEFAULT|PRESETS:
#   VALUES   the words allowed, separated by blanks ("0 25 50", "yes no");
#            "LO-HI/STEP" a whole number from LO to HI (STEP: the set-up's
#            step, a hint); empty: a value of its own form, checked by
#            presets.Rules (RULES.md)
#   DEFAULT  one value for every preset, or four separated by ";" in
#            NAMES' order; empty: the preset works it out (rounds: from
#            the set)
#   PRESETS  the bits of the presets it applies to (chickenfoot 1,
#            chickenfoot-cross 2, chicken-scratch 4, mexican-train 8):
#            elsewhere only its default is accepted
# One string, not a tuple of tuples: on the unix port's 64-bit heap the
# tuples cost 7.3 KB where the string costs 1.8 (the frozen image keeps
# either in flash).
OPTIONS = """set|6 9 12 15 18|9;9;6;12|15
hand_size||2:21 3:14 4:11 5:8 6:7 7:6 8:5;7;5;2:12 3:12 4:12 5:12 6:12 7:10 8:10 9:8 10:8|15
start_trains||players;4;4;none|15
lead_plays_centre|yes no|yes;no;no;no|15
drawn_tile|must may until|must;may;must;must|15
yard_reserve|none 2p2-else1|2p2-else1;none;none;none|15
rounds|||15
tie_break|shared most_rounds_won,lowest_nonzero_round most_outs|shared;most_rounds_won,lowest_nonzero_round;shared;shared|15
positive_scoring|yes no|no|8
double_blank|0 25 50|0;50;0;0|15
double_blank_50|yes no|no;yes;no;no|15
blank_end|0-50/5|0|15
doubles_count_double|yes no|no|15
out_bonus|0-50/5|0|15
double_out|0-100/10|0|15
open_train|0-50/5|0|8
unsatisfied_double|0-50/5|0|15
blocked_cap|yes no|no|15
skip_missing_doubles|yes no|no|10
call_last_tile|0 1 2|0|15
first_turn_run|yes no|no|8
voluntary_pass|yes no|no|15
no_draw_end|yes no|no|15
target_score|0-9999/50|0|15
double_cover|any own|any|8"""

# The options of issue 31 (and the extended values of drawn_tile and
# tie_break): the house rules a table sets beyond the presets' options.
FIRST_HOUSE_RULE = "double_blank"

# For tables where the lowest total wins: not with positive_scoring.
LOWEST_WINS = ("out_bonus", "double_out", "blocked_cap")


def rows():
    """The table's options in order, each (name, values, default,
    presets): values and default as the table writes them, presets an
    int of bits."""
    for line in OPTIONS.split("\n"):
        w = line.split("|")
        yield w[0], w[1], w[2], int(w[3])


def option(name):
    """The row of option ``name`` (as ``rows`` gives it), or None."""
    for row in rows():
        if row[0] == name:
            return row
    return None


def default(row, preset):
    """The default value of the option ``row`` in the preset called
    ``preset`` (None: the preset works it out)."""
    d = row[2]
    if not d:
        return None
    if ";" in d:
        return d.split(";")[NAMES.index(preset)]
    return d


def applies(row, preset):
    """True when the option ``row`` is a rule of the preset ``preset``."""
    return bool(row[3] >> NAMES.index(preset) & 1)


def span(values):
    """(LO, HI, STEP) of a value range "LO-HI/STEP", else None."""
    if values and values[0].isdigit() and "-" in values:
        r, _, step = values.partition("/")
        lo, _, hi = r.partition("-")
        return int(lo), int(hi), int(step or "1")
    return None


def allowed(row):
    """The values of ``row`` as a sentence's end ("0, 25 or 50", "a whole
    number from 0 to 50"), None for a value of its own form."""
    r = span(row[1])
    if r is not None:
        return "a whole number from %d to %d" % r[:2]
    if not row[1]:
        return None
    w = row[1].split()
    return ", ".join(w[:-1]) + " or " + w[-1]


def check(row, value):
    """None when ``value`` (a string) is allowed for the option ``row``
    (one of its own form is presets.Rules' to check), else the one-line
    refusal naming the values allowed."""
    v = row[1]
    if not v:
        return None
    r = span(v)
    if r is not None:
        if value.isdigit() and len(value) < 6 and r[0] <= int(value) <= r[1]:
            return None
    elif value in v.split():
        return None
    if row[0] == "set":
        return "set must be one of 6, 9, 12, 15, 18, not %s" % value
    return "%s must be %s, not %r" % (row[0], allowed(row), value)


def check_all(preset, options):
    """Raise ValueError, one line, at the first of the record's
    ``options`` ({name: value}) the table refuses: an unknown name, a
    value not allowed, a rule of another preset set to other than its
    default, a rule for the lowest total with positive_scoring, and
    double_blank and double_blank_50 that disagree. Values are checked
    in the table's order, the same on both interpreters.

    Two passes over the table, the names and then the values: a look-up
    (``option``) a given option split the table again, and with every rule
    given that check cost a full replay on the board more than all its
    score lines (``bench engine --house-rules``: 1.8 ms of 8 on the unix
    port)."""
    seen = 0
    for row in rows():
        if row[0] in options:
            seen += 1
    if seen < len(options):
        for key in options:
            if option(key) is None:
                raise ValueError("unknown option %r" % key)
    for row in rows():
        key = row[0]
        value = options.get(key)
        if value is None:
            continue
        if key == "set" and not value.isdigit():
            raise ValueError("set must be a number, not %r" % value)
        why = check(row, value)
        if why is not None:
            raise ValueError(why)
        if not applies(row, preset) and value != default(row, preset):
            raise ValueError("%s is a rule of %s only" % (key, " and ".join(
                NAMES[i] for i in range(4) if row[3] >> i & 1)))
    if options.get("positive_scoring") == "yes":
        for key in LOWEST_WINS:
            if options.get(key, "0") not in ("0", "no"):
                raise ValueError("%s is for tables where the lowest total wins: "
                                 "not with positive_scoring" % key)
    db = options.get("double_blank")
    old = options.get("double_blank_50")
    if db is not None and old is not None and (old == "yes") != (db == "50"):
        raise ValueError("double_blank %s and double_blank_50 %s disagree: give double_blank only"
                         % (db, old))


def house(rules):
    """[(name, value)]: the options in play that differ from the preset's
    defaults, in the table's order (``rules`` a presets.Rules); 0-0's
    value as ``double_blank`` however the record gave it, never as
    ``double_blank_50``."""
    given = rules.given
    out = []
    for row in rows():
        k = row[0]
        if k == "double_blank_50":
            continue
        v = given.get(k)
        if k == "double_blank" and "double_blank_50" in given:
            v = str(rules.double_blank)
        if v is not None and v != default(row, rules.name):
            out.append((k, v))
    return out


def blame(rec, msg, opts):
    """The line of the tag of ``rec`` (a dgn.Record) that a refusal of
    its options (``msg``) is about: the option it names ("start_trains
    must be...", "unknown option 'x'", "mexican-train has no start phase:
    start_trains..."), a hand too large for the set (hand_size, else
    [Set]), else the players (too few, too many for the rules). ``set``
    may be an [Option] too. Here, not in dgn.py: only a refusal loads it."""
    words = msg.replace(":", " ").split()
    key = None
    for k in opts:
        if msg.startswith(k) or repr(k) in msg:
            key = k
            break
    if key is None and msg.startswith("a double-"):
        key = "hand_size" if "hand_size" in opts else "set"
    if key is None:
        for k in opts:
            if k in words and k != "set":
                key = k
                break
    line = None
    if key == "set":
        line = rec.line("Set")
    if key is not None and line is None:
        line = rec.line("Option", key)
    return rec.line("Players") if line is None else line
