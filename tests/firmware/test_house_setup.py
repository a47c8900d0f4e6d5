"""The set-up's House rules page (firmware/flows/house.py), run on CPython
as the test planner runs the flows: per preset, the last game's rules
offered first, the table's named sets (roster.json "sets"), the rows that
apply, and a game that records the rules that are not the preset's own."""

from firmware import core
from firmware.flows import house, setup, rule_sets
from firmware.storage import Storage
from firmware.flows.rules_line import house_line, _short
from shared_engine import fill

from planner import press_all


def _ctx(tmp_path, roster=None, settings=None):
    st = Storage(str(tmp_path))
    st.ensure_dirs()
    st.write_json("roster.json", roster or {"names": ["Ann", "Bob", "Cy"]})
    if settings is not None:
        st.write_json("settings.json", settings)
    return core.Ctx(store=st)


def _to_house_page(ctx, preset):
    at = core.view(ctx, {"s": "setup"})[1]["cursor"]         # the last game's preset
    ui, _ = press_all(ctx, {"s": "setup"}, ["DOWN"] * ((preset - at) % 4) + ["A", "A"]
                   + ["DOWN"] * rule_sets.OPTIONS_ROW)
    assert core.view(ctx, ui)[1]["labels"][1] == ("Open",)
    ui, _ = press_all(ctx, ui, ["B"])
    assert ui["s"] == "house" and core.kind(ctx, ui) == "house"
    return ui


def _items(ctx, ui):
    return [(fill(label), fill(value) if not isinstance(value, str) else value)
            for label, value in core.view(ctx, ui)[1]["items"]]


def test_the_rows_are_the_presets_own():
    for preset, rows in (("chickenfoot", 13), ("chickenfoot-cross", 14), ("chicken-scratch", 13),
                         ("mexican-train", 18)):
        keys = [r[0] for r in house.rows(preset)]
        assert len(keys) == rows, (preset, keys)
        assert ("open_train" in keys) == ("first_turn_run" in keys) == (preset == "mexican-train")


def test_a_named_set_is_picked_and_played(tmp_path):
    ctx = _ctx(tmp_path, {"names": ["Ann", "Bob", "Cy"], "sets": [
        {"name": "Thursday club", "rules": "mexican-train",
         "options": {"positive_scoring": "yes", "drawn_tile": "may"}},
        {"name": "Cross club", "rules": "chickenfoot-cross", "options": {}}]})
    ui = _to_house_page(ctx, 3)
    items = _items(ctx, ui)
    assert items[0] == ("Rule set", "standard")
    assert ("Winner scores others", "no") in items and ("Drawn tile", "must play") in items
    ui, _ = press_all(ctx, ui, ["B"])          # the next set: the table's (the other is Cross's)
    items = _items(ctx, ui)
    assert items[0] == ("Rule set", "Thursday club")
    assert ("Winner scores others", "yes") in items and ("Drawn tile", "may play") in items
    assert fill(core.view(ctx, ui)[1]["note"]) == "2 house rules"
    ui, _ = press_all(ctx, ui, ["B"])          # and round again
    assert _items(ctx, ui)[0] == ("Rule set", "standard")
    ui, _ = press_all(ctx, ui, ["B", "A"])     # Thursday club, back to the options page
    assert ui["s"] == "setup" and ui["c"] == rule_sets.OPTIONS_ROW
    assert core.view(ctx, ui)[1]["items"][rule_sets.OPTIONS_ROW][1] == "Thursday club"
    ui, act = press_all(ctx, ui, ["A"])
    assert act[0] == "new"
    tags = act[1]
    assert ("Option", ["drawn_tile", "may"]) in tags and ("Option", ["positive_scoring", "yes"]) in tags
    assert act[2]["house"] == {"mexican-train": {"drawn_tile": "may", "positive_scoring": "yes"}}


def test_a_changed_row_makes_the_set_the_tables_own(tmp_path):
    ctx = _ctx(tmp_path)
    ui = _to_house_page(ctx, 1)             # Chicken Foot Cross
    rows = [r[0] for r in house.rows("chickenfoot-cross")]
    assert _items(ctx, ui)[1 + rows.index("double_blank")] == ("0-0 in a hand counts", "50")
    ui, _ = press_all(ctx, ui, ["DOWN"] * (1 + rows.index("tie_break")) + ["B"])
    items = _items(ctx, ui)
    assert items[0] == ("Rule set", "own") and items[1 + rows.index("tie_break")] == ("Tie-break", "most outs")
    ui, _ = press_all(ctx, ui, ["B"])          # round to shared
    assert fill(core.view(ctx, ui)[1]["note"]) == "1 house rule"
    ui, act = press_all(ctx, ui, ["C", "A"])   # back (C keeps the changes), start
    assert ("Option", ["tie_break", "shared"]) in act[1]
    assert act[2]["house"] == {"chickenfoot-cross": {"tie_break": "shared"}}


