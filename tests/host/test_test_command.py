"""`pipkeeper test`'s runners, on a small made-up checkout."""

import shutil
from pathlib import Path

import pytest

from pipkeeper.testing import suites as testrun

TESTS = Path(__file__).resolve().parent.parent

SUITE = '''
from shared_engine import answer

def test_passes():
    assert answer.VALUE == 42

def test_fails():
    assert answer.VALUE == 41
'''


@pytest.fixture
def checkout(tmp_path):
    (tmp_path / "shared_engine").mkdir()
    (tmp_path / "shared_engine" / "__init__.py").write_text("")
    (tmp_path / "shared_engine" / "answer.py").write_text("VALUE = 42\n")
    (tmp_path / "tests" / "engine").mkdir(parents=True)
    shutil.copy(TESTS / "mp_runner.py", tmp_path / "tests" / "mp_runner.py")
    (tmp_path / "tests" / "engine" / "test_answer.py").write_text(SUITE)
    return tmp_path


def collect():
    out = []
    return out, out.append


@pytest.mark.parametrize("mpy", [True, False], ids=["mpy", "source"])
def test_micropython_run_counts(checkout, mpy):
    out, echo = collect()
    result = testrun.run_micropython(checkout, ["tests/engine"], echo,
                                     mpy_packages=("shared_engine",) if mpy else ())
    text = "".join(out)
    assert (result.passed, result.failed, result.ok) == (1, 1, False)
    # One interpreter per file, each closing with its counts; the command
    # prints the total over the files (here one file: the same line).
    assert not result.printed_counts
    assert text.splitlines()[-1] == "1 passed, 1 failed"
    assert ("compiled to .mpy" in text) == mpy


def test_micropython_timeout(checkout):
    (checkout / "tests" / "engine" / "test_answer.py").write_text(
        "def test_forever():\n    while True:\n        pass\n")
    out, echo = collect()
    result = testrun.run_micropython(checkout, ["tests/engine"], echo, timeout=2)
    assert not result.ok
    assert not result.printed_counts
    assert "killed" in result.note


def test_pytest_run_counts(checkout):
    out, echo = collect()
    result = testrun.run_pytest(checkout, ["tests/engine"], echo,
                                extra_args=["-p", "no:cacheprovider"])
    assert (result.passed, result.failed, result.ok) == (1, 1, False)


def test_pytest_runs_files_side_by_side_and_counts_them(checkout):
    # `test --all`'s workers (pytest-xdist): the counts come through them
    assert testrun.parallel_args(1) == []
    args = testrun.parallel_args(2)
    assert args == ["-n", "2", "--dist", "loadfile"]
    out, echo = collect()
    result = testrun.run_pytest(checkout, ["tests/engine"], echo,
                                extra_args=["-p", "no:cacheprovider"] + args)
    assert (result.passed, result.failed, result.ok) == (1, 1, False)
    assert "bringing up nodes" in "".join(out)      # xdist's own line: it ran


def test_pytest_finding_nothing_fails(checkout):
    (checkout / "tests" / "engine" / "test_answer.py").unlink()
    out, echo = collect()
    result = testrun.run_pytest(checkout, ["tests/engine"], echo,
                                extra_args=["-p", "no:cacheprovider"])
    assert not result.ok
    assert result.note == "no tests found"
