# Unit tests that run on the MicroPython unix port (not collected by pytest):
#   micropython -X heapsize=160K mp_units.py MPY_TREE WORKDIR NAME
# test_units.py runs each NAME. Plain asserts are fine here: this file is
# not compiled with optimisation.

import sys
import os
sys.path.insert(0, sys.argv[1])
from shared_engine import fill  # noqa: E402  (a message's English)
WORK = sys.argv[2]
NAME = sys.argv[3]


def t_storage_torn_line():
    from firmware.storage import Storage
    st = Storage(WORK)
    st.ensure_dirs()
    p = st.path("games", "0001.dgn")
    with open(p, "w") as f:
        f.write('[Rules "chickenfoot"]\n1 play\n2 dr')
    assert st.repair(p) is True
    assert open(p).read() == '[Rules "chickenfoot"]\n1 play\n'
    assert st.repair(p) is False            # already whole
    st.append(p, "2 draw")
    assert open(p).read().endswith("1 play\n2 draw\n")


def t_storage_atomic_and_current():
    from firmware.storage import Storage
    st = Storage(WORK)
    st.ensure_dirs()
    st.write_json("settings.json", {"counter": 3})
    assert st.read_json("settings.json") == {"counter": 3}
    names = os.listdir(st.home)
    assert not [n for n in names if n.endswith(".new")], names
    path, n = st.new_game(lambda n: '[Rules "chickenfoot"]\n[Game "x-%04d"]\n' % n)
    assert n == 4 and path.endswith("games/0004.dgn")
    assert st.current() == path
    assert open(st.path("pipkeeper", "current")).read() == "games/0004.dgn\n"
    assert st.read_json("settings.json")["counter"] == 4
    st.set_current("")
    assert st.current() is None
    assert st.list_games()[-1] == "0004.dgn"


def t_storage_current_unreadable_is_no_game_never():
    # Only a pointer that is not there is "no game": a flash that cannot be
    # read (here /pipkeeper is a file, so the pointer's open fails with
    # ENOTDIR) raises, and the restore shows the error screen (issue 25).
    from firmware.storage import Storage
    st = Storage(WORK + "/unreadable")
    os.mkdir(st.root)
    assert st.current() is None             # nothing there yet: no game
    with open(st.home, "w") as f:
        f.write("not a folder")
    try:
        st.current()
    except OSError:
        pass
    else:
        raise AssertionError("an unreadable pointer was taken for no game")


def t_storage_log_bounded():
    from firmware import storage
    st = storage.Storage(WORK)
    for i in range(400):
        st.log("fault %d " % i + "x" * 60)
    assert st.size(st.path("log.txt")) <= storage.LOG_MAX + 200
    assert st.size(st.path("log.old")) > 0


def t_storage_free_space():
    from firmware.storage import Storage
    assert Storage(WORK).free_bytes() > 0


def t_frozen_data_is_read_in_place_and_files_from_the_filesystem():
    # The scorer's own image: a frozen module's __file__ is its frozen name
    # ("firmware/font_big.py"), and the data beside it comes from pkdata
    # (host/pipkeeper/image/build.py), not from a filesystem.
    from firmware import text
    blob = bytes(range(256)) * 4
    class pkdata:       # MicroPython makes no module objects; an import takes any
        FILES = {"firmware/font_big.bin": blob}
    sys.modules["pkdata"] = pkdata
    try:
        f = text.data_file("firmware/font_big.bin")
        f.seek(300)
        buf = bytearray(8)
        f.readinto(buf)
        assert bytes(buf) == blob[300:308]
        with text.data_file("firmware/font_big.bin") as g:
            assert g.read() == blob
        try:
            text.data_file("firmware/i18n/xx.bin")
        except OSError:
            pass
        else:
            raise AssertionError("a data file the image lacks must be missing")
        # A path on the filesystem (the names file, a board's /lib/i18n) is the file.
        p = WORK + "/names.bin"
        with open(p, "wb") as out:
            out.write(b"PKL1")
        with text.data_file(p) as h:
            assert h.read() == b"PKL1"
    finally:
        del sys.modules["pkdata"]


def t_bundle_finds_files_folders_and_nothing_else():
    from firmware import bundle
    _bundle_finds(bundle)