def test_the_last_games_rules_are_offered_first_for_their_preset(tmp_path):
    last = {"pr": 3, "pl": [0, 1], "o": {}, "t": "quick",
            "house": {"mexican-train": {"positive_scoring": "yes"}, "chickenfoot": {}}}
    ctx = _ctx(tmp_path, settings={"last": last})
    ui = _to_house_page(ctx, 3)
    assert _items(ctx, ui)[0] == ("Rule set", "last game")
    assert ("Winner scores others", "yes") in _items(ctx, ui)
    # the preset changed on the first page: that preset's last game's rules
    ui, _ = press_all(ctx, {"s": "setup"}, ["UP", "A", "A"])  # Chicken Scratch: no last game of it
    assert core.view(ctx, ui)[1]["items"][rule_sets.OPTIONS_ROW][1] == ("standard",)
    ui = setup._with_house(ctx, ui)
    assert ui["rules_set"] == rule_sets.STANDARD and ui["house"] == {}
    ui, act = press_all(ctx, {"s": "setup"}, ["A", "A", "A"])
    assert ("Option", ["positive_scoring", "yes"]) in act[1]
    # the next game keeps each preset's last rules
    assert act[2]["house"]["chickenfoot"] == {} and act[2]["house"]["mexican-train"] == {
        "positive_scoring": "yes"}


def test_an_older_boards_last_options_become_its_house_rules(tmp_path):
    """A board's settings from before the House rules page kept "0-0 counts
    50" among the options: the last game's house rule of its preset now."""
    ctx = _ctx(tmp_path, settings={"last": {"pr": 0, "pl": [0, 1], "o": {"double_blank_50": "yes"},
                                            "t": "quick"}})
    ui = setup._with_house(ctx, press_all(ctx, {"s": "setup"}, ["A", "A"])[0])
    assert ui["house"] == {"double_blank": "50"} and ui["rules_set"] == rule_sets.LAST
    assert "double_blank_50" not in ui["o"]


def test_the_line_of_rules_in_play():
    from shared_engine.engine import Game
    from firmware.flows.rules_line import line as game_rules
    assert game_rules(Game("chickenfoot", ["Ann", "Bob"], {"rounds": "9 8"})) is None
    assert game_rules(Game("chickenfoot-cross", ["Ann", "Bob"], {"double_blank": "50"})) is None
    g = Game("chickenfoot", ["Ann", "Bob"], {"double_blank": "25", "out_bonus": "10", "tie_break": "most_outs"})
    line = game_rules(g)
    assert fill(line) == "0-0 = 25, out -10, tie: most outs"
    assert line[1] == ("0-0 = {n}", 25)
    assert house_line([("set", "12"), ("hand_size", "9")]) is None     # said elsewhere


def test_the_rules_line_says_what_the_engines_table_says():
    """The line's own reading of a game's options (flows/rules_line.py
    ``in_play``) against the engine's (shared_engine/house.py ``house``),
    for every preset, every rule at each of the board's steps, and an older
    record's double_blank_50."""
    from shared_engine import house as table
    from shared_engine.engine import Game
    from firmware.flows.rules_line import in_play
    for preset in table.NAMES:
        n = 4 if preset != "chickenfoot-cross" else 3
        mixes = [{}, {"double_blank_50": "yes"}, {"double_blank_50": "no"}]
        for key, _, values in house.rows(preset):
            mixes += [{key: v} for v in values]
        for options in mixes:
            try:
                g = Game(preset, ["A", "B", "C", "D"][:n], options)
            except ValueError:
                continue        # (the engine refuses a mix the board never makes)
            words = [kv for kv in table.house(g.rules) if kv[0] in dict(_short())]
            assert in_play(g.rules) == words, (preset, options)


def test_the_boards_steps_are_values_the_engine_takes():
    from shared_engine import house as table
    for key, label, values in house.ROWS:
        row = table.option(key)
        assert row is not None, key
        for v in values:
            assert table.check(row, v) is None, (key, v)
        for preset in table.NAMES:
            if table.applies(row, preset):
                assert table.default(row, preset) in values, (key, preset)


def test_every_word_of_the_page_is_a_message_of_the_catalogue(tmp_path):
    from pipkeeper.i18n.catalogue import en

    def messages(m):
        if isinstance(m, tuple):
            yield m[0]
            for v in m[1:]:
                yield from messages(v)

    for key, label, values in house.ROWS:
        assert label[0] in en.MESSAGES
        for v in values:
            for t in messages(house.shown(v)):
                assert t in en.MESSAGES, t
    for key, say in _short():
        for m in (say.values() if isinstance(say, dict) else (say,)):
            assert m[0] in en.MESSAGES, m
    for t in ("last game", "standard", "own", "Rule set", "House rules: {rules}", "House rules",
              "The preset's own rules", "Open", "{rule}, {rules}"):
        assert t in en.MESSAGES, t
