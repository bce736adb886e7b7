"""`mtrain check`: every analysis of the specification, timed, one verdict each
(conformance/speccheck/run.py); any defect exits 1."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mtrain.commands.arguments import job_count


def register(sub: Any) -> None:
    p = sub.add_parser("check", help="z3: the option space, reachability, termination, "
                       "small whole games")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--dump", metavar="DIR",
                   help="write every z3 query of the proofs as SMT-LIB under DIR")
    p.add_argument("--full", action="store_true",
                   help="every deal of the small games, every rule set in the proofs, "
                   "minimal traces, the parametric proof's assumptions on every shipped set "
                   "and every --rules file at every table size (tens of minutes)")
    p.add_argument("--variant", action="append", default=[], metavar="FILE",
                   help="also check that this variant file is satisfiable (repeatable)")
    p.add_argument("--rules", action="append", default=[], metavar="FILE",
                   help="also check this rule-set file (spec/schemas/rules.schema.json): "
                   "consistent values, every `requires` met (repeatable)")
    p.add_argument("--only", choices=["options"],
                   help="run only these checks (options: the option space, seconds)")
    p.add_argument("--jobs", type=job_count, help="worker processes (default: up to 2)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtrain.conformance.outputs import check_output_folder
    from mtrain.conformance.speccheck import run as check
    from mtrain.spec.catalog import ConflictingValues, catalog
    from mtrain.spec.errors import InputError
    from mtrain.spec.yamlload import SpecError, file_problem, load
    from mtrain.spec.yamlschema import schema, validate

    for path in args.variant:
        problem = file_problem(path)
        if problem == "file not found":
            raise InputError(f"no such variant file: {path}")
        if problem is not None:
            raise InputError(f"--variant {path}: {problem}")
    for path in args.rules:
        problem = file_problem(path)
        if problem == "file not found":
            raise InputError(f"no such rule-set file: {path}")
        if problem is not None:
            raise InputError(f"--rules {path}: {problem}")
    for path, kind in [(p, "rules") for p in args.rules] + [(p, "variant")
                                                            for p in args.variant]:
        # a file that is not YAML or not of its schema is refused now, not after the
        # checks' minutes; values that contradict a clause stay the check's finding
        try:
            errors = validate(load(path), schema(kind))
        except SpecError as exc:
            raise InputError(f"--{kind} {exc}") from None
        if errors:
            raise InputError(f"--{kind} " + "\n".join(str(e) for e in errors))
    cat = catalog()  # a spec data folder that does not load is one error (exit 2)
    for path in args.rules:
        # names no rule set knows (a base, an option, a value) are the file's fault too;
        # known values that contradict a clause are what the check reports
        try:
            cat.rules_file(path)
        except ConflictingValues:
            pass
        except SpecError as exc:
            raise InputError(f"--rules {exc}") from None
    if args.dump is not None:  # before the checks' minute, not as a traceback after it
        check_output_folder(args.dump, "--dump")
    catalog()  # a spec data folder that does not load is one error (exit 2), not a check
    result = check.run(full=args.full, dump=args.dump, jobs=args.jobs,
                       variant_files=args.variant, rules_files=args.rules, only=args.only)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif sys.stdout.isatty():
        print_rich(result)
    else:
        print_plain(result)
    return 1 if any(c["status"] == "fail" for c in result["checks"]) else 0


STATUS_STYLE = {"pass": "green", "info": "cyan", "fail": "bold red"}


def print_plain(result: dict[str, Any], out: Any = None) -> None:
    out = out if out is not None else sys.stdout
    for c in result["checks"]:
        out.write(f"{c['status'].upper():5} {c['name']:24} {c['seconds']:8.2f} s\n")
        for f in c["findings"]:
            clauses = f" [{', '.join(f['clauses'])}]" if f["clauses"] else ""
            out.write(f"      - {f['message']}{clauses}\n")
    for warning in result.get("warnings", []):
        out.write(f"warning: {warning}\n")
    fails = [c["name"] for c in result["checks"] if c["status"] == "fail"]
    out.write(f"{len(result['checks'])} checks, {len(fails)} failed"
              + (f" ({', '.join(fails)})" if fails else "")
              + f"; {result['seconds']:.1f} s\n")


def print_rich(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from mtrain.output import readable

    table = Table(title="mtrain check", show_lines=True)
    for col in ("check", "status", "seconds", "findings"):
        table.add_column(col, overflow="fold")
    for c in result["checks"]:
        lines = [f["message"] + (f" [{', '.join(f['clauses'])}]" if f["clauses"] else "")
                 for f in c["findings"]]
        table.add_row(escape(c["name"]), f"[{STATUS_STYLE[c['status']]}]{c['status']}[/]",
                      f"{c['seconds']:.2f}", escape("\n".join(lines)))
    console = readable(Console())
    console.print(table)
    for warning in result.get("warnings", []):
        console.print(f"warning: {escape(warning)}")
    fails = [c["name"] for c in result["checks"] if c["status"] == "fail"]
    console.print(f"{len(result['checks'])} checks, {len(fails)} failed; "
                  f"{result['seconds']:.1f} s")
