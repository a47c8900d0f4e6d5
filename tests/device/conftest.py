"""The device tests' fixtures: the board firmware on an emulated RP2040
(rp2040js under Node.js) with a real MicroPython image, the Badger 2040
profile; helpers in devkit.py.

Every test here is skipped, with the reason, when the image (../shared/rp2/,
or $PIPKEEPER_RP2_FIRMWARE), the boot ROM or Node.js is missing.

Flashing an emulated board costs ~30 s of host time, so the session flashes
one blank board once, through the CLI (``flashed``: test_flash checks that
run), and the tests start from copies of its flash image (``golden``). The
scripted game is played once (``scripted``) for the frame comparison and the
sync after it.
"""

import os
import sys
from pathlib import Path

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import devkit  # noqa: E402


def _image_id(p):
    if p == devkit.OWN or devkit.is_own(p):
        return "own"
    return "pimoroni" if devkit.is_pimoroni(p) else "upstream"


@pytest.fixture(scope="session", params=devkit.firmware_images(), ids=_image_id)
def device(request):
    """The MicroPython image under test (the skip, when there is none).
    Session fixtures built on it (the flashed board, the scripted game) are
    made once per image; pytest runs one image's tests, then the next's.
    The scorer's own image is built here (pipkeeper.image.build, cached)."""
    path = request.param
    if path == devkit.OWN:
        path, why = devkit.own_image()
        if why:
            pytest.skip(why)
    why = devkit.why_no_device(path)
    if why:
        pytest.skip("no emulated RP2040: " + why)
    # Set here, not only per test: the session fixtures that build on this
    # one (the flashed board) are made before any function fixture runs.
    devkit.CURRENT[:] = [path]
    return path


@pytest.fixture(autouse=True)
def _needs_device(device):
    """Every device test runs on the emulated board with this image."""
    devkit.CURRENT[:] = [device]


@pytest.fixture(scope="session")
def device_cache(tmp_path_factory):
    """One mpy-cross cache for the session's CLI runs (as tests/host's `cache`)."""
    path = tmp_path_factory.getbasetemp() / "pipkeeper-cache"
    old = os.environ.get("PIPKEEPER_CACHE")
    os.environ["PIPKEEPER_CACHE"] = str(path)
    yield path
    if old is None:
        os.environ.pop("PIPKEEPER_CACHE", None)
    else:
        os.environ["PIPKEEPER_CACHE"] = old


@pytest.fixture(scope="session")
def mpy_tree(tmp_path_factory):
    """The firmware compiled once for the unix-port sim (tests/firmware's fixture)."""
    from pipkeeper.sim import unix as sim
    return sim.build_tree(devkit.ROOT, str(tmp_path_factory.mktemp("mpy")))


@pytest.fixture(scope="session")
def sim_boot(tmp_path_factory, mpy_tree):
    """The unix-port sim's frames for a power-on of a fresh board: the
    scorer's first screen."""
    return devkit.sim_frames(tmp_path_factory.mktemp("sim-boot"), [], mpy_tree)[0]


class Flashed:
    """The session's first `pipkeeper flash --json` onto a blank board."""

    def __init__(self, folder, image, code, out, err, frames):
        self.folder = folder
        self.image = image
        self.code, self.out, self.err = code, out, err
        self.frames = frames        # what the panel showed after the flash (its soft reset)


@pytest.fixture(scope="session")
def flashed(device, device_cache, tmp_path_factory):
    folder = tmp_path_factory.mktemp("flashed")
    board = devkit.new_board(folder)
    try:
        with devkit.serial(board) as port:
            code, out, err = devkit.cli(port, "flash", "--json")
        frames = list(board.frames)
        devkit.off(board)
    finally:
        board.close()
    return Flashed(folder, Path(devkit.image_of(board)), code, out, err, frames)


@pytest.fixture(scope="session")
def golden(flashed):
    """The flash image of a board `pipkeeper flash` has just set up."""
    if flashed.code != 0:
        pytest.fail("pipkeeper flash onto the blank emulated board failed (exit %s): %s" % (
            flashed.code, flashed.err.strip()[-2000:]))
    return flashed.image


class Played:
    def __init__(self, presses, emu, sim, image, sim_dir):
        self.presses = presses
        self.emu = emu              # [frames of the power-on, frames of press 1, ...]
        self.sim = sim
        self.image = image          # the emulated board's flash after the game
        self.sim_dir = sim_dir      # the sim's flash folder after it


class SimGame:
    def __init__(self, presses, frames, folder):
        self.presses = presses
        self.frames = frames        # [frames of the power-on, frames of press 1, ...]
        self.folder = folder        # the sim's flash folder after the game


@pytest.fixture(scope="session")
def sim_game(mpy_tree, tmp_path_factory):
    """tests/data/scripted_game.txt on the unix-port sim (a fresh folder),
    once a session: what every build's board must show."""
    presses = devkit.script_presses()
    sim_dir = tmp_path_factory.mktemp("scripted-sim")
    return SimGame(presses, devkit.sim_frames(sim_dir, presses, mpy_tree), sim_dir)


@pytest.fixture(scope="session")
def scripted(golden, sim_game, tmp_path_factory):
    """tests/data/scripted_game.txt pressed on the emulated board (a copy of
    the golden flash), and the sim's run of it."""
    folder = tmp_path_factory.mktemp("scripted")
    board = devkit.new_board(folder, image=golden)
    try:
        steps = devkit.play(board, sim_game.presses)
        devkit.off(board)
    finally:
        board.close()
    return Played(sim_game.presses, steps, sim_game.frames, Path(devkit.image_of(board)),
                  sim_game.folder)
