"""Does the fast loop still run every module of the product? (issue 20)

    python benchmarks/fast_loop_coverage.py [--jobs 2] [--json OUT] [--against OLD]
                                            [-- PYTEST ARGS]

Runs `pytest -m "not slow"` (or the pytest arguments after `--`) under coverage.py, the
processes the tests start measured too (the commands, the engines, xdist's workers, the
forked pools: coverage's `patch = subprocess, fork, _exit`), then reads, for every module
of mtrain/, spec/, reference/ and conformance/, which of its functions ran (a function
ran when a line of its body did; a module without functions, when it was imported).
Prints a line per package and names every module none of whose functions ran: exit 1 if
there is one (a module the fast loop no longer exercises), 0 otherwise. `--json OUT` keeps
the functions that ran, module by module; `--against OLD` (such a file, from another run,
say before tests were moved to the slow suite) names the functions OLD's run ran and this
one did not. Not a test: the fast loop under coverage is about twice its CPU (run it as
`pytest -m "not slow"` is run, from the repository's root, with pytest-xdist and coverage
installed: `pip install coverage`). The tests' mtrain cache is used as the run finds it
(warm, as a contributor's loop runs; `-- --fresh-cache` for a cold one). A test of how a
process starts under a signal may fail under coverage, whose start it changes
(test_robust_s53's interrupt while orjson starts, session 63); the report is read all the
same.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"mtrain": "mtrain", "spec": "mtrain.spec", "reference": "mtrain.reference",
            "conformance": "mtrain.conformance"}
"""The product's folders, each with the package it is installed as."""
UNSEEN = {
    "mtrain.conformance.reaper": "started as `python -I -S reaper.py` under every engine a "
    "harness starts (conformance/child.py): no site, so no coverage in that process",
    "mtrain.spec.distinguish.__main__": "`python -m mtrain.spec.distinguish --write`, the "
    "lead's regeneration: no test runs it, in the fast loop or the whole suite",
}
"""Modules coverage cannot see run in the fast loop, each with why: listed apart, never
counted as run."""


def product_modules() -> dict[str, Path]:
    """Every module of the product, by its dotted name."""
    found = {}
    for folder, package in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if folder == "mtrain" and parts[0] in PACKAGES:  # (no such nesting today)
                continue
            name = ".".join((package, *parts))
            found[name.removesuffix(".__init__")] = path
    return found


def functions(path: Path) -> dict[str, set[int]]:
    """Each function of a module (by qualified name) with the first lines of its body's
    statements: a line coverage counts as run only once the function is called."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: dict[str, set[int]] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                found[name] = {line for stmt in child.body for line in statement_lines(stmt)}
                visit(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def statement_lines(stmt: ast.stmt) -> set[int]:
    """The lines coverage may report for a statement of a body, nested blocks' included
    (a function whose first statement is a docstring runs its second); nested functions'
    bodies are theirs."""
    lines = set()
    for node in ast.walk(stmt):
        if isinstance(node, ast.stmt):
            lines.add(node.lineno)
    return lines


def measured(data_file: Path) -> dict[str, set[int]]:
    """The lines run, by the real path of each file measured."""
    import coverage

    data = coverage.CoverageData(basename=str(data_file))
    data.read()
    out: defaultdict[str, set[int]] = defaultdict(set)
    for name in data.measured_files():
        out[os.path.realpath(name)] |= set(data.lines(name) or ())
    return out


def report(ran_lines: dict[str, set[int]]) -> tuple[dict[str, list[str]], list[str]]:
    """Each module's functions that ran, and the modules nothing of which ran."""
    ran: dict[str, list[str]] = {}
    idle = []
    for module, path in product_modules().items():
        lines = ran_lines.get(os.path.realpath(path), set())
        funcs = functions(path)
        ran[module] = sorted(f for f, body in funcs.items() if body & lines)
        if module not in UNSEEN and ((funcs and not ran[module]) or (not funcs and not lines)):
            idle.append(module)
    return ran, idle


def run_loop(jobs: int, pytest_args: list[str], folder: Path) -> int:
    """The fast loop under coverage; pytest's exit status."""
    rc = folder / "coveragerc"
    rc.write_text("\n".join([
        "[run]", f"data_file = {folder / 'coverage'}", "parallel = true",
        "source_pkgs = mtrain", "patch =", "    subprocess", "    fork", "    _exit", ""]),
        encoding="utf-8")
    args = pytest_args or ["-m", "not slow", "-q"]
    if jobs > 1 and "-n" not in args:
        args = [*args, "-n", str(jobs)]
    env = {**os.environ, "COVERAGE_RCFILE": str(rc),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run([sys.executable, "-m", "coverage", "run", "--rcfile", str(rc),
                           "-m", "pytest", *args], cwd=ROOT, env=env)
    subprocess.run([sys.executable, "-m", "coverage", "combine", "--rcfile", str(rc),
                    "-q"], cwd=ROOT, env=env, check=True)
    return done.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="xdist workers (default 2)")
    parser.add_argument("--json", type=Path, help="write the functions that ran here")
    parser.add_argument("--against", type=Path,
                        help="a --json file of another run: name what it ran and this not")
    parser.add_argument("--data", type=Path,
                        help="read this combined coverage file instead of running the loop")
    parser.add_argument("pytest_args", nargs="*", help="pytest's arguments, after --")
    args = parser.parse_args(argv)
    try:
        import coverage  # noqa: F401
    except ImportError:
        print("fast_loop_coverage: needs coverage.py (pip install -e .[bench])", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="fast-loop-coverage-") as tmp:
        status = None
        data = args.data
        if data is None:
            status = run_loop(args.jobs, args.pytest_args, Path(tmp))
            data = Path(tmp) / "coverage"
        ran, idle = report(measured(data))
    by_package: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for module, path in product_modules().items():
        top = module.split(".")[1] if module.count(".") else "mtrain"
        top = top if f"mtrain.{top}" in PACKAGES.values() else "mtrain"
        counts = by_package[top]
        counts[0] += 1
        counts[1] += len(ran[module])
        counts[2] += len(functions(path))
    for package, (modules, run, total) in sorted(by_package.items()):
        print(f"{package:12s} {modules:4d} modules, {run:5d} of {total:5d} functions run "
              f"({run / max(total, 1):.0%})")
    if status is not None:
        print(f"pytest exited {status}")
    if args.json is not None:
        args.json.write_text(json.dumps(ran, indent=1, sort_keys=True), encoding="utf-8")
    if args.against is not None:
        old = json.loads(args.against.read_text(encoding="utf-8"))
        lost = [f"{m}.{f}" for m, fs in sorted(old.items()) for f in fs
                if f not in set(ran.get(m, ()))]
        print(f"{len(lost)} functions {args.against} ran that this run did not"
              + "".join(f"\n  {name}" for name in lost))
    for module, why in UNSEEN.items():
        print(f"not measured: {module}: {why}")
    if idle:
        print(f"{len(idle)} modules the fast loop runs nothing of:"
              + "".join(f"\n  {m}" for m in idle))
        return 1
    print(f"every one of the {len(ran) - len(UNSEEN)} modules measured runs in the fast loop")
    return 0


if __name__ == "__main__":
    sys.exit(main())
