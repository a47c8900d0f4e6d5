"""Power cuts inside a firmware update, on the emulated RP2040 (issue 25,
item 3): a cut in any erase or program of the update must leave a board
that boots, into the scorer or into BOOTSEL; the next `pipkeeper flash`
repairs it, and the games are intact.

- The scorer's own image (`pipkeeper flash` on a board running an earlier
  one): the board restarts into BOOTSEL and the boot ROM writes the UF2,
  erasing each 4 KB sector before its first block and programming the
  blocks in the file's order (js/emulator.mjs romUf2Block). The cut falls
  in one of those erases or programs. The UF2 writes boot stage 2 last
  (board/images.bin_to_uf2): until then the boot ROM finds no valid stage
  2 at power-on and starts in BOOTSEL, where `flash` copies the image again
  (board/uf2_flash.copy_image).
- A stock image (`pipkeeper flash --force` over USB serial): MicroPython
  writes the scorer's files through LittleFS, each under a temporary name,
  checked, then renamed; the cut falls in one of LittleFS's erases or
  programs. The board boots the old scorer's files or the new ones.

Each case: the flash holding a game, the cut at op n of the update after
a fraction of it, the board plugged in again (USB power), what it starts
(the scorer drawing its screen, BOOTSEL, or neither: a failure), the
next `flash`, and the games and settings compared with before.
"""

import os
import shutil
import time
from contextlib import contextmanager
from pathlib import Path

from pipkeeper.errors import PipkeeperError
from pipkeeper.board import flashfs

OWNED = ("/games/", "/pipkeeper/current", "/pipkeeper/settings.json", "/pipkeeper/synced")
WAIT = 120            # s of host time for a board to come back on the emulated USB
ENTER_TIMEOUT = 20.0  # s for the emulated board to reach its raw REPL after a copy


def owned(files):
    """The players' part of a board's files: games, settings, marks."""
    return {p: d for p, d in (files or {}).items() if p.startswith(OWNED)}


