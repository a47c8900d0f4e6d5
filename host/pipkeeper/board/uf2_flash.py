"""`pipkeeper flash --uf2`: a whole UF2 copied onto a board in BOOTSEL mode,
then the board checked once it is back on USB serial.

Apart from flash.py because it needs what uf2.py reads out of a UF2 and
uf2.py needs flash.py's file layout: here both are used, neither uses this.
"""

import hashlib
import os
from dataclasses import dataclass
from typing import Optional

from pipkeeper.board import bootsel, bundle, images, uf2
from pipkeeper.board.flash import board_manifest, check_imports
from pipkeeper.errors import PipkeeperError
from pipkeeper.progress import human

WAIT_SECONDS = 60      # for the board to come back as a serial port after the copy


@dataclass
class Uf2Result:
    """What `flash --uf2` did and found."""

    path: str
    drive: str
    size: int
    micropython_only: bool
    has_fs: bool                  # the file replaced the board's filesystem
    port: Optional[str] = None
    micropython: str = ""         # the version the board came back with
    scorer_files: int = 0         # files of the scorer found on the board, as built
    scorer: bool = False          # the scorer is there and loads

    def as_dict(self):
        return {"file": self.path, "drive": self.drive, "size": self.size,
                "micropython_only": self.micropython_only, "replaced_filesystem": self.has_fs,
                "port": self.port, "micropython": self.micropython,
                "scorer": self.scorer, "scorer_files": self.scorer_files}


def refuse_without_new_board(name):
    raise PipkeeperError(
        "{} replaces everything on the board's flash, games included, and a board in BOOTSEL mode "
        "cannot say what it holds: `pipkeeper sync` first (reset it out of BOOTSEL), then add "
        "--new-board (or --micropython-only to keep its files)".format(name))


def flash_uf2(path, new_board=False, micropython_only=False, port=None, wait=WAIT_SECONDS,
              progress=None, log=None):
    """Copy the UF2 at ``path`` onto the board in BOOTSEL mode, wait for it
    to come back on USB serial and check what it runs; a Uf2Result.

    A file that writes the filesystem (``pipkeeper uf2``'s) is refused
    unless ``new_board``: what it overwrites cannot be known beforehand.
    ``micropython_only`` copies only the image below the filesystem."""
    log = log or (lambda text: None)
    contents = uf2.contents(path)
    name = os.path.basename(path)
    if micropython_only:
        data = contents.micropython_only()
    else:
        if contents.has_fs and not new_board:
            refuse_without_new_board(name)
        with open(path, "rb") as f:
            # the same flash, in the order a cut copy leaves a board in BOOTSEL
            data = images.safe_order(f.read(), name)
    drive = bootsel.find_drive()
    result = Uf2Result(path, drive, len(data), micropython_only, contents.has_fs and not micropython_only)
    if progress is not None:
        progress.total = len(data)
        progress.note(name)
    bootsel.copy(data, drive, "micropython.uf2" if micropython_only else name, progress)
    log("copied {} ({}) onto {}".format(name, human(len(data)), drive))
    result.port = wait_for_port(port, wait)
    check_uf2_board(result, contents)
    return result


def wait_for_port(port=None, wait=WAIT_SECONDS):
    """The board's serial port once it shows up (the one named, or found
    by USB id), or an error after ``wait`` seconds."""
    import time

    from pipkeeper.board import ports

    deadline = time.monotonic() + wait
    while True:
        try:
            found = ports.find_port(port)
            if not found.startswith("/") or os.path.exists(found):
                return found
        except PipkeeperError as exc:
            if "several" in exc.message:
                raise
        if time.monotonic() > deadline:
            raise PipkeeperError(
                "the board did not come back as a serial port within {:g} s of the copy: unplug it "
                "and plug it in again, then `pipkeeper flash` (--wait for longer)".format(wait))
        time.sleep(0.2)


