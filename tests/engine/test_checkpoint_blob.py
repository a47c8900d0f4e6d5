"""Checkpoints: what the blob carries (the scored rounds, a fixed round's
original, the round's tiles) and the way it is read where the heap is too
short for the file in one block. A file of its own: each test file starts
the MicroPython runner on a fresh 160 KB heap, and these games would leave
test_checkpoint.py's long sweep a heap scattered by their own."""

from shared_engine import checkpoint, report
from shared_engine.engine import FIX

from test_checkpoint import CP, FULL, PATH, _checkpoint_at, _cleanup, _full, _same, _simulate


def test_a_checkpoint_is_read_piece_by_piece_where_the_heap_is_short():
    """The file read in one block, and from the file itself (the way of a
    heap with no block that large), restore the same game."""
    _simulate("mexican-train", 4, 3)
    _checkpoint_at(150)
    want = _full()
    f = open(CP, "rb")
    try:
        whole = checkpoint.restore(checkpoint.read(f)["state"])
        streamed = checkpoint.restore(checkpoint._read_streamed(f)["state"])
    finally:
        f.close()
    _same(whole, want)
    _same(streamed, want)
    assert checkpoint.snapshot(streamed) == checkpoint.snapshot(whole)
    whole = streamed = want = None
    _cleanup()


def test_a_round_in_play_and_a_fixed_round_restore():
    """The round's tiles (on the table, known in hands) and a scored round
    a fix changed since its mark go through the blob and the head."""
    rounds, _ = _simulate("mexican-train", 4, 8)
    # (the record without its hands: a round's score is then checked
    # against bounds wide enough for a fix to change it)
    out = open(PATH, "w")
    n = 0
    for line in open(FULL):
        if line[0] != "[":
            if n == rounds[2] + 30:
                break
            n += 1
        if not line.startswith("hand"):
            out.write(line)
    out.close()
    g = _full()
    assert g.round is not None and len(g.results) == 2
    fixed = False
    for seat in range(1, 5):        # the first correction round 1 admits
        for pips in range(60):
            if pips == g.results[0][3][seat - 1]:
                continue
            try:
                g.apply((FIX, 1, seat, pips, 0))
            except ValueError:
                continue
            fixed = True
            break
        if fixed:
            break
    assert fixed and g.results[0][6] is not None
    again = checkpoint.restore(checkpoint.snapshot(g))
    assert report.state(again) == report.state(g)
    assert again.results == g.results and again.totals == g.totals
    assert list(again.round.table) == list(g.round.table) and again.round.known == g.round.known
    assert checkpoint.snapshot(again) == checkpoint.snapshot(g)
    g = again = None
    _cleanup()