def spread(total, count):
    """``count`` op numbers from 1 to ``total``, evenly: the first (on the
    own image the boot ROM's erase of sector 0, where stage 2 goes) and the
    last (stage 2's own page) among them."""
    if count <= 1:
        return [total]
    return sorted({1 + (total - 1) * k // (count - 1) for k in range(count)})


class Update:
    """One kind of update (``own``: an earlier own image to ``built``; else
    `flash --force` of the scorer onto the stock ``firmware``) on copies of
    the flash image ``base`` (a board with a game)."""

    def __init__(self, firmware, base, work, built=None, log=print):
        self.firmware = firmware          # what the board runs before the update
        self.base = base
        self.work = Path(work)
        self.built = built                # the own image to bring it to (image.build.Built), or None
        self.log = log
        self.drives = self.work / "media"
        self.n = 0

    def _board(self):
        from pipkeeper.sim.rp2040.board import EmulatedBoard, FLASH_FILE
        self.n += 1
        folder = self.work / ("case%d" % self.n)
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(str(self.base), str(folder / FLASH_FILE))
        return EmulatedBoard(str(folder), self.firmware, bootsel_drive=self.drives / "RPI-RP2")

    def _update(self, board, port, cut=None):
        """The update over ``port`` with the cut (op, fraction) armed from its
        first flash op; returns the ops done when no cut was armed."""
        from pipkeeper.board import bootsel, flash as flashmod, link
        if self.built is not None:
            with link.connect(port) as lk:
                lk.bootloader()
            drive = bootsel.wait_for_drive(WAIT)
            if cut:
                board.emu.cut(*cut, seed=cut[0])
            else:
                board.emu.journal(on=True)
            try:
                bootsel.copy(self.built.uf2(), drive, "pipkeeper-update.uf2")
            except PipkeeperError:
                pass                           # the drive went with the power
            deadline = time.monotonic() + WAIT
            while time.monotonic() < deadline and os.path.isdir(drive) and board.emu.last_cut is None:
                time.sleep(0.05)
        else:
            if cut:
                board.emu.cut(*cut, seed=cut[0])
            else:
                board.emu.journal(on=True)
            try:
                with link.connect(port, run_main=False) as lk:
                    flashmod.flash(lk, force=True)
            except (PipkeeperError, OSError):
                if not cut:
                    raise
        if cut:
            return None
        ops = board.emu.journal(on=False)
        if self.built is not None:
            # the boot ROM's ops only (not the new image's first boot): a
            # program a block, an erase a sector
            data = self.built.uf2()
            sectors = len({(int.from_bytes(data[i + 12:i + 16], "little") >> 12)
                           for i in range(0, len(data), 512)})
            ops = ops[:len(data) // 512 + sectors]
        return ops

    def clean_ops(self):
        """The flash ops of the whole update, done cleanly."""
        from pipkeeper.sim.rp2040.board import SerialPort
        with self._board() as board:
            with SerialPort(board) as port:
                ops = self._update(board, port.path)
        return ops

    def case(self, op, fraction):
        """A cut inside op ``op`` of the update: a result dict ("problems"
        empty when it passed; "started": what the board started)."""
        from pipkeeper.board import bootsel, uf2_flash
        from pipkeeper.sim.rp2040.board import FLASH_FILE, SerialPort
        r = {"op": op, "fraction": fraction, "problems": [], "started": None}
        before = owned(_files(self.base))
        with self._board() as board:
            with SerialPort(board) as port:
                self._update(board, port.path, (op, fraction))
            if board.emu.last_cut is None:
                r["problems"].append("the update did fewer flash ops than the clean one")
                return r
            r["kind"] = board.emu.last_cut.get("kind")
            board.emu.power(on=False)
            board.emu.bootsels.clear()
            n0 = len(board.emu.frames)
            board.emu.power(on=True)              # plugged in again
            try:
                board.emu.run(15000, until=("idle",), idle_ms=400)
            except PipkeeperError as exc:
                # rp2040js stops on what a real chip locks up on (an
                # instruction it cannot decode: half an image ran)
                r["problems"].append("the board started neither the scorer nor BOOTSEL")
                r["stopped"] = str(exc)
                return r
            if board.emu.bootsels:
                r["started"] = "BOOTSEL"
            elif len(board.emu.frames) > n0:
                r["started"] = "scorer"
            else:
                r["problems"].append("the board started neither the scorer nor BOOTSEL")
                return r
            try:
                with SerialPort(board) as port:
                    if r["started"] == "BOOTSEL":
                        uf2_flash.copy_image(self.built, "pipkeeper-update.uf2", bootsel.find_drive(),
                                             port=port.path, wait=WAIT)
                    else:
                        self._again(port.path)
            except PipkeeperError as exc:
                r["problems"].append("the next flash failed: %s" % exc)
                return r
            board.emu.power(on=False)
            board.emu.save()
            after = owned(_files(os.path.join(board.dir, FLASH_FILE)))
        if after != before:
            gone = sorted(set(before) - set(after)) + sorted(
                p for p in before if p in after and after[p] != before[p])
            r["problems"].append("the games or settings changed: %s" % ", ".join(gone[:5]))
        return r

    def _again(self, port):
        """The next `pipkeeper flash`: the update finished, or the files sent."""
        from pipkeeper.board import flash as flashmod, link, uf2_flash
        if self.built is not None:
            uf2_flash.update_image(port, self.built, "pipkeeper-update.uf2", wait=WAIT)
            return
        with link.connect(port, run_main=True) as lk:
            flashmod.flash(lk)


def _files(image):
    fs = flashfs.mount(str(image))
    return None if fs is None else flashfs.files(fs)


@contextmanager
def emulated(update):
    """The host as the emulated board needs it while ``update`` runs (put
    back after): its RPI-RP2 drive where bootsel looks, and a link that
    gives the board the time it takes to boot, since the emulated board's
    port (a pty) is there at once after a copy, not once the board is back
    (as the device tests' $PIPKEEPER_ENTER_TIMEOUT does)."""
    from pipkeeper.board import bootsel, link
    env = os.environ.get(bootsel.ENV_DRIVES)
    os.environ[bootsel.ENV_DRIVES] = str(update.drives)
    enter = link.ENTER_TIMEOUT
    link.ENTER_TIMEOUT = max(enter, ENTER_TIMEOUT)
    try:
        yield update
    finally:
        link.ENTER_TIMEOUT = enter
        if env is None:
            os.environ.pop(bootsel.ENV_DRIVES, None)
        else:
            os.environ[bootsel.ENV_DRIVES] = env


def run(update, points, fractions, log=print):
    """The update's clean ops, then a cut at ``points`` of them (``spread``)
    at each of ``fractions``: the figures."""
    t0 = time.monotonic()
    with emulated(update):
        ops = update.clean_ops()
        picks = spread(len(ops), points)
        log("the update: %d flash ops; cuts at %s ..." % (len(ops), picks))
        results = [update.case(op, f) for op in picks for f in fractions]
    failed = [r for r in results if r["problems"]]
    return {
        "update_flash_ops": len(ops),
        "update_erases": sum(1 for k, _, _ in ops if k == "E"),
        "update_cut_points": len(results),
        "update_failures": len(failed),
        "update_started_bootsel": sum(1 for r in results if r["started"] == "BOOTSEL"),
        "update_started_scorer": sum(1 for r in results if r["started"] == "scorer"),
        "update_seconds": round(time.monotonic() - t0, 1),
        "update_failed": ["op %d at %.2f: %s" % (r["op"], r["fraction"], "; ".join(r["problems"]))
                          for r in failed[:10]],
    }
