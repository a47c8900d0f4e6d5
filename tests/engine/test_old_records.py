"""Old records replay unchanged (issue 31): every record in the tree, the
one the scripted game makes, and the simulated games the tests and the
bench make, replay to the report main gave before the house rules (the
keys it had; tests/engine/_old_records.py says how the golden was made),
and the simulator still writes the same games under the presets' defaults.

The golden is read a line at a time (a dict of its 500 entries would cost
the unix port's 160 KB heap some 70 KB). On MicroPython a sample of the
simulated games (one in five of the chicken-foot presets' games of up to
4 players, as quick and full tracking record them: a simulated game with
its hands, or a Mexican Train whose hunt for the station is a line of 60
words, and its replay beside the test's code, are more than the 160 KB
heap holds): the whole sweep is CPython's, and the tree's records, Mexican
Train's among them, are replayed whole on both."""

import gc
import sys

from shared_engine import dgn
from shared_engine.report import report

import _old_records as old

MICRO = sys.implementation.name == "micropython"


class SkipTest(Exception):
    """Skipped where the data is not there (``pipkeeper test --board``
    copies only the .py files): tests/mp_runner.py and pytest's unittest
    support skip on the name; _check.SkipTest is the same, but _check is
    not imported here: its code would crowd the unix port's heap)."""


try:
    from unittest import SkipTest       # noqa: F811  CPython: pytest knows it
except ImportError:
    pass


def _golden():
    """(key, record CRC, report CRC or error text) of each line of the golden."""
    try:
        f = open(old.ROOT + "/tests/data/old_reports.json")
    except OSError:
        raise SkipTest("tests/data/old_reports.json is not there")
    try:
        for line in f:
            line = line.strip()
            if not line.startswith('"'):
                continue
            key, _, rest = line[1:].partition('": [')
            a, _, b = rest.rstrip(",").rstrip("]").partition(", ")
            yield key, a.strip('"'), None if b == "null" else b[1:-1].replace('\\"', '"')
    finally:
        f.close()


def test_every_record_in_the_tree_replays_as_before():
    seen = 0
    for key, text_crc, rep_crc in _golden():
        if key not in old.FILES:
            continue
        text = old.read(old.ROOT + "/" + key)
        assert old.crc(text) == text_crc, "%s changed: make the golden again" % key
        assert old.report_crc(report(dgn.replay(text))) == rep_crc, key
        seen += 1
    assert seen == len(old.FILES)


def test_the_refused_record_is_refused_as_before():
    seen = 0
    for key, text_crc, err in _golden():
        if key not in old.REFUSED:
            continue
        try:
            dgn.replay(old.read(old.ROOT + "/" + key))
            got = None
        except dgn.RecordError as e:
            got = str(e)
        assert got == err, (key, got)
        seen += 1
    assert seen == len(old.REFUSED)


def test_simulated_games_are_the_same_games_with_the_same_reports():
    i = 0
    for key, text_crc, rep_crc in _golden():
        if key.startswith("tests/"):
            continue
        i += 1
        rules, n, seed, bots, form = key.rsplit("-", 4)
        if MICRO and (i % 5 or form == "hands" or rules == "mexican-train" or int(n[:-1]) > 4):
            continue
        gc.collect()
        got, got_text, got_report = old.simulated(rules, int(n[:-1]), int(seed), bots, form)
        assert got == key
        assert got_text == text_crc, "the simulator plays %s differently" % key
        assert got_report == rep_crc, key
    assert i == len(list(old.cases())) if not MICRO else i > 0
