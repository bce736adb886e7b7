"""The engine's speed against a baseline, on the default table and the large ones (issue 25).

    python benchmarks/engine_speed.py                 # every table, 5 interleaved runs
    python benchmarks/engine_speed.py --tables d12-4,d18-12 --repeat 7 --json

Plays the same random rounds as benchmarks/rounds_per_second.py (deal, legal_actions,
perform; the same seeds and choices) with up to three builds of the engine, interleaved
run by run so that a noisy machine slows them alike:

    baseline  reference/ at git revision --baseline (default: the commit before the
              speed-ups), read from git into a package of its own (pure Python)
    pure      reference/ as installed, from its .py sources (pure Python, even when a
              compiled build is installed beside them)
    compiled  mtrain.reference itself, when it is the mypyc build (MTRAIN_MYPYC=1 at
              install; see the README)

Each run is timed in CPU seconds of this process (time.process_time), so time the machine
gives to others is not counted; the load average is printed beside it. Every build must
play exactly the same actions (their count is compared), or the script stops. Printed per
table: the median CPU seconds of a run, rounds and actions per CPU second, the cost of an
action relative to the default table (d12-4) and the median of the per-run ratios
between builds.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import mtrain.reference as installed
from mtrain.reference import engine as installed_engine
from mtrain.reference.simulate import round_seed
from mtrain.spec.catalog import catalog

BASELINE = "95047f2"
"""main before the speed-ups of issue 25 (the reference engine as it was)."""
MODULES = ("rules", "state", "engine", "refusals", "deal")
"""The engine's modules, copied into each build (state.py and refusals.py only where the
revision has them)."""
REPO = Path(__file__).resolve().parent.parent
TABLES: dict[str, tuple[str, int]] = {
    "d12-4": ("pagat", 4),  # the default table
    "d15-8": ("pagat+double-15", 8),
    "d15-12": ("pagat+double-15", 12),
    "d18-8": (str(REPO / "spec/data/rulesets/double-18.yaml"), 8),
    "d18-12": (str(REPO / "spec/data/rulesets/double-18.yaml"), 12),
}


@dataclass
class Build:
    name: str
    engine: ModuleType
    deal: ModuleType
    rules: ModuleType
    refusals: ModuleType
    """refusals.py, or the engine in a revision from before it was split off."""


def package_from(name: str, sources: dict[str, str], folder: Path, label: str) -> Build:
    """Modules `rules`, `engine` and `deal` from source text, as a package `name` of
    their own (their relative imports stay inside it)."""
    root = folder / name
    root.mkdir()
    (root / "__init__.py").write_text("")
    for module, text in sources.items():
        (root / f"{module}.py").write_text(own_imports(text, name))
    spec = importlib.util.spec_from_file_location(name, root / "__init__.py",
                                                  submodule_search_locations=[str(root)])
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package
    spec.loader.exec_module(package)
    loaded = {m: importlib.import_module(f"{name}.{m}") for m in sources}
    return Build(label, loaded["engine"], loaded["deal"], loaded["rules"],
                 loaded.get("refusals", loaded["engine"]))


def own_imports(text: str, package: str) -> str:
    """`text` with its imports of the other copied modules pointed at `package`: an
    absolute `from mtrain.reference.engine import ...` would otherwise reach the installed
    engine (the compiled one, where installed) from inside the pure copy."""
    for module in MODULES:
        text = text.replace(f"from mtrain.reference.{module} import",
                            f"from {package}.{module} import")
    return text


def baseline_build(rev: str, folder: Path) -> Build:
    return revision_build(rev, folder, "_baseline_reference", "baseline")


def revision_build(rev: str, folder: Path, name: str, label: str) -> Build:
    """The engine at git revision `rev`, as the package `name`."""
    sources = {}
    for m in MODULES:
        shown = subprocess.run(["git", "-C", str(REPO), "show", f"{rev}:reference/{m}.py"],
                               capture_output=True, text=True)
        if shown.returncode == 0:
            sources[m] = shown.stdout
        elif m not in ("state", "refusals"):  # came later (4d7fd5a, session 38)
            raise SystemExit(f"engine_speed: no reference/{m}.py at {rev}: {shown.stderr}")
    return package_from(name, sources, folder, label)


def pure_build(folder: Path) -> Build:
    """The installed engine's .py sources, state.py included: loaded beside a compiled
    build, a copy without it would make the compiled build's states."""
    here = Path(installed.__path__[0])
    return package_from("_pure_reference",
                        {m: (here / f"{m}.py").read_text() for m in MODULES}, folder, "pure")


def is_compiled(module: ModuleType) -> bool:
    return not str(module.__file__).endswith(".py")


def compiled_build() -> Build | None:
    if not is_compiled(installed_engine):
        return None
    from mtrain.reference import deal, refusals, rules
    return Build("compiled", installed_engine, deal, rules, refusals)


