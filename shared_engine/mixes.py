"""House rules for simulated games: every rule on, and random mixes (the
tests of both interpreters and the benchmarks play them). Never flashed,
as shared_engine/simulate.py: the board plays what its set-up chose.
"""

from shared_engine.simulate import Rng

# Every house rule of RULES.md at a value that is not its default, for the
# presets it applies to (positive_scoring aside: out_bonus, double_out and
# blocked_cap are for tables where the lowest total wins). The target is
# high enough for a whole game to be played out: a benchmark's largest
# game under every rule is still its longest.
EVERY_RULE = (
    ("double_blank", "25"), ("blank_end", "5"), ("doubles_count_double", "yes"),
    ("out_bonus", "10"), ("double_out", "50"), ("open_train", "10"),
    ("unsatisfied_double", "10"), ("blocked_cap", "yes"), ("skip_missing_doubles", "yes"),
    ("call_last_tile", "2"), ("first_turn_run", "yes"), ("voluntary_pass", "yes"),
    ("no_draw_end", "yes"), ("target_score", "9999"), ("drawn_tile", "until"),
    ("double_cover", "own"), ("tie_break", "most_outs"),
)
# The values a random mix draws from, a rule at a time.
_MIX = (
    ("double_blank", ("0", "25", "50")), ("blank_end", ("0", "5", "10")),
    ("doubles_count_double", ("no", "yes")), ("out_bonus", ("0", "5", "10")),
    ("double_out", ("0", "50")), ("open_train", ("0", "10")),
    ("unsatisfied_double", ("0", "5", "10")), ("blocked_cap", ("no", "yes")),
    ("skip_missing_doubles", ("no", "yes")), ("call_last_tile", ("0", "1", "2")),
    ("first_turn_run", ("no", "yes")), ("voluntary_pass", ("no", "yes")),
    ("no_draw_end", ("no", "yes")), ("target_score", ("0", "100", "250")),
    ("drawn_tile", ("must", "may", "until")), ("double_cover", ("any", "own")),
    ("tie_break", ("shared", "most_rounds_won,lowest_nonzero_round", "most_outs")),
    ("positive_scoring", ("no", "yes")),
)
# The rules of one preset only (house.py's table says the same).
_ONLY = {"open_train": ("mexican-train",), "first_turn_run": ("mexican-train",),
         "double_cover": ("mexican-train",), "positive_scoring": ("mexican-train",),
         "skip_missing_doubles": ("chickenfoot-cross", "mexican-train")}
_LOWEST_WINS = ("out_bonus", "double_out", "blocked_cap")


def every_rule(rules):
    """The options of ``rules`` (a preset's name) with every house rule on."""
    return dict((k, v) for k, v in EVERY_RULE if rules in _ONLY.get(k, (rules,)))


def mix(rules, seed):
    """A random mix of house rules for ``rules``, the same for ``seed`` on
    every interpreter (the simulator's own generator)."""
    rng = Rng(seed * 7919 + 17)
    out = {}
    for k, values in _MIX:
        if rules in _ONLY.get(k, (rules,)):
            out[k] = values[rng.below(len(values))]
    if out.get("positive_scoring") == "yes":
        for k in _LOWEST_WINS:
            out[k] = "no" if k == "blocked_cap" else "0"
    return out
