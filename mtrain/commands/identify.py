"""`mtrain identify`: which rules does an engine play? Option by option, with the
evidence and how sure (conformance/identify/); the closest rule set written as a
rule-set file. A progress bar on a terminal (stderr), nothing of it when piped."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mtrain.commands.arguments import positive_float
from mtrain.conformance.defaults import DEFAULT_START_TIMEOUT, DEFAULT_TIMEOUT, START_HELP

if TYPE_CHECKING:
    from mtrain.conformance.identify import IdentifyInterrupted, OptionFinding
    from mtrain.spec.ruleset import Ruleset


def register(sub: Any) -> None:
    p = sub.add_parser("identify", help="find which rules an implementation plays",
                       description="Play every fixture that tells rule sets apart against "
                       "an implementation and report, option by option, the value it "
                       "follows, with the evidence and how sure; write the closest rule "
                       "set as a rule-set file.")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--impl", metavar="COMMAND", help="a program speaking protocol v1")
    which.add_argument("--adapter", metavar="MODULE:OBJECT", help="an in-process adapter")
    p.add_argument("--output", "-o", metavar="FILE", help="write the rule set found here")
    p.add_argument("--timeout", type=positive_float, default=DEFAULT_TIMEOUT,
                   metavar="SECONDS", help=f"per request (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--start-timeout", type=positive_float, default=DEFAULT_START_TIMEOUT,
                   metavar="SECONDS", help=START_HELP)
    p.set_defaults(func=run)


def _run(identify: Any, watched: Any, declared: Any) -> Any:
    """identify, with a progress bar (on stderr) when the output goes to a terminal."""
    if not (sys.stdout.isatty() and sys.stderr.isatty()):
        return identify(watched, declared=declared)
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        tasks: dict[str, Any] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done, total=total)
        return identify(watched, declared=declared, progress=progress)


def _declaration(info: Any) -> Ruleset | None:
    """The rules the engine's hello declares, or None: identify is for an engine that does
    not know the names, so a declaration the catalogue cannot read (a value it lacks, such
    as a tile set it has no data for) is a warning and identify runs as for none, where
    conform and fuzz, which would run those rules, stop on it."""
    from mtrain.conformance.declaration import DeclarationError, declared_ruleset
    from mtrain.conformance.untrusted import shown

    try:
        return declared_ruleset(info)
    except DeclarationError as e:
        print(shown(f"warning: the implementation's declared rules are not read ({e}); "
                    "identifying as if it declared none"), file=sys.stderr)
        return None


def run(args: argparse.Namespace) -> int:
    from mtrain.conformance.identify import IdentifyInterrupted, Watched, identify
    from mtrain.conformance.outputs import check_output
    from mtrain.conformance.process import ConfigurationError
    from mtrain.conformance.target import greet, target_of
    from mtrain.conformance.untrusted import shown
    from mtrain.spec.catalog import catalog
    from mtrain.spec.errors import InputError

    if args.output:
        # before the run, not after it; never over the engine's own files
        check_output(args.output, "--output",
                     inputs=[("--impl", args.impl), ("--adapter", args.adapter)])
    target = target_of(args)
    stopped: IdentifyInterrupted | None = None
    impl = target.make()
    watched = Watched(impl)
    try:
        info = greet(impl, target)  # nothing can be identified of one that does not start
        declared = _declaration(info)
        try:
            result = _run(identify, watched, declared)
        except ConfigurationError as e:
            raise InputError(str(e)) from None
        except IdentifyInterrupted as e:
            stopped = e
    finally:
        close = getattr(impl, "close", None)
        if callable(close):
            close()
    cat = catalog()
    if stopped is not None:  # the engine closed: what was found before the stop
        return interrupted(stopped, args.output, max(len(o) for o in cat.options))
    print(f"mtrain identify: {result.observed} fixtures played, {result.seconds:.1f} s (of "
          f"{result.corpus}, the others tell no rule sets apart under what the deals "
          f"measured), and {result.situations} situations from play")
    if result.unseen:
        print(shown(f"not seen: of {result.requests} requests, {result.unseen} (each "
                    "leaves what it asked unread)"))
    if watched.failed:
        print(shown(f"warning: {len(watched.failed)} requests failed (the last: "
                    f"{watched.failed[-1]})"))
    for broke in result.broke:
        print(shown(f"warning: the engine's answers broke the protocol: {broke}"))
    print_findings(result.findings, max(len(o) for o in cat.options))
    if result.unexplained:
        shows, elsewhere = split_unexplained(result.unexplained, result.ruleset)
        if shows:
            print(f"{len(shows)} fixtures no rule set explains (likely bugs; `mtrain "
                  f"conform --rules` shows them): {_first(shows)}")
        if elsewhere:
            print(f"{len(elsewhere)} fixtures no rule set explains whose entries speak only "
                  "about other rules than those found, so conform does not run them (a "
                  "table those rules may never reach, or a rule of the engine's own): "
                  f"{_first(elsewhere)}")
    for problem in result.problems:
        print(shown(problem))
    if all(f.status == "undetermined" for f in result.findings):
        # a run that found nothing is no identification: the base's values are no finding
        print(f"mtrain identify: nothing identified: no option could be told from the "
              f"engine's answers ({result.unseen or 'none told rule sets apart'}); no "
              "rule set is written", file=sys.stderr)
        return 1
    print(f"closest rule set: {result.ruleset.name}")
    if declared is not None:
        for line in declaration_note(result.findings, declared, result.ruleset):
            print(line)
    if args.output:
        from mtrain.conformance.outputs import write_output

        text = result.file_text(cat)
        write_output(args.output, "--output", lambda f: f.write(text))
        print(f"wrote {args.output}: run `mtrain conform --rules {args.output}` with the "
              "same implementation to see what is left")
    else:
        # an author who knows no option names needs the file, not only its name: say how
        # to get it (trestle's author ran identify without it first)
        print("no rule-set file written: `mtrain identify --output FILE` writes this rule "
              "set as one (every option with its evidence), for `mtrain conform --rules "
              "FILE`")
    return 0


def print_findings(findings: Sequence[OptionFinding], width: int) -> None:
    from mtrain.conformance.identify.found import agreement_words, counted, near_none

    for f in findings:
        why = ", ".join(f.evidence[:4]) + (" ..." if len(f.evidence) > 4 else "")
        alt = f" (or {', '.join(f.alternatives)})" if f.alternatives else ""
        fit = f"; {agreement_words(f)}" if f.agreement else ""
        if f.status == "other" and near_none(f):  # its answers are no known value's
            alt = f" (its own rule, near no known value{fit})"
        elif f.status == "other" and f.alternatives:  # a rule of its own, or bugs: say which
            alt = (f" (its own rule, or {f.alternatives[0]} if the "
                   f"{counted(len(f.evidence))} below "
                   f"{'is a bug' if len(f.evidence) == 1 else 'are bugs'}{fit})" if f.evidence else
                   f" (as the engine declares; no fixture tells it from {f.alternatives[0]})")
        print(f"  {f.option:<{width}}  {f.value:<22} {f.status}{alt}"
              + (f", margin {f.margin}: {why}" if why else ""))


def interrupted(stop: IdentifyInterrupted, output: str | None, width: int) -> int:
    """The report of a run stopped by SIGINT or SIGTERM: what it found before the stop,
    marked so (never written as a rule-set file, which would pass for an answer), and the
    signal's exit code."""
    from mtrain.conformance.child import exit_code_of

    where = f"{stop.stage} ({stop.played})" if stop.played else stop.stage
    found = stop.found
    print(f"mtrain identify: interrupted ({stop.signal_name}) while {where}: "
          + ("the answer to the fixtures weighed before it, not to all of them" if found
             else "what the deals measured before it; no fixture weighed yet" if stop.measured
             else "nothing measured yet"))
    print_findings(found.findings if found is not None else stop.measured, width)
    if found is not None:
        print(f"closest rule set so far: {found.ruleset.name}")
    if output:
        print(f"{output} not written: the run did not finish")
    print(f"mtrain identify: interrupted ({stop.signal_name})", file=sys.stderr)
    return exit_code_of(stop)


