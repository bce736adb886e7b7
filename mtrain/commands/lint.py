"""`mtrain lint`: the fixture corpus checked as data (schema, tables, coverage) and each
expectation's scope over the whole option space."""

from __future__ import annotations

import argparse
import os
from typing import Any

from mtrain.commands.arguments import why_missing
from mtrain.commands.printing import print_json


def register(sub: Any) -> None:
    p = sub.add_parser("lint", help="check the fixture corpus: schema, ids, tables, coverage")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="fixture files or folders, checked as one corpus (ids unique across "
                   "them; default: the shipped corpus)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--no-scopes", action="store_true",
                   help="skip the scope check (the reference over the option space)")
    p.add_argument("--coverage", action="store_true",
                   help="check coverage for fixtures of one's own too (always for the corpus)")
    p.add_argument("--write-scopes", action="store_true",
                   help="write each proposed wider scope into its fixture file as `when:`")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtrain.conformance.gc_freeze import paused
    from mtrain.conformance.lint import lint
    from mtrain.spec.errors import InputError, UsageError

    if args.write_scopes and args.no_scopes:  # said before the corpus is read
        raise UsageError("--write-scopes needs the scope check (drop --no-scopes)")
    missing = [why for p in args.paths if (why := why_missing(p))]
    if missing:
        raise InputError("; ".join(missing))
    # a path given twice is read once, however spelt (`f.yaml`, `./f.yaml`)
    seen: dict[str, str] = {}
    for path in args.paths:
        seen.setdefault(os.path.realpath(path), path)
    paths = list(seen.values())
    # few cycles, many containers (gc_freeze.paused): after the scope check, whose own
    # stretch runs with the collector off, its memos and identify's pieces (hundreds of
    # thousands of containers) were walked again by each full collection the rest set off
    with paused():
        report = lint(paths or None, scopes=not args.no_scopes,
                      coverage=args.coverage or None)
    if paths and not report.fixtures and not report.errors:  # a run that tested nothing
        from mtrain.conformance.corpus_files import none_found

        raise InputError(none_found(", ".join(paths), paths))
    if args.write_scopes:
        from mtrain.conformance.corpus_files import FIXTURE_ROOT
        from mtrain.conformance.lint.scopes import write_scopes
        from mtrain.spec.scope import Space

        if report.scopes is None:
            raise InputError("--write-scopes needs the scope check (drop --no-scopes)")
        root = FIXTURE_ROOT.parent.parent  # paths are shown relative to it
        try:
            written = write_scopes(report.scopes.proposals, Space(), root)
        except ValueError as fault:  # an entry whose shape the writer cannot edit
            raise InputError(f"--write-scopes: {fault}") from None
        except OSError as unwritten:  # a file that can be read but not written
            raise InputError(f"--write-scopes: {unwritten.filename}: "
                             f"{unwritten.strerror or unwritten}") from None
        for path in written:
            print(f"wrote {path}")
        report.scopes.proposals = []
    if args.json:
        print_json(report.to_json())
        return 0 if report.ok else 1
    for e in report.errors:
        print(f"error: {e}")
    sc = report.scopes
    if sc is not None:
        from mtrain.spec.scope import Space

        cat = Space().cat
        for p in sc.proposals:
            line = p.fixture.expect[p.entry].line
            print(f"wider: {p.fixture.path}:{line}: {p.fixture.id} entry {p.entry + 1} also "
                  f"holds where {p.scope.text(cat)} (--write-scopes writes it)")
        print(f"scopes: {sc.entries} entries of {sc.fixtures} fixtures checked over the "
              f"option space in {sc.runs} reference runs ({sc.seconds:.1f} s); "
              f"{sc.beyond_written} fixtures hold beyond the variants they name "
              f"({sc.beyond_possible} could), {len(sc.proposals)} wider scopes proposed")
    else:  # without the scope check no step is played: say so, lest 0 errors read as more
        print("scopes: not checked (--no-scopes), so no step was played: a step the rules "
              "refuse or an expected outcome they contradict is not found here (`mtrain lint` "
              "plays every step; `mtrain conform --fixtures PATH` under the rule sets named)")
    for u in report.uncovered:
        print(f"uncovered: {u['clause']} under {u['variant']}")
    for pair in report.pairs_missing:
        print(f"no fixture tells apart {pair['option']}: {pair['values']}")
    for w in report.warnings:
        print(f"warning: {w}")
    coverage = (f"{len(report.uncovered)} uncovered clause/variant pairs, "
                f"{report.pairs - len(report.pairs_missing)}/{report.pairs} option value "
                "pairs told apart" if report.coverage_checked else
                "coverage not checked (a folder of its own: --coverage asks for it)")
    print(f"{report.fixtures} fixtures, {report.clauses} clauses, {coverage}, "
          f"{len(report.errors)} errors, {len(report.warnings)} warnings")
    return 0 if report.ok else 1
