"""The engine's cost in machine instructions, which a busy machine does not change.

    python benchmarks/engine_instructions.py                  # d12-4 and d18-12
    python benchmarks/engine_instructions.py --tables d12-4 --rounds 100

CPU seconds on a machine shared with other work move by 10 to 30 % from run to run (the
neighbours share the caches and the cores); the count of instructions a run executes does
not. This script plays the rounds of engine_speed.py (same seeds, same choices) with each
build under valgrind's callgrind, counting only inside the loop: the loop is called
through `operator.call`, a C function nothing else calls, and callgrind collects only
while it runs (`--toggle-collect`). Start-up is left out exactly, where subtracting a run
of no rounds left it out only roughly (start-up is billions of instructions, and string
hashing, seeded afresh in each process, moves it by tens of millions). Prints the
instructions per action. Needs `valgrind` on the PATH; each run takes a minute or so
(valgrind is some 50 times slower).
An instruction is not a fixed time (a cache miss costs more than an add), so the ratios
are a steady cross-check of engine_speed.py's CPU seconds, not a replacement.

`--by-function` also prints, for the compiled build, each engine function's instructions
per action (inclusive: with what it calls) on every table, and what the other tables
spend beyond the first: where a large table's extra cost per action goes. A pure Python
function is not a function to callgrind (the interpreter runs it), so only the compiled
build is broken down; needs `callgrind_annotate` (valgrind's).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

RUNNER = """
import operator, sys, tempfile
from pathlib import Path
sys.path.insert(0, {here!r})
import engine_speed as ES
from mtrain.spec.catalog import catalog
build, table, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
variant, players = ES.TABLES[table]
ruleset = catalog().ruleset(variant)
tmp = Path(tempfile.mkdtemp())
if build == "baseline":
    b = ES.baseline_build(ES.BASELINE, tmp)
elif build == "pure":
    b = ES.pure_build(tmp)
else:
    b = ES.compiled_build()
print(operator.call(ES.loop, b, ruleset, players, rounds, 1)[1])
"""


COMPILED_FUNCTION = re.compile(
    r"^\s*([\d,]+) \([^)]*\)\s+\S*__native_\w*\.c:CPyDef_(\w+?)___(\w+)")
"""A line of `callgrind_annotate --inclusive=yes` for a compiled function, in mypyc's
generated file (its code inlined from headers is listed under the header's name too)."""


def instructions(build: str, table: str, rounds: int,
                 functions: dict[str, int] | None = None) -> tuple[int, int]:
    """(instructions, actions) of `rounds` rounds under callgrind, the loop's alone;
    `functions`, when given, is filled with each compiled engine function's inclusive
    instructions ("module.function")."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             "--toggle-collect=_operator_call", sys.executable,
             "-c", RUNNER.format(here=str(HERE)), build, table, str(rounds)],
            capture_output=True, text=True, check=True, cwd=tmp)
        if functions is not None:
            shown = subprocess.run(
                ["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)],
                capture_output=True, text=True, check=True).stdout
            for line in shown.splitlines():
                named = COMPILED_FUNCTION.match(line)
                if named:
                    key = f"{named.group(2)}.{named.group(3)}"
                    functions[key] = functions.get(key, 0) + int(named.group(1).replace(",", ""))
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if found is None or found.group(1) == "0":  # none: a Python without its symbols
        raise SystemExit(f"engine_instructions: no count from valgrind:\n{done.stderr}")
    return int(found.group(1)), int(done.stdout.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", default="d12-4,d18-12")
    parser.add_argument("--rounds", type=int, default=150)
    parser.add_argument("--by-function", action="store_true",
                        help="the compiled build's instructions per action by function")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("engine_instructions: valgrind is not installed", file=sys.stderr)
        return 2
    sys.path.insert(0, str(HERE))
    import engine_speed as ES

    builds = ["baseline", "pure"] + (["compiled"] if ES.compiled_build() else [])
    print(f"instructions per action over {args.rounds} rounds (the loop alone); "
          f"load {os.getloadavg()[0]:.2f}")
    per_action: dict[tuple[str, str], float] = {}
    by_function: dict[str, dict[str, float]] = {}
    for table in args.tables.split(","):
        for build in builds:
            found: dict[str, int] | None = (
                {} if args.by_function and build == "compiled" else None)
            count, actions = instructions(build, table, args.rounds, found)
            if found is not None:
                by_function[table] = {f: n / actions for f, n in found.items()}
            per_action[build, table] = count / actions
            cost = per_action[build, table]
            vs = cost / per_action.get((build, "d12-4"), cost)
            print(f"{table:7} {build:9} {cost:9.0f} per action  baseline / {build}: "
                  f"x{per_action['baseline', table] / cost:.3f}  cost per action vs d12-4: "
                  f"x{vs:.3f}")
    if by_function:
        show_functions(by_function)
    elif args.by_function:
        print("engine_instructions: no compiled build installed to break down")
    return 0


def show_functions(by_function: dict[str, dict[str, float]]) -> None:
    """Each compiled function's instructions per action, table by table, and the other
    tables' excess over the first, largest first (those above 20 instructions per action)."""
    tables = list(by_function)
    first = by_function[tables[0]]
    names = sorted({f for row in by_function.values() for f, n in row.items() if n >= 20},
                   key=lambda f: -max(row.get(f, 0.0) for row in by_function.values()))
    print("compiled build, instructions per action, by function (inclusive)")
    print(f"  {'function':34}" + "".join(f"{t:>10}" for t in tables)
          + "".join(f"{t + ' - ' + tables[0]:>18}" for t in tables[1:]))
    for f in names:
        print(f"  {f:34}" + "".join(f"{by_function[t].get(f, 0.0):10.0f}" for t in tables)
              + "".join(f"{by_function[t].get(f, 0.0) - first.get(f, 0.0):18.0f}"
                        for t in tables[1:]))


if __name__ == "__main__":
    raise SystemExit(main())
