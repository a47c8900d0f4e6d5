"""Helpers for the engine's scripted tests.

Plain functions, so the same test files run under pytest (CPython) and
tests/mp_runner.py (MicroPython): no fixtures, no pytest.raises, no pathlib.
The runner skips this module (its name starts with ``_``); the tests import
it by name, from the folder they live in.

Line numbers: ``game()`` writes the ``[Rules]`` and ``[Players]`` tags on
lines 1 and 2, then one line per option (in sorted key order), then the body,
whose lines are stripped and whose blank lines are dropped (so bodies may
be joined and indented freely). So with no options the body's first line is line 3. The tests note
each body line's number in a trailing comment (``; 5``) to make the expected
line numbers easy to read.
"""

import os

from shared_engine import dgn
from shared_engine import report as _report

try:
    from unittest import SkipTest
except ImportError:  # MicroPython: tests/mp_runner.py skips on the class name
    class SkipTest(Exception):
        pass


# FORMAT.md's example (chickenfoot, four players), body lines 3-14.
EXAMPLE = """
round 9-9 lead 1      ; 3
1 play 9-4            ; 4
2 draw                ; 5
2 pass                ; 6
3 play 9-2            ; 7
4 draw                ; 8
4 play 9-7            ; 9
1 play 9-3            ; 10  the start phase is over
2 play 4-4            ; 11  chicken foot on 4
3 play 4-1            ; 12
4 play 4-6            ; 13
1 play 4-0            ; 14  the foot is complete
"""


def upto(line):
    """The example's body up to and including file line ``line``."""
    return "\n".join(EXAMPLE.strip().split("\n")[:line - 2]) + "\n"


def replay(text):
    """The Game the record replays to (RecordError on a bad line)."""
    return dgn.replay(text)


def report(text):
    """The ``replay --json`` report dict of a record."""
    return _report.report(dgn.replay(text))


def state(text):
    """The report's ``state`` (the round in play), or None."""
    return _report.state(dgn.replay(text))


def rejects(text, line, fragment):
    """Assert that replaying ``text`` fails with RecordError at ``line``
    (None: any line) whose message contains ``fragment``; return the message
    (without its ``line N:`` prefix)."""
    try:
        dgn.replay(text)
    except dgn.RecordError as e:
        msg = str(e)
        if line is not None:
            assert e.line == line, "expected line %r, got line %r: %s" % (line, e.line, msg)
        assert fragment in msg, "expected %r in the message %r" % (fragment, msg)
        return e.message
    raise AssertionError("the record was accepted; expected line %r: ...%s" % (line, fragment))


def raises(exc, fn, *a):
    """Assert that ``fn(*a)`` raises ``exc``; return the exception."""
    try:
        fn(*a)
    except exc as e:
        return e
    raise AssertionError("%s was not raised" % exc.__name__)


def names(players):
    if isinstance(players, int):
        return ["P%d" % (i + 1) for i in range(players)]
    return list(players)


def header(rules, players=4, options=None):
    """The tag lines of a record, as a list of strings."""
    out = ['[Rules "%s"]' % rules,
           "[Players %s]" % " ".join('"%s"' % p for p in names(players))]
    opts = options or {}
    for k in sorted(opts):
        if k == "set":
            out.append('[Set "%s"]' % opts[k])
        else:
            out.append('[Option "%s" "%s"]' % (k, opts[k]))
    return out


def body_lines(body):
    lines = []
    for x in body.split("\n"):
        x = x.strip()
        if x:
            lines.append(x)
    return lines


def game(rules, players=4, options=None, body=""):
    """A DGN record's text: tags for ``rules``, ``players`` (a count, named
    P1.., or a list of names) and ``options`` (a dict; ``set`` becomes the
    ``[Set]`` tag), then the body's lines, each ended by a line end."""
    lines = header(rules, players, options) + body_lines(body)
    return "\n".join(lines) + "\n"


def events(text):
    """The event tuples of a record, as read (nothing replayed)."""
    return [ev for _, ev in dgn.read(text).events]


def first_line(rules, players=4, options=None):
    """The line number of the body's first line in ``game(...)``."""
    return len(header(rules, players, options)) + 1


def here(module_file):
    """The folder of a module's ``__file__``, with string operations only."""
    if "/" not in module_file:
        return "."
    return module_file.rsplit("/", 1)[0] or "/"


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def data_path(module_file, rel):
    """``rel`` beside the test module; the test is skipped when it is not
    there (``pipkeeper test --board`` copies only the ``.py`` files)."""
    path = here(module_file) + "/" + rel
    if not exists(path):
        raise SkipTest("%s is not there" % rel)
    return path


def read_text(path):
    f = open(path)
    try:
        return f.read()
    finally:
        f.close()
