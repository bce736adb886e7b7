"""`mtrain diff A B`: what changes between two rule sets (conformance/diffing.py): the
options, the clauses, the fixtures that tell them apart and z3's situations."""

from __future__ import annotations

import argparse
import json
import sys
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


def print_text(report: dict[str, Any]) -> None:
    a, b = report["a"]["name"], report["b"]["name"]
    print(f"A = {a}, B = {b}")
    if not report["options"]:
        print("no option differs: the two rule sets are the same")
    for o in report["options"]:
        print(f"  option {o['option']}: {o['a']} -> {o['b']}")
    only_a, only_b = report["clauses"]["only_a"], report["clauses"]["only_b"]
    print(f"clauses only under A: {', '.join(only_a) or '-'}")
    print(f"clauses only under B: {', '.join(only_b) or '-'}")
    if "fixtures" in report:
        telling = [f for f in report["fixtures"] if f["tells_apart"] is not False]
        quiet = len(report["fixtures"]) - len(telling)
        print(f"fixtures telling them apart: {len(telling)}"
              + (f" (and {quiet} speaking about one side whose expectation holds under the other)"
                 if quiet else ""))
        for f in telling:
            print(f"  {f['id']}: {f['why']} ({f['where']})")
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
