"""Finding and talking to boards; pipkeeper flash on a virtual board."""

import json
import os
import pty
import time
from pathlib import Path

import pytest
import serial

import firmware
from pipkeeper.board import bundle, flash, link, ports
from pipkeeper.errors import PipkeeperError


def test_port_choice(monkeypatch):
    monkeypatch.setenv(ports.ENV_VAR, "/dev/from-env")
    assert ports.find_port("/dev/explicit") == "/dev/explicit"
    assert ports.find_port() == "/dev/from-env"
    monkeypatch.delenv(ports.ENV_VAR)
    monkeypatch.setattr(ports, "candidates", lambda: [])
    with pytest.raises(PipkeeperError, match="no board found.*--port"):
        ports.find_port()
    monkeypatch.setattr(ports, "candidates", lambda: [("/dev/ttyACM0", ""), ("/dev/ttyACM1", "")])
    with pytest.raises(PipkeeperError, match="several boards found"):
        ports.find_port()
    monkeypatch.setattr(ports, "candidates", lambda: [("/dev/ttyACM0", "Board in FS mode")])
    assert ports.find_port() == "/dev/ttyACM0"


def test_usb_id_matching(monkeypatch):
    class Info:
        def __init__(self, device, vid, pid):
            self.device, self.vid, self.pid, self.description = device, vid, pid, ""

    from serial.tools import list_ports
    monkeypatch.setattr(list_ports, "comports", lambda: [
        Info("/dev/ttyUSB0", 0x10C4, 0xEA60), Info("/dev/ttyACM3", 0x2E8A, 0x0005)])
    assert ports.candidates() == [("/dev/ttyACM3", "")]


def test_no_board_at_port():
    with pytest.raises(PipkeeperError, match="no board at /dev/nonexistent"):
        with link.connect("/dev/nonexistent"):
            pass


def test_busy_port(board):
    other = serial.Serial(board.port, exclusive=True)
    try:
        with pytest.raises(PipkeeperError, match="is busy"):
            with link.connect(board.port):
                pass
    finally:
        other.close()


def test_not_micropython():
    master, slave = pty.openpty()  # a device that never answers
    try:
        start = time.monotonic()
        with pytest.raises(PipkeeperError, match="does not answer like MicroPython"):
            with link.connect(os.ttyname(slave)):
                pass
        assert time.monotonic() - start < 10
    finally:
        os.close(master)
        os.close(slave)


def test_board_info_and_errors(board):
    with link.connect(board.port) as l:
        info = l.info()
        assert info.mpy_version == 6 and info.arch == "x64" and info.is_virtual
        assert l.exec("print(6*7)") == b"42\n"
        with pytest.raises(link.BoardError, match="ZeroDivisionError"):
            l.exec("1/0")
        assert l.eval("[1, 'a']") == [1, "a"]  # still usable after an error


def test_incompatible_mpy_version():
    info = link.BoardInfo("rp2", (1, 18, 0), 5 | (4 << 10), "e66", 1, 1)
    assert info.arch == "armv6m"
    with pytest.raises(PipkeeperError, match="incompatible .mpy version.*v5"):
        flash.check_target(info)
    ok = link.BoardInfo("rp2", (1, 24, 0), 6 | (2 << 8) | (4 << 10), "e66", 1, 1)
    assert flash.check_target(ok)[0] == ["-march=armv6m"]
    bare = link.BoardInfo("rp2", (1, 24, 0), 6, "", 1, 1)
    assert flash.check_target(bare)[0] == []


def test_flash_copies_only_what_changed(board, cache):
    with link.connect(board.port) as l:
        dry = flash.flash(l, dry_run=True)
    assert dry.copied and not (board.root / "main.py").exists()
    with link.connect(board.port) as l:
        first = flash.flash(l)
    assert len(first.copied) == len(dry.copied) and not first.unchanged
    packed = bundle.unpack((board.root / "lib" / "pipkeeper.bundle").read_bytes())
    assert packed["shared_engine/engine.mpy"][:2] == b"M\x06"
    assert (board.root / "main.py").exists() and (board.root / "lib" / "pklink.mpy").exists()
    assert (board.root / "boot.py").read_text().startswith("# Written by `pipkeeper flash`")
    # the fonts' glyph bitmaps, read at run time beside their modules
    for font in ("font_big", "font_mid"):
        assert packed["firmware/" + font + ".bin"] == (
            Path(firmware.__file__).parent / (font + ".bin")).read_bytes()
    assert not list(board.root.rglob("*.tmp"))
    assert first.flash_free > 0
    # a module of an older layout is removed; a changed file is sent again
    stale = board.root / "lib" / "firmware" / "old_screen.mpy"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"M\x06stale")
    (board.root / "lib" / "pkbundle.mpy").write_bytes(b"corrupt")
    with link.connect(board.port) as l:
        second = flash.flash(l)
    assert [i.remote for i in second.copied] == ["/lib/pkbundle.mpy"]
    assert second.removed == ["/lib/firmware/old_screen.mpy"] and not stale.exists()
    with link.connect(board.port) as l:
        third = flash.flash(l)
        forced = flash.flash(l, force=True)
    assert third.copied == [] and third.removed == []
    assert len(forced.copied) == len(first.copied)


