"""The code's layout keeps its promises (docs/STYLE.md, "Where host code lives").

- host/pipkeeper is layered by capability: a module imports only from its own
  layer or the layers below it, so nothing reaches "up" (no package imports
  commands/ or the cli, the board never needs the simulator, the library never
  needs a board);
- no module of host/pipkeeper, firmware/ or shared_engine/ takes part in an
  import circle, counting the imports inside functions too (a circle that only
  works because one side imports late is still a circle to read).

Imports are read with ``ast``, so nothing is imported to check them.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOST = ROOT / "host"

# Lowest first. A module may import its own layer and the ones before it.
LAYERS = (
    ("base", ("pipkeeper", "pipkeeper.errors", "pipkeeper.paths", "pipkeeper.closing",
              "pipkeeper.files", "pipkeeper.progress", "pipkeeper.wording")),
    ("i18n", ("pipkeeper.i18n",)),
    ("library", ("pipkeeper.library",)),
    ("board", ("pipkeeper.board",)),
    ("image", ("pipkeeper.image",)),
    ("sim", ("pipkeeper.sim",)),
    ("tools", ("pipkeeper.bench", "pipkeeper.testing")),
    ("commands", ("pipkeeper.options", "pipkeeper.commands")),
    ("cli", ("pipkeeper.cli", "pipkeeper.__main__")),
)


def module_name(path, top):
    parts = list(path.relative_to(top).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(top, package):
    """{dotted name: path} of a package's modules (folders without
    __init__.py, such as the MicroPython scripts in mp/, are not modules)."""
    found = {}
    for path in sorted((top / package).rglob("*.py")):
        if all((d / "__init__.py").is_file() for d in path.parents if top in d.parents and d != top):
            found[module_name(path, top)] = path
    return found


def imports_of(name, path, known):
    """The modules of ``known`` that ``path`` imports, anywhere in the file."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [base] + [base + "." + alias.name for alias in node.names]
        else:
            continue
        for target in targets:
            # `import a.b.c` also runs a and a.b; the nearest known module counts.
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph(top, *packages):
    known = {}
    for package in packages:
        known.update(modules(top, package))
    return {name: imports_of(name, path, known) for name, path in known.items()}


def layer_of(name):
    best = None
    for rank, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if name == prefix or (prefix != "pipkeeper" and name.startswith(prefix + ".")):
                if best is None or len(prefix) > best[1]:
                    best = (rank, len(prefix))
    return None if best is None else best[0]


def circles(edges):
    """Every strongly connected set of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_every_host_module_has_a_layer():
    assert [name for name in graph(HOST, "pipkeeper") if layer_of(name) is None] == []


def test_no_host_module_imports_from_a_layer_above_it():
    upward = []
    for name, targets in graph(HOST, "pipkeeper").items():
        for target in sorted(targets):
            if layer_of(target) > layer_of(name):
                upward.append("%s imports %s (%s above %s)" % (
                    name, target, LAYERS[layer_of(target)][0], LAYERS[layer_of(name)][0]))
    assert upward == []


def test_no_import_circle_in_host():
    assert circles(graph(HOST, "pipkeeper")) == []


def test_no_import_circle_in_the_board_code():
    assert circles(graph(ROOT, "firmware", "shared_engine")) == []


def test_the_checks_see_a_circle_and_an_upward_import(tmp_path):
    """The checks themselves: a made-up package with both faults is caught."""
    pkg = tmp_path / "pipkeeper"
    (pkg / "board").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "board" / "__init__.py").write_text("")
    (pkg / "board" / "link.py").write_text("from pipkeeper.board import flash\n")
    (pkg / "board" / "flash.py").write_text(
        "def f():\n    from . import link\n    from pipkeeper.commands import sync\n")
    (pkg / "commands").mkdir()
    (pkg / "commands" / "__init__.py").write_text("")
    (pkg / "commands" / "sync.py").write_text("")
    edges = graph(tmp_path, "pipkeeper")
    assert circles(edges) == [["pipkeeper.board.flash", "pipkeeper.board.link"]]
    assert "pipkeeper.commands.sync" in edges["pipkeeper.board.flash"]
    assert layer_of("pipkeeper.commands.sync") > layer_of("pipkeeper.board.flash")


@pytest.mark.parametrize("name, layer", [
    ("pipkeeper.errors", "base"), ("pipkeeper.library.store", "library"),
    ("pipkeeper.sim.rp2040.board", "sim"), ("pipkeeper.commands.sim", "commands"),
])
def test_layers_are_found_by_the_longest_prefix(name, layer):
    assert LAYERS[layer_of(name)][0] == layer
