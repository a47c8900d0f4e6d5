"""A whole game in each of the board's languages, pressed on the buttons in
`pipkeeper sim --script`: the language chosen at set-up on the board (the
options page's last row), the record tagged with it, every frame drawn
without a fault; and the board's setting followed when nobody changes it
(`pipkeeper roster --lang` writes that setting)."""

import os
import subprocess
import sys

import pytest

from pipkeeper import i18n
from planner import plan_game

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GAME = ("chicken-scratch", 2, 5, {"rounds": "6"})     # a short whole game: one round


def _sim(tmp_path, presses, frames=True):
    script = tmp_path / "script.txt"
    script.write_text("\n".join(presses) + "\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([ROOT, os.path.join(ROOT, "host"), env.get("PYTHONPATH", "")])
    args = [sys.executable, "-m", "pipkeeper", "sim", "--dir", str(tmp_path / "flash"),
            "--script", str(script), "-q"]
    if frames:
        args += ["--frames", str(tmp_path / "frames")]
    r = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return r


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_whole_game_in_each_language(tmp_path, lang):
    from shared_engine import dgn
    rules, n, seed, options = GAME
    presses, evs, planner = plan_game(rules, n, seed, "quick", options, lang=lang)
    _sim(tmp_path, presses)
    assert not (tmp_path / "flash" / "log.txt").exists(), (tmp_path / "flash" / "log.txt").read_text()
    text = (tmp_path / "flash" / "games" / "0001.dgn").read_text(encoding="utf-8")
    rec = dgn.read(text)
    assert rec.tag("Lang") == [lang]
    assert [ev for _, ev in rec.events] == evs
    assert dgn.replay(text).over
    frames = sorted(os.listdir(tmp_path / "frames"))
    assert len(frames) == len(presses) + 1
    assert (tmp_path / "flash" / "pipkeeper" / "settings.json").read_text().count('"%s"' % lang)


def test_the_boards_setting_is_the_set_ups_language(tmp_path):
    """settings.json "lang" (the board's language, from the last set-up or
    `pipkeeper roster --lang`) is offered at set-up and speaks the game."""
    (tmp_path / "flash" / "pipkeeper").mkdir(parents=True)
    (tmp_path / "flash" / "pipkeeper" / "settings.json").write_text('{"lang": "mn"}')
    rules, n, seed, options = GAME
    presses, evs, _ = plan_game(rules, n, seed, "quick", options)   # nobody touches the language
    _sim(tmp_path, presses, frames=False)
    text = (tmp_path / "flash" / "games" / "0001.dgn").read_text(encoding="utf-8")
    assert '[Lang "mn"]' in text.splitlines()