def t_bundle_finds_them_where_paths_share_a_hash():
    # MicroPython's hash of bytes is 16 bits: here every path shares one
    # with others, and each is still told from the rest by its bytes.
    from firmware import bundle
    real = bundle._hash
    bundle._hash = lambda b: len(b) % 3
    try:
        _bundle_finds(bundle)
    finally:
        bundle._hash = real


def _bundle_finds(bundle):
    # The layout host/pipkeeper/board/bundle.py packs, mounted as the board does.
    import vfs
    files = ((b"pkt/__init__.py", b""), (b"pkt/mod.py", b"X = 42\n"),
             (b"pkt/sub/deep.bin", b"\x00\x01\x02"), (b"pkt/modx.py", b"X = 1\n"))
    index = b""
    data = b""
    for p, blob in files:
        index += b"%s %d %d\n" % (p, len(blob), len(data))
        data += blob
    path = WORK + "/t.bundle"
    with open(path, "wb") as f:
        f.write(b"PKB1" + len(index).to_bytes(4, "little") + index + data)
    b = bundle.Bundle(path)
    vfs.mount(b, "/pkt_mnt")
    sys.path.insert(0, "/pkt_mnt")
    try:
        from pkt import mod
        assert mod.X == 42
        assert open("/pkt_mnt/pkt/sub/deep.bin", "rb").read() == b"\x00\x01\x02"
        assert os.stat("/pkt_mnt/pkt/sub")[0] & 0x4000
        assert os.stat("/pkt_mnt/pkt/mod.py")[6] == 7
        assert sorted(os.listdir("/pkt_mnt/pkt")) == ["__init__.py", "mod.py", "modx.py", "sub"]
        for missing in ("/pkt_mnt/pkt/mo", "/pkt_mnt/pkt/mod.p", "/pkt_mnt/nothing", "/pkt_mnt/pkt/sub/deep"):
            try:
                os.stat(missing)
            except OSError:
                pass
            else:
                raise AssertionError(missing)
    finally:
        sys.path.remove("/pkt_mnt")
        vfs.umount("/pkt_mnt")


def t_bundle_misses_do_not_grow_the_heap():
    # Every import asks the bundle for x.py before x.mpy: each miss raised
    # one shared OSError, which kept every traceback it was raised with
    # (64 bytes a miss, ~1 KB a press on USB, never freed: issue 22).
    import gc
    import vfs
    from firmware import bundle
    index = b"pkt/mod.py 7 0\n"
    path = WORK + "/m.bundle"
    with open(path, "wb") as f:
        f.write(b"PKB1" + len(index).to_bytes(4, "little") + index + b"X = 42\n")
    vfs.mount(bundle.Bundle(path), "/pkt_m")

    def misses(n):
        for i in range(n):
            try:
                os.stat("/pkt_m/pkt/nothing.py")
            except OSError:
                pass
            try:
                open("/pkt_m/pkt/nothing.mpy", "rb")
            except OSError:
                pass
    try:
        misses(10)
        gc.collect()
        before = gc.mem_free()
        misses(200)
        gc.collect()
        lost = before - gc.mem_free()
        assert lost < 256, lost
    finally:
        vfs.umount("/pkt_m")


def t_columns_viper_matches_python():
    import random
    from firmware import board, columns
    # the unix port has the native emitters: the viper transpose is the one tested
    assert columns._block is columns._block_viper
    src = bytearray(board.BUF_SIZE)
    for i in range(len(src)):
        src[i] = random.getrandbits(8)
    a = bytearray(board.BUF_SIZE)
    b = bytearray(board.BUF_SIZE)
    for layout, whole in ((columns.COLUMNS, columns.to_columns), (columns.GATES, columns.to_gates)):
        whole(src, a, 0xFF)
        for sb in range(columns.BLOCKS):
            columns._block_py(src, b, 0xFF, layout[0], layout[1], sb, sb * 128)
        assert a == b
        # a Frame's blocks, one after the other, are the whole layout
        f = columns.Frame(layout)
        f.src = src
        assert b"".join(bytes(f.block(i)) for i in range(f.BLOCKS)) == a
    # pixel (x, y) of the framebuffer is bit 7 - y%8 of byte x*16 + y//8
    src = bytearray(board.BUF_SIZE)
    src[5 * 37 + 2] = 0x20       # x = 2*8 + 2 = 18, y = 5
    columns.to_columns(src, a, 0)
    assert a[18 * 16 + 0] == 1 << (7 - 5)
    assert sum(a) == 1 << (7 - 5)
    # ... and for the SSD1680, the bottom row first: y = 5 is source 122,
    # byte 15 of line 18, bit 7 - 122 % 8
    columns.to_gates(src, a, 0)
    assert a[18 * 16 + 15] == 1 << (7 - 122 % 8)
    assert sum(a) == 1 << (7 - 122 % 8)


