"""tests/mp_runner.py on both interpreters, over small made-up test folders."""

import subprocess
import sys
from pathlib import Path

import pytest

RUNNER = Path(__file__).resolve().parent.parent / "mp_runner.py"

GOOD = '''
import _helper

order = []

def setup():
    order.append("setup")

def setup_function(function):
    order.append(function.__name__)

def test_helper_is_importable():
    assert _helper.VALUE == 42

def test_setup_ran_first():
    assert order[0] == "setup"

class TestGroup:
    def setup_method(self, method):
        self.x = 1

    def test_method(self):
        assert self.x == 1
'''

BAD = '''
def test_fails():
    assert 1 + 1 == 3, "arithmetic"

def test_passes():
    pass
'''


@pytest.fixture
def suite(tmp_path):
    (tmp_path / "_helper.py").write_text("VALUE = 42\n")
    (tmp_path / "test_good.py").write_text(GOOD)
    (tmp_path / "_private").mkdir()
    (tmp_path / "_private" / "test_never.py").write_text("def test_x():\n    raise ValueError\n")
    return tmp_path


def interpreters():
    from pipkeeper.paths import micropython_binary

    return [pytest.param([sys.executable], id="cpython"),
            pytest.param([micropython_binary(), "-X", "heapsize=160K"], id="micropython")]


def run(interpreter, *args, cwd):
    proc = subprocess.run(interpreter + [str(RUNNER)] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=120, cwd=cwd)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.mark.parametrize("interpreter", interpreters())
def test_all_pass(interpreter, suite):
    code, out = run(interpreter, suite, cwd=suite)
    assert code == 0, out
    assert out.splitlines()[-1] == "3 passed, 0 failed"


@pytest.mark.parametrize("interpreter", interpreters())
def test_a_failure_is_shown_and_counted(interpreter, suite):
    (suite / "test_bad.py").write_text(BAD)
    code, out = run(interpreter, suite, cwd=suite)
    assert code == 1
    assert "FAILED " in out and "test_bad.py::test_fails" in out
    assert "arithmetic" in out  # the assertion's message, with its traceback
    assert out.splitlines()[-1] == "4 passed, 1 failed"


@pytest.mark.parametrize("interpreter", interpreters())
def test_a_module_that_does_not_import_is_a_failure(interpreter, suite):
    (suite / "test_broken.py").write_text("import no_such_module_here\n")
    code, out = run(interpreter, suite, cwd=suite)
    assert code == 1
    assert out.splitlines()[-1] == "3 passed, 1 failed"


@pytest.mark.parametrize("interpreter", interpreters())
def test_keyword_and_single_file(interpreter, suite):
    code, out = run(interpreter, "-k", "helper", suite / "test_good.py", cwd=suite)
    assert code == 0, out
    assert out.splitlines()[-1] == "1 passed, 0 failed"


@pytest.mark.parametrize("interpreter", interpreters())
def test_nothing_found_fails(interpreter, tmp_path):
    code, out = run(interpreter, tmp_path, cwd=tmp_path)
    assert code == 1
    assert out.splitlines()[-1] == "0 passed, 0 failed"


def test_the_engine_is_importable_from_the_checkout(tmp_path):
    """The runner puts the checkout on sys.path, wherever it is run from."""
    (tmp_path / "test_engine_import.py").write_text(
        "def test_import():\n    import shared_engine\n    assert shared_engine.__name__ == \"shared_engine\"\n")
    from pipkeeper.paths import micropython_binary

    code, out = run([micropython_binary()], tmp_path, cwd=tmp_path)
    assert code == 0, out
