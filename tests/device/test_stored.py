"""The store the device fixtures are made once in (stored.py), without a
board: what it promises the fixtures (made once for two processes at the
same time, read back as a copy of one's own, a failure never kept for a
later run, a new key when an input changes) is what lets them trust it."""

import multiprocessing
import os
import time

import pytest

import stored


def INPUTS():
    """The key's inputs besides the fixture's own, fixed: the sources of a
    checkout change as others work in it, and only what a test changes
    may change here."""
    return "the same sources and tools"


@pytest.fixture(autouse=True)
def _needs_device():
    """No emulated board here (conftest's autouse fixture asks for one)."""


def _make(log, pause=0.0):
    """A fixture's make: one line in ``log`` a call, a flash image, a value."""
    def make(folder):
        with open(log, "a") as f:
            f.write("made\n")
        time.sleep(pause)
        os.makedirs(os.path.join(folder, "sim"), exist_ok=True)
        with open(os.path.join(folder, "flash.img"), "wb") as f:
            f.write(b"\xff" * 4096)
        with open(os.path.join(folder, "sim", "0001.dgn"), "w") as f:
            f.write("round 1\n")
        return 0, "out", "", ["frame"]
    return make


def _worker(run, kept, log, dest, results):
    store = stored.Store(run, kept, INPUTS)
    results.put(store.once("flashed-upstream", ["badger2040"], _make(log, pause=2.0), dest))


def test_two_workers_at_once_make_it_once(tmp_path):
    log = str(tmp_path / "log")
    ctx = multiprocessing.get_context("spawn")     # as two pytest-xdist workers: nothing shared
    results = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(tmp_path / "run", tmp_path / "kept", log,
                                               str(tmp_path / ("gw%d" % i)), results)) for i in range(2)]
    for p in procs:
        p.start()
    got = [results.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(60)
    assert got == [(0, "out", "", ["frame"])] * 2
    assert open(log).read() == "made\n"
    for i in range(2):
        assert (tmp_path / ("gw%d" % i) / "flash.img").read_bytes() == b"\xff" * 4096
        assert (tmp_path / ("gw%d" % i) / "sim" / "0001.dgn").read_text() == "round 1\n"


def test_a_reader_gets_a_copy_of_its_own(tmp_path):
    store = stored.Store(tmp_path / "run", tmp_path / "kept", INPUTS)
    log = str(tmp_path / "log")
    store.once("scripted-upstream", [], _make(log), tmp_path / "a")
    (tmp_path / "a" / "flash.img").write_bytes(b"written by a test")
    store.once("scripted-upstream", [], _make(log), tmp_path / "b")
    assert (tmp_path / "b" / "flash.img").read_bytes() == b"\xff" * 4096
    assert open(log).read() == "made\n"
    # and a later run (another run folder) reads what this one kept
    later = stored.Store(tmp_path / "run2", tmp_path / "kept", INPUTS)
    assert later.once("scripted-upstream", [], _make(log), tmp_path / "c") == (0, "out", "", ["frame"])
    assert open(log).read() == "made\n"


def test_a_failure_serves_this_run_only(tmp_path):
    calls = []

    def fails(folder):
        calls.append(folder)
        return 1, "", "pipkeeper: the board did not answer", []

    def sound(value):
        return value[0] == 0

    store = stored.Store(tmp_path / "run", tmp_path / "kept", INPUTS)
    for dest in ("a", "b"):
        assert store.once("flashed-pimoroni", [], fails, tmp_path / dest, ok=sound)[0] == 1
    assert len(calls) == 1
    later = stored.Store(tmp_path / "run2", tmp_path / "kept", INPUTS)
    later.once("flashed-pimoroni", [], fails, tmp_path / "c", ok=sound)
    assert len(calls) == 2


def test_an_input_changed_is_a_new_key_and_old_keys_go(tmp_path):
    image = tmp_path / "firmware.uf2"
    store = stored.Store(tmp_path / "run", tmp_path / "kept", INPUTS)
    log = str(tmp_path / "log")
    for n in range(stored.KEEP + 2):
        image.write_bytes(b"image %d" % n)
        store.once("flashed-own", [], _make(log), tmp_path / str(n), files=[image])
    assert open(log).read() == "made\n" * (stored.KEEP + 2)
    kept = [n for n in os.listdir(str(tmp_path / "kept" / "device-fixtures")) if n.startswith("flashed-own-")]
    assert len(kept) == stored.KEEP
    locks = os.listdir(str(tmp_path / "kept" / "device-fixtures" / "locks"))
    assert sorted(locks) == sorted(n + ".lock" for n in kept)
    # the newest is among them: the same inputs again make nothing
    store.once("flashed-own", [], _make(log), tmp_path / "again", files=[image])
    assert open(log).read() == "made\n" * (stored.KEEP + 2)


def test_a_worker_that_would_wait_makes_the_next_entry_meanwhile(tmp_path):
    """conftest's flashed: the worker that finds the lock held flashes the
    next image (Store.ahead: never waits) instead of only waiting."""
    log = str(tmp_path / "log")
    ctx = multiprocessing.get_context("spawn")
    results = ctx.Queue()
    other = ctx.Process(target=_worker, args=(tmp_path / "run", tmp_path / "kept", log,
                                              str(tmp_path / "gw1"), results))
    other.start()
    deadline = time.monotonic() + 30
    while not (os.path.exists(log) and open(log).read()):       # gw1 is making it
        assert time.monotonic() < deadline
        time.sleep(0.02)
    store = stored.Store(tmp_path / "run", tmp_path / "kept", INPUTS)
    t0 = time.monotonic()
    assert not store.ahead("flashed-upstream", ["badger2040"], _make(log), tmp_path / "x")
    assert time.monotonic() - t0 < 1.5           # not the 2 s gw1 takes
    meanwhile = []

    def the_next_image():
        meanwhile.append(store.ahead("flashed-pimoroni", [], _make(log), tmp_path / "ahead"))

    got = store.once("flashed-upstream", ["badger2040"], _make(log), tmp_path / "gw0", meanwhile=the_next_image)
    assert got == results.get(timeout=60) == (0, "out", "", ["frame"])
    other.join(60)
    assert meanwhile == [True] and open(log).read() == "made\n" * 2
    # made ahead: read, not made again
    assert not store.ahead("flashed-pimoroni", [], _make(log), tmp_path / "y")
    assert store.once("flashed-pimoroni", [], _make(log), tmp_path / "z") == (0, "out", "", ["frame"])
    assert open(log).read() == "made\n" * 2
