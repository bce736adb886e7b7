"""The layers run one way, and no module imports itself back through others.

Every import of every module (at the top or inside a function) is read with `ast`:
- the spec's data core (tiles, tile sets, rule sets, loading, catalogue, scopes, facts)
  imports nothing but itself;
- the model (spec/model/) and the analyses (spec/optionspace/, spec/proofs/,
  spec/distinguish/) import only spec/;
- the engine (reference/) imports only the data core: it never sees the model;
- the harness (conformance/) imports spec/ and reference/;
- the command line (mtrain/) sits on top; nothing below imports it (the package's
  `__version__` aside, which every layer may read).
And the graph of imports between modules has no cycle.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"spec": "mtrain.spec", "reference": "mtrain.reference",
           "conformance": "mtrain.conformance", "mtrain": "mtrain"}
DATA_CORE = {f"mtrain.spec.{m}" for m in (
    "tiles", "tilesets", "ruleset", "catalog", "catalog_entries", "rules_file_shape",
    "data_folder", "yamlload", "yamlschema", "yamlspell", "scope",
    "facts", "errors", "cache", "rulebooks", "package_files", "file_checks")}


def modules() -> dict[str, Path]:
    out = {}
    for folder, package in FOLDERS.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = [p for p in path.relative_to(ROOT / folder).with_suffix("").parts
                     if p != "__init__"]
            out[".".join([package, *parts])] = path
    return out


MODULES = modules()


def _statements(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every statement of `body` and of the blocks nested in it: an import is a statement,
    so the expressions (most of a module's nodes, and of the graph's CPU with ast.walk)
    are not walked; the same imports as ast.walk on every module (session 64)."""
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        yield node
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list) and value and isinstance(
                    value[0], ast.stmt | ast.excepthandler | ast.match_case):
                todo += value


def imports(name: str, path: Path) -> Iterator[str]:
    """The project modules `name` imports (a `from package import module` counts as the
    module; a name from a package's __init__ as the package)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in _statements(ast.parse(path.read_text(), str(path)).body):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([base] if base else [])])
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                       for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in MODULES:
                t = t.rpartition(".")[0]
            if t and t != name:
                yield t


@functools.cache
def graph() -> dict[str, list[str]]:
    """Each module's project imports (read when a test asks, not at collection)."""
    return {m: sorted(set(imports(m, p))) for m, p in MODULES.items()}


def layer(module: str) -> str:
    if module in DATA_CORE or module == "mtrain.spec":
        return "data core"
    for prefix, name in (("mtrain.spec.", "spec"), ("mtrain.reference", "reference"),
                         ("mtrain.conformance", "conformance")):
        if module.startswith(prefix):
            return name
    return "command line"


ALLOWED = {
    "data core": {"data core"},
    "spec": {"data core", "spec"},
    "reference": {"data core", "reference"},
    "conformance": {"data core", "spec", "reference", "conformance"},
    "command line": {"data core", "spec", "reference", "conformance", "command line"},
}


# the imports still to be turned round, each removed here as it is: a new upward import
# fails, and so does one listed here that is gone
PENDING: set[str] = set()
PENDING_CYCLES: list[list[str]] = []


def test_every_import_runs_down_the_layers() -> None:
    broken = {f"{m} -> {t}" for m, targets in graph().items() for t in targets
              if t != "mtrain" and layer(t) not in ALLOWED[layer(m)]}
    assert broken - PENDING == set(), "upward imports:\n" + "\n".join(sorted(broken - PENDING))
    assert PENDING - broken == set(), "fixed, drop from PENDING: " + ", ".join(PENDING - broken)


def cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_module_imports_itself_back() -> None:
    # a package's __init__ that gathers its modules is its own entry: its modules importing
    # a name from it is a cycle too
    found = cycles(graph())
    new = [c for c in found if c not in PENDING_CYCLES]
    assert not new, "\n".join(" <-> ".join(c) for c in new)
    gone = [c for c in PENDING_CYCLES if c not in found]
    assert not gone, f"fixed, drop from PENDING_CYCLES: {gone}"


@pytest.mark.parametrize("graph, expected", [
    ({"a": ["b"], "b": ["a"]}, [["a", "b"]]),
    ({"a": ["b"], "b": ["c"], "c": []}, []),
    ({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}, [["a", "b", "c"]]),
])
def test_the_cycle_finder_finds_cycles(graph: dict[str, list[str]],
                                       expected: list[list[str]]) -> None:
    assert cycles(graph) == expected


def test_the_reader_sees_function_level_and_relative_imports() -> None:
    # the reader must see what the layer rules are about, or the tests above pass vacuously
    assert "mtrain.spec.catalog" in graph()["mtrain.reference.rules"] or \
        "mtrain.spec.ruleset" in graph()["mtrain.reference.rules"]
    assert layer("mtrain.spec.model.legality") == "spec"
    assert layer("mtrain.spec.catalog") == "data core"
    assert len(MODULES) > 90


def test_the_situations_cache_key_reads_at_least_what_ast_reads() -> None:
    # spec/cache.import_closure reads imports with a regular expression (it runs on every
    # conform); ast here is the exact reader: a module it sees that the key misses would
    # let an edit to it serve stale situations
    from mtrain.spec import cache
    root = "mtrain.conformance.situations"
    exact: set[str] = set()
    todo = [root]
    while todo:
        name = todo.pop()
        if name not in exact:
            exact.add(name)
            todo.extend(graph()[name])
    keyed = set(cache.import_closure(root))
    assert len(exact) > 30
    assert exact - keyed == set(), f"the key misses {sorted(exact - keyed)}"
