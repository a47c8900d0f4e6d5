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


# -- issue 32, item 12: a flash folder (or frames folder) that cannot be: one line ---------

def _unwritable(tmp_path):
    """A folder this user cannot write in: a read-only one, or for root
    (who writes in any folder of mode 555) the kernel's /sys."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        (folder / "probe").write_text("x")
    except OSError:
        return folder
    (folder / "probe").unlink()
    if os.path.isdir("/sys"):
        return "/sys"
    pytest.skip("no folder this user cannot write in")


@pytest.mark.parametrize("option", ["--dir", "--frames"])
def test_a_folder_below_a_file_is_one_line(tmp_path, option):
    (tmp_path / "somefile.txt").write_text("notes\n")
    script = tmp_path / "one.txt"
    script.write_text("A\n")
    where = str(tmp_path / "somefile.txt" / "board")
    args = ["sim", "-q", "--script", str(script), option, where]
    if option == "--frames":
        args += ["--dir", str(tmp_path / "flash")]
    code, out, err = run_cli(*args)
    assert (code, out) == (2, ""), err
    assert err == ("pipkeeper: sim: {} {}: {} is a file, not a folder (see `pipkeeper sim --help`)"
                   "\n".format(option, where, tmp_path / "somefile.txt")), err


@pytest.mark.parametrize("option", ["--dir", "--frames"])
def test_a_folder_that_cannot_be_written_is_one_line(tmp_path, option):
    where = os.path.join(str(_unwritable(tmp_path)), "board")
    script = tmp_path / "one.txt"
    script.write_text("A\n")
    args = ["sim", "-q", "--script", str(script), option, where]
    if option == "--frames":
        args += ["--dir", str(tmp_path / "flash")]
    code, out, err = run_cli(*args)
    assert (code, out) == (1, ""), err
    assert err.startswith("pipkeeper: {} cannot be written: ".format(where)), err
    assert err.count("\n") == 1 and "Traceback" not in err