def loop(build: Build, ruleset: Any, players: int, rounds: int,
         seed: int) -> tuple[float, int]:
    """(CPU seconds, actions) for `rounds` random rounds, as rounds_per_second plays them."""
    rules = build.rules.Rules.of(ruleset)
    deal: Callable[..., Any] = build.deal.deal
    legal_actions = build.engine.legal_actions
    perform = build.engine.perform
    over = build.engine.OVER
    randrange = random.Random(seed).randrange
    actions = 0
    start = time.process_time()
    for index in range(rounds):
        state = deal(rules, players, 1 + index % rules.rounds, seed=round_seed(seed, index))
        while state.phase != over:
            legal = legal_actions(state)
            perform(state, legal[randrange(len(legal))] if len(legal) > 1 else legal[0])
            actions += 1
    return time.process_time() - start, actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", default=",".join(TABLES),
                        help=f"comma-separated, of {', '.join(TABLES)}")
    parser.add_argument("--rounds", type=int, default=300, help="rounds per run")
    parser.add_argument("--repeat", type=int, default=5, help="interleaved runs per build")
    parser.add_argument("--baseline", default=BASELINE, help="git revision of the baseline")
    parser.add_argument("--no-baseline", action="store_true", help="time the builds installed")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    tables = args.tables.split(",")
    unknown = [t for t in tables if t not in TABLES]
    if unknown or args.rounds < 1 or args.repeat < 1:
        print(f"engine_speed: unknown table {unknown} or a count below 1", file=sys.stderr)
        return 2
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        builds = [] if args.no_baseline else [baseline_build(args.baseline, Path(tmp))]
        builds.append(pure_build(Path(tmp)))
        compiled = compiled_build()
        if compiled is not None:
            builds.append(compiled)
        results: dict[str, dict[str, Any]] = {}
        for table in tables:
            variant, players = TABLES[table]
            ruleset = catalog().ruleset(variant)
            for b in builds:
                loop(b, ruleset, players, 20, seed=0)  # warm up
            cpu: dict[str, list[float]] = {b.name: [] for b in builds}
            actions = 0
            for k in range(args.repeat):
                counts = set()
                for b in builds:
                    seconds, n = loop(b, ruleset, players, args.rounds, seed=1 + k)
                    cpu[b.name].append(seconds)
                    counts.add(n)
                if len(counts) != 1:
                    print(f"engine_speed: {table} run {k + 1}: the builds played different "
                          f"games ({sorted(counts)} actions)", file=sys.stderr)
                    return 1
                actions += counts.pop()
            results[table] = {"variant": variant, "players": players, "actions": actions,
                              "cpu": cpu}
    load_after = os.getloadavg()
    report = summarise(results, [b.name for b in builds], args)
    report["load_average"] = {"before": load_before, "after": load_after}
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        show(report)
    return 0


def summarise(results: dict[str, dict[str, Any]], names: list[str],
              args: argparse.Namespace) -> dict[str, Any]:
    rounds = args.rounds * args.repeat
    out: dict[str, Any] = {"python": platform.python_version(), "rounds_per_run": args.rounds,
                           "repeat": args.repeat, "builds": names,
                           "baseline": None if args.no_baseline else args.baseline,
                           "tables": {}}
    for table, r in results.items():
        per_action = {n: sum(r["cpu"][n]) / r["actions"] for n in names}
        row: dict[str, Any] = {
            "variant": r["variant"], "players": r["players"],
            "actions_per_round": round(r["actions"] / rounds, 1),
            "median_cpu_seconds": {n: round(statistics.median(r["cpu"][n]), 4) for n in names},
            "rounds_per_cpu_second": {n: round(rounds / sum(r["cpu"][n]), 1) for n in names},
            "microseconds_per_action": {n: round(1e6 * v, 3) for n, v in per_action.items()},
            "speedup": {n: round(statistics.median(
                b / x for b, x in zip(r["cpu"][names[0]], r["cpu"][n], strict=True)), 3)
                for n in names[1:]},
        }
        out["tables"][table] = row
    base = out["tables"].get("d12-4")
    if base is not None:
        for row in out["tables"].values():
            row["cost_per_action_vs_d12_4"] = {
                n: round(row["microseconds_per_action"][n] / base["microseconds_per_action"][n],
                         3) for n in names}
    return out


def show(report: dict[str, Any]) -> None:
    names = report["builds"]
    load = report["load_average"]
    print(f"Python {report['python']}, {report['repeat']} interleaved runs of "
          f"{report['rounds_per_run']} rounds per build; CPU seconds of this process; "
          f"load average {load['before'][0]:.2f} before, {load['after'][0]:.2f} after "
          f"(2 cores)")
    if report["baseline"]:
        print(f"baseline: reference/ at {report['baseline']}")
    for table, row in report["tables"].items():
        print(f"{table}: {row['variant']}, {row['players']} players, "
              f"{row['actions_per_round']} actions per round")
        for n in names:
            vs = row.get("cost_per_action_vs_d12_4", {}).get(n)
            print(f"  {n:8} median {row['median_cpu_seconds'][n]:.4f} CPU s/run  "
                  f"{row['rounds_per_cpu_second'][n]:8.1f} rounds/CPU s  "
                  f"{row['microseconds_per_action'][n]:6.3f} us/action"
                  + (f"  x{vs:.3f} of d12-4 per action" if vs is not None else ""))
        for n, ratio in row["speedup"].items():
            print(f"  {n} vs {names[0]}: x{ratio:.3f} (median of per-run ratios)")


if __name__ == "__main__":
    raise SystemExit(main())
