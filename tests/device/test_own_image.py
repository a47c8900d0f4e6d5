"""The scorer's own image (`pipkeeper firmware`, pipkeeper.image) on the
emulated RP2040: one UF2 from a blank board to the scorer's first screen,
and `pipkeeper flash` bringing a board on an earlier image up to date
through BOOTSEL (``machine.bootloader()``, the boot ROM's RPI-RP2 drive
modelled by the emulator: js/emulator.mjs "BOOTSEL") with its games kept,
also when the copy is cut short.

These run once, on the image built for the session (the `device` fixture's
"own" parameter); the rest of tests/device runs on it as on the stock ones.
"""

import json
import os

import pytest

import devkit

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]

RECORD = "/games/"


@pytest.fixture()
def own(device):
    if not devkit.is_own(device):
        pytest.skip("the scorer's own image only (this is %s)" % os.path.basename(device))
    return device


def _board(folder, firmware, **kw):
    from pipkeeper.sim.rp2040.board import EmulatedBoard
    os.makedirs(str(folder), exist_ok=True)
    return EmulatedBoard(str(folder), firmware, **kw)


def _records(image):
    return {p: d for p, d in devkit.image_files(image).items() if p.startswith(RECORD)}


def _earlier_image(tmp_path):
    """The scorer's own image of an earlier release (another version: the
    board must be brought up to this one)."""
    from pipkeeper.image import build
    built = build.build(devkit.PROFILE, source=devkit.source_tarball(), version="0.0.9",
                        cache=devkit._IMAGE_CACHE)
    path = tmp_path / "pipkeeper-earlier.uf2"
    path.write_bytes(built.uf2())
    return str(path), built.identity


def _cli_env(monkeypatch, drives):
    from pipkeeper.board import bootsel
    monkeypatch.setenv(bootsel.ENV_DRIVES, str(drives))
    monkeypatch.setenv("PIPKEEPER_MICROPYTHON_SRC", devkit.source_tarball())


def test_firmware_makes_one_uf2_that_boots_a_blank_board(own, sim_boot, tmp_path, monkeypatch):
    """`pipkeeper firmware` writes the UF2; `flash --uf2` copies it onto a
    blank board in BOOTSEL; the board comes up in the scorer's first screen
    and says which scorer it runs."""
    out = tmp_path / "scorer.uf2"
    code, text, err = devkit.cli(None, "firmware", "--micropython-src", devkit.source_tarball(),
                                 "-o", str(out), "--json")
    assert code == 0, err
    made = json.loads(text)
    assert made["board"] == "badger2040" and made["file"] == str(out)
    assert made["flash_left_for_games"] == 1280 * 1024 and made["image_bytes"] <= 0xC0000
    drives = tmp_path / "media"
    _cli_env(monkeypatch, drives)
    # A blank board: any image will do before the copy, its flash erased.
    board = _board(tmp_path / "blank", devkit.upstream_image(), bootsel_drive=drives / "RPI-RP2")
    try:
        board.emu.bootsel()             # BOOTSEL held as it is plugged in
        with devkit.serial(board) as port:
            code, text, err = devkit.cli(port, "flash", "--uf2", str(out), "--json")
            assert code == 0, err
            done = json.loads(text)
            assert done["scorer"] and not done["replaced_filesystem"]
        board._new_frames()
        assert board.frames, "the board drew nothing after the copy"
        assert devkit.first_difference([board.frames[-1:]], [sim_boot[-1:]]) is None
    finally:
        board.close()


def test_flash_brings_an_earlier_image_up_to_date_and_keeps_the_game(own, tmp_path, monkeypatch):
    from pipkeeper.board import image_identity as identity
    earlier, was = _earlier_image(tmp_path)
    drives = tmp_path / "media"
    _cli_env(monkeypatch, drives)
    board = _board(tmp_path / "board", earlier, bootsel_drive=drives / "RPI-RP2")
    try:
        devkit.play(board, devkit.script_presses()[:40])      # a game under way
        board.emu.save()
        games = _records(devkit.image_of(board))
        assert games, "the scripted presses started no game"
        with devkit.serial(board) as port:
            code, text, err = devkit.cli(port, "flash", "--dry-run", "--json")
            assert code == 0, err
            dry = json.loads(text)
            assert dry["image"] == was.as_dict() and dry["image_current"] is False
            assert not dry["image_updated"]
            code, text, err = devkit.cli(port, "flash", "--json")
            assert code == 0, err
            done = json.loads(text)
            assert done["image_updated"] and done["image_current"]
            assert done["image"] == done["image_wanted"] != was.as_dict()
            assert done["copied"] == [] and done["removed"] == []
            # Up to date now: the next flash does nothing.
            code, text, err = devkit.cli(port, "flash", "--json")
            assert code == 0, err
            assert not json.loads(text)["image_updated"]
        board.emu.power(on=False)
        board.emu.save()
        with open(devkit.image_of(board), "rb") as f:
            assert identity.of_image(f.read(0xC0000)).as_dict() == done["image"]
        assert _records(devkit.image_of(board)) == games
    finally:
        board.close()


