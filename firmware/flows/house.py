"""The set-up's House rules page: the rules a table plays its own way
(docs/RULES.md, "House rules"), one row each, for the preset chosen.

Reached from the options page's "House rules" row (B); A or C goes back
to it. UP/DOWN move, B changes the row's value. The first row is the rule
set: B steps through the sets offered for this preset, each setting every
row: the last game's rules with this preset (offered first), the preset's
own rules with the roster's default options ("standard"), and the sets a
table named from the laptop (`pipkeeper roster --rules NAME --preset
PRESET --option KEY=VALUE ...`, roster.json "sets"). Changing a row makes
the set the table's own ("own"). Only the rules that apply to the preset
are listed (an open train's penalty only where there are trains).

The set-up keeps the house rules in its ui as "house": {option: value}
(values as in a record, strings; an option not there has the preset's
default) and the set they came from as "rules_set" (a set's name, or
LAST, STANDARD, OWN); the page's cursor is "row". A game records the
rules whose value is not the preset's default, as [Option] tags
(firmware/flows/setup.py ``_new``); the last game's go to settings.json
"last" "house", by preset, to be offered first next time.
"""

from firmware.core import labels
from firmware.words import PRESETS, preset, plural

# The helper this flow imports where it uses it, which the app keeps with
# the flow between frames (firmware/app.py render).
DRAWS_WITH = ("firmware.flows.rule_sets",)

_NO_YES = ("no", "yes")
_POINTS = ("0", "5", "10", "15", "20", "25", "50")
_TIE_ROUNDS = "most_rounds_won,lowest_nonzero_round"

# (option, its label, the values B steps through). Which presets a rule
# applies to and its default there are the engine's (shared_engine/house.py,
# the table of options); the steps are the board's: a few of the values the
# table allows (tests/firmware/test_house_setup.py holds them to it), so
# that B reaches each in a press or three. A value pushed from the laptop
# between them is shown as it is, and B goes on from the first step.
ROWS = (
    ("double_blank", ("0-0 in a hand counts",), ("0", "25", "50")),
    ("blank_end", ("Each blank end counts",), _POINTS),
    ("doubles_count_double", ("Doubles count double",), _NO_YES),
    ("out_bonus", ("Going out: minus",), _POINTS),
    ("double_out", ("Out on a double scores",), ("0", "10", "25", "50", "100")),
    ("open_train", ("Open train at the end",), _POINTS),
    ("unsatisfied_double", ("Double left open",), _POINTS),
    ("blocked_cap", ("Blocked: lowest scores 0",), _NO_YES),
    ("skip_missing_doubles", ("Skip doubles nobody holds",), _NO_YES),
    ("call_last_tile", ("Last tile not called: draw",), ("0", "1", "2")),
    ("first_turn_run", ("First turn: a run",), _NO_YES),
    ("voluntary_pass", ("Pass though able to play",), _NO_YES),
    ("no_draw_end", ("Stuck, yard empty: ends",), _NO_YES),
    ("target_score", ("Game ends at",), ("0", "100", "150", "200", "250", "300", "500")),
    ("drawn_tile", ("Drawn tile",), ("must", "may", "until")),
    ("double_cover", ("Double covered by",), ("any", "own")),
    ("tie_break", ("Tie-break",), ("shared", _TIE_ROUNDS, "most_outs")),
    ("positive_scoring", ("Winner scores others",), _NO_YES),
)

# What a value reads as on the page: a word of the catalogue (numbers stay
# as they are).
_SHOWN = {
    "no": ("no",), "yes": ("yes",), "must": ("must play",), "may": ("may play",),
    "until": ("until one fits",), "any": ("next player",), "own": ("its player",),
    "shared": ("shared",), _TIE_ROUNDS: ("most rounds won",), "most_outs": ("most outs",),
}


def rows(rules):
    """The rows that apply to preset ``rules`` (the engine's table says)."""
    from shared_engine import house
    return [r for r in ROWS if house.applies(house.option(r[0]), rules)]


def value(rules, house, key):
    from firmware.flows.rule_sets import default
    return house.get(key, default(rules, key))


def shown(v):
    return _SHOWN.get(v) or v


def _items(rules, ui):
    house = ui.get("house") or {}
    from firmware.flows.rule_sets import set_name, STANDARD
    items = [[("Rule set",), set_name(ui.get("rules_set", STANDARD))]]
    for key, label, _ in rows(rules):
        items.append([label, shown(value(rules, house, key))])
    return items


def view(ctx, ui, k):
    rules = PRESETS[ui["pr"]]
    from firmware.flows.rule_sets import in_play
    n = len(in_play(rules, ui.get("house") or {}))
    return "menu", {
        "title": ("House rules: {rules}", preset(rules)),
        "items": _items(rules, ui),
        "cursor": ui.get("row", 0),
        "note": plural(n, "1 house rule", "{n} house rules") if n else ("The preset's own rules",),
        "labels": labels("OK", "Change", "Back", "up", "down"),
        "lang": (ui.get("o") or {}).get("lang", "en"),
    }


def press(ctx, ui, k, button):
    from firmware.flows.rule_sets import OPTIONS_ROW, STANDARD, OWN, offered
    rules = PRESETS[ui["pr"]]
    rs = rows(rules)
    row = ui.get("row", 0)
    u = dict(ui)
    if button == "UP":
        u["row"] = (row - 1) % (len(rs) + 1)
    elif button == "DOWN":
        u["row"] = (row + 1) % (len(rs) + 1)
    elif button in ("A", "C"):
        # back to the options page, on its House rules row
        u.pop("row", None)
        u["s"] = "setup"
        u["pg"] = 2
        u["c"] = OPTIONS_ROW
    elif button == "B" and row == 0:
        sets = offered(ctx.store, rules, _last_house(ctx))
        names = [s[0] for s in sets]
        cur = ui.get("rules_set", STANDARD)
        i = (names.index(cur) + 1) % len(names) if cur in names else 0
        u["rules_set"], u["house"] = sets[i][0], sets[i][1]
    elif button == "B":
        key, _, values = rs[row - 1]
        house = dict(ui.get("house") or {})
        cur = value(rules, house, key)
        house[key] = values[(values.index(cur) + 1) % len(values)] if cur in values else values[0]
        u["house"] = house
        u["rules_set"] = OWN
    return u, None


def _last_house(ctx):
    st = ctx.store
    s = (st.read_json("settings.json") if st is not None else None) or {}
    last = s.get("last")
    return last.get("house") if isinstance(last, dict) else None
