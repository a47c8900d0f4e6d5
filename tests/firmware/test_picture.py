"""The picture on the panel (firmware/picture.py, issue 33) on the unix-port
sim: the full refresh inside a round comes where the count of erased pixels
asks, and only then (none with the players' "fast" setting); a cold boot
takes the picture it left on the panel from its resting mark, and only a
mark that matches (a mark that does not, or none after a power cut, gives
a full refresh). What the emulated panel makes of the updates (only the
pixels that change driven, no wrong drives) is tests/device/test_panel.py's."""

import json

from pipkeeper.bench.device import in_rounds
from pipkeeper.sim import unix as sim

from firmware.picture import ERASED_LIMIT

SETUP = 11          # the script's set-up presses (the 11th starts the game)
ROUND_ONE = 90      # presses: the set-up and the first round, scored


def _script():
    from pipkeeper.bench.device import _script
    return _script()


def _erased(old, new):
    return sum(bin(a & ~b & 0xFF).count("1") for a, b in zip(old, new))


def _game(folder, mpy_tree, presses, settings=None):
    """(frames of each press, whether each is inside a round) on USB."""
    if settings:
        (folder / "pipkeeper").mkdir(parents=True)
        (folder / "pipkeeper" / "settings.json").write_text(json.dumps(settings))
    s = sim.Sim(str(folder), src=mpy_tree)
    try:
        first = s.start()
        steps = [s.press(b) for b in presses]
    finally:
        s.close()
    return first, steps


def test_a_full_refresh_inside_a_round_comes_where_the_erased_pixels_ask(tmp_path, mpy_tree):
    presses = _script()[:ROUND_ONE]
    inside = in_rounds()[:ROUND_ONE]
    first, steps = _game(tmp_path, mpy_tree, presses)
    shown = first[-1].data
    count = 0
    asked = 0
    for frames, in_round in zip(steps, inside):
        assert len(frames) == 1
        f = frames[0]
        e = _erased(shown, f.data)
        if in_round:
            # full exactly where the count reaches the limit (a press that
            # leaves the round's screen may be full for that reason: none here)
            assert f.full == (count + e >= ERASED_LIMIT), (count, e)
            asked += f.full
        count = 0 if f.full else count + e
        shown = f.data
    # the first round (71 moves) asked for one or two, where one every 24
    # moves made three
    assert 1 <= asked <= 2, asked


def test_the_fast_setting_leaves_out_the_full_refresh_inside_a_round(tmp_path, mpy_tree):
    presses = _script()[:ROUND_ONE]
    inside = in_rounds()[:ROUND_ONE]
    _first, steps = _game(tmp_path, mpy_tree, presses, {"refresh": "fast"})
    assert not any(f.full for frames, i in zip(steps, inside) if i for f in frames)
    # the round's boundaries keep theirs (the game's start is one)
    assert steps[SETUP - 1][0].full


def test_a_cold_boot_takes_its_resting_picture_from_a_mark_that_matches(tmp_path, mpy_tree):
    folder = tmp_path / "bat"
    s = sim.Sim(str(folder), power_cycle=True, awake=True, src=mpy_tree)
    mark = folder / "pipkeeper" / "rest"
    try:
        s.start()                                  # the set-up: the board cuts its power
        assert s.halted and mark.exists()
        assert not s.press("DOWN")[0].full         # its picture known: a fast update
        assert mark.exists()                       # (written again at this press's power-off)
        crc, count = mark.read_text().split()
        mark.write_text("%d %s" % ((int(crc) + 1) & 0xFFFFFFFF, count))
        assert s.press("DOWN")[0].full             # a mark of another picture: a full refresh
        mark.unlink()                              # a power cut: no mark
        assert s.press("UP")[0].full
        assert not s.press("UP")[0].full
    finally:
        s.close()