def check_uf2_board(result, contents):
    """What the board runs now: its MicroPython the image's, and with a
    filesystem from the UF2, the scorer's files as built, loading."""
    from pipkeeper.board import link as linkmod

    from pipkeeper.board import image_identity as identity
    own = contents.image.firmware.scorer
    with linkmod.connect(result.port, run_main=True) as link:
        info = link.info()
        result.micropython = info.version_text()
        if own is not None:
            # The scorer's own image: the scorer is the image.
            got = identity.of_board(link)
            if got != own:
                raise PipkeeperError("the board came back running {}, not {} of {}: the copy did not "
                                     "take; try again".format(got.describe() if got else "stock MicroPython",
                                                              own.describe(), contents.image.name))
            result.scorer = True
            return result
        want = contents.image.version_text
        if tuple(info.version[:3]) != tuple(contents.image.firmware.version[:3]):
            raise PipkeeperError("the board came back with MicroPython {}, not the {} of {}: the copy "
                                 "did not take; try again".format(result.micropython, want,
                                                                   contents.image.name))
        files = contents.fs_files() if result.has_fs else {}
        if files:
            on_board = board_manifest(link, tuple(sorted(files)))
            differ = sorted(p for p, d in files.items()
                            if on_board.get(p) != hashlib.sha256(d).hexdigest())
            if differ:
                raise PipkeeperError("the board does not hold the files of {} ({} differ, e.g. {}); "
                                     "copy it again".format(contents.image.name, len(differ), differ[0]))
            result.scorer_files = len(files)
        on_board = board_manifest(link, (bundle.PATH, bundle.READER))
        if len(on_board) == 2:
            check_imports(link)
            result.scorer = True
    return result


def update_image(port, built, name, wait=WAIT_SECONDS, progress=None, log=None):
    """Bring a board that runs the scorer's own image up to ``built`` (an
    image.build.Built): reboot it into BOOTSEL (``machine.bootloader()``),
    copy the image's UF2, which holds no filesystem, onto its RPI-RP2 drive,
    wait for it on USB serial and check it runs ``built``'s scorer. A copy
    cut short leaves the board's filesystem, its games, as they were: the
    board then starts in BOOTSEL by itself (its boot stage 2 comes last in
    the copy), and the next `pipkeeper flash` finds it there and copies the
    image again (``copy_image``). A Uf2Result."""
    from pipkeeper.board import link as linkmod

    log = log or (lambda text: None)
    with linkmod.connect(port) as link:
        port = link.port
        link.bootloader()
    log("the board restarts into BOOTSEL for its new image ...")
    drive = bootsel.wait_for_drive(wait)
    return copy_image(built, name, drive, port, wait, progress, log)


def copy_image(built, name, drive, port=None, wait=WAIT_SECONDS, progress=None, log=None):
    """Copy ``built``'s UF2 (code only: the games stay) onto the RPI-RP2
    ``drive``, wait for the board on USB serial and check it runs
    ``built``'s scorer. Also how a board left in BOOTSEL by an update cut
    short is finished (its boot stage 2 is written last: images.bin_to_uf2,
    so such a board starts in BOOTSEL, never half an image). A Uf2Result."""
    from pipkeeper.board import link as linkmod

    log = log or (lambda text: None)
    data = built.uf2()
    result = Uf2Result(name, drive, len(data), True, False)
    if progress is not None:
        progress.total = len(data)
        progress.note(name)
    bootsel.copy(data, drive, name, progress)
    log("copied {} ({}) onto {}".format(name, human(len(data)), drive))
    result.port = wait_for_port(port, wait)
    from pipkeeper.board import image_identity as identity
    with linkmod.connect(result.port, run_main=True) as link:
        result.micropython = link.info().version_text()
        got = identity.of_board(link)
    if got != built.identity:
        raise PipkeeperError("the board came back running {}, not {}: the copy did not take; run "
                             "`pipkeeper flash` again".format(got.describe() if got else "stock MicroPython",
                                                              built.identity.describe()))
    result.scorer = True
    return result