def test_flash_under_badger_os_installs_an_app(board, cache):
    # A Badger running Pimoroni's launcher: its main.py and apps stay.
    (board.root / "launcher.py").write_text("# the Badger OS launcher\n")
    (board.root / "main.py").write_text("import launcher\n")
    (board.root / "examples").mkdir()
    (board.root / "examples" / "badge.py").write_text("# another app\n")
    (board.root / "state").mkdir()
    (board.root / "state" / "launcher.json").write_text('{"page": 1, "running": "launcher"}')
    with link.connect(board.port) as l:
        first = flash.flash(l)
    assert first.badger_os
    assert (board.root / "main.py").read_text() == "import launcher\n"
    assert (board.root / "examples" / "badge.py").exists()
    app = board.root / "examples" / "pipkeeper.py"
    assert app.read_bytes() == (Path(firmware.__file__).parent / "main.py").read_bytes()
    assert (board.root / "examples" / "icon-pipkeeper.jpg").read_bytes()[:2] == b"\xff\xd8"
    assert json.loads((board.root / "state" / "launcher.json").read_text())["running"] == "launcher"
    with link.connect(board.port) as l:
        again = flash.flash(l, boot_app=True)
    assert not again.copied and not again.removed  # the launcher's files are not ours
    state = json.loads((board.root / "state" / "launcher.json").read_text())
    assert state == {"page": 1, "running": "/examples/pipkeeper"}


def test_virtual_board_renames_atomically(board):
    # MicroPython's VfsPosix(DIR) at / renames a file onto itself, quietly;
    # the virtual boards mount DIR through sim/mp/flashdir.py, which does not.
    (board.root / "a").write_text("old")
    (board.root / "a.tmp").write_text("new")
    with link.connect(board.port) as l:
        l.exec("import os\nos.rename('/a.tmp', '/a')")
    assert (board.root / "a").read_text() == "new" and not (board.root / "a.tmp").exists()


def test_flash_board_writes_the_build(board, cache):
    """--board NAME writes /board.txt and the /boot.py of that build; a
    flash without it keeps what the board has."""
    from hardware import profiles
    from pipkeeper.board.bootfile import boot_py
    with link.connect(board.port) as l:
        first = flash.flash(l, board="pico_epaper29")
    assert (board.root / "board.txt").read_text() == "pico_epaper29\n"
    assert first.board == "pico_epaper29" and first.board_written and not first.board_assumed
    assert (board.root / "boot.py").read_text() == boot_py(profiles.load("pico_epaper29"))
    with link.connect(board.port) as l:
        again = flash.flash(l)
    assert again.board == "pico_epaper29" and not again.board_written and not again.board_assumed
    assert (board.root / "board.txt").read_text() == "pico_epaper29\n"
    assert again.copied == []
    with link.connect(board.port) as l:
        other = flash.flash(l, board="pico_inky_pack")
    assert (board.root / "board.txt").read_text() == "pico_inky_pack\n"
    assert [i.remote for i in other.copied] == ["/boot.py"]     # its buttons differ
    with link.connect(board.port) as l:
        dry = flash.flash(l, board="badger2040w", dry_run=True)
    assert dry.board_written and (board.root / "board.txt").read_text() == "pico_inky_pack\n"


def test_flash_without_board_txt_says_what_it_assumes(board, cache):
    said = []
    with link.connect(board.port) as l:
        result = flash.flash(l, log=said.append)
    assert result.board == "badger2040" and result.board_assumed and result.board_written
    assert any("no /board.txt" in s and "badger2040 build" in s and "pico_epaper29" in s
               for s in said), said
    assert result.as_dict()["board_assumed"] is True
    # ... once: the board now names that build, which later flashes keep
    assert (board.root / "board.txt").read_text() == "badger2040\n"
    said = []
    with link.connect(board.port) as l:
        again = flash.flash(l, log=said.append)
    assert again.board == "badger2040" and not again.board_assumed and not again.board_written
    assert not [s for s in said if "board.txt" in s], said


def test_flash_refuses_an_unknown_build(board, cache):
    with link.connect(board.port) as l:
        with pytest.raises(PipkeeperError, match="unknown build 'pico2'; the builds are: "
                           "badger2040, badger2040w, pico_inky_pack, pico_epaper29"):
            flash.flash(l, board="pico2")
    assert not (board.root / "main.py").exists()            # nothing written
    (board.root / "board.txt").write_text("nosuch\n")
    with link.connect(board.port) as l:
        with pytest.raises(PipkeeperError, match=r"/board.txt names 'nosuch'.*--board NAME"):
            flash.flash(l)


