# Unit tests that run on the MicroPython unix port (not collected by pytest):
#   micropython -X heapsize=160K mp_units.py MPY_TREE WORKDIR NAME
# test_units.py runs each NAME. Plain asserts are fine here: this file is
# not compiled with optimisation.
import sys
import os
sys.path.insert(0, sys.argv[1])
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


def t_columns_viper_matches_python():
    import random
    from firmware import board, columns
    src = bytearray(board.BUF_SIZE)
    for i in range(len(src)):
        src[i] = random.getrandbits(8)
    a = bytearray(board.BUF_SIZE)
    b = bytearray(board.BUF_SIZE)
    columns.to_columns(src, a, 0xFF)
    columns._columns_py(src, b, 0xFF)
    assert a == b
    # pixel (x, y) of the framebuffer is bit 7 - y%8 of byte x*16 + y//8
    src = bytearray(board.BUF_SIZE)
    src[5 * 37 + 2] = 0x20       # x = 2*8 + 2 = 18, y = 5
    columns.to_columns(src, a, 0)
    assert a[18 * 16 + 0] == 1 << (7 - 5)
    assert sum(a) == 1 << (7 - 5)


def t_uc8151_driver_on_a_fake_bus():
    class Pin:
        def __init__(self, v=1):
            self.v = v
            self.log = []

        def value(self, v=None):
            if v is None:
                return self.v
            self.v = v

    class SPI:
        def __init__(self):
            self.out = []

        def write(self, b):
            self.out.append((dc.v, bytes(b)))

    import time
    if not hasattr(time, "sleep_ms"):
        time.sleep_ms = lambda ms: None
    if not hasattr(time, "ticks_ms"):
        time.ticks_ms = lambda: 0
        time.ticks_diff = lambda a, b: a - b
    from firmware.uc8151 import UC8151
    dc = Pin(0)
    spi = SPI()
    busy = Pin(1)               # not busy (busy level 0)
    d = UC8151(spi, Pin(1), dc, Pin(1), busy, 0)
    cols = bytearray(4736)
    d.show(cols, fast=False)
    cmds = [b[0] for v, b in spi.out if v == 0]
    assert 0x13 in cmds and 0x12 in cmds and 0x02 in cmds      # data, refresh, off
    assert cmds.index(0x04) < cmds.index(0x13) < cmds.index(0x12)
    data = [b for v, b in spi.out if v == 1 and len(b) == 4736]
    assert len(data) == 1
    spi.out.clear()
    d.show(cols, fast=True)
    cmds = [b[0] for v, b in spi.out if v == 0]
    assert 0x20 in cmds and 0x24 in cmds                        # the fast waveform


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


globals()["t_" + NAME]()
print("ok")
