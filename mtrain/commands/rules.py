"""`mtrain rules NAME|FILE`: one rule set as a page (its options, the clauses that apply,
the fixtures that speak about it)."""

from __future__ import annotations

import argparse
from typing import Any

from mtrain.commands.arguments import resolve
from mtrain.commands.printing import write_or_print


def register(sub: Any) -> None:
    p = sub.add_parser("rules", help="one rule set as a page: options, clauses, fixtures")
    p.add_argument("ruleset", help="a variant, base+overlay+..., or a rule-set file")
    p.add_argument("--out", help="write the page here (default: standard output)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtrain.conformance.fixture import load_corpus
    from mtrain.conformance.outputs import check_output
    from mtrain.ruleset_page import ruleset_page
    from mtrain.spec.catalog import catalog

    if args.out:
        check_output(args.out, "--out", inputs=[("the rule set", args.ruleset)])
    rs = resolve(catalog(), args.ruleset)
    fixtures, _ = load_corpus()
    return write_or_print(ruleset_page(rs, fixtures), args.out)
