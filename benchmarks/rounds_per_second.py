"""How many random full rounds the reference engine plays per second, on one core.

Not a test: run it by hand, for example

    python benchmarks/rounds_per_second.py
    python benchmarks/rounds_per_second.py --variant puremco --players 6 --json

Each run deals and plays N rounds (default 500) with uniformly random legal actions,
exactly as `reference.simulate.simulate` does (same deal seeds, same choices), but the
timed loop is the engine alone: deal, legal_actions, perform, with no invariant checks.
K runs (default 7) are timed and the median is reported; each run uses its own seed.
After timing, every run is replayed once by `simulate` itself, untimed, with its
invariant checks, to confirm the same rounds were played and none broke an invariant.
`--with-checks` times `simulate` instead (final-state invariants included).
Python runs the loop on one thread, so on one core.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from typing import Any

from mtrain.reference.deal import deal
from mtrain.reference.engine import OVER, legal_actions, perform
from mtrain.reference.rules import Rules
from mtrain.reference.simulate import round_seed, simulate
from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.yamlload import SpecError


def engine_loop(rules: Rules, players: int, rounds: int, seed: int) -> tuple[float, int]:
    """`simulate` without its checks: (seconds, actions) for `rounds` random rounds."""
    rng = random.Random(seed)
    randrange = rng.randrange
    actions = 0
    start = time.perf_counter()
    for index in range(rounds):
        state = deal(rules, players, 1 + index % rules.rounds, seed=round_seed(seed, index))
        while state.phase != OVER:
            legal = legal_actions(state)
            perform(state, legal[randrange(len(legal))] if len(legal) > 1 else legal[0])
            actions += 1
    return time.perf_counter() - start, actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--variant", default="pagat",
                        help="a variant, base+overlay+..., or a variant file (default pagat)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=500, help="rounds per run (N)")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs (K)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first run")
    parser.add_argument("--with-checks", action="store_true",
                        help="time reference.simulate.simulate itself (checks each final state)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        ruleset = catalog().ruleset(args.variant)
        ruleset.hand_size(args.players)
    except (RulesetError, SpecError, ValueError) as e:
        print(f"rounds_per_second: {e}", file=sys.stderr)
        return 2
    if args.rounds < 1 or args.repeat < 1:
        print("rounds_per_second: --rounds and --repeat must be at least 1", file=sys.stderr)
        return 2
    rules = Rules.of(ruleset)
    engine_loop(rules, args.players, min(args.rounds, 50), seed=0)  # warm up

    runs: list[dict[str, Any]] = []
    for k in range(args.repeat):
        seed = args.seed + k
        if args.with_checks:
            report = simulate(rules, args.players, args.rounds, seed)
            seconds, actions = report.seconds, report.actions
        else:
            seconds, actions = engine_loop(rules, args.players, args.rounds, seed)
        runs.append({"run": k + 1, "seed": seed, "seconds": round(seconds, 4),
                     "rounds_per_second": round(args.rounds / seconds, 1),
                     "actions_per_round": round(actions / args.rounds, 2), "actions": actions})

    for run in runs:  # untimed: the same rounds, with the invariants checked
        report = simulate(rules, args.players, args.rounds, run["seed"])
        if report.invariant_violations or report.actions != run["actions"]:
            print(f"rounds_per_second: run {run['run']} differs from simulate or broke an "
                  f"invariant: {report.first_violations}", file=sys.stderr)
            return 1

    median = statistics.median(r["rounds_per_second"] for r in runs)
    timed = "simulate (with final-state checks)" if args.with_checks else "engine loop"
    if args.json:
        json.dump({"ruleset": ruleset.name, "players": args.players, "rounds": args.rounds,
                   "repeat": args.repeat, "timed": timed,
                   "python": platform.python_version(), "runs": runs,
                   "median_rounds_per_second": median}, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    print(f"{ruleset.name}, {args.players} players, {args.rounds} rounds per run, "
          f"{args.repeat} runs, {timed}, Python {platform.python_version()}")
    for r in runs:
        print(f"  run {r['run']}: {r['seconds']:.3f} s  {r['rounds_per_second']:8.1f} rounds/s  "
              f"{r['actions_per_round']:.1f} actions/round")
    print(f"median: {median:.1f} rounds/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
