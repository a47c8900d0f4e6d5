"""The house rules a record sets (RULES.md, "House rules"), resolved onto
its ``presets.Rules``: ints and bools, as the engine reads them.

A module of its own, loaded only for a game whose record gives an option
beyond the presets' (``Rules`` checks them first, with shared_engine/house.py's
table; a checkpoint's game was checked when it began): the class's
attributes are the defaults, and a game of the presets' options keeps no
code of the house rules on the board's heap.
"""


def resolve(rules, get):
    """Set the house rules on ``rules`` from the record's options (``get``:
    their dict's ``get``, values as strings, already checked)."""
    rules.blank_end = int(get("blank_end", "0"))
    rules.doubles_double = get("doubles_count_double") == "yes"
    rules.out_bonus = int(get("out_bonus", "0"))
    rules.double_out = int(get("double_out", "0"))
    rules.open_train = int(get("open_train", "0"))
    rules.unsatisfied = int(get("unsatisfied_double", "0"))
    rules.blocked_cap = get("blocked_cap") == "yes"
    rules.skip_missing = get("skip_missing_doubles") == "yes"
    rules.call_last = int(get("call_last_tile", "0"))
    rules.first_run = get("first_turn_run") == "yes"
    rules.voluntary_pass = get("voluntary_pass") == "yes"
    rules.no_draw_end = get("no_draw_end") == "yes"
    rules.target = int(get("target_score", "0"))
    rules.cover_own = get("double_cover") == "own"
    # A scored round keeps facts beyond pips and 0-0 (RULES.md, "The
    # facts of a round") only where a rule counts them.
    rules.facts = bool(rules.blank_end or rules.doubles_double or rules.out_bonus or rules.double_out
                       or rules.open_train or rules.unsatisfied or rules.blocked_cap
                       or rules.call_last)