def t_text_fits_and_wraps():
    from firmware import text
    mid = text.font("mid")
    assert text.width("", mid) == 0
    assert text.width("Ann", None) == 24
    s = text.fit("Bartholomew the Great", mid, 60)
    assert text.width(s, mid) <= 60 and s.endswith(".")
    lines = text.wrap("seat 3 cannot play 5-2: a chicken foot on 7-7 needs 2 more toes", mid, 200)
    assert len(lines) >= 2 and all(text.width(l, mid) <= 200 for l in lines)
    assert text.width("\u00c9lodie", text.font("big")) == text.width("Elodie", text.font("big"))


def t_sim_board_without_channels():
    from firmware.board_sim import SimBoard
    b = SimBoard()
    assert b.wait_press() is None
    b.update(bytearray(4736), True)
    assert b.updates == 1 and b.last_full


def t_open_board_chooses_the_sim_board_on_the_unix_port():
    # The choice is in the app (firmware.board imports no board class).
    import sys
    from firmware.app import open_board
    assert "firmware.board_sim" not in sys.modules
    b = open_board()
    assert type(b).__name__ == "SimBoard" and b.wait_press() is None


def _fb():
    import framebuf
    buf = bytearray(4736)
    return buf, framebuf.FrameBuffer(buf, 296, 128, framebuf.MONO_HLSB)


def _inked(buf, x, y):
    return buf[y * 37 + (x >> 3)] & (0x80 >> (x & 7))


def _shows(buf, line, x, y):
    """Whether ``line`` in framebuf's own font is drawn at (x, y) in ``buf``."""
    want, fb = _fb()
    fb.text(line, x, y, 1)
    for yy in range(y, y + 8):
        for xx in range(x, x + 8 * len(line)):
            if _inked(want, xx, yy) and not _inked(buf, xx, yy):
                return False
    return True


def t_text_glyphs_match_a_blit_of_each_glyph_box():
    # Every glyph of both fonts, ink on paper and inverse, over a patterned
    # background and clipped at the edges, against a FrameBuffer made for
    # that glyph alone: the glyph FrameBuffers shared per font draw exactly
    # its w x h box.
    import framebuf
    from firmware import text
    inverse = framebuf.FrameBuffer(bytearray(b"\x80"), 2, 1, framebuf.MONO_HLSB)
    for name in ("big", "mid"):
        f = text.font(name)
        data = open(f.PATH, "rb").read()
        for i in range(len(f.WIDTHS)):
            w = f.WIDTHS[i]
            h = f.ROWS[i]
            ch = f.CHARS[i]
            o = f.OFFS[2 * i] | (f.OFFS[2 * i + 1] << 8)
            n = ((w + 7) >> 3) * h
            for x, y in ((3 + i % 5, 7), (-3, -2), (290, 120)):
                for c in (1, 0):
                    got, fb = _fb()
                    want, ref = _fb()
                    for k in range(0, 4736, 3):
                        got[k] = want[k] = 0x5A
                    text.draw(fb, ch, x, y, f, c)
                    if h:
                        g = framebuf.FrameBuffer(bytearray(data[o:o + n]), w, h, framebuf.MONO_HLSB)
                        if c:
                            ref.blit(g, x, y + f.TOPS[i], 0)
                        else:
                            ref.blit(g, x, y + f.TOPS[i], -1, inverse)
                    assert got == want, (name, ch, x, y, c)


