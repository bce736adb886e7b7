"""`mtrain simulate`: random legal rounds of one rule set, the invariants checked."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mtrain.commands.arguments import integer, resolve, seed, whole
from mtrain.commands.printing import print_json

MAX_ROUNDS = 1_000_000
"""About ten CPU minutes of rounds (the bound of fuzz's --games): a number beyond it is a
slip, and a run of it would never end."""


def register(sub: Any) -> None:
    p = sub.add_parser("simulate", help="play random legal rounds and check the invariants")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--variant", help="a variant, base+overlay+..., or a variant file")
    which.add_argument("--rules", metavar="FILE", help="a rule-set file "
                       "(spec/schemas/rules.schema.json), for example a double-15 set")
    p.add_argument("--overlay", action="append", default=[], help="add an overlay (repeatable)")
    p.add_argument("--players", type=integer, default=4)
    p.add_argument("--rounds", type=whole(1, MAX_ROUNDS), default=100,
                   help=f"rounds to play (default 100, at most {MAX_ROUNDS:,})")
    p.add_argument("--seed", type=seed, default=0, help="the run's seed (default 0)")
    p.add_argument("--check-every-action", action="store_true",
                   help="check every invariant after every action (slower)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtrain.reference.rules import Rules
    from mtrain.reference.simulate import simulate
    from mtrain.spec.catalog import catalog
    from mtrain.spec.errors import InputError, UsageError

    rs = resolve(catalog(), args.rules or args.variant, args.overlay)
    if args.players not in rs.player_counts:
        raise InputError(f"{rs.name} has no hand size for {args.players} players; it deals to "
                         f"{', '.join(map(str, rs.player_counts))} [DEAL-7]")
    if args.rounds < 1:
        raise UsageError("--rounds must be at least 1")
    other = [option for option, value in rs.items() if value == "other"]
    if other:  # the engine plays only the values it knows
        raise InputError(f"{rs.name} plays {', '.join(other)} `other`: the reference engine "
                         "plays only known values, so it cannot simulate it")
    rules = Rules.of(rs)
    if args.json or not sys.stderr.isatty():
        report = simulate(rules, args.players, args.rounds, args.seed, args.check_every_action)
    else:
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task(f"{rs.name}, {args.players} players", total=args.rounds)
            report = simulate(rules, args.players, args.rounds, args.seed,
                              args.check_every_action,
                              progress=lambda k: bar.advance(task, k))
    if args.json:
        print_json(report.to_json())
    else:
        data = report.to_json()
        print(f"rule set            {data['ruleset']}, {args.players} players, seed {args.seed}")
        print(f"rounds played       {data['rounds']}")
        print(f"rounds per second   {data['rounds_per_second']}")
        print(f"average length      {data['average_round_length']} actions "
              f"(longest {data['longest_round']})")
        endings = data["endings"]
        assert isinstance(endings, dict)
        print("how rounds ended    " + ", ".join(f"{k} {v}" for k, v in endings.items()))
        print(f"invariant violations {data['invariant_violations']}")
        for line in report.first_violations:
            print(f"  {line}")
    return 1 if report.invariant_violations else 0
