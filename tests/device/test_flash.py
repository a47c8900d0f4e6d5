"""`pipkeeper flash` (the CLI, over the board's USB serial on a pty) onto an
emulated RP2040 running upstream MicroPython: a blank board, a board with
nothing to copy, and a cable pulled in the middle of a file."""

import json
import math

import pytest

import devkit

# Minutes of emulated-board time: one timeout for a test and the session
# fixtures it may be the first to build (flashing, the scripted game).
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

from pipkeeper.board.flash import MANAGED                 # the files `flash` manages on a board
from pipkeeper.board.flash import PACKS                   # where the languages' packs go
from pipkeeper.board.flash import _CHUNK as CHUNK          # raw bytes per A() call of flash.send_file


def ours(files):
    """The managed files among an image's {path: bytes}."""
    return {p: d for p, d in files.items() if p.startswith(MANAGED)}


def test_flash_onto_a_blank_board_then_nothing_to_copy(flashed, golden, sim_boot, tmp_path):
    first = json.loads(flashed.out)
    files = ours(devkit.image_files(str(golden)))
    if devkit.is_own():
        # The scorer's own image: the scorer is frozen in, so a blank board
        # boots into it, and flash finds it up to date with nothing to copy.
        assert first["image"]["board"] == "badger2040" and first["image_current"] is True
        assert first["copied"] == [] and first["removed"] == [] and files == {}
        assert first["flash_total"] == 1280 * 1024 and 0 < first["flash_free"] < first["flash_total"]
        assert devkit.first_difference([flashed.frames], [sim_boot]) is None
        return
    # Everything was copied, for the board's own MicroPython and CPU.
    assert first["target"] == "mpy v6.3, armv6m"
    assert not first["dry_run"] and not first["badger_os_app"]
    assert first["unchanged"] == 0 and first["removed"] == []
    # the bundle, its reader, pklink, main.py and, where the MicroPython
    # does not latch the power in C (upstream), boot.py; and the languages'
    # packs, a file each, with the names file of their own words
    from pipkeeper.i18n import render
    packs = [c["file"] for c in first["copied"] if c["file"].startswith(PACKS)]
    assert sorted(packs) == sorted(PACKS + name for name in render.files())
    assert len(first["copied"]) - len(packs) == (4 if devkit.is_pimoroni() else 5)
    assert first["bytes_copied"] == first["bytes_total"] == sum(c["size"] for c in first["copied"])
    # ... and is on the board's LittleFS, byte for byte the sizes flash reported.
    assert {c["file"]: c["size"] for c in first["copied"]} == {p: len(d) for p, d in files.items()}
    from pipkeeper.board import bundle
    assert bundle.unpack(files["/lib/pipkeeper.bundle"])["shared_engine/engine.mpy"][:2] == b"M\x06"
    assert not [p for p in devkit.image_files(str(golden)) if p.endswith(".tmp")]
    # The upstream rp2 port's filesystem: 1,408 KB (pipkeeper.board.flashfs).
    assert first["flash_total"] == 1408 * 1024 and 0 < first["flash_free"] < first["flash_total"]
    # flash ends with a soft reset: the board starts the scorer, whose first
    # screen is the unix-port sim's, pixel for pixel.
    assert devkit.first_difference([flashed.frames], [sim_boot]) is None

    # Again on the flashed board: nothing to copy.
    board = devkit.new_board(tmp_path / "again", image=golden)
    try:
        with devkit.serial(board) as port:
            code, out, err = devkit.cli(port, "flash", "--json")
        devkit.off(board)
    finally:
        board.close()
    assert code == 0, err
    second = json.loads(out)
    assert second["copied"] == [] and second["removed"] == [] and second["bytes_copied"] == 0
    assert second["unchanged"] == len(first["copied"])
    assert second["bytes_total"] == first["bytes_total"]
    assert second["target"] == first["target"]
    assert ours(devkit.image_files(devkit.image_of(board))) == files


