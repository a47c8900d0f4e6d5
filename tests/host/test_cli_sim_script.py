"""`pipkeeper sim --script FILE` given what is no script: one line, exit 1,
before any board starts (a binary file printed a 27-line traceback)."""

import os

import pytest

from boardkit import run_cli

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")


def _one_line(tmp_path, script):
    code, out, err = run_cli("sim", "--dir", str(tmp_path / "board"), "--script", str(script), "-q")
    assert code == 1, (out, err)
    assert err.startswith("pipkeeper: ") and err.count("\n") == 1, err
    assert not (tmp_path / "board").exists()          # no board was started
    return err


def test_a_binary_file_is_one_line(tmp_path):
    script = tmp_path / "binary.dgn"
    script.write_bytes(b"A\nB\n" + bytes(range(128, 256)) + b"\n")
    err = _one_line(tmp_path, script)
    assert err == ("pipkeeper: script line 3 is not text (not UTF-8): a script names one button "
                   "a line (A B C UP DOWN)\n")


def test_a_game_record_is_no_script(tmp_path):
    """Text, but not buttons: its first line is named, cut short."""
    record = os.path.join(DATA, "format_example.dgn")
    err = _one_line(tmp_path, record)
    assert err == ("pipkeeper: script line 1: '[Rules \"chickenfoot\"]' is not a button "
                   "(A B C UP DOWN)\n")
    long = tmp_path / "long.txt"
    long.write_text("x" * 100000 + "\n")
    assert len(_one_line(tmp_path, long)) < 200


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_is_no_script(tmp_path):
    assert _one_line(tmp_path, "/dev/zero") == \
        "pipkeeper: /dev/zero: not a file (a device): a script is a file\n"
