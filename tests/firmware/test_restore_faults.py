"""A boot that fails for want of memory (or a flash error) keeps the game in
progress: only a record that does not replay sends the board back to set-up,
and even then the record stays on the flash."""

from pipkeeper.bench import engine as bench_engine, firmware as bench_firmware
from pipkeeper.sim import unix as sim
from pipkeeper.errors import PipkeeperError
from shared_engine import dgn


def _board(tmp_path):
    tags, events = bench_engine.largest_game()
    early, late = bench_firmware.cut_points(events)
    return bench_firmware.write_board(tmp_path / "flash", tags, events[:late])


def _current(folder):
    return (folder / "pipkeeper" / "current").read_text().strip()


def test_out_of_memory_at_restore_keeps_the_game(tmp_path, mpy_tree):
    folder = _board(tmp_path)
    record = (folder / "games" / "0001.dgn").read_bytes()
    # too small to restore this game (72 KB was, until the boot held the
    # panel's picture module, issue 33: then the app itself found
    # no room for its framebuffer, before the restore could say so)
    for heap in ("76K", "88K"):
        s = sim.Sim(str(folder), power_cycle=True, heap=heap, src=mpy_tree)
        try:
            s.start()
            assert "MemoryError" in (folder / "log.txt").read_text()
        except PipkeeperError:
            pass  # the interpreter itself may give up: the flash is what counts
        assert _current(folder).lstrip("/") == "games/0001.dgn"
        assert (folder / "games" / "0001.dgn").read_bytes() == record
    # With the board's heap the same flash boots into the game.
    s = sim.Sim(str(folder), power_cycle=True, src=mpy_tree)
    frames = s.start()
    assert len(frames) == 1
    log = folder / "log.txt"
    assert not log.exists() or "does not replay" not in log.read_text()
    with open(folder / "games" / "0001.dgn", "rb") as f:
        assert dgn.replay_lines(f).round is not None


def test_a_record_that_does_not_replay_is_kept(tmp_path, mpy_tree):
    folder = _board(tmp_path)
    with open(folder / "games" / "0001.dgn", "a") as f:
        f.write("9 play 1-1\n")  # no seat 9: the record no longer replays
    before = (folder / "games" / "0001.dgn").read_bytes()
    s = sim.Sim(str(folder), power_cycle=True, src=mpy_tree)
    assert len(s.start()) == 1
    assert (folder / "games" / "0001.dgn").read_bytes() == before
    assert "RecordError: there is no seat 9" in (folder / "log.txt").read_text()
    assert _current(folder) == ""  # back to set-up; the record stays on the flash
