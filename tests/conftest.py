"""Shared pytest set-up for every folder under tests/.

- `pythonpath` in pyproject.toml puts the checkout (and host/) on sys.path, so
  the tests also run from a clone that was not installed.
- Hypothesis: the `ci` profile (chosen when CI is set) is derandomized, so a
  CI run is repeatable, and has no deadline (shared CI machines stall);
  `HYPOTHESIS_PROFILE=dev|ci` picks one by hand.
- A test module's `setup()` / `teardown()` run once per module, as
  tests/mp_runner.py runs them on MicroPython (pytest itself only knows
  `setup_module` / `teardown_module`), so the same file behaves the same on
  both interpreters.
- Fixtures: `repo_root` (the checkout, a Path) and `micropython_bin` (the
  MicroPython unix port's path, as `pipkeeper test --micropython` finds it).
"""

import inspect
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

try:
    from hypothesis import HealthCheck, settings
except ImportError:  # the engine's tests do not all need it
    settings = None

if settings is not None:
    settings.register_profile(
        "ci", derandomize=True, deadline=None, print_blob=True,
        suppress_health_check=[HealthCheck.too_slow])
    settings.register_profile("dev", deadline=None)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE")
                          or ("ci" if os.environ.get("CI") else "dev"))


def _call_hook(hook, module):
    try:
        takes_arg = len(inspect.signature(hook).parameters) > 0
    except (TypeError, ValueError):
        takes_arg = False
    if takes_arg:
        hook(module)
    else:
        hook()


@pytest.fixture(autouse=True, scope="module")
def _module_setup_teardown(request):
    """Module-level `setup()` / `teardown()`, as mp_runner calls them."""
    module = getattr(request, "module", None)
    setup = getattr(module, "setup", None)
    teardown = getattr(module, "teardown", None)
    plain = module is not None and not hasattr(module, "setup_module")
    if plain and inspect.isfunction(setup):
        _call_hook(setup, module)
    yield
    if module is not None and not hasattr(module, "teardown_module") and inspect.isfunction(teardown):
        _call_hook(teardown, module)


@pytest.fixture(scope="session")
def repo_root():
    return ROOT


@pytest.fixture(scope="session")
def micropython_bin():
    from pipkeeper.errors import PipkeeperError
    from pipkeeper.paths import micropython_binary

    try:
        return micropython_binary()
    except PipkeeperError as exc:
        pytest.fail(str(exc))