def split_unexplained(ids: Sequence[str], found: Ruleset) -> tuple[list[str], list[str]]:
    """The unexplained fixtures conform runs under the rule set found (it shows them), and
    those it does not: every entry speaks about other rules (doubles-072, a follow-up
    under DBL-12, against an engine found to keep doubles open: a table it never reaches),
    or the one that speaks about these cannot run (a chain-phase table under one tile a
    turn, REACH-CHAIN; an outcome a rule of the engine's own decides)."""
    from mtrain.conformance.fixture import load_corpus
    from mtrain.conformance.selection import entry_for
    from mtrain.spec.scope import Space

    fixtures, _ = load_corpus()
    by_id = {fx.id: fx for fx in fixtures}
    space = Space()
    shows: list[str] = []
    elsewhere: list[str] = []
    for fid in ids:
        fx = by_id.get(fid)
        exp = None if fx is None else entry_for(fx, found, space)[0]
        (elsewhere if fx is not None and exp is None else shows).append(fid)
    return shows, elsewhere


def _read(f: Any) -> str:
    """The known value a contradicted finding reads (the solver's, or the rival of its
    `other`)."""
    return str(f.alternatives[0] if f.value == "other" and f.alternatives else f.value)


def _firm(f: Any) -> bool:
    """Whether a finding states its value as a fact. A value found `other` from the
    fixtures is "its own rule, or its rival if those fixtures are bugs" (its own line says
    so): never a fact, whatever its margin (trolley's tie_rule, `other` on a margin of 10,
    the tie fixtures failed where its scoring is contradicted too). One measured from the
    deals has no rival."""
    return f.status != "other" or not f.alternatives


