"""A whole game in each of the six languages on the emulated RP2040, the
language chosen at set-up on the board's buttons: the same frames as the
unix-port sim's, press by press, and the record tagged with its language.

One short game a language (chicken-scratch, two players, one round: some
40 presses) on a fresh copy of the flashed board, on the upstream image
only, to keep the suite's time."""

import os
import sys

import pytest

import devkit

sys.path.insert(0, os.path.join(devkit.ROOT, "tests", "firmware"))

from planner import plan_game  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]
LANGS = ("en", "cy", "ga", "sv", "mn", "fa")
GAME = ("chicken-scratch", 2, 5, {"rounds": "6"})


def test_a_whole_game_in_each_language(device, golden, mpy_tree, tmp_path):
    from pipkeeper.board import flashfs
    from shared_engine import dgn
    if devkit.is_pimoroni(device):
        pytest.skip("the languages' games run on the upstream image only (the suite's time)")
    rules, n, seed, options = GAME
    for lang in LANGS:
        presses, evs, _ = plan_game(rules, n, seed, "quick", options, lang=lang)
        board = devkit.new_board(tmp_path / lang, image=golden)
        try:
            steps = devkit.play(board, presses)
            devkit.off(board)
        finally:
            board.close()
        sim = devkit.sim_frames(tmp_path / (lang + "-sim"), presses, mpy_tree)
        where = devkit.first_difference(steps, sim)
        assert where is None, "%s: step %d: %s" % (lang, where[0], where[1])
        image = devkit.image_of(board)
        text = flashfs.read(str(image), "/games/0001.dgn").decode("utf-8")
        rec = dgn.read(text)
        assert rec.tag("Lang") == [lang]
        assert [ev for _, ev in rec.events] == evs
        assert dgn.replay(text).over
