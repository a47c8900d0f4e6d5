"""Every record in the tree, and the ones the tests make, as main replayed
them before the house rules (issue 31): what tests/engine/test_old_records.py
holds the engine to.

The records: every ``.dgn`` under tests/data and tests/engine/fixtures
(tests/data/scripted_game.dgn is what ``pipkeeper sim --script
tests/data/scripted_game.txt`` wrote), and simulated games (every preset
and player count of the bench's corpus, seeds 1 to 6, the bench's bots and
the tests' greedy ones) as the simulator writes them (hands known), as
quick tracking and as the board's full tracking record them.

For each, the golden (tests/data/old_reports.json) keeps a CRC-32 of the
record's text (a simulated game: the simulator still deals and plays the
same game under the presets' defaults) and of its report: the keys main's
report had, as _digest.digest (MicroPython's json has no sort_keys), so
new keys of the report leave it unchanged.

Made with main's engine, from a copy of main (git archive):

    PYTHONPATH=/tmp/pk-main python tests/engine/_old_records.py > tests/data/old_reports.json

Plain functions, the same on both interpreters.
"""

from binascii import crc32

from _digest import digest

# the checkout's root (this file is tests/engine/_old_records.py)
ROOT = (__file__.rsplit("/", 1)[0] if "/" in __file__ else ".") + "/../.."


def read(path):
    # _check.read_text's twin: importing _check would hold all its code on
    # the unix port's heap beside the simulated games
    f = open(path)
    try:
        return f.read()
    finally:
        f.close()

# The keys of main's report (FORMAT.md and DECISIONS.md) at 3880ec1.
TOP = ("rules", "players", "options", "rounds", "totals", "over", "stopped", "winners",
       "tie_break", "redeals", "next_double", "state", "warnings")
ROUND = ("double", "scores", "pips", "holds_double_blank", "out", "winners", "corrected",
         "original")
STATE = ("round", "lead", "to_move", "hands", "yard", "drawable", "trains_needed",
         "toes_needed", "open_ends", "trains", "markers", "open_double", "drew",
         "awaiting_score", "out", "blocked")
OPTIONS = ("set", "hand_size", "start_trains", "lead_plays_centre", "drawn_tile",
           "yard_reserve", "double_blank_50", "rounds", "tie_break", "positive_scoring")

CORPUS = (
    ("chickenfoot", (2, 4, 8)),
    ("chickenfoot-cross", (2, 4, 7)),
    ("chicken-scratch", (2, 4, 5)),
    ("mexican-train", (2, 4, 8, 10)),
)
SEEDS = (1, 2, 3, 4, 5, 6)
BOTS = ("greedy", "mixed")
FORMS = ("hands", "quick", "board")

FILES = (
    "tests/data/format_example.dgn",
    "tests/data/paper_sheet_tiebreak.dgn",
    "tests/data/scripted_game.dgn",
    "tests/engine/fixtures/perft/cf_after_draw_fits.dgn",
    "tests/engine/fixtures/perft/cf_after_draw_misses.dgn",
    "tests/engine/fixtures/perft/cf_after_draw_unknown.dgn",
    "tests/engine/fixtures/perft/cf_foot_pending.dgn",
    "tests/engine/fixtures/perft/cf_foot_pending_known.dgn",
    "tests/engine/fixtures/perft/cf_format_example.dgn",
    "tests/engine/fixtures/perft/cf_quick_foot.dgn",
    "tests/engine/fixtures/perft/cf_quick_start.dgn",
    "tests/engine/fixtures/perft/cf_start_known.dgn",
    "tests/engine/fixtures/perft/cf_start_third_train.dgn",
    "tests/engine/fixtures/perft/cf_start_unknown.dgn",
    "tests/engine/fixtures/perft/cross_after_draw_may.dgn",
    "tests/engine/fixtures/perft/cross_start.dgn",
    "tests/engine/fixtures/perft/cross_start_other_hand_known.dgn",
    "tests/engine/fixtures/perft/mx_after_draw.dgn",
    "tests/engine/fixtures/perft/mx_first_turn.dgn",
    "tests/engine/fixtures/perft/mx_first_turn_known.dgn",
    "tests/engine/fixtures/perft/mx_markers.dgn",
    "tests/engine/fixtures/perft/mx_mexican_train.dgn",
    "tests/engine/fixtures/perft/mx_open_double.dgn",
    "tests/engine/fixtures/perft/mx_open_double_passed_on.dgn",
    "tests/engine/fixtures/perft/mx_quick.dgn",
    "tests/engine/fixtures/perft/scratch_chickie.dgn",
    "tests/engine/fixtures/perft/scratch_open_ends.dgn",
    "tests/engine/fixtures/perft/scratch_start.dgn",
)
# A record that does not replay: the golden keeps its error.
REFUSED = ("tests/data/illegal_turn.dgn",)


