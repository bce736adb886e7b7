"""`mtrain situations NAME|FILE`: the situations from play that `mtrain conform` runs
under one rule set, written out as fixtures."""

from __future__ import annotations

import argparse
from typing import Any

from mtrain.commands.arguments import pattern, resolve, whole
from mtrain.commands.printing import write_or_print
from mtrain.conformance.defaults import SITUATIONS_MAX


def register(sub: Any) -> None:
    p = sub.add_parser("situations", help="tables from play under one rule set, as fixtures",
                       description="Write out the situations from play that `mtrain conform` "
                       "runs under a rule set: tables reached by random rounds of it, each "
                       "with the legal set spec/model/legality.py gives it, in the fixture format.")
    p.add_argument("ruleset", help="a variant, base+overlay+..., or a rule-set file")
    p.add_argument("-n", dest="count", type=whole(1, SITUATIONS_MAX), default=None,
                   help="how many (default: as many as conform runs for one rule set; at "
                   f"most {SITUATIONS_MAX:,})")
    p.add_argument("-k", dest="pattern", action="append", metavar="PATTERN", type=pattern,
                   help="only situations whose id contains PATTERN or matches it as a glob")
    p.add_argument("--out", help="write the fixtures here (default: standard output)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtrain.conformance.defaults import SITUATIONS
    from mtrain.conformance.outputs import check_output
    from mtrain.conformance.selection import id_matches
    from mtrain.conformance.situations import render, situations
    from mtrain.spec.catalog import catalog
    from mtrain.spec.errors import InputError

    if args.out:
        check_output(args.out, "--out")
    rs = resolve(catalog(), args.ruleset)
    made = situations(rs, SITUATIONS if args.count is None else args.count,
                      lambda fid: id_matches(fid, args.pattern or []))
    if not made:
        raise InputError("no situation matches -k " + " ".join(args.pattern or []))
    return write_or_print(render(made, rs), args.out)
