"""The device tests' fixtures: the board firmware on an emulated RP2040
(rp2040js under Node.js) with a real MicroPython image, the Badger 2040
profile; helpers in devkit.py.

Every test here is skipped, with the reason, when the image (../shared/rp2/,
or $PIPKEEPER_RP2_FIRMWARE), the boot ROM or Node.js is missing.

Flashing an emulated board costs over a minute of host time, so one blank
board is flashed once an image, through the CLI (``flashed``: test_flash
checks that run), and the tests start from copies of its flash image
(``golden``). The scripted game is played once an image (``scripted``) for
the frame comparison and the sync after it. "Once" is once a run, not once
a session: pytest keeps one image's session fixtures at a time and each
pytest-xdist worker is a session, so these are made through
``device_store`` (stored.py), by the first worker to ask, read by the
others, and kept for a later run with the very same inputs.
"""

import os
import sys
from contextlib import contextmanager

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import devkit  # noqa: E402
import stored  # noqa: E402


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
def device_store(tmp_path_factory):
    """Where the expensive fixtures are made once and read by every session
    (stored.py): the run's folder the workers share, and the user's cache
    as it was when the session started (devkit.USER_CACHE, not
    ``device_cache``'s scratch) for later runs."""
    return stored.open_store(tmp_path_factory, devkit.USER_CACHE)


@contextmanager
def _untouched(path, what):
    """The session's copy of a stored flash image is read by many tests:
    one that wrote to it instead of to a copy of its own would change what
    the tests after it see, so that is an error."""
    before = stored.file_sha(str(path))
    yield
    if stored.file_sha(str(path)) != before:
        pytest.fail("a test wrote to the session's %s (%s): copy it first (devkit.new_board(folder, "
                    "image=...))" % (what, path))


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
    """A `pipkeeper flash --json` onto a blank board of the image: this
    run's, or an earlier run's with the very same inputs (stored.py), with
    ``image`` the session's own copy of the flash it left."""

    def __init__(self, folder, image, code, out, err, frames):
        self.folder = folder
        self.image = image
        self.code, self.out, self.err = code, out, err
        self.frames = frames        # what the panel showed after the flash (its soft reset)


def _flash_key(image):
    """The store's name, parameters and input files for the image's flashed board."""
    return "flashed-" + _image_id(image), [devkit.PROFILE], [image]


def _flash_the_next_image(device, store, tmp_path_factory):
    """While the other worker flashes this image, flash the next one the
    tests will come to (every file runs its images in turn), rather than
    wait: both workers start on the first image at once. Only what nobody
    has made or is making (Store.ahead never waits); a failure here is
    left to the fixture that needs that board to meet and report."""
    images = devkit.firmware_images()
    ids = [_image_id(p) for p in images]
    for path in images[ids.index(_image_id(device)) + 1:]:
        if path == devkit.OWN:
            path, why = devkit.own_image()
            if why:
                continue
        if devkit.why_no_device(path):
            continue
        name, params, files = _flash_key(path)
        current = devkit.CURRENT[:]
        devkit.CURRENT[:] = [path]
        try:
            if store.ahead(name, params, devkit.flash_blank_board, tmp_path_factory.mktemp("flashed-ahead"),
                           files=files, ok=devkit.sound_flash):
                return
        except Exception:      # noqa: BLE001 (see above)
            return
        finally:
            devkit.CURRENT[:] = current


@pytest.fixture(scope="session")
def flashed(device, device_cache, device_store, tmp_path_factory):
    """The CLI's flash onto a blank board, made once a run for the image
    (its CLI runs use the session's scratch cache, ``device_cache``)."""
    from pipkeeper.sim.rp2040.board import FLASH_FILE
    folder = tmp_path_factory.mktemp("flashed")
    name, params, files = _flash_key(device)
    code, out, err, frames = device_store.once(
        name, params, devkit.flash_blank_board, folder, files=files, ok=devkit.sound_flash,
        meanwhile=lambda: _flash_the_next_image(device, device_store, tmp_path_factory))
    return Flashed(folder, folder / FLASH_FILE, code, out, err, frames)


@pytest.fixture(scope="session")
def golden(flashed):
    """The flash image of a board `pipkeeper flash` has just set up."""
    if flashed.code != 0:
        pytest.fail("pipkeeper flash onto the blank emulated board failed (exit %s): %s" % (
            flashed.code, flashed.err.strip()[-2000:]))
    with _untouched(flashed.image, "golden flash image"):
        yield flashed.image


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
def scripted(device, golden, sim_game, device_store, tmp_path_factory):
    """tests/data/scripted_game.txt pressed on the emulated board (a copy of
    the golden flash), and the sim's run of it."""
    def play_the_script(folder):
        board = devkit.new_board(folder, image=golden)
        try:
            steps = devkit.play(board, sim_game.presses)
            devkit.off(board)
        finally:
            board.close()
        return steps

    from pipkeeper.sim.rp2040.board import FLASH_FILE
    folder = tmp_path_factory.mktemp("scripted")
    steps = device_store.once("scripted-" + _image_id(device), [devkit.PROFILE] + list(sim_game.presses),
                              play_the_script, folder, files=[device, golden])
    image = folder / FLASH_FILE
    with _untouched(image, "flash image after the scripted game"):
        yield Played(sim_game.presses, steps, sim_game.frames, image, sim_game.folder)
