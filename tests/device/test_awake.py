"""Awake through a game on battery (issue 23), on the emulated RP2040.

During a game a battery press leaves the Badger with its latch held, asleep
in the RP2040's SLEEP state (machine.lightsleep(ms), woken by a button's
interrupt or the idle time-out: firmware/presses.py says why not DORMANT);
after the idle minutes it draws its resting screen, where the UI is
elsewhere, and cuts its power; History cuts it at once. What it shows and
records is the unix-port sim's, press for press (the sim asleep as the
board is: awake, the board knows its panel's picture and updates it fast;
after a power cut, a full refresh). And the chip's
sleep as the firmware relies on it: with interrupts off, an edge already
pending ends it (the emulator's WFI, js/emulator.mjs). Every image:
upstream MicroPython, Pimoroni's build (its badger2040 module has no sleep,
but the MicroPython under it has: firmware/board_badger.py), and the
scorer's own."""

import shutil

import pytest

import devkit

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

SETUP = 11          # the scripted game's set-up presses (the 11th starts the game)
IN_PLAY = SETUP + 3  # ... then the round's lead and two plays: the turn screen
MINUTE_MS = 60000


def _game_in_play(golden, tmp_path, mpy_tree):
    """The scripted game a few presses in, played on the unix-port sim and
    laid on a copy of the golden image: (a sim folder holding the same,
    the board's folder)."""
    from pipkeeper.sim import unix as sim
    from test_battery import lay_on_board
    made = tmp_path / "made"
    s = sim.Sim(str(made), src=mpy_tree)
    try:
        s.start()
        for b in devkit.script_presses()[:IN_PLAY]:
            s.press(b)
    finally:
        s.close()
    (made / ".sim-stderr.txt").unlink()
    sim_dir = tmp_path / "sim"
    shutil.copytree(str(made), str(sim_dir))
    board_dir = tmp_path / "board"
    lay_on_board(golden, made, board_dir)
    return sim_dir, board_dir


def _record(board_dir):
    from pipkeeper.board import flashfs
    return flashfs.read(str(board_dir / "flash.img"), "/games/0001.dgn")


def _sleeping(board):
    st = board.emu.stats()
    assert board.asleep and st["powered"] and st["asleep"], (board.last, st)
    assert st["light_sleeps"] >= 1 and st["sleeps"] == 0, st    # SLEEP, never DORMANT
    return st


def test_asleep_between_presses_a_tap_and_a_power_cut(golden, mpy_tree, tmp_path):
    """A cold boot's press leaves the board asleep with its latch held; the
    latch keeps the power while a button is let go during the sleep; a 5 ms
    tap wakes it and is applied; the power cut while it sleeps, the next
    press is a cold boot that carries on: the frames and the record are
    the sim's."""
    sim_dir, board_dir = _game_in_play(golden, tmp_path, mpy_tree)
    presses = ["DOWN", "DOWN", "DOWN", "C", "A", "A"]
    board = devkit.new_board(board_dir, power_cycle=True)
    try:
        ours = [board.press("DOWN")]                   # the menu: a cold boot
        _sleeping(board)
        ours.append(board.press("DOWN", hold_ms=1500))  # let go while it sleeps
        _sleeping(board)
        board.emu.run(2000)
        st = _sleeping(board)
        assert st["light_wakes"] >= 2, st              # woken by the release, and asleep again
        ours.append(board.press("DOWN", hold_ms=5))    # the shortest tap
        ours.append(board.press("C"))                  # back: the game's screen
        ours.append(board.press("A"))                  # a play, recorded
        _sleeping(board)
        board.cut()                                    # the battery out, asleep
        ours.append(board.press("A"))                  # a cold boot: the next play
        woken = _sleeping(board)["light_wakes"]
        # A USB cable plugged in wakes it (VBUS): awake while the host may
        # enumerate it; unplugged, it sleeps again.
        board.emu.power(usb=True)
        board.emu.run(1000)
        st = board.emu.stats()
        assert st["light_wakes"] == woken + 1 and not st["asleep"], st
        board.emu.power(usb=False)
        board.emu.run(1000)
        _sleeping(board)
    finally:
        board.close()
    # The sim asleep as the board is (``awake``), cut where it was cut: a
    # board awake knows the picture on its panel and updates it fast, a
    # cold boot after a cut knows none and refreshes it full (issue 33)
    from pipkeeper.sim import unix as sim
    s = sim.Sim(str(sim_dir), power_cycle=True, awake=True, src=mpy_tree)
    try:
        theirs = [s.press(b) for b in presses[:-1]]
        s.cut()
        theirs.append(s.press(presses[-1]))
    finally:
        s.close()
    where = devkit.first_difference(ours, theirs)
    assert where is None, "press %d (%s): %s" % (where[0] + 1, presses[where[0]], where[1])
    assert _record(board_dir) == (sim_dir / "games" / "0001.dgn").read_bytes()


