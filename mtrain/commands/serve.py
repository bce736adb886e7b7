"""`mtrain serve`: the reference engine as a protocol v1 server on stdin/stdout
(conformance/serve.py). Started once per job of every conform and fuzz run, so the
command line imports this module alone for it, and the server only when it runs."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    s = sub.add_parser("serve", help="the reference engine as a protocol v1 server on "
                       "stdin/stdout",
                       description="Answer protocol v1 requests (docs/protocol.md) with the "
                       "reference engine, one JSON line in, one out, until end of input "
                       "or a shutdown request.")
    s.add_argument("--rules", metavar="FILE", help="play this one rule set whatever a "
                   "request names, and declare it in the hello answer")
    s.add_argument("--undeclared", action="store_true", help="with --rules: do not declare "
                   "the rules in hello (like an engine that does not say what it plays)")
    s.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from mtrain.conformance.serve import AnswersUnwritten, main
    from mtrain.output import OutputError
    from mtrain.spec.errors import InputError, UsageError

    if args.undeclared and args.rules is None:  # a switch read by nothing is a slip
        raise UsageError("--undeclared is for --rules FILE (play those rules without "
                         "declaring them); without --rules the server declares no rules "
                         "anyway: it plays the rule set each request names")
    if sys.stdin is None:  # closed when it started (`<&-`): Python has no stream for it
        raise InputError("standard input is closed: the server reads its requests there")
    if getattr(sys.stdout, "buffer", None) is None:
        raise OutputError("standard output is closed: the server writes its answers there")
    rules = None
    if args.rules is not None:
        from mtrain.conformance.selection import read_rules_files

        rules = read_rules_files([args.rules])[0]
        if rules.unknown:
            raise InputError(f"--rules {args.rules}: the reference engine cannot play "
                             + ", ".join(f"{o}=other" for o in rules.unknown))
    try:
        return main(rules, declare=not args.undeclared)
    except AnswersUnwritten as e:
        raise OutputError(str(e)) from None