def t_text_draw_allocates_nothing_per_character():
    import gc
    from firmware import text
    buf, fb = _fb()
    mid = text.font("mid")
    # Warm up with the very characters measured: the first time MicroPython
    # meets a character it may intern it as a qstr (a one-off allocation
    # whose size depends on the heap's layout), which is not drawing's cost.
    text.draw(fb, "Bartholomew plays 6-6 on the chicken foot", 0, 0, mid, 0)

    def cost(s, c):
        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        text.draw(fb, s, 0, 0, mid, c)
        b = gc.mem_alloc()
        gc.enable()
        return b - a

    for c in (1, 0):
        assert cost("Bartholomew plays 6-6 on the chicken foot", c) == cost("B", c)


def _broken_font(name):
    raise OSError(2)


def t_error_screen_without_fonts():
    from firmware import text
    from firmware.screens import error
    text.font = _broken_font
    buf, fb = _fb()
    error.draw({"message": "OSError: [Errno 28] ENOSPC", "where": "press A"}, fb)
    want, ref = _fb()
    error.plain(ref, "OSError: [Errno 28] ENOSPC", "press A")
    assert buf == want
    assert _shows(buf, "OSError: [Errno 28] ENOSPC", 3, 14)
    assert _shows(buf, "press A", 2, 105)
    assert _shows(buf, "Something went wrong", 2, 2) is False     # drawn in inverse
    assert _inked(buf, 0, 0) and _inked(buf, 295, 10)


def t_error_screen_when_blit_fails():
    # What MicroPython before 1.26 did with a blit from a tuple, and what any
    # framebuf lacking what text.draw needs does: the message still shows.
    import framebuf
    from firmware.screens import error

    class NoBlit(framebuf.FrameBuffer):
        def blit(self, *args):
            raise TypeError()

    buf = bytearray(4736)
    fb = NoBlit(buf, 296, 128, framebuf.MONO_HLSB)
    msg = "TypeError: a long message that needs more than one line of the small font"
    error.draw({"message": msg, "where": "draw menu"}, fb)
    want, ref = _fb()
    error.plain(ref, msg, "draw menu")
    assert buf == want
    lines = error.lines(msg, 36)
    assert len(lines) == 2 and all(len(l) <= 36 for l in lines)
    for k, line in enumerate(lines):
        assert _shows(buf, line, 3, 14 + 10 * k)


def t_error_plain_lines_and_layout():
    from firmware.screens import error, ui
    assert (error._W, error._H, error._BAR_Y, error._A_X) == (ui.W, ui.H, ui.BAR_Y, ui._CX[0])
    assert error.lines("", 10) == []
    assert error.lines("a bb ccc", 4) == ["a bb", "ccc"]
    assert error.lines("x" * 25, 10) == ["x" * 10, "x" * 10, "x" * 5]
    assert error.lines("ok " + "y" * 12, 10) == ["ok", "y" * 10, "yy"]
    # as many lines as fit above "where", and A's label as ui.buttons draws it
    buf, fb = _fb()
    error.plain(fb, " ".join(["word%d" % i for i in range(80)]), None)
    want, ref = _fb()
    ui.buttons(ref, ("OK", None, None, None, None))
    for y in range(ui.BAR_Y - 1, 128):
        for x in range(296):
            assert bool(_inked(buf, x, y)) == bool(_inked(want, x, y)), (x, y)
    assert not any(_inked(buf, x, y) for y in range(14 + 9 * 10, ui.BAR_Y - 1) for x in range(296))


from firmware.board import Board  # noqa: E402


class _Board(Board):
    flash_root = WORK
    name = "test"

    def __init__(self):
        self.frames = []

    def update(self, buf, full=False, old=None):
        self.frames.append((bytes(buf), full))


def _fails(*args):
    raise TypeError()


def t_render_shows_a_draw_fault_in_plain_text():
    # A screen's text fails to draw (as a tuple blit did on 1.23) and so does
    # the error screen's: the message is still on the panel, from framebuf's
    # own font, and the traceback is in the log.
    from firmware import app, heap, text
    from firmware.screens import error
    a = app.App(_Board())
    a.boot()
    text.draw = _fails
    heap.evict = lambda *args: None     # the fault's shed keeps the broken module
    a.render(False)
    frame, full = a.board.frames[-1]
    assert full
    assert a.ui["s"] == "err" and a.ui["m"] == "TypeError" and a.ui["w"] == "draw menu", a.ui
    # The panel says it to players; the technical text is in the log.
    from firmware.flows.error import say, kind
    assert kind(a.ui) == ("bug", None)
    want, ref = _fb()
    error.plain(ref, say("bug"))
    assert frame == bytes(want)
    assert _shows(frame, "Something", 3, 14)
    log = open(WORK + "/log.txt").read()
    assert "[draw menu]" in log and "TypeError" in log