WFI_MAIN = """import machine, time
a = machine.Pin(12, machine.Pin.IN, machine.Pin.PULL_DOWN)
hits = [0]
def note(p):
    hits[0] += 1
a.irq(handler=note, trigger=machine.Pin.IRQ_RISING, hard=True)
time.sleep_ms(2000)
st = machine.disable_irq()
t0 = time.ticks_ms()
while time.ticks_diff(time.ticks_ms(), t0) < 200:
    pass                      # the tap comes now: its interrupt stays pending
before = hits[0]
machine.lightsleep(5000)
slept = time.ticks_diff(time.ticks_ms(), t0)
machine.enable_irq(st)
t1 = time.ticks_ms()
machine.lightsleep(300)       # nothing pending: a whole sleep
print('WFI', slept, before, hits[0], time.ticks_diff(time.ticks_ms(), t1))
"""


def test_a_sleep_with_interrupts_off_ends_on_an_edge_already_pending(golden, tmp_path):
    """The chip as the firmware's sleep relies on it (ARMv6-M WFI): with
    interrupts off, an edge that came before machine.lightsleep(ms) ends it
    at once, and its handler runs when they are on again; with nothing
    pending the sleep is whole, and the emulator reports it."""
    from pipkeeper.board import flashfs
    if devkit.is_own():
        pytest.skip("the scorer's own image runs its frozen main.py, not one on the flash")
    (tmp_path / "b").mkdir()
    image = tmp_path / "b" / "flash.img"
    shutil.copyfile(str(golden), str(image))
    flashfs.write_files(str(image), {"/main.py": WFI_MAIN.encode()})
    board = devkit.new_board(tmp_path / "b")
    try:
        board.emu.power(on=True)
        board.emu.run(2100)
        board.emu.call("tap", name="A", hold_ms=20)
        board.emu.run(1500)
        st = board.emu.stats()
    finally:
        board.close()
    line = [x for x in st["serial_text"].splitlines() if x.startswith("WFI ")]
    assert line, st["serial_text"][-400:]
    slept, before, after, whole = map(int, line[-1].split()[1:])
    assert slept < 250 and (before, after) == (0, 1), line      # not the 5 s asked for
    assert 295 <= whole <= 320 and st["light_sleeps"] == 1, (line, st)


def test_the_idle_time_out_and_history_cut_the_power(golden, mpy_tree, tmp_path):
    """Asleep with a menu open: five minutes (the default) after the press
    the board draws the game's own screen (the sim's resting screen) and
    cuts its power, within a moment of the time-out. History waits for no
    one: the board cuts its power as it shows it."""
    from pipkeeper.sim import unix as sim
    sim_dir, board_dir = _game_in_play(golden, tmp_path, mpy_tree)
    board = devkit.new_board(board_dir, power_cycle=True)
    try:
        board.press("DOWN")
        slept = board.last["t"]
        _sleeping(board)
        ours = board.idle_out()
        last = board.last
        assert last["reason"] == "off" and not board.emu.powered, last
        waited = (last["woke_at"] - slept) / 1e6
        assert 5 * MINUTE_MS - 50 <= waited <= 5 * MINUTE_MS + 50, waited
        print("idle time-out %.1f ms after the press's sleep; resting screen and off in %.1f ms"
              % (waited, (last["t"] - last["woke_at"]) / 1e6))
        for b in ("DOWN", "UP", "UP", "UP"):              # the menu's History, 3rd from its end
            board.press(b)
            _sleeping(board)
        board.press("A")
        assert board.last["reason"] == "off" and not board.emu.powered, board.last
    finally:
        board.close()
    s = sim.Sim(str(sim_dir), power_cycle=True, awake=True, src=mpy_tree)
    try:
        s.press("DOWN")
        theirs = s.idle_out()
    finally:
        s.close()
    assert len(ours) == len(theirs) == 1
    assert (ours[0].data, ours[0].full) == (theirs[0].data, theirs[0].full)