def _only(d, keys):
    if d is None:
        return None
    out = {}
    for k in keys:
        out[k] = d.get(k)
    return out


def old_view(rep):
    """The report restricted to the keys main's report had."""
    out = _only(rep, TOP)
    out["options"] = _only(rep["options"], OPTIONS)
    out["rounds"] = [_only(r, ROUND) for r in rep["rounds"]]
    out["state"] = _only(rep["state"], STATE)
    return out


def crc(text):
    return "%08x" % (crc32(text.encode()) & 0xFFFFFFFF)


def report_crc(rep):
    return "%08x" % (digest(old_view(rep)) & 0xFFFFFFFF)


def simulated(rules, n, seed, bots, form):
    """(key, record CRC, report CRC) of one simulated game of the corpus.
    No event is kept: each is written as its record's line (for the CRC)
    and read back from that line into a second game as it comes, which is
    the record's replay (on the unix port's 160 KB heap a Mexican Train's
    events, kept, do not fit beside its game)."""
    from shared_engine import dgn
    from shared_engine.engine import Game
    from shared_engine.report import report
    from shared_engine.simulate import Simulation, to_board, to_quick

    names = ["P%d" % (i + 1) for i in range(n)]
    b = ["greedy"] * n if bots == "greedy" else (["greedy", "random"] * 10)[:n]
    sim = Simulation(rules, names, seed, b, keep_events=False)
    sim.game.keep_rounds = 2     # the board's: no whole undo history on the unix port's heap
    conv = to_quick if form == "quick" else to_board if form == "board" else None
    c = [0]
    for line in dgn.lines(sim.tags, ()):
        c[0] = crc32(line.encode(), c[0])
    mirror = Game(rules, names, sim.options)
    mirror.keep_rounds = 2       # the report does not need the undo history
    mirror.warnings = []

    def on_event(_sim, ev):
        for e in ((ev,) if conv is None else conv((ev,))):
            line = dgn.format_event(e)
            c[0] = crc32((line + "\n").encode(), c[0])
            mirror.apply(dgn.parse_event(line))

    sim.on_event = on_event
    sim.run()
    key = "%s-%dp-%d-%s-%s" % (rules, n, seed, bots, form)
    return key, "%08x" % (c[0] & 0xFFFFFFFF), report_crc(report(mirror))


def cases():
    for rules, counts in CORPUS:
        for n in counts:
            for seed in SEEDS:
                for bots in BOTS:
                    for form in FORMS:
                        yield rules, n, seed, bots, form


def golden(root=ROOT):
    """{key: [record CRC, report CRC or the error]}: what main gives."""
    from shared_engine import dgn
    from shared_engine.report import report

    out = {}
    for path in FILES:
        text = read(root + "/" + path)
        out[path] = [crc(text), report_crc(report(dgn.replay(text)))]
    for path in REFUSED:
        text = read(root + "/" + path)
        try:
            dgn.replay(text)
            err = None
        except dgn.RecordError as e:
            err = str(e)
        out[path] = [crc(text), err]
    for case in cases():
        key, text_crc, rep_crc = simulated(*case)
        out[key] = [text_crc, rep_crc]
    return out


if __name__ == "__main__":
    import json
    import sys
    g = golden()
    sys.stdout.write("{\n" + ",\n".join("  %s: %s" % (json.dumps(k), json.dumps(g[k]))
                                         for k in sorted(g)) + "\n}\n")