def declaration_note(findings: Any, declared: Any, found: Any) -> list[str]:
    """What the findings say of the engine's declared rules: the options found to play
    another value, and apart from them those whose declared value the fixtures contradict
    (bugs in its clauses, or a rule of its own: the finding cannot tell, so neither does
    this). An option nothing told apart is left out."""
    by = {f.option: f for f in findings}
    differ, leaning, contradicted = [], [], []
    for o, v in declared.choices:
        f = by.get(o)
        if f is not None and f.status == "undetermined":
            continue
        if f is not None and ((f.status == "other" and v in f.alternatives)
                              or (f.status == "contradicted" and v == _read(f))):
            contradicted.append(f"{o}: {v}")
        elif found[o] != v and f is not None and (f.status in ("likely", "contradicted")
                                                  or not _firm(f)):
            # a few fixtures' margin, or a value the fixtures contradict too (whose other
            # reading is not the declared value): a bug in the declared value's clauses
            # reads the same
            leaning.append(f"{o} (declared {v}, the fixtures lean to {found[o]}, margin "
                           f"{f.margin})")
        elif found[o] != v:
            differ.append(f"{o} (declared {v}, plays {found[o]})")
    if not differ and not leaning and not contradicted:
        return ["declared rules agree"]
    out = []
    if differ:
        out.append(f"the engine declares other rules than it plays: {', '.join(differ)}")
    if leaning:
        out.append(f"not sure, but the fixtures lean away from the declared rules: "
                   f"{', '.join(leaning)} (a rule of its own, or bugs in the declared "
                   "value's clauses: `mtrain conform` under the declaration shows them)")
    if contradicted:
        out.append(f"fixtures contradict the declared {', '.join(contradicted)} (bugs in its "
                   "clauses, or a rule of its own: `mtrain conform` under the declaration "
                   "shows them)")
    return out


SHOWN = 12
"""The most fixture ids a line of identify's summary lists."""


def _first(ids: list[str]) -> str:
    """The first SHOWN of `ids`, and how many more there are: a count the line gave is met."""
    more = len(ids) - SHOWN
    return ", ".join(ids[:SHOWN]) + (f" and {more} more" if more > 0 else "")
