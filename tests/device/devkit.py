"""Helpers for the device tests: the real firmware on an emulated RP2040
(rp2040js under Node.js, driven by pipkeeper.sim.rp2040), next to the unix-port
simulated board it must agree with.

(A module of its own, as tests/firmware/fwkit.py and tests/host/boardkit.py:
two folders' conftest.py cannot both be imported as `conftest`.)

- ``why_no_device()``: why these tests cannot run here (no MicroPython image
  for the RP2040, no boot ROM, no Node.js), or None.
- ``serial(board)``: the board's USB serial on a pty while it runs freely,
  for the CLI (PIPKEEPER_PORT); on the way out the board is given the time
  to finish what the host left it doing (a soft reset into the scorer).
- ``CutInFile``: a cable pulled in the middle of one file of `flash`.
- ``image_files``: every file of a flash image's LittleFS, read from the image.
"""

import json
import os
import shutil
import sys
from contextlib import contextmanager

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for p in (ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests", "host")):
    if p not in sys.path:
        sys.path.insert(0, p)

from boardkit import CutProxy, run_cli  # noqa: E402  (tests/host: `python -m pipkeeper` as a subprocess)

SCRIPT = os.path.join(ROOT, "tests", "data", "scripted_game.txt")
UPSTREAM = "firmware-RPI_PICO-v1.28.0.uf2"
PROFILE = "badger2040"


PIMORONI = "firmware-PIMORONI_BADGER2040-v1.23.0-1.uf2"
OWN = "pipkeeper-own-image"   # the scorer's own image, built for the session (own_image)
SOURCE_TARBALL = "micropython-v1.28.0-rp2.tar.gz"
CURRENT = []      # the image the running test is on (set by conftest's `device`)


def firmware_images():
    """The images the suite runs on: $PIPKEEPER_RP2_FIRMWARE alone, else
    upstream MicroPython for the Pico from ../shared/rp2/ (the UC8151 path
    of the firmware), Pimoroni's Badger 2040 build, as the board ships (its
    badger2040 module's path), and the scorer's own image (``OWN``: built
    from ../shared/micropython/ by ``own_image``)."""
    from pipkeeper.board import images
    env = os.environ.get(images.ENV_FIRMWARE)
    if env:
        return [env]
    return [str(images.shared_rp2() / UPSTREAM), str(images.shared_rp2() / PIMORONI), OWN]


def upstream_image():
    """Upstream MicroPython for the Pico, from ../shared/rp2/."""
    from pipkeeper.board import images
    return str(images.shared_rp2() / UPSTREAM)


def source_tarball():
    """MicroPython's source for the scorer's own image: $PIPKEEPER_MICROPYTHON_SRC,
    else the tarball in ../shared/micropython/."""
    from pipkeeper.board import images
    from pipkeeper.image import build
    return os.environ.get(build.ENV_SOURCE) or str(images.shared_rp2().parent / "micropython" / SOURCE_TARBALL)


_built = {}
# The cache the scorer's own image is built in and the device fixtures are
# kept in (stored.py): the user's (or CI's) own, as it was when the session
# started, not the session's scratch cache (conftest's device_cache): a
# build takes minutes, a flashed board more than one, and both are keyed by
# their inputs.
def _cache_at_start():
    from pipkeeper.board.flash import cache_dir
    return str(cache_dir())


USER_CACHE = _cache_at_start()
_IMAGE_CACHE = USER_CACHE


def own_image(board=PROFILE, folder=None):
    """(the path of the scorer's own image for the build ``board``, built
    once and cached by pipkeeper.image.build, or None; why not, or None)."""
    from pipkeeper.errors import PipkeeperError
    from pipkeeper.image import build
    if board in _built:
        return _built[board]
    src = source_tarball()
    if not os.path.exists(src):
        got = (None, "no MicroPython source for the scorer's own image: %s is absent" % src)
    else:
        try:
            built = build.build(board, source=src, cache=_IMAGE_CACHE)
            # Named by its key where it is shared (the cache folder): a run
            # on other sources, at the same time, writes another file.
            name = "pipkeeper-%s.uf2" % board if folder else "pipkeeper-%s-%s.uf2" % (board, built.path.stem)
            path = os.path.join(str(folder or built.path.parent), name)
            built.write(path)
            got = (path, None)
        except PipkeeperError as exc:
            got = (None, "the scorer's own image cannot be built here: %s" % exc)
    _built[board] = got
    return got


def is_own(path=None):
    return os.path.basename(path or firmware_path()).startswith("pipkeeper-")


def firmware_path():
    """The image under test."""
    return CURRENT[-1] if CURRENT else firmware_images()[0]


def is_pimoroni(path=None):
    return "PIMORONI" in os.path.basename(path or firmware_path()).upper()


def why_no_device(fw=None):
    """The reason the device tests are skipped here, or None."""
    from pipkeeper.errors import PipkeeperError
    from pipkeeper.board import images
    from pipkeeper.sim.rp2040 import emulator
    fw = fw or firmware_path()
    if not os.path.isfile(fw):
        if os.environ.get(images.ENV_FIRMWARE):
            return "no MicroPython image at $%s=%s" % (images.ENV_FIRMWARE, fw)
        shared = images.shared_rp2()
        if not shared.is_dir():
            return "%s is absent (the RP2040 MicroPython images and boot ROM; " \
                   "$%s names another image)" % (shared, images.ENV_FIRMWARE)
        return "no RP2040 MicroPython image: %s is absent ($%s names another)" % (
            fw, images.ENV_FIRMWARE)
    try:
        images.find_bootrom()
    except PipkeeperError as exc:
        return str(exc)
    if not (os.environ.get("PIPKEEPER_NODE") or shutil.which("node")):
        return "Node.js is not installed (`node` on PATH runs the emulated RP2040, rp2040js)"
    try:
        emulator.installed_emulator()
    except PipkeeperError as exc:
        return str(exc)
    return None


def new_board(folder, image=None, profile=PROFILE, **kw):
    """An EmulatedBoard of the build ``profile`` on the firmware under test,
    its flash ``folder``/flash.img (a copy of ``image``'s when given)."""
    from pipkeeper.sim.rp2040.board import FLASH_FILE, EmulatedBoard
    os.makedirs(str(folder), exist_ok=True)
    if image is not None:
        shutil.copyfile(str(image), os.path.join(str(folder), FLASH_FILE))
    return EmulatedBoard(str(folder), firmware_path(), profile=profile, **kw)


def flash_blank_board(folder, *args, profile=PROFILE):
    """`pipkeeper flash ARGS --json` onto a blank board of the build
    ``profile`` (its flash ``folder``/flash.img): (exit status, stdout,
    stderr, the frames the panel showed after it), the board powered off."""
    board = new_board(folder, profile=profile)
    try:
        with serial(board) as port:
            code, out, err = cli(port, "flash", *args, "--json")
        frames = list(board.frames)
        off(board)
    finally:
        board.close()
    return code, out, err, frames


def sound_flash(result):
    """Whether flash_blank_board's result is worth keeping for later runs
    (stored.py): the flash ended well and the board drew after it; a
    failure (a timeout under load, say) is tried afresh by the next run."""
    code, _out, _err, frames = result
    return code == 0 and bool(frames)


def script_presses():
    """The presses of tests/data/scripted_game.txt."""
    from pipkeeper.sim import unix as sim
    with open(SCRIPT) as f:
        return sim.parse_script(f.read())


def late_game(golden, folder, checkpoint=True, lang="en", house_rules=False):
    """The bench's late game (the largest game, 80% through its last round,
    pipkeeper.bench.device) on a copy of the flashed board ``golden``, the
    board set to ``lang``: (the Bench, the image), with the checkpoint a
    battery press leaves when ``checkpoint``, else to be replayed in full;
    ``house_rules``: the game played with every house rule on (``bench
    device --house-rules``, shared_engine/mixes.py ``every_rule``)."""
    from pipkeeper.bench import device as bench_device, engine as bench_engine, firmware as bench_firmware
    bench = bench_device.Bench(firmware_path(), folder, log=lambda *a: None,
                               flashed=str(golden), lang=lang, house_rules=house_rules)
    _tags, events = bench_engine.largest_game(house_rules)
    _early, late = bench_firmware.cut_points(events)
    image = bench.game_image(bench.clean, late, "late")
    if checkpoint:
        image = bench.with_checkpoint(image, "late-cp")
    return bench, image


def play(board, presses):
    """[frames of the power-on, frames of press 1, ...] on an emulated board."""
    steps = [board.start()]
    for b in presses:
        steps.append(board.press(b))
    return steps


def image_of(board):
    from pipkeeper.sim.rp2040.board import FLASH_FILE
    return os.path.join(board.dir, FLASH_FILE)


def off(board):
    """Power off (the cable pulled) and write the flash to its image file."""
    board.emu.power(on=False)
    board.emu.save()


@contextmanager
def serial(board):
    """The board's USB serial on a pty (its path), the board running freely.

    A host that ends with a soft reset (flash, sync: ``run_main``) leaves the
    board booting the scorer; once the port is closed, the board runs on
    (emulated time) until that boot has drawn its screen and gone idle, so
    what it writes at boot is on the flash before anyone powers it off."""
    from pipkeeper.sim.rp2040.board import BOOT_MS, IDLE_MS, SerialPort
    n0 = len(board.emu.frames)
    with SerialPort(board) as port:
        yield port.path
    if len(board.emu.frames) == n0:
        board.emu.run(BOOT_MS, until=("idle",), idle_ms=IDLE_MS)
    else:
        board.emu.run(3 * IDLE_MS)
    board._new_frames()


def image_files(image):
    """{path: bytes} of every file on the image's filesystem."""
    from pipkeeper.board import flashfs
    fs = flashfs.mount(image)
    return {} if fs is None else flashfs.files(fs)


class CutInFile(CutProxy):
    """A cable pulled inside one file of `pipkeeper flash`: once the host has
    opened ``target`` on the board (flash's ``O('<target>.tmp')``), ``after``
    more bytes pass and the cable closes (tests/host/boardkit.CutProxy with
    the limit found in the stream, so it lands inside that file whatever the
    sizes of the files sent before it)."""

    def __init__(self, board_port, target, after):
        self.marker = ("O(%r)" % (target + ".tmp")).encode()
        self.after = after
        self._sent = b""       # the host's last bytes, to find the marker across reads
        super().__init__(board_port, None)

    def _let_through(self, fd, data):
        if fd == self._master and self.limit is None:
            self._sent = (self._sent + data)[-(len(self.marker) + 4096):]
            at = self._sent.find(self.marker)
            if at >= 0:
                # bytes of this read after the marker count toward `after`
                tail = len(self._sent) - at - len(self.marker)
                self.limit = self.passed + len(data) - tail + self.after
        if self.limit is None:
            return data
        return data[: max(0, self.limit - self.passed)]


def cli(port, *args, db=None, timeout=600):
    """`pipkeeper ARGS` as a subprocess against the board at ``port``."""
    env = {"PIPKEEPER_PORT": port} if port else {}
    # The emulated board runs at about a third of real time: a host that
    # interrupts it while it boots the scorer waits for it accordingly.
    env["PIPKEEPER_ENTER_TIMEOUT"] = "20"
    if db is not None:
        env["PIPKEEPER_DB"] = str(db)
    return run_cli(*args, env=env, timeout=timeout)


def sync_and_off(board, db):
    """`pipkeeper sync --json` of the board over its serial port into the
    library ``db``, then the board powered off: the report, parsed (the
    sync must succeed)."""
    with serial(board) as port:
        code, out, err = cli(port, "sync", "--json", db=db)
    off(board)
    assert code == 0, err
    return json.loads(out)


def sim_frames(flash_dir, presses, mpy_tree, power_cycle=False, start=True):
    """The unix-port simulated board's frames for ``presses``: a list with
    one list of frames for the power-on (if ``start``) and one per press."""
    from pipkeeper.sim import unix as sim
    s = sim.Sim(str(flash_dir), power_cycle=power_cycle, src=mpy_tree)
    out = []
    try:
        if start:
            out.append(s.start())
        for b in presses:
            out.append(s.press(b))
    finally:
        s.close()
    return out


def first_difference(ours, theirs):
    """Where two runs' frames first differ (``None`` when they agree):
    (step, what), step 0 being the power-on."""
    for step, (a, b) in enumerate(zip(ours, theirs)):
        if len(a) != len(b):
            return step, "%d frames on the emulated board, %d on the sim" % (len(a), len(b))
        for k, (fa, fb) in enumerate(zip(a, b)):
            if fa.data != fb.data:
                bits = sum(bin(x ^ y).count("1") for x, y in zip(fa.data, fb.data))
                return step, "frame %d: %d pixels differ" % (k, bits)
            if fa.full != fb.full:
                return step, "frame %d: full refresh %s on the emulated board, %s on the sim" % (
                    k, fa.full, fb.full)
    if len(ours) != len(theirs):
        return min(len(ours), len(theirs)), "%d steps against %d" % (len(ours), len(theirs))
    return None
