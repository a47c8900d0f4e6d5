"""The house rules' options (issue 31): the table of every option
(shared_engine/house.py) and what Rules resolves from it, its checks, the
house rules of a game. The rules themselves are played and scored in
test_house_play.py and test_house_scoring.py."""

from shared_engine import house, report
from shared_engine.presets import NAMES, PRESETS, Rules
from shared_engine.report import HOUSE

from _check import raises

# The options the issue names, with exactly its values.
ISSUE = (
    ("double_blank", "0 25 50"), ("blank_end", "0-50/5"), ("doubles_count_double", "yes no"),
    ("out_bonus", "0-50/5"), ("double_out", "0-100/10"), ("open_train", "0-50/5"),
    ("unsatisfied_double", "0-50/5"), ("blocked_cap", "yes no"),
    ("skip_missing_doubles", "yes no"), ("call_last_tile", "0 1 2"),
    ("first_turn_run", "yes no"), ("voluntary_pass", "yes no"), ("no_draw_end", "yes no"),
    ("target_score", "0-9999/50"), ("drawn_tile", "must may until"),
    ("double_cover", "any own"),
    ("tie_break", "shared most_rounds_won,lowest_nonzero_round most_outs"),
)


def test_the_table_has_every_option_of_the_issue_with_its_values():
    for name, values in ISSUE:
        row = house.option(name)
        assert row is not None, name
        assert row[1] == values, (name, row[1])


def test_the_table_has_every_option_of_the_presets():
    for name in PRESETS["chickenfoot"]:
        if name in ("layout", "centre_in_hand", "hunt", "fixed_order", "min_players",
                    "max_players"):
            continue
        assert house.option(name) is not None, name


def test_rules_resolve_the_tables_defaults():
    # Rules works the house rules' defaults out without the table: they
    # must be the table's, in every preset.
    for name in NAMES:
        n = 4
        plain = Rules(name, n, {})
        every = {}
        for row in house.rows():
            d = house.default(row, name)
            if d is not None:
                every[row[0]] = d
        given = Rules(name, n, every)
        for attr in ("double_blank", "blank_end", "doubles_double", "out_bonus", "double_out",
                     "open_train", "unsatisfied", "blocked_cap", "skip_missing", "call_last",
                     "first_run", "voluntary_pass", "no_draw_end", "target", "cover_own",
                     "draw_until", "drawn_must", "tie_outs", "tie_rounds", "positive", "facts",
                     "top", "hand_size", "start_trains", "reserve", "rounds",
                     "lead_plays_centre"):
            assert getattr(plain, attr) == getattr(given, attr), (name, attr)
        assert house.house(plain) == [] and house.house(given) == []


def test_defaults_per_preset():
    assert Rules("chickenfoot-cross", 4, {}).double_blank == 50
    for name in ("chickenfoot", "chicken-scratch", "mexican-train"):
        r = Rules(name, 4, {})
        assert r.double_blank == 0 and not r.facts and not r.cover_own
    assert house.default(house.option("drawn_tile"), "chickenfoot-cross") == "may"
    assert house.default(house.option("rounds"), "mexican-train") is None


def test_double_blank_and_the_older_double_blank_50():
    assert Rules("chickenfoot", 4, {"double_blank": "25"}).double_blank == 25
    assert Rules("chickenfoot", 4, {"double_blank_50": "yes"}).double_blank == 50
    assert Rules("chickenfoot-cross", 4, {"double_blank_50": "no"}).double_blank == 0
    assert Rules("chickenfoot-cross", 4, {"double_blank": "50", "double_blank_50": "yes"}).db50
    e = raises(ValueError, Rules, "chickenfoot", 4, {"double_blank": "25", "double_blank_50": "yes"})
    assert "disagree" in str(e)
    # the report's options say the same value both ways
    every = report.options(Rules("chickenfoot", 4, {"double_blank": "25"}))
    assert every["double_blank"] == "25" and every["double_blank_50"] == "no"
    every = report.options(Rules("chickenfoot", 4, {"double_blank_50": "yes"}))
    assert every["double_blank"] == "50" and every["double_blank_50"] == "yes"
    assert house.house(Rules("chickenfoot", 4, {"double_blank_50": "yes"})) == [("double_blank", "50")]
    assert house.house(Rules("chickenfoot-cross", 4, {"double_blank_50": "no"})) == [("double_blank", "0")]


