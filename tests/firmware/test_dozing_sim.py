"""On battery during a game the board keeps its power and sleeps between
presses; after the idle minutes it draws its resting screen (where the UI
is elsewhere) and cuts its power; on the screens that wait for no one
(set-up, History, the end of a game) it cuts its power at once
(firmware/app.py ``awake_ms``, ``rest``; issue 23).

The unix-port sim models it (firmware/board_sim.py): on battery, where the
board would doze it says so (``S``, with the time-out) and takes the next
press from the same process (``Sim(awake=True)``), the line ``IDLE`` being
the time-out. The emulated RP2040 runs the same on a real chip's sleep
(tests/device/test_awake.py)."""

import json

from pipkeeper.sim import unix as sim

SCRIPT = "tests/data/scripted_game.txt"
SETUP = 11          # the script's set-up presses (the 11th starts the game)
MINUTE = 60000


def _script():
    from pipkeeper.paths import repo_root
    return sim.parse_script((repo_root() / SCRIPT).read_text())


def _play(s, presses):
    """[(frames, "S" dozing / "H" halted)] of each press."""
    out = []
    for b in presses:
        frames = s.press(b)
        out.append((frames, "S" if s.dozing else ("H" if s.halted else "?")))
    return out


def test_a_game_on_battery_is_played_awake(tmp_path, mpy_tree):
    """The scripted game on battery: the set-up's presses end in a cut,
    every press of the game in a doze of 5 minutes (the default), the last
    (the game's end) in a cut again; and the board shows what it shows on
    USB, frame for frame, full refreshes the same."""
    presses = _script()
    usb = sim.Sim(str(tmp_path / "usb"), src=mpy_tree)
    try:
        theirs = [usb.start()] + [usb.press(b) for b in presses]
    finally:
        usb.close()
    s = sim.Sim(str(tmp_path / "bat"), power_cycle=True, awake=True, src=mpy_tree)
    try:
        first = s.start()
        assert s.halted      # a fresh board: the set-up waits for no one
        steps = _play(s, presses)
        assert s.doze_ms == 5 * MINUTE
    finally:
        s.close()
    states = "".join(st for _f, st in steps)
    assert states == "H" * (SETUP - 1) + "S" * (len(presses) - SETUP) + "H", states
    ours = [first] + [f for f, _st in steps]
    for k, (a, b) in enumerate(zip(ours, theirs)):
        assert [(f.data, f.full) for f in a] == [(f.data, f.full) for f in b], "step %d" % k


def test_the_idle_time_out_rests_then_cuts_the_power(tmp_path, mpy_tree):
    """A menu left open: at the time-out the board draws the game's own
    screen (the one before the menu) and cuts its power; with the UI at
    rest it draws nothing. The next press is a cold boot that carries on."""
    presses = _script()
    s = sim.Sim(str(tmp_path), power_cycle=True, awake=True, src=mpy_tree)
    try:
        s.start()
        steps = _play(s, presses[:SETUP + 3])
        assert steps[-1][1] == "S"
        resting = steps[-1][0][-1]
        menu = s.press("DOWN")               # the menu, left open
        assert s.dozing and menu[-1].data != resting.data
        back = s.idle_out()
        assert s.halted and len(back) == 1 and back[0].data == resting.data
        # The next press powers the board on: the game goes on from its record.
        s.press("DOWN")
        assert s.dozing
        s.press("C")                         # back from the menu: the UI at rest
        assert s.idle_out() == [] and s.halted
    finally:
        s.close()


def test_history_cuts_the_power_at_once(tmp_path, mpy_tree):
    """History waits for no one: the board cuts its power as it shows it;
    back in the game it dozes again."""
    presses = _script()
    s = sim.Sim(str(tmp_path), power_cycle=True, awake=True, src=mpy_tree)
    try:
        s.start()
        _play(s, presses[:SETUP + 3])
        steps = _play(s, ["DOWN", "UP", "UP", "UP", "A"])   # the menu's History (the 3rd from its end)
        assert [st for _f, st in steps] == ["S", "S", "S", "S", "H"]
        assert _play(s, ["C"])[0][1] == "S"
    finally:
        s.close()


def test_the_idle_minutes_are_a_board_setting(tmp_path, mpy_tree):
    """The options page's last row sets the minutes (0: a cut after every
    press, as before); they go to settings.json, never into the record's
    tags; `pipkeeper roster --option idle=N` writes the same setting, and the
    next set-up offers it."""
    presses = _script()
    setup = presses[:SETUP - 1]
    assert setup[-3:] == ["DOWN", "B", "B"]   # the options page, its cursor on Rounds
    s = sim.Sim(str(tmp_path / "zero"), power_cycle=True, awake=True, src=mpy_tree)
    try:
        s.start()
        # On the options page: down to the last row (idle, 5), B to 0 (5 10 15 30 0).
        _play(s, setup + ["DOWN"] * 3 + ["B"] * 4 + ["A"])
        settings = json.loads((tmp_path / "zero" / "pipkeeper" / "settings.json").read_text())
        assert settings["idle"] == "0"
        states = [st for _f, st in _play(s, presses[SETUP:SETUP + 4])]
        assert states == ["H"] * 4
    finally:
        s.close()
    record = (tmp_path / "zero" / "games" / "0001.dgn").read_text()
    assert "idle" not in record
    d = tmp_path / "pushed"
    (d / "pipkeeper").mkdir(parents=True)
    (d / "pipkeeper" / "settings.json").write_text('{"idle": 2}')   # as `roster --option idle=2` leaves it
    s = sim.Sim(str(d), power_cycle=True, awake=True, src=mpy_tree)
    try:
        s.start()
        _play(s, presses[:SETUP + 1])
        assert s.dozing and s.doze_ms == 2 * MINUTE
    finally:
        s.close()
