"""`mtrain mutants`: the fixture corpus against every mutant of the reference engine
(conformance/mutants/), which fixtures kill which, and with --blame whether failures are
charged to the clause each mutant breaks."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mtrain.commands.arguments import count, job_count


def register(sub: Any) -> None:
    """Add `mutants` to the `mtrain` command line."""
    p = sub.add_parser("mutants", help="run the fixtures against every mutant of the reference",
                       description="Play the fixture corpus against each mutant (a known rule "
                       "bug switched on in the reference engine) and report which fixtures "
                       "kill it. Exit 1 if a mutant survives.")
    p.add_argument("path", nargs="?", help="a fixture file or folder (default: the corpus)")
    p.add_argument("-m", dest="names", action="append", metavar="NAME",
                   help="only this mutant (repeatable)")
    p.add_argument("--first", action="store_true",
                   help="stop each mutant at its first kill (faster)")
    p.add_argument("-j", "--jobs", dest="jobs", type=job_count, default=1,
                   help="worker processes (default 1)")
    p.add_argument("--need", type=count, default=None, metavar="N",
                   help="fail unless every mutant is killed by N fixtures (default 1)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--list", action="store_true", help="list the mutants and exit")
    p.add_argument("--blame", action="store_true",
                   help="per mutant, the clauses its failures are charged to, and whether "
                   "the one charged most is a clause it breaks")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Exit 0 when every mutant is killed (by `--need` fixtures), 1 otherwise."""
    from mtrain.conformance.fixture import load_corpus
    from mtrain.conformance.mutants.catalogue import MUTANTS
    from mtrain.conformance.mutants.runs import run_mutants

    if args.list:
        for m in MUTANTS.values():
            print(f"{m.name:40} {', '.join(m.clauses):22} {m.description}")
        return 0
    from mtrain.commands.arguments import why_missing
    from mtrain.spec.errors import InputError, UsageError

    if args.blame:  # blame prints its own text, charges, no kills: these were ignored
        unread = [flag for flag, given in (("--json", args.json), ("--first", args.first),
                                           ("--need", args.need is not None)) if given]
        if unread:
            raise UsageError(f"--blame reports the clauses failures are charged to, in text: "
                             f"it takes no {', '.join(unread)} (those are for the kill run)")
    need = 1 if args.need is None else args.need
    if args.first and need > 1:  # each mutant stops at one kill: the run could never pass
        raise UsageError(f"--first stops each mutant at its first kill, so --need {need} "
                         "could never be met: drop one of them")
    missing = args.path and why_missing(args.path)
    if missing:  # was a LOAD ERROR line and a run of no fixture, exit 1 like a survivor
        raise InputError(missing)
    fixtures, errors = load_corpus(args.path)
    for e in errors:
        print(f"LOAD ERROR {e}", file=sys.stderr)
    if not fixtures:
        raise InputError(f"no fixture could be loaded from {args.path or 'the corpus'}")
    if args.blame:
        from mtrain.conformance.mutants.blame import blame

        found = blame(fixtures, args.names)
        for b in found:
            top = ", ".join(f"{c} {n}" for c, n in b.ranked[:max(3, len(b.tops))])
            tie = f" (tied at the top: {', '.join(b.tops)})" if b.tied else ""
            print(f"{'RIGHT' if b.right else 'WRONG'} {b.mutant} (breaks "
                  f"{', '.join(b.breaks)}): {b.failures} failures, charged "
                  f"{top or 'no failure'}{tie}")
        right = sum(b.right for b in found)
        tied = sum(b.right and b.tied for b in found)
        print(f"{right} of {len(found)} mutants: the clause charged most is one they break"
              + (f" ({tied} of them in a tie at the top)" if tied else ""))
        return 0
    report = run_mutants(fixtures, args.names, first_only=args.first, jobs=args.jobs)
    low, weakest = report.min_kills
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        for name, ids in report.kills.items():
            shown = ", ".join(ids[:6]) + (f" (+{len(ids) - 6})" if len(ids) > 6 else "")
            print(f"{'KILLED  ' if ids else 'SURVIVED'} {name}: {shown or '-'}")
        for failure in report.baseline_failures:
            print(f"NOT USED (fails under the reference) {failure}")
        capped = " (--first: at most 1)" if args.first else ""
        print(f"{len(report.killed)} killed, {len(report.survived)} survived, "
              f"fewest killers {low}{capped} ({', '.join(weakest[:4])}"
              f"{', ...' if len(weakest) > 4 else ''}), {report.runs} passing runs, "
              f"{report.seconds:.1f} s")
    return 1 if report.survived or low < need or errors else 0  # a file unread: not green
