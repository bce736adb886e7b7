"""How many CPU seconds `mtrain identify` takes, and whether it is right.

    python benchmarks/identify_speed.py [--runs 5] [--seed 1] [--cold]

Each run writes a random valid rule set to a file (a hand table of its own every other
run), starts `mtrain identify --impl "mtrain serve --rules FILE --undeclared"` as a user
would (a fresh process, which starts the server), and compares the rule set written
with the one served. The CPU time is that of identify and the server together
(getrusage of the children). The cache of the scope partition is the user's, as in use;
with --cold it is an empty folder of the run's own for the first run, so that the first
run computes the partition and the others read it. The goal: <= 20 CPU seconds.
Prints each run, the median, and the machine's load.

    python benchmarks/identify_speed.py --base BASE_PYTHON [--turns 3] [CASE ...]

Side by side with a base checkout (its own environment, e.g. made by `git worktree add
/tmp/base-ident REV` and a venv installed from it, whose interpreter is BASE_PYTHON): the
in-process cases of identify_same.py (example engines, bugs on and off, and random rule
sets), each run in turns by the base and by this interpreter (a fresh process each, with
PYTHONHASHSEED=0 and a cache of its own per side, MTRAIN_CACHE_DIR suffixed -base and
-new: warm it first), the CPU seconds of each run (identify and the engine). Prints per
case the medians and their ratio new/base, the median of the ratios (the goal: <= 0.5),
and the load before each turn.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from pathlib import Path

import yaml
from measure import load, median, mtrain_command, run, verdict

from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import CUSTOM
from mtrain.spec.scope import Space
from mtrain.spec.tiles import set_size
from mtrain.spec.tilesets import highest

GOAL = 20.0


def rule_set(space: Space, rng: random.Random, own: bool) -> dict[str, object]:
    """A random valid rule set's options, with a dealable table of its own if `own`."""
    while True:
        region = {o: frozenset([rng.choice(vs)]) for o, vs in space.options.items()}
        if own:
            region["hand_sizes"] = frozenset([CUSTOM])
        values = space.complete(region)
        if values is None:
            continue
        options: dict[str, object] = dict(values)
        if values["hand_sizes"] == CUSTOM or values["hand_sizes"].startswith(f"{CUSTOM}:"):
            tiles = set_size(highest(values["tile_set"])) - 1
            options["hand_sizes"] = {n: max(2, tiles // n - rng.randint(1, 3))
                                     for n in range(2, rng.randint(4, 7))}
        return options


def side_by_side(base: str, cases: list[str], turns: int) -> int:
    """The base's interpreter and this one taking turns on each case (the docstring)."""
    import identify_same

    cache = os.environ.get("MTRAIN_CACHE_DIR", str(Path(tempfile.gettempdir()) / "mtrain"))
    sides = {"base": base, "new": sys.executable}
    spent: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for turn in range(turns):
            print(f"turn {turn + 1}: {load()}", flush=True)
            for case in cases:
                for side, python in sides.items():
                    folder = Path(tmp) / f"{side}-{turn}"
                    folder.mkdir(exist_ok=True)
                    env = {**os.environ, "PYTHONHASHSEED": "0",
                           "MTRAIN_CACHE_DIR": f"{cache}-{side}"}
                    timed = run([python, identify_same.__file__, "one", case, str(folder)],
                                env, cwd=tmp)
                    if timed.code != 0:
                        print(f"{case} ({side}): exited {timed.code}: {timed.stderr[-400:]}")
                        return 1
                    spent.setdefault((case, side), []).append(timed.cpu)
    ratios = []
    for case in cases:
        old, new = median(spent[case, "base"]), median(spent[case, "new"])
        ratios.append(new / old)
        print(f"{case}: base {old:.1f} CPU s, new {new:.1f} CPU s, ratio {new / old:.2f}")
    ratio = median(ratios)
    print(f"median ratio new/base {ratio:.2f} over {len(cases)} cases, {turns} turns each, "
          f"goal <= 0.5: {verdict(ratio <= 0.5)}; {load()}")
    return 0 if ratio <= 0.5 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", help="the interpreter of a base checkout: side by side")
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("cases", nargs="*", help="identify_same.py's cases (default: all)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cold", action="store_true",
                        help="start from an empty cache (the first run computes the partition)")
    args = parser.parse_args()
    if args.base:
        import identify_same

        return side_by_side(args.base, args.cases or list(identify_same.CASES), args.turns)
    mtrain = mtrain_command()
    space = Space()
    rng = random.Random(args.seed)
    cpus, walls, right = [], [], 0
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        if args.cold:
            env["MTRAIN_CACHE_DIR"] = str(Path(tmp) / "cache")
        for k in range(args.runs):
            options = rule_set(space, rng, own=k % 2 == 1)
            rules, found = Path(tmp) / f"rules-{k}.yaml", Path(tmp) / f"found-{k}.yaml"
            rules.write_text(yaml.safe_dump({"name": f"random-{k}", "options": options}))
            engine = f"{mtrain} serve --rules {rules} --undeclared"
            timed = run([mtrain, "identify", "--impl", engine, "--output", str(found)], env)
            if timed.code != 0:
                print(f"run {k + 1}: identify exited {timed.code}: {timed.stderr.strip()}")
                return 1
            cpus.append(timed.cpu)
            walls.append(timed.wall)
            want, got = catalog().rules_file(rules), catalog().rules_file(found)
            diff = {o: (v, got[o]) for o, v in want.choices if got[o] != v}
            if want.hand_table != got.hand_table:
                diff["hand table"] = (str(dict(want.hand_table)), str(dict(got.hand_table)))
            right += not diff
            print(f"run {k + 1}: {timed.cpu:.1f} CPU s, {timed.wall:.1f} s wall, "
                  f"{diff if diff else 'exact'}")
    cpu = median(cpus)
    print(f"median {cpu:.1f} CPU s ({median(walls):.1f} s wall) over {args.runs} runs, "
          f"goal <= {GOAL:g}: {verdict(cpu <= GOAL)}; {right}/{args.runs} recovered "
          f"exactly; {load()}")
    return 0 if cpu <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
