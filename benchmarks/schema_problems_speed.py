"""How long `answers.schema_problems` takes to word a broken state, one kind of break at a
time, and whether a revision's words are the same.

    python benchmarks/schema_problems_speed.py [--base REV] [--runs 3]

The states: pagat deals for 4 players (seeds 1 to 5), each broken one way (a phase no
phase, a count written as text, a tile in a hand written "07-07", a key of its own, the
Mexican train's end a float). The CPU milliseconds a call, median of --runs rounds, after
one round that builds the validators. With --base REV, REV's conformance/answers.py runs
in the same process (loaded apart, as a module of its own; it imports the working tree's
other modules) and every state's problems must be the same text.
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from measure import load, median

from mtrain.conformance import answers
from mtrain.reference import codec
from mtrain.reference.deal import deal
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog

ROOT = Path(__file__).resolve().parents[1]
BREAKS: dict[str, Callable[[Any], None]] = {
    "phase": lambda s: s.__setitem__("phase", "x"),
    "passes": lambda s: s.__setitem__("passes", "0"),
    "hand tile": lambda s: s["hands"][0].__setitem__(0, "07-07"),
    "extra key": lambda s: s.__setitem__("extra", 1),
    "mexican end": lambda s: s["mexican"].__setitem__("end", 1.0),
}


def module_at(rev: str, folder: Path) -> ModuleType:
    """REV's conformance/answers.py, imported as a module of its own."""
    path = folder / "answers_base.py"
    path.write_bytes(subprocess.run(["git", "-C", str(ROOT), "show",
                                     f"{rev}:conformance/answers.py"],
                                    capture_output=True, check=True).stdout)
    spec = importlib.util.spec_from_file_location("answers_base", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {rev}'s answers.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["answers_base"] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def told(module: ModuleType, doc: Any) -> list[str]:
    return [str(p) for p in module.schema_problems("state", doc)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", metavar="REV", help="a git revision to compare with")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rules = Rules.of(catalog().ruleset("pagat"))
    states = [codec.state_to_json(deal(rules, 4, 1, seed=k)) for k in range(1, 6)]
    docs: dict[str, list[Any]] = {name: [] for name in BREAKS}
    for name, brk in BREAKS.items():
        for s in states:
            docs[name].append(copy.deepcopy(s))
            brk(docs[name][-1])
    with tempfile.TemporaryDirectory() as tmp:
        sides = {"new": answers}
        if args.base:
            sides[args.base] = module_at(args.base, Path(tmp))
        times: dict[tuple[str, str], list[float]] = {}
        for run in range(args.runs + 1):  # the first builds the validators
            for side, module in sides.items():
                for name, group in docs.items():
                    start = time.process_time()
                    for doc in group:
                        told(module, doc)
                    if run:
                        times.setdefault((side, name), []).append(
                            (time.process_time() - start) / len(group) * 1e3)
        same = all(len({tuple(told(m, d)) for m in sides.values()}) == 1
                   for group in docs.values() for d in group)
    for name in BREAKS:
        line = f"{name:<12} new {median(times['new', name]):6.2f} ms"
        if args.base:
            base = median(times[args.base, name])
            line += f", {args.base} {base:6.2f} ms: x{median(times['new', name]) / base:.2f}"
        print(line)
    print(f"problems {'identical' if same else 'DIFFER'}; {load()}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
