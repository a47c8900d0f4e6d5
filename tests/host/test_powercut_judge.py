"""The power-cut sweep's verdict (pipkeeper.bench.powercut.judge) on flashes
made up here: it passes a board that kept the last press done or the one in
flight, and fails one that lost a line, took another state's frame, lost a
file, logged a fault or was formatted. (The sweep itself runs on the
emulated RP2040: tests/device/test_powercut.py.)"""

from pipkeeper.bench.powercut import Press, State, judge, lines_lost

HEADER = b'[Rules "chickenfoot"]\n[Players "Ann" "Bob" "Cy" "Di"]\n'
CURRENT = {"/pipkeeper/current": b"games/0001.dgn\n", "/main.py": b"import app\n"}


def _state(index, lines, frame, **extra):
    files = dict(CURRENT, **{"/games/0001.dgn": HEADER + b"".join(lines)})
    files.update(extra)
    return State(index, None, files, frame, (100.0, 500.0))


def _press():
    before = _state(4, [b"round 9-9 lead 1\n"], b"frame-4")
    after = _state(5, [b"round 9-9 lead 1\n", b"1 play 9-4\n"], b"frame-5")
    return Press(5, "A", [("P", 0, 256)], before, after)


def test_the_state_of_either_press_passes():
    press = _press()
    for state in (press.before, press.after):
        problems, matched, lost, formatted = judge(dict(state.files), state.frame, press)
        assert (problems, matched, lost, formatted) == ([], state, 0, False)


def test_a_line_written_before_the_cut_lost_fails():
    press = _press()
    files = dict(press.before.files, **{"/games/0001.dgn": HEADER})
    problems, matched, lost, formatted = judge(files, press.before.frame, press)
    assert lost == 1 and matched is None and problems
    assert lines_lost(HEADER + b"round 9", HEADER + b"round 9-9 lead 1\n") == 1


def test_another_frame_a_lost_file_or_a_fault_fails():
    press = _press()
    assert judge(dict(press.after.files), press.before.frame, press)[1] is None
    files = dict(press.after.files, **{"/pipkeeper/synced": b"41 0001.dgn\n"})
    assert "synced" in judge(files, press.after.frame, press)[0][0]
    files = dict(press.after.files, **{"/log.txt": b"[restore] OSError: 5\n"})
    assert "fault" in judge(files, press.after.frame, press)[0][0]


def test_a_formatted_or_unmountable_flash_fails():
    press = _press()
    problems, matched, lost, formatted = judge({"/boot.py": b""}, None, press)
    assert formatted and lost == 3 and matched is None
    problems, matched, lost, formatted = judge(None, None, press)
    assert formatted and problems == ["LittleFS does not mount"]
