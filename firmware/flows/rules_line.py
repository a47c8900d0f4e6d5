"""The house rules in play in short words: the line the dealer, the end
and History's sheet show ("0-0 = 25, out -10, ...").

A helper of the flows that draw it (rounds: the dealer and the end;
history), loaded (``line``) only for a game whose record gives options,
and let go between presses with the flows (the app's ``heap.SCREENS``): a
board on USB kept it, and the engine's table beside it, for the rest of
the game, and a full-tracking game's next round then found no room to
start.
"""

def _short():
    """Each house rule's short words for the line of the rules in play (the
    dealer, the end, History's sheet), by value: a message with the value in
    its slot, or one for each value that reads differently. Made when the
    line is (a function: a table at the module's top would be built in the
    heap at every import, the set-up's too, which never draws the line)."""
    return (
        ("double_blank", ("0-0 = {n}",)),
        ("blank_end", ("blank end {n}",)),
        ("doubles_count_double", ("doubles x2",)),
        ("out_bonus", ("out -{n}",)),
        ("double_out", ("out on a double {n}",)),
        ("open_train", ("open train {n}",)),
        ("unsatisfied_double", ("open double {n}",)),
        ("blocked_cap", ("blocked: lowest 0",)),
        ("skip_missing_doubles", ("missing doubles skipped",)),
        ("call_last_tile", ("no call: draw {n}",)),
        ("first_turn_run", ("first-turn run",)),
        ("voluntary_pass", ("pass at will",)),
        ("no_draw_end", ("stuck: round ends",)),
        ("target_score", ("to {n}",)),
        ("drawn_tile", {"must": ("drawn tile: play it",), "may": ("drawn tile: may play",),
                        "until": ("draw until it fits",)}),
        ("double_cover", {"own": ("own doubles covered",), "any": ("doubles: anyone covers",)}),
        ("tie_break", {"most_outs": ("tie: most outs",), "shared": ("tie: shared",),
                       "most_rounds_won,lowest_nonzero_round": ("tie: most rounds won",)}),
        ("positive_scoring", ("winner scores others",)),
    )


def house_line(in_play):
    """The house rules ``in_play`` ([(option, value)], values as in a
    record: shared_engine/house.py ``house``) in short words, as one
    message ("0-0 = 25, out -10, ..."); None when there are none. Options
    with no words here (the set, the rounds: the screens say them
    otherwise) are left out."""
    parts = []
    given = dict(in_play)
    for key, m in _short():         # in the order: 0-0 first, the tie-break last
        v = given.get(key)
        if v is None:
            continue
        if isinstance(m, dict):
            m = m.get(v)
        elif "{" in m[0]:
            m = (m[0], int(v) if v.isdigit() else v)
        if m:
            parts.append(m)
    if not parts:
        return None
    line = parts[-1]
    for p in reversed(parts[:-1]):
        line = ("{rule}, {rules}", p, line)
    return line



def in_play(rules):
    """[(option, value)] of a game's ``rules`` (presets.Rules) that are not
    its preset's own, from the options its record gives: each house rule's
    default is off ("0", "no", "any") but the three the presets set
    (drawn_tile, tie_break, positive_scoring: presets.PRESETS) and 0-0's
    value (50 in chickenfoot-cross), which the engine resolves. Not the
    engine's table (shared_engine/house.py ``house``, which says the same:
    tests/firmware/test_house_setup.py): at a game's end on the board's
    heap there was no room left to load it."""
    from shared_engine.presets import PRESETS
    preset = PRESETS[rules.name]
    out = []
    for key, _ in _short():
        if key == "double_blank":
            v = str(rules.double_blank)
            d = "50" if preset.get("double_blank_50") == "yes" else "0"
        else:
            v = rules.given.get(key)
            d = preset.get(key) or ("any" if key == "double_cover" else "0" if v and v[0] in "0123456789" else "no")
        if v is not None and v != d:
            out.append((key, v))
    return out


def line(g):
    """The house rules a game plays that its preset does not, in short
    words, or None; None at once for a game whose record gives no option
    but the set and the rounds. Kept on the game once made (a board on USB
    keeps its game between presses): its end screen, drawn on the heap the
    game's last score line left, had no room to make it again."""
    made = getattr(g, "house_line", 0)
    if made == 0:
        made = None
        r = g.rules
        for k in r.given:
            if k != "set" and k != "rounds":
                made = house_line(in_play(r))
                break
        g.house_line = made
    return made