def test_cable_pulled_mid_file_then_flash_repairs(golden, sim_boot, tmp_path):
    from pipkeeper.sim.rp2040.board import SerialPort
    if devkit.is_own():
        pytest.skip("the scorer's own image: flash copies no file to cut")

    want = ours(devkit.image_files(str(golden)))
    # The cut: in the middle of the last A() (the data) of the largest file,
    # so the board has opened its temporary file and written part of it.
    target = max(sorted(want), key=lambda p: len(want[p]))
    size = len(want[target])
    full_chunks = (size - 1) // CHUNK
    last = size - full_chunks * CHUNK
    after = full_chunks * 4 * CHUNK // 3 + 4 * math.ceil(last / 3) // 2

    board = devkit.new_board(tmp_path / "board")     # blank: MicroPython formats its flash
    try:
        with SerialPort(board) as port:
            with devkit.CutInFile(port.path, target, after) as cable:
                code, out, err = devkit.cli(cable.port, "flash")
                assert cable.cut.is_set() and cable.limit is not None
        devkit.off(board)                            # the pulled cable was its power too
        print("cable cut after %d bytes: %d after opening %s (%d bytes)" % (
            cable.passed, after, target, size))
        assert code == 1, (out, err)
        assert err.startswith("pipkeeper: ") and err.count("\n") == 1, err

        cut = devkit.image_files(devkit.image_of(board))
        # Inside the file: its temporary copy was open, the file itself never appeared...
        assert target + ".tmp" in cut, sorted(cut)
        assert target not in cut
        # ... and no file is half written: each one there is the whole of it.
        kept = ours({p: d for p, d in cut.items() if not p.endswith(".tmp")})
        assert len(kept) < len(want)
        assert kept == {p: want[p] for p in kept}

        # The next flash sends exactly what is missing and clears the leftover.
        with devkit.serial(board) as port:
            code, out, err = devkit.cli(port, "flash", "--json")
        assert code == 0, err
        repaired = json.loads(out)
        assert sorted(c["file"] for c in repaired["copied"]) == sorted(set(want) - set(kept))
        assert repaired["unchanged"] == len(kept)
        assert sorted(repaired["removed"]) == sorted(p for p in cut if p.endswith(".tmp"))
        devkit.off(board)
        now = devkit.image_files(devkit.image_of(board))
        assert not [p for p in now if p.endswith(".tmp")]
        assert ours(now) == want

        # Power on: the scorer's first screen.
        frames = board.start()
        assert board.last["reason"] == "idle"
        assert devkit.first_difference([frames], [sim_boot]) is None
    finally:
        board.close()


def test_presses_after_laptop_commands_draw_their_own_screens(golden, mpy_tree, tmp_path):
    """Issue 22, item 4 on a board: each laptop command interrupts the
    scorer (Ctrl-C, its modules dropped); once the host lets go, the board
    must be back in its scorer, each press drawing its own screen. A board
    left at its REPL (`flash --dry-run` and `roster` with nothing to set
    once skipped the reset) takes no press at all. The port here is a real
    board's: nothing resets the board when the host closes it."""
    board = devkit.new_board(tmp_path / "board", image=golden)
    try:
        board.start()
        with devkit.serial(board) as port:
            for args in (["flash"], ["flash", "--dry-run"], ["roster"]):
                code, out, err = devkit.cli(port, *args)
                assert code == 0, (args, err)
        # The last reset's screen drawn before anyone presses: Pimoroni's
        # driver waits 4.7 s for every update (../shared/rp2/README.md), and
        # devkit.serial gave the board less once the commands drew frames.
        board.emu.run(6000)
        board._new_frames()
        steps = [board.press("DOWN"), board.press("DOWN")]
        devkit.off(board)
    finally:
        board.close()
    want = devkit.sim_frames(tmp_path / "sim", ["DOWN", "DOWN"], mpy_tree)[1:]
    # Each press drew (after, it may be, the screen of the board's reset),
    # and the screen it left is the sim's for the same press.
    assert all(steps), [len(s) for s in steps]
    assert [s[-1].data for s in steps] == [w[-1].data for w in want]
