"""The sets of house rules the set-up offers (its options page's House
rules row and its House rules page, firmware/flows/setup.py and house.py,
which import it where they use it: a flow kept between presses must not
hold a module the app lets go of), the rules in play that a new game
records, and each rule's default by preset (the engine's table,
shared_engine/house.py, loaded only when a rule is asked of).
"""

LAST = "*last"          # the rule sets that are not a table's own names
STANDARD = "*standard"  # (a name from the laptop never starts with "*")
OWN = "*own"
OPTIONS_ROW = 3         # the options page's House rules row (firmware/flows/setup.py)


def default(rules, key):
    """Preset ``rules``'s own value of option ``key`` (the engine's table,
    shared_engine/house.py)."""
    from shared_engine import house
    return house.default(house.option(key), rules)


def in_play(rules, house):
    """{option: value} of ``house`` that differ from the preset's own
    (what a record's tags hold), in the order of the engine's table;
    options the page has no row for (a named set's hand_size, say) too."""
    if not house:
        return {}
    from shared_engine.house import rows as table
    out = {}
    for key in [r[0] for r in table() if r[0] in house]:
        if house[key] != default(rules, key):
            out[key] = house[key]
    return out


def named_sets(st, rules):
    """The roster's named sets for preset ``rules``: [(name, options)]."""
    r = (st.read_json("roster.json") if st is not None else None) or {}
    out = []
    for s in r.get("sets") or ():
        if isinstance(s, dict) and s.get("rules") == rules and isinstance(s.get("name"), str):
            o = s.get("options")
            out.append((s["name"], dict(o) if isinstance(o, dict) else {}))
    return out


def standard(st, rules):
    """The preset's rules with the roster's default options, when the
    roster's default preset is this one (`pipkeeper roster --rules PRESET
    --option KEY=VALUE`): all of them but the set-up's own rows (the set,
    the rounds) and the board's idle minutes."""
    r = (st.read_json("roster.json") if st is not None else None) or {}
    d = r.get("defaults") or {}
    out = {}
    if d.get("rules") == rules:
        o = d.get("options") or {}
        for key in o:
            if key not in ("set", "rounds", "idle", "double_blank_50"):
                out[key] = o[key]
        if o.get("double_blank_50") == "yes" and "double_blank" not in out:
            out["double_blank"] = "50"
    return out


def offered(st, rules, last):
    """[(rule set, house rules)] to step through for preset ``rules``, the
    first offered: the last game's with it (``last``: settings.json "last"
    "house"), the standard ones, the roster's named sets."""
    out = []
    if isinstance(last, dict) and isinstance(last.get(rules), dict):
        out.append((LAST, dict(last[rules])))
    out.append((STANDARD, standard(st, rules)))
    return out + named_sets(st, rules)


def set_name(name):
    if name == LAST:
        return ("last game",)
    if name == STANDARD:
        return ("standard",)
    if name == OWN:
        return ("own",)
    return name


def summary(ui):
    """The options page's value for its House rules row: the set's name."""
    return set_name(ui.get("rules_set", STANDARD))
