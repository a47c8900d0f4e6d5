"""What the benchmarks say of the instruction counts they did not take
(issue 32, item 17): `--no-callgrind` said "valgrind not found" on a machine
that has valgrind. The note says why they were skipped."""

import json
import shutil

from boardkit import run_cli
from pipkeeper.bench import callgrind


def test_no_callgrind_says_it_was_asked():
    code, out, err = run_cli("bench", "engine", "--no-callgrind", "--json")
    assert code == 0, err
    figures = json.loads(out)
    assert figures["callgrind"] == "skipped (--no-callgrind): no instruction counts"
    assert figures["apply_instructions_per_event"] is None


def test_without_valgrind_it_says_so(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert callgrind.skipped(True) == "valgrind not found: instruction counts skipped"
    assert callgrind.skipped(False) == "skipped (--no-callgrind): no instruction counts"
