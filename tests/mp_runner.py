"""A test runner for MicroPython (it runs on CPython too).

    micropython -X heapsize=160K tests/mp_runner.py [-v] [-x] [-k TEXT] [PATH ...]

Runs the shared engine tests on the MicroPython unix port the way pytest runs
them on CPython, with only what MicroPython has (no pathlib, importlib,
inspect): each PATH is a test file or a folder searched for `test_*.py`
(default: tests/engine beside this file); files and folders starting with `_`
or `.` are not tests (`_check.py` is the tests' helper module).

In each module it calls, in name order:
- the functions named `test*`;
- the methods named `test*` of classes named `Test*` (a fresh instance per
  test, like pytest; the class must not need arguments).
Hooks, as pytest's xunit-style ones: `setup_module(module)` /
`teardown_module(module)` (or `setup()` / `teardown()`) once per module,
`setup_function(function)` / `teardown_function(function)` around each
function, `setup_method(method)` / `teardown_method(method)` around each method.
The hook argument is optional, as in pytest. No fixtures: a test that takes
arguments fails.

A test passes when it returns, fails when it raises (the traceback is printed
at once), and is skipped when it raises an exception whose class is named
`SkipTest` or `Skipped`. A module that cannot be imported counts as one failed
test, except when what is missing is `hypothesis` or `pytest`, which
MicroPython does not have: that module is listed as skipped.

The last line is `N passed, N failed`, alone; the exit status is 1 when a test
failed or no test was found.

Options: -v names every test; -x stops at the first failure; -k TEXT runs
only tests whose `path::name` contains TEXT; -p DIR puts DIR first on
sys.path (`pipkeeper test --micropython` puts the engine compiled to .mpy
there, as the board runs it).
"""

import gc
import os
import sys

try:
    from time import ticks_ms, ticks_diff
except ImportError:  # CPython
    from time import monotonic as _monotonic

    def ticks_ms():
        return int(_monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b


# Exceptions a test raises to say it is skipped (pytest.skip raises `Skipped`).
_SKIP_NAMES = ("SkipTest", "Skipped")
# Imports that only CPython has: a module needing them is skipped, not failed.
_CPYTHON_ONLY = ("hypothesis", "pytest")


def print_exception(exc):
    if hasattr(sys, "print_exception"):
        sys.print_exception(exc)
    else:
        import traceback

        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stdout)


def flush():
    try:
        sys.stdout.flush()
    except AttributeError:
        pass


# --- paths, with str only --------------------------------------------------

def _normpath(path):
    absolute = path.startswith("/")
    parts = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == ".." and parts and parts[-1] != "..":
            parts.pop()
        elif part == ".." and absolute:
            continue
        else:
            parts.append(part)
    text = "/".join(parts)
    if absolute:
        return "/" + text
    return text or "."


def _abspath(path):
    if not path.startswith("/"):
        path = os.getcwd() + "/" + path
    return _normpath(path)


def _dirname(path):
    path = _normpath(path)
    if "/" not in path:
        return "."
    head = path.rsplit("/", 1)[0]
    return head or "/"


def _basename(path):
    return path.rstrip("/").rsplit("/", 1)[-1]


def _isdir(path):
    try:
        return (os.stat(path)[0] & 0o170000) == 0o040000
    except OSError:
        return False


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _is_private(name):
    return name.startswith("_") or name.startswith(".")


def collect_files(path):
    """Test files under PATH (a file or a folder), in name order."""
    if not _isdir(path):
        return [path]
    found = []
    for name in sorted(os.listdir(path)):
        if _is_private(name) or name == "__pycache__":
            continue
        full = path.rstrip("/") + "/" + name
        if _isdir(full):
            found.extend(collect_files(full))
        elif name.startswith("test") and name.endswith(".py"):
            found.append(full)
    return found


# --- running ----------------------------------------------------------------

def _call_hook(obj, name, arg):
    """Call obj.name(arg), or obj.name() if it takes no argument, if it exists."""
    hook = getattr(obj, name, None)
    if hook is None:
        return
    try:
        hook(arg)
    except TypeError as exc:
        # pytest passes the argument only when the hook declares one;
        # MicroPython cannot inspect the signature, so try both.
        text = str(exc)
        if "positional argument" in text or "takes 0" in text or "unexpected" in text:
            hook()
        else:
            raise


def _missing_module(exc):
    """The name of the missing module of an ImportError, or None."""
    name = getattr(exc, "name", None)
    if name:
        return name.split(".")[0]
    text = str(exc)
    quote = "'"
    if quote in text:
        return text.split(quote)[1].split(".")[0]
    return None


