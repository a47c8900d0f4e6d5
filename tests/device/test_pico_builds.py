"""The two Pico builds on upstream MicroPython (RPI_PICO v1.28.0), each on
an emulated RP2040 wired as its profile says (hardware/profiles/): the
Pico + Pimoroni Pico Inky Pack (UC8151 on SPI0, buttons active low) and the
Pico + Waveshare Pico-ePaper-2.9 (SSD1680 on SPI1, its own five buttons).
The panel is decoded from the SPI stream by the emulator's model of each
controller (host/pipkeeper/sim/rp2040/js/emulator.mjs).

- `pipkeeper flash --board NAME` onto a blank board of the build writes
  /board.txt, and the board then boots into the scorer's first screen;
- the whole scripted game on both: on the Waveshare build on battery,
  where the board sleeps in the RP2040's DORMANT state between presses and
  every press must wake it, and on the Inky Pack build on USB;
- a 5 ms tap during sleep wakes the board and is applied;
- a board whose BUSY line never moves (the wrong build in /board.txt, or
  nothing wired there) shows an error screen and takes no presses.

Pimoroni's image is Badger-only, so these run on the upstream image alone,
whatever the `device` fixture of conftest.py says for the Badger tests.
"""

import os

import pytest

import devkit

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

BUILDS = ("pico_epaper29", "pico_inky_pack")


@pytest.fixture(scope="module")
def device():
    """The upstream image (these builds have no Pimoroni firmware)."""
    from pipkeeper.board import images
    fw = os.environ.get(images.ENV_FIRMWARE) or str(images.shared_rp2() / devkit.UPSTREAM)
    if devkit.is_pimoroni(fw):
        pytest.skip("the Pico builds run upstream MicroPython; $%s names Pimoroni's image"
                    % images.ENV_FIRMWARE)
    why = devkit.why_no_device(fw)
    if why:
        pytest.skip("no emulated RP2040: " + why)
    devkit.CURRENT[:] = [fw]
    return fw


class Flashed:
    def __init__(self, image, code, out, err, frames, firmware):
        self.image, self.code, self.out, self.err, self.frames = image, code, out, err, frames
        self.firmware = firmware


@pytest.fixture(scope="module", params=[(i, b) for i in ("upstream", "own") for b in BUILDS],
                ids=lambda p: "%s-%s" % p)
def build(request, device, device_cache, device_store, tmp_path_factory):
    """(build name, the CLI's `flash --board NAME --json` onto a blank
    board), on upstream MicroPython or on the scorer's own image made for
    that build (which boots into the scorer with nothing flashed). Made
    once for its inputs (conftest's ``device_store``: a later run with the
    same ones reads it), the flash image a copy of the module's own."""
    from pipkeeper.sim.rp2040.board import FLASH_FILE
    image, name = request.param
    if image == "own":
        fw, why = devkit.own_image(name, tmp_path_factory.mktemp("image-" + name))
        if why:
            pytest.skip(why)
    else:
        fw = device
    devkit.CURRENT[:] = [fw]
    folder = tmp_path_factory.mktemp("flashed-" + name)
    code, out, err, frames = device_store.once(
        "build-%s-%s" % (image, name), [name],
        lambda f: devkit.flash_blank_board(f, "--board", name, profile=name), folder,
        files=[fw, __file__], ok=devkit.sound_flash)
    return name, Flashed(str(folder / FLASH_FILE), code, out, err, frames, fw)


@pytest.fixture(autouse=True)
def _on_the_builds_image(build):
    """Each test on the image its build was flashed on."""
    devkit.CURRENT[:] = [build[1].firmware]


def _flashed(build):
    name, f = build
    if f.code != 0:
        pytest.fail("pipkeeper flash --board %s onto the blank emulated board failed (exit %s): %s"
                    % (name, f.code, f.err.strip()[-2000:]))
    return name, f


def test_flash_board_sets_up_the_build(build, sim_game):
    import json
    name, f = _flashed(build)
    got = json.loads(f.out)
    assert (got["board"], got["board_written"], got["board_assumed"]) == (name, True, False)
    files = devkit.image_files(f.image)
    assert files["/board.txt"] == (name + "\n").encode()
    # After the flash the board boots into the scorer: its first screen.
    assert f.frames and f.frames[-1].data == sim_game.frames[0][0].data


def test_scripted_game_frames_equal_the_sims(build, sim_game, tmp_path):
    name, f = _flashed(build)
    battery = name == "pico_epaper29"
    presses = sim_game.presses
    board = devkit.new_board(tmp_path / "board", image=f.image, profile=name,
                             power_cycle=battery)
    try:
        steps = devkit.play(board, presses)
        stats = board.emu.stats()
        devkit.off(board)
    finally:
        board.close()
    theirs = sim_game.frames[:len(presses) + 1]
    where = devkit.first_difference(steps, theirs)
    assert where is None, "%s, step %d (%s): %s" % (
        name, where[0], "power-on" if where[0] == 0 else "press %s" % presses[where[0] - 1], where[1])
    if battery:
        # Every press woke the board from DORMANT, and it went back each time.
        assert stats["wakes"] == len(presses) and stats["sleeps"] == len(presses) + 1, stats
    else:
        assert stats["sleeps"] == 0, stats           # on USB the board never stops its clocks


def test_a_tap_during_sleep_wakes_the_board(build, sim_game, tmp_path):
    from pipkeeper.sim.rp2040.board import PRESS_MS
    name, f = _flashed(build)
    if name != "pico_inky_pack":
        pytest.skip("one build is enough (the Waveshare build wakes at every press of the game)")
    board = devkit.new_board(tmp_path / "board", image=f.image, profile=name, power_cycle=True)
    try:
        boot = board.start()
        asleep = board.emu.run(PRESS_MS, until=("dormant",))
        assert asleep["dormant"], asleep
        # 5 ms down: over long before the chip's oscillator is running again
        first = board.press(sim_game.presses[0], hold_ms=5)
        stats = board.emu.stats()
    finally:
        board.close()
    assert [fr.data for fr in boot] == [fr.data for fr in sim_game.frames[0]]
    assert [fr.data for fr in first] == [fr.data for fr in sim_game.frames[1]]
    assert stats["wakes"] == 1


def test_a_busy_line_that_never_moves_is_an_error_screen(build, tmp_path):
    from pipkeeper.sim.panel import save_png
    from pipkeeper.board import flashfs
    name, f = _flashed(build)
    if name != "pico_epaper29":
        pytest.skip("one build is enough")
    board = devkit.new_board(tmp_path / "board", image=f.image, profile=name, busy_stuck="idle")
    try:
        frames = board.start()
        more = board.press("A")
        devkit.off(board)
    finally:
        board.close()
    image = devkit.image_of(board)
    # The scorer's screen went out (nobody could tell it did not show), then
    # the error screen, sent blind; nothing is drawn over it (the app's
    # second try of a failed update is refused too); the press after it is
    # not taken.
    assert len(frames) == 2 and frames[1].full and frames[1].data != frames[0].data, frames
    save_png(frames[1].data, str(tmp_path / "error.png"))
    assert more == []
    log = flashfs.read(image, "/log.txt").decode()
    assert "BUSY line never changed" in log and "pipkeeper flash --board" in log, log
