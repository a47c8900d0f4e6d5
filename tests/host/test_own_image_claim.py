"""What the scorer's own image is said to gain (issue 32, item 17): the
README said "nearly five times as fast", `firmware --help` "about twice",
and `flash` pointed even the simulated board at it ("a board twice as
fast"). One claim, the measured figures (docs/PERFORMANCE.md), in every
place; the hint only where the image can run."""

import re
from pathlib import Path

from click.testing import CliRunner

from boardkit import ROOT, run_cli, virtual_board
from pipkeeper import cli
from pipkeeper.board.flash import FlashResult
from pipkeeper.commands.flash import own_image_hint
from pipkeeper.image.build import SPEED


def _words(text):
    return " ".join(text.replace("`", "").split())


def test_one_claim_with_its_figures_everywhere():
    readme = _words(Path(ROOT, "README.md").read_text())
    assert readme.count(SPEED) >= 2                      # the commands' table and the section
    help_text = CliRunner().invoke(cli.main, ["firmware", "--help"], prog_name="pipkeeper").output
    assert SPEED in _words(help_text)
    performance = _words(Path(ROOT, "docs", "PERFORMANCE.md").read_text())
    for figure in ("474.9 ms", "98.7 ms", "50.4 / 277.3 ms", "23.1 / 92.6 ms"):
        assert figure in performance                     # where the figures come from
    said = [Path(ROOT, "README.md"), Path(ROOT, "hardware", "README.md")] + \
        sorted(Path(ROOT, "docs").glob("*.md")) + sorted(Path(ROOT, "host", "pipkeeper").rglob("*.py"))
    for path in said:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(twice|five times|\btimes) as fast", text, re.I), path


def _result(**kw):
    r = FlashResult()
    r.board = "badger2040"
    for key, value in kw.items():
        setattr(r, key, value)
    return r


def test_the_hint_is_for_a_board_that_can_run_the_image():
    hint = own_image_hint(_result())
    assert hint is not None and SPEED in hint and "pipkeeper firmware" in hint
    assert own_image_hint(_result(simulated=True)) is None         # the laptop's speed, not a board's
    assert own_image_hint(_result(board="badger2040w")) is None     # no image is made for it
    assert own_image_hint(_result(dry_run=True)) is None
    assert own_image_hint(_result(image={"board": "badger2040"})) is None   # it runs it already


def test_flash_on_the_simulated_board_does_not_point_at_the_image(tmp_path, cache):
    root = tmp_path / "board"
    (root / "games").mkdir(parents=True)
    with virtual_board(root, bare=True) as board:
        code, out, err = run_cli("flash", env={"PIPKEEPER_PORT": board.port})
    assert code == 0, err
    assert "copied" in out and "own image" not in out + err and "as fast" not in out + err
