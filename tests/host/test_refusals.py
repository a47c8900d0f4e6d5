"""The engine's refusals, compiled for the heap builds with their texts in
shared_engine/refusals.bin (host/pipkeeper/board/refusals.py)."""

import ast
import subprocess

import pytest

from pipkeeper.board import mpy, refusals

ROOT = refusals.ROOT


def test_the_table_is_current():
    """Every refusal's text is in the table, or the build would leave it in
    its module (the heap keeps it at every press); a text no longer raised
    only costs the table."""
    assert (ROOT / refusals.TABLE).read_bytes() == refusals.table_bytes(refusals.texts()), (
        "run `python -m pipkeeper.board.refusals`")
    numbers, _ = refusals.table(ROOT / "shared_engine")
    assert sorted(numbers, key=numbers.get) == refusals.texts()


def test_a_rewritten_module_keeps_its_lines_and_raises_by_number():
    src = (
        'def f(x):\n'
        '    if x == 1:\n'
        '        raise ValueError("a text that is long enough %d" % x)\n'
        '    if x == 2:\n'
        '        raise ValueError("over two lines, "\n'
        '                         "still one text")\n'
        '    if x == 3:\n'
        '        raise ValueError(f"an f-string piece {x}")\n'
        '    return "no raise, a long text stays"\n'
    )
    numbers = {"a text that is long enough %d": 0, "over two lines, still one text": 1,
               "an f-string piece ": 2, "no raise, a long text stays": 3}
    out = refusals.transform(src, numbers)
    tree = ast.parse(out)
    assert out.count("_said(") == 2 and "an f-string piece" in out and "a long text stays" in out
    assert out.split("\n")[:9] == [
        'def f(x):', '    if x == 1:', '        raise ValueError(_said(0) % x)', '    if x == 2:',
        '        raise ValueError(_said(1', '))', '    if x == 3:',
        '        raise ValueError(f"an f-string piece {x}")', '    return "no raise, a long text stays"']
    assert isinstance(tree.body[-1], ast.ImportFrom) and tree.body[-1].names[0].asname == "_said"
    assert refusals.transform("x = 1\n", numbers) == "x = 1\n"      # nothing raised: as it was


def test_only_the_engine_modules_are_rewritten():
    assert refusals.applies("shared_engine/engine.py")
    assert not refusals.applies("shared_engine/tiles.py")
    assert not refusals.applies("firmware/app.py") and not refusals.applies(None)


def test_the_compiled_engine_refuses_in_the_same_words(tmp_path):
    """On the unix port, from .mpy files: a refusal reads as the source's
    (the first text, the last, one beyond ASCII where there is one), and
    the engine's modules hold none of the table's texts."""
    from pipkeeper.paths import micropython_binary
    out = mpy.engine_build(ROOT, cache=tmp_path / "mpy")
    engine = (out / "shared_engine" / "engine.mpy").read_bytes()
    assert b"is not in a double-%d set" not in (out / "shared_engine" / "presets.mpy").read_bytes()
    assert sum(t.encode() in engine for t in refusals.texts()) == 0
    code = (
        "import sys\nsys.path.insert(0, %r)\n"
        "from shared_engine import presets, tiles\n"
        "try:\n presets.Rules('chickenfoot', 2, {'rounds': '10'})\n"
        "except ValueError as e:\n print(e)\n"
        "for n in (0, %d, 10000):\n print(tiles.said(n))\n" % (str(out), len(refusals.texts()) - 1))
    r = subprocess.run([micropython_binary(), "-X", "heapsize=160K", "-c", code],
                       capture_output=True, text=True, timeout=60)
    texts = refusals.texts()
    assert r.stdout.split("\n")[:4] == ["rounds: 10-10 is not in a double-9 set", texts[0], texts[-1],
                                        "refused (text 10000)"], r.stdout + r.stderr
    with pytest.raises(ValueError, match="rounds: 10-10 is not in a double-9 set"):
        from shared_engine import presets
        presets.Rules("chickenfoot", 2, {"rounds": "10"})