def test_a_copy_cut_short_keeps_the_games_and_the_next_flash_finishes(own, tmp_path, monkeypatch):
    """The cable pulled in the middle of the image's copy: the board holds
    half an image, and its games. Held in BOOTSEL at power-on (as the
    message says), `pipkeeper flash --uf2` finishes the job."""
    from pipkeeper.board import bootsel, uf2_flash
    from pipkeeper.errors import PipkeeperError
    from pipkeeper.image import build
    earlier, _was = _earlier_image(tmp_path)
    drives = tmp_path / "media"
    _cli_env(monkeypatch, drives)
    board = _board(tmp_path / "board", earlier, bootsel_drive=drives / "RPI-RP2")
    try:
        devkit.play(board, devkit.script_presses()[:40])
        board.emu.save()
        games = _records(devkit.image_of(board))
        built = build.build(devkit.PROFILE, source=devkit.source_tarball(), cache=devkit._IMAGE_CACHE)
        real_copy = bootsel.copy

        def cut(data, drive, name, progress=None):
            real_copy(data[:len(data) // 2 // 512 * 512], drive, name, progress)
            raise PipkeeperError("the RPI-RP2 drive went away in the middle of the copy")

        monkeypatch.setattr(bootsel, "copy", cut)
        with devkit.serial(board) as port:
            with pytest.raises(PipkeeperError, match="went away"):
                uf2_flash.update_image(port, built, "pipkeeper-badger2040.uf2", wait=120)
        monkeypatch.setattr(bootsel, "copy", real_copy)
        board.emu.power(on=False)                          # the cable was the power
        board.emu.save()
        assert _records(devkit.image_of(board)) == games   # half an image, every game
        uf2 = tmp_path / "scorer.uf2"
        uf2.write_bytes(built.uf2())
        board.emu.bootsel()                                # BOOTSEL held at power-on
        with devkit.serial(board) as port:
            code, text, err = devkit.cli(port, "flash", "--uf2", str(uf2), "--json")
            assert code == 0, err
            assert json.loads(text)["scorer"]
            code, text, err = devkit.cli(port, "flash", "--json")
            assert code == 0, err
            again = json.loads(text)
            assert again["image_current"] and not again["image_updated"]
        board.emu.power(on=False)
        board.emu.save()
        assert _records(devkit.image_of(board)) == games
    finally:
        board.close()


def test_uf2_refuses_the_own_image(own):
    code, out, err = devkit.cli(None, "uf2", "--micropython", own, "-o", os.devnull)
    assert code == 1 and err.count("\n") == 1 and "scorer's own image" in err, err


def test_its_native_code_sits_on_4_byte_boundaries(own):
    """The viper functions frozen in the image (the text drawing, the panel's
    layout, the record's fast reader) start on 4-byte boundaries, which the
    RP2040's native code needs for its 32-bit constants and far jumps
    (pipkeeper.image.build.align_native): mpy-tool puts them on 2."""
    from elftools.elf.elffile import ELFFile
    elf = os.path.splitext(own)[0] + ".elf"
    native = []
    with open(elf, "rb") as f:
        e = ELFFile(f)
        for sym in e.get_section_by_name(".symtab").iter_symbols():
            # frozen functions' data: native code in .text, bytecode in .rodata
            shndx = sym["st_shndx"]
            if sym.name.startswith("fun_data_") and isinstance(shndx, int) \
                    and e.get_section(shndx).name == ".text":
                native.append((sym.name, sym["st_value"]))
    assert len(native) >= 5, native
    assert [n for n, a in native if a % 4] == [], native
