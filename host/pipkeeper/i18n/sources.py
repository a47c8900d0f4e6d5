"""The messages the board can show, found in the firmware's and the
engine's source: what the catalogue must hold (tests/host/test_i18n.py).

A message is written in the code as a tuple whose first item is its
English template: ``("Menu",)``, ``("{name} leads", name)`` (see
shared_engine/messages.py); a button's word is an argument of
``core.labels``; a count's two messages are the arguments of
``firmware.words.plural`` after the number; an engine refusal is the text or template that
``IllegalEvent`` or ``Refused`` is raised with. Texts built with ``%``
are not messages: they are record-level refusals the board's buttons
cannot cause, shown in English.
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
FILES = ("firmware/core.py", "firmware/words.py", "firmware/app.py", "firmware/flows", "firmware/screens",
         "shared_engine/engine.py", "shared_engine/scoring.py", "shared_engine/presets.py",
         "shared_engine/tiles.py", "shared_engine/corrections.py", "shared_engine/facts.py",
         "shared_engine/variants.py", "shared_engine/hands.py")
_RAISERS = ("IllegalEvent", "Refused")
# Messages made from a value at run time: the set-up page's option values
# (firmware/flows/setup.py, ``_shown``) and the tie-breaks the engine names
# (shared_engine/scoring.py, ``winners``; firmware/flows/rounds.py).
TIE_BREAKS = ("most rounds won", "lowest non-zero round score", "most rounds gone out")
DYNAMIC = ("quick", "full", "all", "no", "yes", "clean", "fast") + TIE_BREAKS
_NOT_MESSAGES = ("x",)      # __import__'s fromlist
# A module's dotted name ("shared_engine.dgn", in the app's tuples of
# modules to let go) is never a message, in a tuple of one or not.
_MODULE = re.compile(r"[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)+\Z")


def _files(root, files=FILES, skip=()):
    for f in files:
        p = root / f
        for q in sorted(p.glob("*.py")) if p.is_dir() else [p]:
            if q.relative_to(root).as_posix() not in skip:
                yield q


def _const(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def found(root=ROOT, files=FILES, skip=()):
    """{template: "file:line"} of every message in the sources (``files``:
    the firmware's and the engine's; a part of them), but those of the
    files ``skip`` names."""
    out = {}
    for path in _files(Path(root), files, skip):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            keys = []
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict) and any(
                    getattr(t, "id", None) == "SAY" for t in node.targets):
                # firmware/flows/error.py: the faults' sentences, by kind
                keys += [s for s in map(_const, node.value.values) if s is not None]
            elif isinstance(node, ast.Tuple) and node.elts:
                first = node.elts[0]
                for s in map(_const, (first.body, first.orelse) if isinstance(first, ast.IfExp) else (first,)):
                    if s is not None and (len(node.elts) == 1 or "{" in s):
                        keys.append(s)
            elif isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                if name == "labels":
                    for a in node.args:
                        for b in ((a.body, a.orelse) if isinstance(a, ast.IfExp) else (a,)):
                            if _const(b) is not None:
                                keys.append(_const(b))
                elif name == "plural":
                    keys += [s for s in map(_const, node.args[1:]) if s is not None]
                elif name in _RAISERS and node.args:
                    a = node.args[0]
                    if isinstance(a, ast.IfExp):  # "x" if c else "y"
                        keys += [s for s in (_const(a.body), _const(a.orelse)) if s is not None]
                    elif _const(a) is not None:
                        keys.append(_const(a))
            for k in keys:
                if k not in _NOT_MESSAGES and not _MODULE.match(k):
                    out.setdefault(k, "%s:%d" % (path.relative_to(root), node.lineno))
    for k in DYNAMIC:
        out.setdefault(k, "dynamic")
    return out
