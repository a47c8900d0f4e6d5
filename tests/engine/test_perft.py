"""Perft-style fixtures, run as data (as python-chess does): each file in
fixtures/perft/ is a position as a DGN record with a comment line
``; perft: N``, the number of legal plays of the seat to move
(``len(game.legal_plays())``: (connecting end, other end, target) options,
from the known hand when there is one), or ``; perft: none`` when quick
tracking leaves them unknowable (``legal_plays()`` is None)."""

import os

from shared_engine import dgn

from _check import data_path, read_text

MODULE = __file__


def folder():
    return data_path(MODULE, "fixtures/perft")


def fixtures():
    return sorted(n for n in os.listdir(folder()) if n.endswith(".dgn"))


def expected(text, name):
    for line in text.split("\n"):
        line = line.strip()
        if line.startswith("; perft:"):
            word = line[len("; perft:"):].strip()
            if word == "none":
                return None
            assert word.isdigit(), (name, line)
            return int(word)
    raise AssertionError("%s has no '; perft: N' line" % name)


def perft(text):
    plays = dgn.replay(text).legal_plays()
    return None if plays is None else len(plays)


def test_there_are_fixtures_for_every_preset():
    names = fixtures()
    assert len(names) >= 12, names
    for prefix in ("cf_", "cross_", "scratch_", "mx_"):
        assert [n for n in names if n.startswith(prefix)], prefix


def test_perft_fixtures():
    wrong = []
    for name in fixtures():
        text = read_text(folder() + "/" + name)
        want = expected(text, name)
        try:
            got = perft(text)
        except dgn.RecordError as e:
            wrong.append("%s: %s" % (name, e))
            continue
        if got != want:
            wrong.append("%s: expected %s legal plays, got %s" % (name, want, got))
    assert not wrong, "; ".join(wrong)


def test_the_seat_to_move_is_a_seat():
    # Every fixture is a position with someone to move (not between rounds).
    for name in fixtures():
        g = dgn.replay(read_text(folder() + "/" + name))
        assert g.to_move is not None, name