def test_virtual_board_reports_a_boards_flash(board, cache):
    """The virtual board's flash is a Badger 2040's 1,408 KB LittleFS, less
    what its folder holds, not the laptop's disk (issue 22, item 14): a
    10 KB record takes three blocks (issue 32, item 11: LittleFS's own count,
    tests/host/test_sim_flash_space.py)."""
    with link.connect(board.port) as l:
        info = l.info()
        assert info.flash_total == 1408 * 1024
        free = info.flash_free
        assert 0 < free < info.flash_total
        (board.root / "games" / "big.dgn").write_bytes(b"x" * (10 * 1024))
        assert l.flash_space() == (info.flash_total, free - 12 * 1024)
        result = flash.flash(l, dry_run=True)
        assert (result.flash_total, result.flash_free) == (info.flash_total, free - 12 * 1024)


def test_flash_with_nothing_to_copy_renders_no_pack(board, cache, monkeypatch):
    """The languages' packs are rendered once and then read from the cache:
    rendering them was 2.4 s of a flash that had nothing to copy."""
    from pipkeeper.i18n import render
    with link.connect(board.port) as l:
        first = flash.flash(l)

    def no_render():
        raise AssertionError("the packs were rendered again")
    monkeypatch.setattr(render, "files", no_render)
    with link.connect(board.port) as l:
        again = flash.flash(l)
    assert again.copied == [] and len(again.unchanged) == len(first.copied)


def test_pack_cache_follows_its_inputs(tmp_path, monkeypatch):
    from pipkeeper.i18n import packcache, render
    made = render.files()
    assert packcache.files(tmp_path) == made
    calls = []
    monkeypatch.setattr(render, "files", lambda: calls.append(1) or {"x.bin": b"new"})
    assert packcache.files(tmp_path) == made and not calls       # from the cache
    source = tmp_path / "catalogue.py"
    source.write_text("A = 1\n")
    inputs = packcache._inputs
    monkeypatch.setattr(packcache, "_inputs", lambda: inputs() + [source])
    assert packcache.files(tmp_path) == {"x.bin": b"new"}       # another key: made again
    source.write_text("A = 2\n")
    assert packcache.files(tmp_path) == {"x.bin": b"new"} and len(calls) == 2


def test_the_words_as_text_follow_the_firmwares_messages():
    """``<lang>.txt`` holds the messages of firmware modules
    (render.TEXT_SOURCES): a message added there must not find the cache's
    old file, where the board would write the English in its place."""
    from pipkeeper.i18n import packcache, render, sources
    inputs = [p.resolve() for p in packcache._inputs()]
    for f in render.TEXT_SOURCES:
        assert (sources.ROOT / f).resolve() in inputs, f


def test_every_session_ends_with_a_real_boards_reset():
    """A session takes the scorer apart (Ctrl-C, its modules dropped): a
    real board left at its REPL takes no press. So every session, a
    read-only one too (`flash --dry-run`, `roster`), ends with a soft reset
    (Ctrl-D after leaving the raw REPL); not the sim's unix port, which
    Ctrl-D would end (the sim resets it when the host lets go)."""
    class Wire:
        out = b""

        def write(self, data):
            self.out += data

    class Transport:
        def __init__(self):
            self.serial = Wire()

        def close(self):
            pass

    sent = {}
    for platform in ("rp2", "linux"):
        t = Transport()
        session = link.Link(t, "/dev/ttyACM0")
        session._info = link.BoardInfo(platform, (1, 28, 0), 6, "", 1, 1)
        session.close()
        sent[platform] = t.serial.out
    assert sent == {"rp2": b"\r\x02\x04", "linux": b"\r\x02"}


def test_a_board_left_mid_transfer_is_reached_by_the_next_session(board):
    """Issue 22, item 15: the host is stopped by Ctrl-C in the middle of a
    transfer; the board goes on sending what it was asked for, deaf to
    Ctrl-C for a while (the bare virtual board takes none while it runs, as
    a board in a long flash write), and the next session must still get
    in, by itself. (It once sent Ctrl-D on its second attempt: queued
    behind the transfer, that soft-reset the board, here its end.)"""
    stream = "import time\nfor i in range(50):\n print('QUJD' * 16)\n time.sleep(0.05)\n"
    with pytest.raises(KeyboardInterrupt):
        with link.connect(board.port) as l:
            l.start(stream)
            l.serial.read(200)          # the transfer is under way
            raise KeyboardInterrupt
    start = time.monotonic()
    with link.connect(board.port) as l:
        assert l.info().platform == "linux"
        assert l.eval("6*7") == 42
    assert time.monotonic() - start < link.ENTER_TIMEOUT * link.RECOVER
