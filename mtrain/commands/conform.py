"""`mtrain conform`: run the fixtures against an implementation.

    mtrain conform                                   the embedded reference engine
    mtrain conform --impl "./my-engine --serve"      a program speaking protocol v1
    mtrain conform --adapter my_pkg.engine:Adapter   an in-process Python adapter

Every fixture runs under every rule set it names (or those chosen with --variant),
each giving one result: pass, fail, error, timeout, crash, skip or not-applicable
(conformance/report.py). Exit code 0 when nothing failed, 1 when something did, 2 for a
usage or configuration error. The library: conformance/selection.py (which fixtures under
which rule sets), target.py (the implementation), known_failures.py (--skip), pool.py
(the workers), report.py and report_html.py (the reports).
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mtrain.commands.arguments import (
    job_count,
    pattern,
    positive_float,
    whole,
    why_missing,
)
from mtrain.commands.printing import quiet_stdout
from mtrain.conformance.defaults import (
    DEFAULT_START_TIMEOUT,
    DEFAULT_TIMEOUT,
    PATTERN_HELP,
    RESULTS_FLOOR,
    SITUATIONS,
    SITUATIONS_MAX,
    SITUATIONS_MIN,
    START_HELP,
)
from mtrain.conformance.gc_freeze import paused
from mtrain.conformance.report import FORMATS

if TYPE_CHECKING:
    from mtrain.conformance.fixture import Fixture
    from mtrain.conformance.report import Report
    from mtrain.conformance.selection import Task
    from mtrain.spec.ruleset import Ruleset


def register(sub: Any) -> None:
    p = sub.add_parser(
        "conform", help="run the conformance fixtures against an implementation",
        description="Run the fixtures against an implementation (default: the embedded "
        "reference engine) under every rule set they name. Exit 0 when nothing failed, "
        "1 when something failed, 2 for a usage or configuration error.")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--impl", metavar="COMMAND",
                       help="a program speaking protocol v1 on stdin/stdout (split like a "
                       "shell does, run without one), e.g. \"mtrain serve\"")
    which.add_argument("--adapter", metavar="MODULE:OBJECT",
                       help="an in-process Python implementation: an instance or a "
                       "zero-argument class (MODULE may be a .py path)")
    p.add_argument("--variant", action="append", default=[], metavar="VARIANT",
                   help="run under this rule set, e.g. puremco or pagat+blanks-25 "
                   "(repeatable)")
    p.add_argument("--rules", action="append", default=[], metavar="FILE",
                   help="run under the rule set of this rule-set file (repeatable; "
                   "`mtrain identify` writes one)")
    p.add_argument("--fixtures", metavar="PATH", help="a fixture file or folder "
                   "(default: the shipped corpus)")
    p.add_argument("-k", dest="pattern", action="append", metavar="PATTERN", type=pattern,
                   help=PATTERN_HELP)
    p.add_argument("--situations", type=whole(0, SITUATIONS_MAX), default=None, metavar="N",
                   help="also run N tables from play per rule set, legal sets from the "
                   f"formalisation (default: {SITUATIONS} shared among the rule sets, at "
                   f"least {SITUATIONS_MIN} each, and for one rule set more until its "
                   f"results reach {RESULTS_FLOOR}; none with --fixtures; 0: none), and "
                   "beside them a seventh as many round ends, as many passes after a "
                   "draw in vain, and later rounds' deals")
    p.add_argument("--format", choices=FORMATS, default="text", help="report format")
    p.add_argument("--output", metavar="FILE", help="write the report to FILE")
    p.add_argument("--skip", metavar="FILE", help="known failures: a YAML list of "
                   "{fixture, variant (optional), reason}")
    p.add_argument("--timeout", type=positive_float, default=DEFAULT_TIMEOUT,
                   metavar="SECONDS", help=f"per request (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--start-timeout", type=positive_float, default=DEFAULT_START_TIMEOUT,
                   metavar="SECONDS", help=START_HELP)
    p.add_argument("--jobs", "-j", type=job_count, default=1, metavar="N",
                   help="N implementation processes at once (for --adapter, N worker "
                   "processes)")
    p.add_argument("--require-clauses", action="store_true",
                   help="a refusal must name the clause that refuses it (a refusal naming "
                   "none passes by default; the summary counts them)")
    p.add_argument("-v", "--verbose", action="store_true", help="list every result")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    with paused():  # few cycles, many containers: see gc_freeze.paused
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from mtrain.conformance.child import exit_code_of
    from mtrain.conformance.corpus_files import none_found
    from mtrain.conformance.declaration import (
        DeclarationError,
        beyond_options,
        declared_ruleset,
        empty_name,
        unknown_variants,
        unread_limits,
        unread_rules_fields,
    )
    from mtrain.conformance.known_failures import load_skips, unknown_rule_set
    from mtrain.conformance.outputs import check_output
    from mtrain.conformance.own_rounds import by_ruleset as own_last_rounds
    from mtrain.conformance.pool import RunInterrupted, Runner, close, run_tasks
    from mtrain.conformance.release_counts import charge_counted_early
    from mtrain.conformance.report import Report
    from mtrain.conformance.resultmemo import ResultMemo
    from mtrain.conformance.selection import (
        check_variants,
        choose_rulesets,
        count_for_floor,
        id_matches,
        impossible_tables,
        load_fixtures,
        read_rules,
        seats_warning,
        select,
        shipped_fixtures,
        situation_count,
        situation_tasks,
        unmatched_patterns,
    )
    from mtrain.conformance.target import greet, target_of
    from mtrain.spec.errors import InputError, written_otherwise

    started = time.perf_counter()
    if args.fixtures is not None and (missing := why_missing(args.fixtures)):
        raise InputError(f"--fixtures: {missing}")
    if args.output:
        check_output(args.output, "--output", inputs=[
            ("--fixtures", args.fixtures), ("--skip", args.skip), ("--impl", args.impl),
            ("--adapter", args.adapter), *(("--rules", r) for r in args.rules)])
    asked = check_variants(args.variant)
    from_files = read_rules(args.rules, asked)
    args.rules_from = {rs.name: path for rs, path in from_files}
    asked += [rs for rs, _ in from_files]
    skips = load_skips(args.skip) if args.skip else []
    fixtures, load_errors = load_fixtures(args.fixtures)
    if not fixtures and not load_errors:
        raise InputError(none_found(args.fixtures or "the shipped corpus",
                                    [args.fixtures] if args.fixtures else []))
    if args.pattern and not load_errors:  # (an id may be in a file that did not load)
        lost = unmatched_patterns(args.pattern, [fx.id for fx in fixtures])
        if lost:  # a typo ran nothing, or hid among other patterns: before any start
            raise InputError("\n".join(lost))
    target = target_of(args)
    first = target.make()
    try:
        info = greet(first, target)
        declared = declared_ruleset(info)
    except DeclarationError as e:
        close(first)
        raise InputError(f"the implementation's declared rules: {e}") from None
    except BaseException:
        close(first)
        raise
    warnings = (empty_name(info) + unknown_variants(info) + unread_limits(info)
                + unread_rules_fields(info))
    for rs, path in from_files:  # the file says what it plays: run, and say so once
        beyond = beyond_options(info, rs)
        if beyond is not None:
            warnings.append(f"--rules {path}: {beyond}; run as the file says")
    rulesets, chosen, more = choose_rulesets(asked, declared, fixtures)
    warnings += more
    if not asked and declared is not None:  # a rerun needs no rule set: it is declared
        args.declared_run = declared.name
    try:
        tasks, outside = select(fixtures, rulesets, args.pattern or [])
    except BaseException:
        close(first)
        raise
    table_errors: list[str] = []
    impossible = 0  # fixtures every task of which was taken out for its table
    if args.fixtures is not None and not shipped_fixtures(args.fixtures):
        selected = {t.fixture.id for t in tasks}
        tasks, table_errors = impossible_tables(tasks)
        impossible = len(selected - {t.fixture.id for t in tasks})
    warnings += [w for rs in rulesets if (w := seats_warning(rs, outside)) is not None]
    count = situation_count(args.situations, args.fixtures is not None, rulesets)
    try:  # a match of its own: the rounds it has, whose situations alone run (own_rounds)
        last = own_last_rounds(first, rulesets, count) if count else {}
    except BaseException:
        close(first)
        raise
    if args.situations is None and len(rulesets) == 1 and not args.pattern:
        # the floor is of results that run: a fixture not applicable here is none
        runs = sum(t.expectation is not None and t.why is None for t in tasks)
        count = count_for_floor(rulesets[0], count, runs,  # a rerun asks the same
                                last.get(rulesets[0].name))
    args.situations_run = count
    played, more = situation_tasks(rulesets, count, args.pattern or [], len(tasks), last)
    tasks += played
    warnings += more
    if args.pattern and not any(id_matches(t.fixture.id, args.pattern) for t in tasks):
        warnings.append(unmatched_pattern(args.pattern, fixtures, rulesets, count))
    elif args.pattern and len(args.pattern) > 1:  # one of several: a slip the run hides
        warnings += [f"-k {p}: no fixture id matches it; the run holds what the other "
                     "patterns select" for p in args.pattern
                     if not any(id_matches(t.fixture.id, [p]) for t in tasks)
                     and not any(id_matches(fx.id, [p]) for fx in fixtures)]
    for s in skips:
        unknown = unknown_rule_set(s, (rs.name for rs in rulesets))
        if unknown is not None:  # said as such, at its line: not only "matches nothing"
            warnings.append(unknown)
        elif not any(s.matches(t.fixture.id, t.variant) for t in tasks):
            warnings.append(f"skip entry {s.fixture}"
                            + (f" [{s.variant}]" if s.variant else "")
                            + " matches no selected fixture"
                            + written_otherwise(s.fixture, (fx.id for fx in fixtures)))
    runner = Runner(args, target, info, skips)
    if target.kind == "reference" and ResultMemo.serves(first) and ResultMemo.wanted():
        runner.memo = ResultMemo(tasks)
    interrupted, stopped_by = "", 0
    try:
        results = run_tasks(tasks, runner, first, args.jobs)
    except RunInterrupted as e:  # a report of what ran, then the interrupt's exit code
        results, stopped_by = e.done, exit_code_of(e)
        interrupted = f"interrupted ({signal.Signals(e.signum).name})"
        warnings.append(f"{interrupted} after {len(e.done)} of {e.total} results: the "
                        "report holds only those")
        print(f"mtrain conform: {interrupted}", file=sys.stderr)
    except KeyboardInterrupt as e:
        print("mtrain conform: interrupted", file=sys.stderr)
        return exit_code_of(e)
    warnings += runner.notes  # the shutdown unanswered, say: said, failing nothing
    charge_counted_early(results)  # what the run's tables together say of a release
    described = {**(info or {}), **target.describe}
    for key in ("id", "ok", "rules"):
        described.pop(key, None)
    report = Report(results, described, [*map(str, load_errors), *table_errors], warnings,
                    time.perf_counter() - started, outside=outside.rules,
                    seats=outside.seats,
                    rulesets=f"{len(rulesets)} rule set{'s' if len(rulesets) != 1 else ''}, "
                    f"{chosen}",
                    values={rs.name: dict(rs.choices) for rs in rulesets},
                    patterns=list(args.pattern or []), impossible=impossible,
                    interrupted=interrupted, problems=runner.problems)
    try:
        emit(report, args, tasks)
    except BrokenPipeError:  # `mtrain conform | head`: the verdict stands, not exit 0
        quiet_stdout()
    return stopped_by or report.exit_code


def unmatched_pattern(patterns: Sequence[str], fixtures: Sequence[Fixture],
                      rulesets: Sequence[Ruleset], situations: int) -> str:
    """The warning for a -k that selected nothing to run: no fixture has such an id, or
    those that have speak only about other rules (the per-rule-set table counts them)."""
    from mtrain.conformance.selection import id_matches

    pats = " ".join(patterns)
    named = sum(1 for fx in fixtures if id_matches(fx.id, patterns))
    if named:
        return (f"-k {pats}: {named} fixture{'s' if named != 1 else ''} of that id, none "
                "speaking about the rule sets run (`other rules` in the table below)")
    text = f"no fixture id matches -k {pats}"
    own = sorted({o for rs in rulesets for o in rs.unknown})
    if situations and own:
        text += (f", nor any situation from play (under rules played their own way, "
                 f"{', '.join(own)}, only tables whose question reads none of them are "
                 "made)")
    return text


def emit(report: Report, args: argparse.Namespace, tasks: Sequence[Task] = ()) -> None:
    """The report in the format asked for, onto standard output or into --output."""
    from mtrain.conformance.outputs import write_output
    from mtrain.conformance.report import write_json
    from mtrain.conformance.report_formats import RENDERERS
    from mtrain.conformance.report_html import FixtureIllustrator, render_html
    from mtrain.conformance.report_text import render_text

    if args.format == "text":
        if args.output:
            write_output(args.output, "--output",
                         lambda f: render_text(report, f, verbose=args.verbose))
        else:
            render_text(report, sys.stdout, rich=sys.stdout.isatty(), verbose=args.verbose)
            sys.stdout.flush()
        if args.output:
            print(report.headline())
        return
    if args.format == "json":  # written as it is made: the largest report there is
        if args.output:
            write_output(args.output, "--output", lambda f: write_json(report, f))
            print(report.headline())
        else:
            write_json(report, sys.stdout)
            sys.stdout.flush()
        return
    if args.format == "html":
        text = render_html(report, FixtureIllustrator(tasks))
    else:
        text = RENDERERS[args.format](report)
    if args.output:
        write_output(args.output, "--output", lambda f: f.write(text))
        print(report.headline())
    else:
        from mtrain.output import write_document

        write_document(text)
        sys.stdout.flush()