def test_a_bad_value_is_refused_naming_the_values_allowed():
    for opts, msg in (
            ({"double_blank": "30"}, "double_blank must be 0, 25 or 50, not '30'"),
            ({"blank_end": "60"}, "blank_end must be a whole number from 0 to 50, not '60'"),
            ({"blank_end": "-5"}, "blank_end must be a whole number from 0 to 50"),
            ({"double_out": "1000000"}, "double_out must be a whole number from 0 to 100"),
            ({"call_last_tile": "3"}, "call_last_tile must be 0, 1 or 2, not '3'"),
            ({"drawn_tile": "often"}, "drawn_tile must be must, may or until, not 'often'"),
            ({"tie_break": "coin"}, "tie_break must be shared, most_rounds_won,lowest_nonzero_round "
                                    "or most_outs, not 'coin'"),
            ({"blocked_cap": "on"}, "blocked_cap must be yes or no, not 'on'"),
            ({"target_score": "ten"}, "target_score must be a whole number from 0 to 9999")):
        e = raises(ValueError, Rules, "chickenfoot", 4, opts)
        assert msg in str(e), (str(e), msg)


def test_a_rule_of_another_preset_only_at_its_default():
    assert Rules("chickenfoot", 4, {"open_train": "0", "double_cover": "any"}).open_train == 0
    e = raises(ValueError, Rules, "chickenfoot", 4, {"open_train": "10"})
    assert str(e) == "open_train is a rule of mexican-train only"
    e = raises(ValueError, Rules, "chicken-scratch", 4, {"skip_missing_doubles": "yes"})
    assert str(e) == "skip_missing_doubles is a rule of chickenfoot-cross and mexican-train only"
    assert Rules("mexican-train", 4, {"first_turn_run": "yes", "double_cover": "own"}).cover_own


def test_the_lowest_wins_rules_are_not_for_positive_scoring():
    for k, v in (("out_bonus", "10"), ("double_out", "50"), ("blocked_cap", "yes")):
        e = raises(ValueError, Rules, "mexican-train", 4, {"positive_scoring": "yes", k: v})
        assert str(e) == "%s is for tables where the lowest total wins: not with positive_scoring" % k
    r = Rules("mexican-train", 4, {"positive_scoring": "yes", "open_train": "10", "target_score": "300"})
    assert r.positive and r.open_train == 10 and r.target == 300


def test_every_rule_on_resolves():
    r = Rules("mexican-train", 4, EVERY_MEX)
    assert (r.double_blank, r.blank_end, r.doubles_double, r.out_bonus, r.double_out,
            r.open_train, r.unsatisfied, r.blocked_cap, r.skip_missing, r.call_last,
            r.first_run, r.voluntary_pass, r.no_draw_end, r.target, r.draw_until,
            r.cover_own, r.tie_outs, r.facts) == (
        25, 5, True, 10, 50, 10, 10, True, True, 2, True, True, True, 500, True, True, True, True)
    assert house.house(r) == [(k, EVERY_MEX[k]) for k in (
        "drawn_tile", "tie_break", "double_blank", "blank_end", "doubles_count_double",
        "out_bonus", "double_out", "open_train", "unsatisfied_double", "blocked_cap",
        "skip_missing_doubles", "call_last_tile", "first_turn_run", "voluntary_pass",
        "no_draw_end", "target_score", "double_cover")]


EVERY_MEX = {
    "double_blank": "25", "blank_end": "5", "doubles_count_double": "yes", "out_bonus": "10",
    "double_out": "50", "open_train": "10", "unsatisfied_double": "10", "blocked_cap": "yes",
    "skip_missing_doubles": "yes", "call_last_tile": "2", "first_turn_run": "yes",
    "voluntary_pass": "yes", "no_draw_end": "yes", "target_score": "500", "drawn_tile": "until",
    "double_cover": "own", "tie_break": "most_outs",
}


def test_ranges_and_steps_for_the_set_up():
    assert house.span("0-50/5") == (0, 50, 5)
    assert house.span("0-9999/50") == (0, 9999, 50)
    assert house.span("0 25 50") is None and house.span("") is None


def test_the_tables_presets_and_defaults_are_the_presets():
    # house.py may not import presets (which loads it): its copies agree.
    assert house.NAMES == NAMES
    for name in NAMES:
        for key in PRESETS[name]:
            row = house.option(key)
            if row is not None:
                assert house.default(row, name) == PRESETS[name][key], (name, key)


def test_the_house_defaults_of_presets_and_report_are_the_tables():
    # report.HOUSE (the report's defaults) against the table; Rules' are
    # held to it by test_rules_resolve_the_tables_defaults
    for name in NAMES:
        for w in HOUSE.split():
            k, _, d = w.partition("=")
            assert house.default(house.option(k), name) == d, (name, k)
    names = [row[0] for row in house.rows()]
    for name in NAMES:
        every = report.options(Rules(name, 4, {}))
        assert sorted(every) == sorted(names)
        for row in house.rows():
            assert every[row[0]] == house.default(row, name), (name, row[0])