def t_render_shows_the_fault_without_the_error_screen():
    # Even the error screen's module failing leaves the message on the panel.
    from firmware import app, heap, text
    from firmware.screens import error
    a = app.App(_Board())
    a.boot()
    text.draw = _fails
    error.draw = _fails
    heap.evict = lambda *args: None     # the fault's shed keeps the broken module
    a.render(False)
    frame, full = a.board.frames[-1]
    # the players' sentence, broken at spaces (never mid-word)
    assert _shows(frame, "Something unexpected went wrong (the", 2, 2)
    assert _shows(frame, "details are in the board's log).", 2, 12)


def t_faults_are_told_to_players_and_logged():
    # Every fault the board can meet: a sentence that says what to do on
    # the panel (no exception text), the exception itself in the log.
    from firmware import app, core
    from firmware.epd import PanelError
    from firmware.flows import error
    cases = (
        (OSError(28), "press A", "full", "delete synced games from History"),
        (OSError(5), "press B", "flash", "reflash"),
        (OSError(2), "press C", "file", "pipkeeper flash"),
        (ImportError("no module named 'firmware.flows.play'"), "press A", "file", "pipkeeper flash"),
        (MemoryError(), "press A", "mem", "out of memory"),
        (PanelError("UC8151 did not answer"), "press A", "panel", "screen did not answer"),
        (ValueError("the checkpoint's checksum does not match"), "restore", "saved", "saved game"),
        (TypeError("x"), "draw turn", "bug", "board's log"),
    )
    for e, where, kind, words in cases:
        a = app.App(_Board())
        a.boot()
        a.fault(e, where)
        assert error.kind(a.ui)[0] == kind, (e, a.ui)
        name, v = core.view(a.ctx, a.ui)
        said = fill(v["message"])      # a message of the catalogue: its English
        assert name == "error" and words in said, (kind, v)
        assert "Error" not in said and "Errno" not in said, v
        a.render(True)
        log = open(WORK + "/log.txt").read()
        assert ("[%s]" % where) in log and type(e).__name__ in log, log
        os.remove(WORK + "/log.txt")


def t_a_record_that_does_not_replay_is_told_to_players():
    from firmware import app, core
    from firmware.storage import Storage
    st = Storage(WORK)
    st.ensure_dirs()
    with open(st.path("games", "0003.dgn"), "w") as f:
        f.write('[Rules "chickenfoot"]\n[Players "Ann" "Bob"]\nround 9-9 lead 1\n2 play\n')
    st.set_current(st.path("games", "0003.dgn"))
    a = app.App(_Board())
    a.boot()
    name, v = core.view(a.ctx, a.ui)
    assert "Game 0003 cannot be read back" in fill(v["message"]), v
    assert "RecordError" in open(WORK + "/log.txt").read()


def _history_board():
    # 0001 synced, 0002 synced but grown since, 0003 never synced,
    # 0004 synced and the game in progress.
    from firmware.storage import Storage
    st = Storage(WORK)
    st.ensure_dirs()
    rec = '[Rules "chickenfoot"]\n[Players "Ann" "Bob"]\n'
    sizes = {}
    for n in ("0001", "0002", "0003", "0004"):
        with open(st.path("games", n + ".dgn"), "w") as f:
            f.write(rec)
        sizes[n] = len(rec)
    with open(st.path("pipkeeper", "synced"), "w") as f:
        for n in ("0001", "0002", "0004"):
            f.write("%d %s.dgn\n" % (sizes[n], n))
    st.append(st.path("games", "0002.dgn"), "round 9-9 lead 1")
    st.set_current(st.path("games", "0004.dgn"))
    return st