class Runner:
    def __init__(self, verbose=False, exitfirst=False, keyword=None):
        self.verbose = verbose
        self.exitfirst = exitfirst
        self.keyword = keyword
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.stop = False
        self._column = 0  # characters printed on the progress line

    def _progress(self, char):
        print(char, end="")
        self._column += 1
        flush()

    def _newline(self):
        if self._column:
            print()
            self._column = 0

    def _report_failure(self, test_id, exc):
        self._newline()
        print("FAILED " + test_id)
        print_exception(exc)
        flush()

    def _run_one(self, test_id, func, before=None, after=None):
        """Run one test with its hooks; count it."""
        if self.keyword is not None and self.keyword not in test_id:
            return
        gc.collect()
        error = None
        try:
            if before is not None:
                before()
            try:
                func()
            finally:
                if after is not None:
                    after()
        except Exception as exc:  # noqa: BLE001 - a test runner catches all
            error = exc
        except SystemExit as exc:
            error = exc
        if error is None:
            outcome = "PASSED"
            self.passed += 1
        elif type(error).__name__ in _SKIP_NAMES:
            outcome = "SKIPPED"
            self.skipped += 1
        else:
            outcome = "FAILED"
            self.failed += 1
            if self.exitfirst:
                self.stop = True
        if self.verbose:
            line = test_id + " " + outcome
            if outcome == "SKIPPED":
                line += ": {}".format(error)
            print(line)
            if outcome == "FAILED":
                print_exception(error)
        elif outcome == "FAILED":
            self._report_failure(test_id, error)
        else:
            self._progress("." if outcome == "PASSED" else "s")
        error = None

    def run_file(self, path):
        if not _exists(path):
            self._newline()
            print("ERROR {}: no such file or folder".format(path))
            self.failed += 1
            return
        folder = _dirname(path)
        name = _basename(path)
        if name.endswith(".py"):
            name = name[:-3]
        if not self.verbose:
            print(path + " ", end="")
            self._column = len(path) + 1
        sys.path.insert(0, folder)
        module = None
        try:
            try:
                module = __import__(name)
            except ImportError as exc:
                missing = _missing_module(exc)
                if missing in _CPYTHON_ONLY:
                    self._newline()
                    print("SKIPPED {}: needs {} (not on MicroPython)".format(path, missing))
                    self.skipped += 1
                else:
                    self._report_failure(path + " (import)", exc)
                    self.failed += 1
                return
            except Exception as exc:  # noqa: BLE001
                self._report_failure(path + " (import)", exc)
                self.failed += 1
                return
            self._run_module(path, module)
        finally:
            self._newline()
            if sys.path and sys.path[0] == folder:
                sys.path.pop(0)
            # Forget the module so the next test file gets the heap back and a
            # file of the same name in another folder is imported afresh.
            if name in sys.modules:
                del sys.modules[name]
            module = None
            gc.collect()
            if self.failed and self.exitfirst:
                self.stop = True

    def _run_module(self, path, module):
        names = sorted(n for n in dir(module) if not n.startswith("_"))
        try:
            if hasattr(module, "setup_module"):
                _call_hook(module, "setup_module", module)
            elif hasattr(module, "setup"):
                _call_hook(module, "setup", module)
        except Exception as exc:  # noqa: BLE001
            self._report_failure(path + " (setup_module)", exc)
            self.failed += 1
            return
        try:
            for attr in names:
                if self.stop:
                    break
                obj = getattr(module, attr)
                if attr.startswith("test") and callable(obj) and not isinstance(obj, type):
                    self._run_function(path, module, attr, obj)
                elif attr.startswith("Test") and isinstance(obj, type):
                    self._run_class(path, attr, obj)
        finally:
            try:
                if hasattr(module, "teardown_module"):
                    _call_hook(module, "teardown_module", module)
                elif hasattr(module, "teardown"):
                    _call_hook(module, "teardown", module)
            except Exception as exc:  # noqa: BLE001
                self._report_failure(path + " (teardown_module)", exc)
                self.failed += 1

    def _run_function(self, path, module, attr, func):
        def before():
            _call_hook(module, "setup_function", func)

        def after():
            _call_hook(module, "teardown_function", func)

        self._run_one(path + "::" + attr, func, before, after)

    def _run_class(self, path, class_name, cls):
        for attr in sorted(n for n in dir(cls) if n.startswith("test")):
            if self.stop:
                break
            if not callable(getattr(cls, attr)):
                continue
            state = {}

            def before(cls=cls, attr=attr, state=state):
                instance = cls()
                state["instance"] = instance
                _call_hook(instance, "setup_method", getattr(instance, attr))

            def call(attr=attr, state=state):
                getattr(state["instance"], attr)()

            def after(attr=attr, state=state):
                instance = state.get("instance")
                if instance is not None:
                    _call_hook(instance, "teardown_method", getattr(instance, attr))

            self._run_one("{}::{}::{}".format(path, class_name, attr), call, before, after)


def main(argv):
    verbose = False
    exitfirst = False
    keyword = None
    paths = []
    first = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "-v":
            verbose = True
        elif arg == "-x":
            exitfirst = True
        elif arg == "-k" and i + 1 < len(argv):
            i += 1
            keyword = argv[i]
        elif arg == "-p" and i + 1 < len(argv):
            i += 1
            first.append(argv[i])
        elif arg in ("-h", "--help"):
            print(__doc__)
            return 0
        elif arg.startswith("-"):
            print("mp_runner: unknown option " + arg)
            return 2
        else:
            paths.append(arg)
        i += 1

    here = _dirname(_abspath(globals().get("__file__") or sys.argv[0]))
    root = _dirname(here)
    # The tests import the engine as `shared_engine`, from the checkout.
    if root not in sys.path:
        sys.path.insert(0, root)
    for path in reversed(first):
        sys.path.insert(0, path)
    if not paths:
        paths = [here + "/engine"]

    files = []
    for path in paths:
        files.extend(collect_files(path.rstrip("/") or "/"))

    runner = Runner(verbose, exitfirst, keyword)
    start = ticks_ms()
    for path in files:
        if runner.stop:
            break
        runner.run_file(path)
    seconds = ticks_diff(ticks_ms(), start) / 1000
    impl = sys.implementation.name
    notes = ["{} on {}".format(_plural(len(files), "file"), impl), "{:.2f} s".format(seconds)]
    if runner.skipped:
        notes.append("{} skipped".format(runner.skipped))
    if runner.passed + runner.failed + runner.skipped == 0:
        notes.append("no tests found")
    print("(" + ", ".join(notes) + ")")
    print("{} passed, {} failed".format(runner.passed, runner.failed))
    return 1 if runner.failed or runner.passed + runner.failed + runner.skipped == 0 else 0


def _plural(n, word):
    return "{} {}{}".format(n, word, "" if n == 1 else "s")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
