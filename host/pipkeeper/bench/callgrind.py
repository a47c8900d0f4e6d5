"""Counting instructions with valgrind's callgrind: repeatable figures on a
shared, noisy machine (PERFORMANCE.md). A count is always taken against a
baseline run of the same interpreter doing less, so the interpreter's own
start-up is not counted.
"""

import os
import re
import shutil
import subprocess
import tempfile

# PERFORMANCE.md: RP2040 ms ~= instructions x 2.5 / 125,000.
RP2040_CYCLES_PER_INSTRUCTION = 2.5
RP2040_HZ = 125_000_000

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def available():
    return shutil.which("valgrind") is not None


def skipped(asked):
    """Why a benchmark took no instruction counts: ``asked`` for them
    (no --no-callgrind) but valgrind is missing, or told not to."""
    if asked and not available():
        return "valgrind not found: instruction counts skipped"
    return "skipped (--no-callgrind): no instruction counts"


def rp2040_ms(instructions):
    """The working conversion of PERFORMANCE.md, in milliseconds."""
    return instructions * RP2040_CYCLES_PER_INSTRUCTION / RP2040_HZ * 1000


def count(cmd, cwd=None, env=None):
    """Instructions executed by ``cmd`` (a list), under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, *cmd],
            cwd=cwd, env=env, capture_output=True, text=True)
        if proc.returncode:
            raise RuntimeError("callgrind run failed: " + (proc.stderr.strip().splitlines() or ["?"])[-1])
        m = _COLLECTED.search(proc.stderr)
        if not m:
            raise RuntimeError("callgrind printed no instruction count")
        return int(m.group(1)), proc.stdout