def t_history_deletes_only_synced_games_after_a_confirming_press():
    from firmware import core
    from firmware.flows import history
    st = _history_board()
    assert [history.synced(st, n) for n in st.list_games()] == [True, False, False, True]
    ctx = core.Ctx(store=st)
    # newest first: 0004 (in progress), 0003, 0002 (grown), 0001
    offered = []
    for c in range(4):
        name, v = history.view(ctx, {"s": "hist", "c": c}, "hist")
        offered.append(v["labels"][1])
        ui, act = history.press(ctx, {"s": "hist", "c": c}, "hist", "B")
        if v["labels"][1] is None:
            assert ui == {"s": "hist", "c": c}, ui    # B does nothing
    assert offered == [None, None, None, ("Delete",)], offered
    ui, act = history.press(ctx, {"s": "hist", "c": 3}, "hist", "B")
    assert ui.get("d") == "0001.dgn" and act is None
    name, v = history.view(ctx, ui, "hist")
    assert fill(v["title"]) == "Delete game 0001?" and v["labels"][0] == ("Delete",), v
    kept, _ = history.press(ctx, ui, "hist", "C")          # C keeps it
    assert "d" not in kept and "0001.dgn" in st.list_games()
    done, _ = history.press(ctx, ui, "hist", "A")          # A deletes it
    assert st.list_games() == ["0002.dgn", "0003.dgn", "0004.dgn"], st.list_games()
    assert done == {"s": "hist", "c": 2}, done
    history.view(ctx, done, "hist")


def t_a_usb_press_keeps_the_modules_its_last_frame_was_drawn_with():
    # On USB the board stays up: a press forgets the screen and flow modules
    # but those the last frame was drawn with (importing them again was a
    # quarter of a press), and never keeps a module that holds one it forgot
    # (that one would be loaded twice).
    from firmware import app, heap

    class B(_Board):
        def prepare(self):
            pass

        def update(self, buf, full=False, old=None):
            pass              # no frames kept: the heap is the board's

    a = app.App(B())
    a.boot()
    a.render(True)

    def loaded():
        return set(n for n in sys.modules if n.startswith(heap.SCREENS))

    first = a.drew_with
    assert first and loaded() == set(first), (first, loaded())
    held = [id(sys.modules[n]) for n in first]
    a.press("DOWN")                   # the set-up menu's next row: the same screen
    assert a.drew_with == first, a.drew_with
    assert [id(sys.modules[n]) for n in first] == held     # not imported again
    # on to other screens: the scripted game's set-up and its first plays
    for button in ("UP", "A", "DOWN", "DOWN", "DOWN", "B", "A", "DOWN", "DOWN", "B", "B",
                   "A", "A", "A", "A"):
        before = a.drew_with
        a.press(button)
        now = loaded()
        assert now <= set(before) | set(a.drew_with), (before, a.drew_with, now)
        assert set(a.drew_with) <= now
        for n in now:
            ui = getattr(sys.modules[n], "ui", None)
            if ui is not None and n.startswith("firmware.screens."):
                assert ui is sys.modules["firmware.screens.ui"], n
        assert a.ui.get("s") != "err", (button, a.ui)
    assert a.drew_with != first, "the presses never left the first screen"


def t_on_usb_the_engine_is_loaded_ahead_of_the_press_that_starts_a_game():
    # The set-up screens never need the engine; the press that starts the
    # game does. On USB the board loads it while it waits for that press;
    # on battery (the next press is a cold boot) it does nothing more.
    from firmware import app, heap

    class B(_Board):
        usb = True

        def prepare(self):
            pass

        def update(self, buf, full=False, old=None):
            pass

        def wake_button(self):
            return None

        def idle(self):
            pass

        def halt(self):
            pass

        def on_usb(self):
            return self.usb

        def wait_press(self, ms=None):
            return None

        def dozes(self):
            return False     # (a fresh board has no game: it would not doze anyway)

    names = ("shared_engine.engine", "shared_engine.dgn")
    for usb in (False, True):
        heap.evict(names)             # as a fresh boot: neither loaded
        b = B()
        b.usb = usb
        a = app.main(b)
        assert a.ctx.game is None and a.ui.get("s") != "err", a.ui
        # the engine; the record's module too where the heap has room (not
        # in the 64-bit unix port's 160 KB, where objects are twice the size)
        assert ("shared_engine.engine" in sys.modules) == usb, usb
        assert usb or "shared_engine.dgn" not in sys.modules


globals()["t_" + NAME]()
print("ok")
