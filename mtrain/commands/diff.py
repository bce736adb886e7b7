"""`mtrain diff A B`: what changes between two rule sets (conformance/diffing.py): the
options, the clauses, the fixtures that tell them apart and z3's situations."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("diff", help="what changes between two rule sets: options, clauses, "
                       "fixtures, and z3's distinguishing situations")
    p.add_argument("a", help="a variant, base+overlay+..., or a variant file")
    p.add_argument("b", help="a variant, base+overlay+..., or a variant file")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--no-fixtures", action="store_true", help="skip the fixture comparison")
    p.add_argument("--no-situations", action="store_true", help="skip the z3 situations")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtrain.conformance.diffing import diff

    report = diff(args.a, args.b, fixtures=not args.no_fixtures,
                  with_situations=not args.no_situations)
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print_text(report)
    return 0


def _fixtures(n: int) -> str:
    return f"{n:,} fixture{'' if n == 1 else 's'}"


def print_text(report: dict[str, Any]) -> None:
    a, b = report["a"]["name"], report["b"]["name"]
    print(f"A = {a}, B = {b}")
    if not report["options"]:
        print("no option differs: the two rule sets are the same")
    for o in report["options"]:
        rows = o.get("rows")  # a hand table: its rows (players: tiles each), not only its name
        tables = f" ({rows['a']} -> {rows['b']})" if rows else ""
        print(f"  option {o['option']}: {o['a']} -> {o['b']}{tables}")
    only_a, only_b = report["clauses"]["only_a"], report["clauses"]["only_b"]
    print(f"clauses only under A: {', '.join(only_a) or '-'}")
    print(f"clauses only under B: {', '.join(only_b) or '-'}")
    if "fixtures" in report:
        telling = [f for f in report["fixtures"] if f["tells_apart"]]
        quiet = sum(f["tells_apart"] is False for f in report["fixtures"])
        print(f"fixtures telling them apart: {len(telling)}"
              + (f" (and {quiet} speaking about one side whose expectation holds under the other)"
                 if quiet else ""))
        for f in telling:
            print(f"  {f['id']}: {f['why']} ({f['where']})")
        # what is not a difference in play, one line for each reason
        unknown = Counter(f["why"] for f in report["fixtures"] if f["tells_apart"] is None)
        for why, n in unknown.items():
            print(f"not compared: {_fixtures(n)} {why.replace('speaks', 'speak', 1)}")
        for gap in report.get("not_compared", []):
            print(f"not compared: {_fixtures(len(gap['fixtures']))}: {gap['why']}")
    for s in report.get("situations", []):
        if s.get("situation", True) is None or "error" in s:
            print(f"situation for {s['option']}: {s.get('why') or s.get('error')}")
            continue
        tag = "" if s["attributed"] else " (not separable from the other differences)"
        print(f"situation for {s['option']}{tag}: {s['summary']}")
        start = s.get("table") or s.get("deal")
        print(f"  {'table' if 'table' in s else 'deal'}: {json.dumps(start)}")
        if s["steps"]:
            print(f"  steps: {', '.join(s['steps'])}")
