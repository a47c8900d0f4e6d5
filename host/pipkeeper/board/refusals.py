"""The engine's refusals out of its resident modules, for the builds that
load .mpy files into the heap (the stock image's bundle, the simulated
board, the MicroPython test runs).

Why: a string in a module is an object of the module for as long as it is
loaded. The texts the engine raises (IllegalEvent, Refused, ValueError:
162 of them, "a double-9 set has 55 tiles: too few for ...") took
about 6 KB of the unix port's heap at every press of a game, in engine,
dgn, presets and scoring, for the rare press a refusal is met on; issue
31's house rules then left the flashed sim's table (160 KB) short of room.

How: ``shared_engine/refusals.bin`` holds every such text once (a data
file of the engine's package, shipped beside its modules as the fonts are
beside the firmware's; made from the sources by ``write``, and
tests/host/test_refusals.py checks it is current): the offsets of the
texts (2 bytes each, little-endian, and the end's), then the texts, UTF-8.
Compiling an engine module for the board (board/mpy.py), ``transform``
puts ``_said(N)`` where a raise names text N, on the same line, and
imports ``_said`` (shared_engine/tiles.py ``said``, which reads text N
of the file: the heap pays for that one text, at the refusal) after the
module's last line. The message a player or a test sees is the same text.
The sources stay as they read, and so does the scorer's own image, which
runs them from flash (image/build.py leaves the file out of it). A table
as a module cost the refusal's press 9 KB of the unix port's heap, which a
score refused on a full heap did not find (tests/firmware/test_random_presses.py).

Run ``python -m pipkeeper.board.refusals`` after changing a refusal's text.
"""

import ast
import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
TABLE = "shared_engine/refusals.bin"
# Not rewritten: the module that defines ``said``.
KEPT = ("shared_engine/tiles.py",)
SHORTEST = 13        # a shorter text costs the heap less than the call that replaces it
_IMPORT = "\nfrom shared_engine.tiles import said as _said\n"


def _raised(tree):
    """The string constants (nodes) of a module's raise statements (not the
    pieces of an f-string: those are no expressions of their own)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            pieces = set()
            for n in ast.walk(node.exc):
                if isinstance(n, ast.JoinedStr):
                    pieces.update(id(v) for v in n.values)
            for n in ast.walk(node.exc):
                if (isinstance(n, ast.Constant) and isinstance(n.value, str)
                        and len(n.value) >= SHORTEST and id(n) not in pieces):
                    yield n


def _modules(root):
    for src in sorted((Path(root) / "shared_engine").glob("*.py")):
        rel = src.relative_to(root).as_posix()
        if rel not in KEPT:
            yield rel, src


def texts(root=ROOT):
    """Every refusal's text in the engine's modules, sorted (the table)."""
    found = set()
    for _, src in _modules(root):
        found.update(n.value for n in _raised(ast.parse(src.read_text(encoding="utf-8"))))
    return sorted(found)


def table_bytes(found):
    """The file: the offsets of the texts (and of their end), then the texts."""
    texts = [t.encode("utf-8") for t in found]
    at = 2 * (len(texts) + 1)
    head = bytearray()
    for t in texts + [b""]:
        head += at.to_bytes(2, "little")
        at += len(t)
    if at > 0xFFFF:
        raise ValueError("the refusals' texts outgrew 64 KB")
    return bytes(head) + b"".join(texts)


def write(root=ROOT):
    path = Path(root) / TABLE
    path.write_bytes(table_bytes(texts(root)))
    return path


def table(package):
    """{text: its number} of the table in the engine's folder ``package``
    (the one of the module compiled: its build ships that table), and its
    digest (a compiled module's cache key: a new table compiles the
    modules again). Empty where there is none: nothing is rewritten."""
    try:
        data = (Path(package) / Path(TABLE).name).read_bytes()
    except OSError:
        return {}, ""
    n = int.from_bytes(data[:2], "little") // 2 - 1
    at = [int.from_bytes(data[2 * i:2 * i + 2], "little") for i in range(n + 1)]
    return ({data[at[i]:at[i + 1]].decode("utf-8"): i for i in range(n)},
            hashlib.sha256(data).hexdigest())


def applies(name):
    """Whether the module compiled as ``name`` ("shared_engine/dgn.py") is rewritten."""
    return bool(name) and name.startswith("shared_engine/") and name not in KEPT


def transform(source, numbers):
    """``source`` with each refusal's text that ``numbers`` holds replaced by
    ``_said(N)``, line for line (a text over several lines keeps its line
    breaks, inside the call's brackets), and the import of ``_said``
    appended; ``source`` itself where it raises none of them."""
    tree = ast.parse(source)
    spans = []
    for n in _raised(tree):
        k = numbers.get(n.value)
        if k is not None:
            spans.append((n.lineno, n.col_offset, n.end_lineno, n.end_col_offset, k))
    if not spans:
        return source
    lines = source.split("\n")
    for l0, c0, l1, c1, k in sorted(spans, reverse=True):
        # (offsets are in UTF-8 bytes: the lines cut as bytes)
        first = lines[l0 - 1].encode("utf-8")
        last = lines[l1 - 1].encode("utf-8")
        call = "_said(%d%s)" % (k, "\n" * (l1 - l0))
        new = first[:c0].decode("utf-8") + call + last[c1:].decode("utf-8")
        lines[l0 - 1:l1] = new.split("\n")
    return "\n".join(lines).rstrip("\n") + "\n" + _IMPORT


if __name__ == "__main__":
    print("wrote", write())
