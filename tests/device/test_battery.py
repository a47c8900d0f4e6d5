"""On battery (power_cycle): the board has power only while a button is held
or the firmware holds its latch (GPIO 10) high; a press that finds it off is
a cold boot that restores the game from the flash, handles the press and
draws; during a game the board then sleeps with its latch held (the next
press wakes it: tests/device/test_awake.py), so here the power is cut after
each press, and each is a cold boot. The largest game
(pipkeeper.bench.firmware), laid on the emulated board's LittleFS with
flashfs and on the unix-port sim's folder."""

import shutil

import pytest

import devkit

# Minutes of emulated-board time: one timeout for a test and the session
# fixtures it may be the first to build (flashing, the scripted game).
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

def lay_out_largest_game(golden, tmp_path, events_at="late"):
    """The largest game in progress (80% through its last round, as the boot
    benchmark's "late" board) on a sim folder and on a copy of the golden
    image; returns (sim folder, board folder)."""
    from pipkeeper.bench import engine as bench_engine, firmware as bench_firmware
    tags, events = bench_engine.largest_game()
    early, late = bench_firmware.cut_points(events)
    sim_dir = tmp_path / "sim"
    bench_firmware.write_board(sim_dir, tags, events[:late if events_at == "late" else early])
    board_dir = tmp_path / "board"
    lay_on_board(golden, sim_dir, board_dir)
    return sim_dir, board_dir


def lay_on_board(golden, sim_dir, board_dir):
    """A copy of the golden image in ``board_dir`` holding exactly the sim
    folder's /games and /pipkeeper (nothing left from the scorer's first
    boot after `flash`)."""
    from pipkeeper.board import flashfs
    from pipkeeper.sim.rp2040.board import FLASH_FILE
    board_dir.mkdir()
    image = board_dir / FLASH_FILE
    shutil.copyfile(str(golden), str(image))
    old = [p for p in devkit.image_files(str(image)) if p.startswith(("/games/", "/pipkeeper/"))]
    flashfs.write_files(str(image), {}, remove=old)
    flashfs.copy_tree(str(image), str(sim_dir))


def _timing(board):
    last = board.last
    return {k: (last[k] - last["power_on_at"]) / 1e6 if last.get(k) is not None else None
            for k in ("latch_at", "first_spi", "t")}


def test_cold_boot_restores_the_largest_game(golden, mpy_tree, tmp_path):
    from pipkeeper.board import flashfs
    sim_dir, board_dir = lay_out_largest_game(golden, tmp_path)
    presses = ["A", "B"]   # the first restores from the record alone, the second from its checkpoint
    # A press as the board module defines it (HOLD_MS): upstream MicroPython
    # drives the latch only once main.py has imported the firmware, ~160 ms
    # of emulated time after power-on; a shorter press loses the power first.
    board = devkit.new_board(board_dir, power_cycle=True)
    try:
        ours = []
        for b in presses:
            ours.append(board.press(b))
            assert board.last["latch_at"] is not None, (
                "the firmware never latched its power: %s" % _timing(board))
            assert board.asleep, board.last       # a game in play: asleep, its latch held
            print("press %s on battery (ms after power-on): %s" % (b, _timing(board)))
            board.cut()                           # the next press: a cold boot
    finally:
        board.close()
    theirs = devkit.sim_frames(sim_dir, presses, mpy_tree, power_cycle=True, start=False)
    where = devkit.first_difference(ours, theirs)
    assert where is None, "press %d (%s): %s" % (where[0] + 1, presses[where[0]], where[1])
    # Both recorded the same presses into the game.
    record = flashfs.read(str(board_dir / "flash.img"), "/games/0001.dgn")
    assert record == (sim_dir / "games" / "0001.dgn").read_bytes()


def test_a_short_tap_on_battery_is_applied(golden, tmp_path):
    """A 50 ms tap wakes the board, is applied and is drawn: the power latch
    and the wake button are taken before anything is imported (upstream:
    the /boot.py flash writes; Pimoroni's build: its wakeup module, in C)."""
    from pipkeeper.board import flashfs
    _sim_dir, board_dir = lay_out_largest_game(golden, tmp_path)
    long_dir = tmp_path / "long"
    shutil.copytree(str(board_dir), str(long_dir))
    frames = {}
    for folder, hold in ((long_dir, 400), (board_dir, 50)):
        board = devkit.new_board(folder, power_cycle=True, hold_ms=hold)
        try:
            frames[hold] = board.press("A")
            assert board.asleep, board.last
            print("%d ms tap on battery (ms after power-on): %s" % (hold, _timing(board)))
        finally:
            board.close()
    assert frames[50] and frames[50][-1].data == frames[400][-1].data
    records = [flashfs.read(str(f / "flash.img"), "/games/0001.dgn") for f in (long_dir, board_dir)]
    assert records[0] == records[1]


@pytest.mark.parametrize("fault", ["corrupt", "stale"])
def test_a_bad_checkpoint_is_rebuilt(golden, mpy_tree, tmp_path, fault):
    """A checkpoint that is corrupt (a flipped byte: its CRC fails) or stale
    (it claims more of the record than the record holds) is not trusted: the
    next cold boot replays the record, shows what a sound boot shows, and
    writes a sound checkpoint again."""
    import io
    from shared_engine import checkpoint
    from pipkeeper.board import flashfs
    sim_dir, board_dir = lay_out_largest_game(golden, tmp_path)
    image = str(board_dir / "flash.img")
    cpath = "/pipkeeper/checkpoint"
    frames = []
    board = devkit.new_board(board_dir, power_cycle=True)
    try:
        frames.append(board.press("A"))       # no checkpoint yet: it writes one
    finally:
        board.close()
    good = flashfs.read(image, cpath)
    assert checkpoint.read(io.BytesIO(good))["length"] > 0
    if fault == "corrupt":
        bad = good[:40] + bytes([good[40] ^ 0x01]) + good[41:]
    else:
        data = checkpoint.read(io.BytesIO(good))
        head, blob = data["state"]
        body = checkpoint.json.dumps([checkpoint.VERSION, data["length"] + 100, data["lines"],
                                      data["tail"], head]).encode() + b"\n" + bytes(blob)
        bad = b"%08x\n" % checkpoint.crc32(body) + body
    flashfs.write_files(image, {cpath: bad})
    board = devkit.new_board(board_dir, power_cycle=True)
    try:
        frames.append(board.press("B"))
    finally:
        board.close()
    theirs = devkit.sim_frames(sim_dir, ["A", "B"], mpy_tree, power_cycle=True, start=False)
    where = devkit.first_difference(frames, theirs)
    assert where is None, "press %d: %s" % (where[0] + 1, where[1])
    again = flashfs.read(image, cpath)
    record = flashfs.read(image, "/games/0001.dgn")
    data = checkpoint.read(io.BytesIO(again))     # sound: its CRC holds
    assert again != bad and data["length"] == len(record)
