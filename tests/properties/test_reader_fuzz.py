"""Hypothesis fuzzing of the record reader, on CPython: any text gives a
game or one clean RecordError with a line number, never a crash; a record
written by the writer reads back to the same events."""

import io

from hypothesis import given, settings, strategies as st

from shared_engine import dgn, report
from shared_engine.simulate import simulate

WORDS = ["round", "lead", "hunt", "play", "draw", "pass", "score", "hand", "blocked",
         "undo", "redeal", "end", "double", "@mx", "@2", "@0", "+DB", "9-9", "9-4",
         "12-5", "0-0", "19-1", "1", "2", "3", "4", "0", "99", ";", "-", "@", "[", "]", '"']
HEAD = '[Rules "chickenfoot"]\n[Players "A" "B" "C"]\n'

line = st.lists(st.sampled_from(WORDS), max_size=7).map(" ".join)
lines = st.lists(line, max_size=30)


def _replay_cleanly(text):
    try:
        game = dgn.replay(text)
    except dgn.RecordError as e:
        msg = str(e)
        assert msg and "\n" not in msg
        assert e.line is None or e.line >= 1
        return None
    return game


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_gives_a_game_or_one_clean_error(text):
    _replay_cleanly(text)


@settings(max_examples=300, deadline=None)
@given(st.binary())
def test_any_bytes_give_a_game_or_one_clean_error(data):
    try:
        game = dgn.replay_lines(dgn.lines_of(data))
    except dgn.RecordError as e:
        assert "\n" not in str(e)
    else:
        assert game is not None


@settings(max_examples=400, deadline=None)
@given(lines, st.booleans())
def test_record_shaped_noise(body, torn):
    text = HEAD + "\n".join(body) + ("" if torn else "\n")
    game = _replay_cleanly(text)
    if game is not None and torn and body and body[-1].strip():
        assert game.warnings


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["chickenfoot", "chickenfoot-cross", "chicken-scratch", "mexican-train"]),
       st.integers(2, 4), st.integers(1, 10_000))
def test_written_records_read_back_to_the_same_events(rules, n, seed):
    sim = simulate(rules, n, seed)
    text = sim.record()
    rec = dgn.read(text)
    assert [ev for _, ev in rec.events] == list(sim.events)
    assert dgn.write(rec.tags, [ev for _, ev in rec.events]) == text


def _outcome(lines):
    try:
        g = dgn.replay_lines(lines, 2)
    except dgn.RecordError as e:
        return ("error", e.line, str(e))
    return (report.report(g), list(g.history), g.lines, g.warnings, g.tags)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(), lines.map(lambda b: (HEAD + "\n".join(b)).encode())),
       st.integers(1, 40))
def test_a_file_in_chunks_reads_as_its_lines(data, chunk):
    # replay_lines reads a file (readinto) in chunks, lines cut at their
    # edges; any other iterable of lines a line at a time
    want = _outcome(dgn.lines_of(data))
    keep = dgn.Scanner.chunk
    dgn.Scanner.chunk = chunk
    try:
        got = _outcome(io.BytesIO(data))
    finally:
        dgn.Scanner.chunk = keep
    assert got == want
