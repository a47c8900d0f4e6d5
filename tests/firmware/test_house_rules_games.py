"""A game under each house rule (issue 31), entered on the simulated board
in quick and in full tracking, replays on the laptop to the same sheet.

For each rule: a simulated game with that rule on (shared_engine.simulate,
whose bots play every rule), the presses that make the board record it
(planner.py: the House rules page at set-up, the score entry's fields, the
dealer's skipped doubles, the menu's missed call), played on the real
firmware on the unix port (the board's 160 KB heap); then the board's own
sheet (B on the end screen: the words the screen drew) against `pipkeeper
replay --json` of the record it wrote: every round's scores, the totals
and the winners. One round a game (two where the rule is about the game's
end), so every row of the sheet is on the screen."""

import json
import os
import subprocess
import sys

import pytest

from planner import plan_game
from fwkit import record_of

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# rule: (the preset, players, seed) of its game; the rule's value is the
# bench's (pipkeeper.bench.firmware RULE_VALUES: one the House rules page
# offers, the planner presses B to it)
GAMES = {
    "double_blank": ("chicken-scratch", 3, 2),
    "blank_end": ("chicken-scratch", 3, 1),
    "doubles_count_double": ("chicken-scratch", 3, 2),
    "out_bonus": ("chicken-scratch", 3, 1),
    "double_out": ("mexican-train", 3, 2),
    "open_train": ("mexican-train", 3, 1),
    "unsatisfied_double": ("mexican-train", 3, 1),
    "blocked_cap": ("chicken-scratch", 3, 2),
    "skip_missing_doubles": ("chickenfoot-cross", 4, 3),
    "call_last_tile": ("chicken-scratch", 3, 2),
    "first_turn_run": ("mexican-train", 3, 1),
    "voluntary_pass": ("chicken-scratch", 3, 1),
    "no_draw_end": ("chicken-scratch", 3, 1),
    "target_score": ("chicken-scratch", 3, 1),
    "drawn_tile": ("chicken-scratch", 3, 1),
    "double_cover": ("mexican-train", 3, 1),
    "tie_break": ("chicken-scratch", 3, 1),
}
# the rules about the game's end play two rounds: the first may decide it
TWO_ROUNDS = ("tie_break", "skip_missing_doubles")


def _options(preset, rule):
    """The game's options: the rule, one round (two where the rule is about
    the game's end), Mexican Train on a double-9 set (the options page's
    Set row: fewer tiles, a shorter game, less of the board's heap)."""
    from shared_engine.presets import Rules
    from pipkeeper.bench.firmware import RULE_VALUES
    out = {rule: RULE_VALUES[rule]}
    if preset == "mexican-train":
        out["set"] = "9"
    top = Rules(preset, 3, out).top
    out["rounds"] = " ".join(str(top - i) for i in range(2 if rule in TWO_ROUNDS else 1))
    return out


def _sheet_words(frame):
    """The board's sheet as drawn: {"rows": [[label, scores...]], "totals": [...]}
    from the words of its frame (firmware/screens/sheet.py lays the rounds'
    rows out under the names, "Tot" before the totals)."""
    lines = {}
    for x, y, h, c, t, _ in frame.words["t"]:       # (x after it: main's words)
        if isinstance(t, str):
            lines.setdefault(y, []).append((x, t))
        elif t == ["Tot"]:
            lines.setdefault(y, []).append((x, "Tot"))
    rows, totals = [], None
    for y in sorted(lines):
        cells = [t for x, t in sorted(lines[y])]
        if cells and cells[0] == "Tot":
            totals = [int(v) for v in cells[1:]]
        elif cells and "-" in cells[0] and cells[0].split("-")[0].isdigit():
            rows.append([int(v) for v in cells[1:]])
    return rows, totals


def _board_game(tmp_path, rule, tracking):
    """Play the rule's game on the simulated board: (its record, the sheet
    it shows, the winners' names on its end screen)."""
    from pipkeeper.sim.unix import Sim
    preset, n, seed = GAMES[rule]
    presses, evs, planner = plan_game(preset, n, seed, tracking, _options(preset, rule))
    folder = tmp_path / ("%s-%s" % (rule, tracking))
    sim = Sim(str(folder), power_cycle=True)
    try:
        sim.start()
        for b in presses:
            sim.press(b)
    finally:
        sim.close()
    # The end screen and its sheet, read by a board powered on again with
    # the words of its frames recorded: on a heap of its own, as the
    # recording costs heap (not during the game, played on the board's).
    sim = Sim(str(folder), words=True, heap="512K")
    try:
        end = sim.start()[-1]
        sheet = sim.press("B")[-1]          # the end screen's Sheet
    finally:
        sim.close()
    assert not (folder / "log.txt").exists(), (folder / "log.txt").read_text()
    names = []
    for x, y, h, c, t, _ in end.words["t"]:
        # the winners' line: their names joined by " & " (firmware/screens/end.py)
        if isinstance(t, str) and y < 30 and all(p in planner.players for p in t.split(" & ")):
            names = t.split(" & ")
    return record_of(folder), _sheet_words(sheet), names, planner


def _replayed(tmp_path, text):
    path = tmp_path / "record.dgn"
    path.write_text(text, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "host")]))
    r = subprocess.run([sys.executable, "-m", "pipkeeper", "replay", "--json", str(path)],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads(r.stdout.splitlines()[-1])


def test_every_rule_has_its_game():
    from pipkeeper.bench.firmware import RULE_VALUES
    assert sorted(GAMES) == sorted(RULE_VALUES)


@pytest.mark.parametrize("rule", sorted(GAMES))
def test_a_game_under_the_rule_replays_to_the_boards_sheet(tmp_path, rule):
    for tracking in ("quick", "full"):
        text, (rows, totals), winners, planner = _board_game(tmp_path, rule, tracking)
        report = _replayed(tmp_path, text)
        from pipkeeper.bench.firmware import RULE_VALUES
        assert report["house_rules"].get(rule) == RULE_VALUES[rule], (rule, report["house_rules"])
        assert report["over"], (rule, tracking)
        assert rows == [r["scores"] for r in report["rounds"]], (rule, tracking, rows, report["rounds"])
        assert totals == report["totals"], (rule, tracking)
        assert sorted(winners) == sorted(report["players"][s - 1] for s in report["winners"]), (
            rule, tracking, winners, report["winners"])
        # and the board's own game (the planner's flows) agrees
        assert totals == planner.ctx.game.totals
