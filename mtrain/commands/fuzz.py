"""`mtrain fuzz`: the command line of conformance/fuzz/, and how a run's report reads."""

from __future__ import annotations

import argparse
import builtins
import dataclasses
import json
import math
import re
import sys
from typing import TYPE_CHECKING, Any

from mtrain.commands.arguments import (
    MAX_JOBS,
    MAX_SEED,
    MAX_WAIT,
    decimal,
    integer,
    positive_float,
)
from mtrain.conformance.defaults import DEFAULT_START_TIMEOUT, FOLLOW, FUZZ_OUT, START_HELP
from mtrain.conformance.untrusted import one_line, shown

if TYPE_CHECKING:
    from mtrain.conformance.adapter import JSON, Implementation
    from mtrain.conformance.fuzz.findings import Group
    from mtrain.conformance.fuzz.rulesets import Chooser
    from mtrain.conformance.fuzz.run import FuzzReport, Target
    from mtrain.conformance.known_failures import SkipEntry

MAX_GAMES = 1_000_000
"""The most games one fuzz run may ask for (each is planned)."""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "fuzz", help="play random games against the reference engine; group the "
        "disagreements and shrink each into a fixture",
        description="Play random games with the reference engine, asking the implementation "
        "the same questions at every step. Every disagreement is recorded and play goes on; "
        "disagreements are grouped by signature, each new one is shrunk into a fixture, and "
        "those conform charges to the same clause for the same cause are one finding. "
        "Exit 0 when nothing new was found, 1 when something was or when no answer could "
        "be judged (every one decided by rules played `other`), 2 for a usage or "
        "configuration error.")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--impl", metavar="COMMAND",
                     help="a program speaking protocol v1 on stdin/stdout, as for conform")
    who.add_argument("--adapter", metavar="MODULE:OBJECT",
                     help="an in-process Python implementation: an instance or a "
                     "zero-argument class (MODULE may be a .py path)")
    who.add_argument("--mutant", metavar="NAME",
                     help="a buggy engine from the mutants catalogue (mtrain mutants "
                     "--list); default variants: those where its bug can show")
    p.add_argument("--variant", action="append", default=[],
                   help="a variant or base+overlay+... (repeatable; games cycle through "
                   "them; default: the shipped variants and their overlay combinations, "
                   "within what the implementation declares)")
    p.add_argument("--rules", action="append", default=[], metavar="FILE",
                   help="a rule-set file, as for conform (repeatable; games cycle through "
                   "these and the --variant rule sets): a table of its own and rules "
                   "played `other` are fuzzed too, judging only the answers those rules "
                   "do not decide")
    p.add_argument("--players", type=integer, help="table size (default: random per game)")
    p.add_argument("--games", type=integer, default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=integer, default=0, help="the run's seed (default 0)")
    p.add_argument("--jobs", type=integer, default=1, help="worker processes (default 1)")
    p.add_argument("--follow", choices=FOLLOW, default="ref",
                   help="whose state play goes on from after each step: the reference's "
                   "(default), or the implementation's own, so that its mistakes compound")
    p.add_argument("--known", metavar="FILE",
                   help="known findings, in the format of conform's --skip: a YAML list of "
                   "{fixture: SIGNATURE (a glob), variant (optional glob), reason}")
    p.add_argument("--max-findings", type=integer, metavar="N",
                   help="stop once N new findings (signatures) have shown; the game in "
                   "which the Nth shows is played to its end")
    p.add_argument("--max-seconds", type=decimal, metavar="SECONDS",
                   help="stop playing after SECONDS (shrinking comes after)")
    p.add_argument("--out", default=FUZZ_OUT,
                   help=f"folder for the reproducers (default ./{FUZZ_OUT}/), made if missing; "
                   "the folder that holds it must exist")
    p.add_argument("--shrink-seconds", type=decimal, default=10.0, metavar="SECONDS",
                   help="time limit for shrinking each new finding (default 10)")
    p.add_argument("--shrink-tries", type=integer, metavar="N",
                   help="stop shrinking a finding after N candidate tables (the same cut "
                   "at any load; --shrink-seconds still bounds it)")
    p.add_argument("--timeout", type=decimal, metavar="SECONDS",
                   help="per request to --impl or --adapter (default: as for conform)")
    p.add_argument("--start-timeout", type=positive_float, default=DEFAULT_START_TIMEOUT,
                   metavar="SECONDS", help=START_HELP)
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.set_defaults(func=run)


def _target(args: argparse.Namespace) -> Target:
    from mtrain.conformance.fuzz.run import Target
    from mtrain.spec.errors import InputError, UsageError, shown

    if args.mutant is not None:
        try:
            from mtrain.conformance.mutants import MUTANTS
        except ImportError:
            raise InputError("no mutants catalogue (conformance/mutants/)") from None
        if args.mutant not in MUTANTS:
            import difflib

            near = difflib.get_close_matches(args.mutant, list(MUTANTS), n=3)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            raise InputError(f"unknown mutant {shown(args.mutant)}{hint} (the list: mtrain "
                             "mutants --list)")
        return Target("mutant", args.mutant, args.mutant)
    if args.impl is not None:
        return Target("impl", args.impl, timeout=args.timeout,
                      start_timeout=args.start_timeout)
    if args.adapter is not None:
        return Target("adapter", args.adapter, timeout=args.timeout,
                      start_timeout=args.start_timeout)
    raise UsageError("name the implementation to fuzz: --impl COMMAND, --adapter MODULE:ATTR "
                     "or --mutant NAME")


def _named_counts() -> set[int]:
    """The player counts the catalogue's named hand tables deal (what a shipped variant
    with overlays can seat)."""
    from mtrain.spec.catalog import catalog

    values = catalog().options["hand_sizes"].values.values()
    return {n for v in values if v.table for n, _ in v.table}


def _variants(args: argparse.Namespace, info: JSON, target: Target) -> list[str] | Chooser:
    """The rule sets to play: those named (or a mutant's), within what the implementation
    declares (conform's matcher); by default the draw of rulesets.Chooser."""
    from mtrain.conformance.declaration import DeclarationError, unknown_variants, unsupported
    from mtrain.conformance.fuzz.rulesets import context, mutant_variants
    from mtrain.conformance.fuzz.run import declared
    from mtrain.spec.catalog import RulesetError
    from mtrain.spec.errors import InputError
    from mtrain.spec.yamlload import SpecError

    files = _rules_files(args)
    asked = [v for v in args.variant if not _is_file(v)]
    names = asked or ([] if files else
                      mutant_variants(target.value) if target.kind == "mutant" else [])
    if not names and not files:
        try:
            return declared((), info, args.players)
        except DeclarationError as e:
            raise InputError(f"the implementation's declared rules: {e}") from None
        except ValueError as e:
            if info.get("rules") is not None:
                raise InputError(str(e)) from None
            dealt = _named_counts()
            if args.players and args.players not in dealt:  # the rules', not the engine's
                raise InputError(f"--players {args.players}: no shipped variant or overlay "
                                 f"deals {args.players} players (their hand tables seat "
                                 f"{min(dealt)} to {max(dealt)}); a rule-set file with a "
                                 "hand table of one's own may (--rules FILE)") from None
            # why, where the hello names what is no rule set here (`Pagat`, `.*`)
            said = "".join(f"; {w}" for w in unknown_variants(info))
            raise InputError("the implementation supports none of the shipped variants and "
                             "overlays" + (f" with {args.players} players" if args.players
                                           else "") + said) from None
    out = []
    for text in names:
        try:
            ctx = context(text)
        except (RulesetError, SpecError) as e:
            raise InputError(str(e)) from None
        if not re.fullmatch(r"[a-z0-9-]+(\+[a-z0-9-]+)*", ctx.name):
            raise InputError(f"{text}: fuzz needs a rule set a fixture can name "
                             "(a variant, or base+overlay+...)")
        if args.players is not None and args.players not in ctx.rs.player_counts:
            raise InputError(f"{ctx.name} has no hand size for {args.players} players [DEAL-7]")
        why = unsupported(info, ctx.name, ctx.rs, asked=True)  # asked for: it wins
        if why is not None:
            print(f"skipping {ctx.name}: {why}", file=sys.stderr)
            continue
        out.append(ctx.name)
    if not out and not files:
        raise InputError("the implementation supports none of the rule sets asked for")
    if files:  # a rule-set file says what the implementation plays: no declaration filters it
        from mtrain.conformance.fuzz.rulesets import Chooser

        return Chooser([*out, *files])
    return out


def _is_file(variant: str) -> bool:
    """A --variant that names a rule-set file (read as --rules reads one)."""
    return variant.endswith((".yaml", ".yml")) or "/" in variant


def _rules_files(args: argparse.Namespace) -> list[str]:
    """The rule sets of the --rules files, ready to play (fuzz.rulesets.declared_context)."""
    return [name for name, _ in _rules_sources(args)]


def _rules_sources(args: argparse.Namespace) -> list[tuple[str, str]]:
    """Each --rules file's rule set, ready to play, by name, with the file it came from."""
    from mtrain.conformance.fuzz.rulesets import declared_context
    from mtrain.conformance.selection import read_rules
    from mtrain.spec.catalog import RulesetError
    from mtrain.spec.errors import InputError

    names: list[tuple[str, str]] = []
    paths = [*getattr(args, "rules", []), *(v for v in args.variant if _is_file(v))]
    for rs, path in read_rules(paths):
        try:
            ctx = declared_context(rs, suffix=f"from {path}")
        except RulesetError as e:
            raise InputError(f"--rules {path}: {e}") from None
        if args.players is not None and args.players not in ctx.rs.player_counts:
            raise InputError(f"--rules {path}: {rs.name} has no hand size for {args.players} "
                             "players [DEAL-7]")
        names.append((ctx.name, path))
    return names


def greet(impl: Implementation) -> JSON:
    """The implementation's info; one that does not start is a configuration error."""
    from mtrain.conformance.fuzz.run import _start_error
    from mtrain.conformance.process import ConfigurationError, HarnessError
    from mtrain.spec.errors import InputError

    try:
        info = impl.info()
    except (ConfigurationError, HarnessError) as e:
        raise InputError(_start_error(e)) from None
    except Exception as e:
        raise InputError(f"the implementation's info() failed: {type(e).__name__}: {e}"
                         ) from None
    if not isinstance(info, dict):
        raise InputError(f"the implementation's info is not an object: {info!r}")
    return info


def run(args: argparse.Namespace) -> int:
    from mtrain.conformance.fuzz.rulesets import Chooser
    from mtrain.conformance.fuzz.run import StartError, Target, close_implementation
    from mtrain.conformance.known_failures import load_skips, unknown_rule_set
    from mtrain.conformance.process import ConfigurationError
    from mtrain.spec.errors import InputError, UsageError
    from mtrain.spec.ruleset import MAX_PLAYERS

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.games > MAX_GAMES:  # each is planned: a count of 20 digits never finished
        raise UsageError(f"--games must be at most {MAX_GAMES:,} (--max-seconds stops a "
                         "long run at a time)")
    if args.players is not None and args.players < 2:
        raise UsageError(f"--players {args.players}: a table seats at least 2 (no hand-size "
                         "table deals fewer: DEAL-7)")
    if args.players is not None and args.players > MAX_PLAYERS:
        raise UsageError(f"--players {args.players}: a table seats at most {MAX_PLAYERS} (no "
                         "hand-size table deals more)")
    if not 0 <= args.seed <= MAX_SEED:  # a seed names the reproducer files: one too long
        raise UsageError(f"--seed must be from 0 to {MAX_SEED:,}")  # is no file name
    if not 1 <= args.jobs <= MAX_JOBS:
        raise UsageError(f"--jobs must be from 1 to {MAX_JOBS}")
    if not 0 <= args.shrink_seconds < math.inf or (args.timeout is not None
                                   and not 0 < args.timeout < math.inf):
        raise UsageError("--shrink-seconds and --timeout must be positive (and finite)")
    if args.timeout is not None and args.timeout > MAX_WAIT:  # a hung engine held it for ever
        raise UsageError(f"--timeout must be at most {MAX_WAIT:,.0f} seconds (a day)")
    if args.shrink_tries is not None and args.shrink_tries < 0:
        raise UsageError("--shrink-tries must be at least 0")
    if args.max_findings is not None and args.max_findings < 1:
        raise UsageError("--max-findings must be at least 1")
    if args.max_seconds is not None and not 0 < args.max_seconds < math.inf:
        raise UsageError("--max-seconds must be positive (and finite: leave it out for no "
                         "limit)")
    from mtrain.conformance.outputs import check_output_folder

    check_output_folder(args.out, "--out")  # before the run: findings are written as found
    known: list[SkipEntry] = []
    if args.known:
        try:
            known = load_skips(args.known)
        except InputError as e:
            raise InputError(str(e).replace("--skip", "--known", 1)) from None
    target = _target(args)
    try:
        impl = target.make()
    except ConfigurationError as e:
        raise InputError(str(e)) from None
    try:
        info = greet(impl)
        if not target.label:
            target = Target(target.kind, target.value, str(info.get("name", "impl")),
                            target.instance, target.timeout, target.start_timeout)
        variants = _variants(args, info, target)
        # a reproducer's "run it" names the file its rules of their own came from
        target = dataclasses.replace(target, sources=tuple(_rules_sources(args)))
        played = variants.names if isinstance(variants, Chooser) else variants
        for entry in known:  # as conform says of its --skip file: a typo skips nothing
            unknown = unknown_rule_set(entry, played)
            if unknown is not None:
                print(f"warning: {unknown.replace('--skip', '--known', 1)}", file=sys.stderr)
        return _run(args, target, impl, variants, known)
    except StartError as e:
        raise InputError(str(e)) from None
    finally:
        close_implementation(impl)


def _run(args: argparse.Namespace, target: Target, impl: Implementation,
         variants: list[str] | Chooser, known: list[SkipEntry]) -> int:
    from mtrain.conformance.fuzz.rulesets import Chooser
    from mtrain.conformance.fuzz.run import fuzz
    from mtrain.conformance.gc_freeze import settled

    kwargs: dict[str, Any] = dict(
        jobs=args.jobs, out=args.out, players=args.players, shrink_seconds=args.shrink_seconds,
        shrink_tries=args.shrink_tries, impl=impl, follow=args.follow, known=known,
        max_findings=args.max_findings, max_seconds=args.max_seconds)
    what = variants.describe() if isinstance(variants, Chooser) else ", ".join(variants)
    whose = "implementation" if args.follow == "impl" else "reference"
    if not args.json:
        workers = min(args.jobs, args.games)
        print(shown(f"fuzzing {one_line(target.label)} against the reference: {args.games} "
                    f"games of {what}, seed {args.seed}, following the {whose}'s states"
                    + (f", in {workers} worker processes" if workers > 1 else "")), flush=True)
    with settled():  # after the set-up: a fuzz run is many short-lived states
        if sys.stderr.isatty() and not args.json:
            from rich.console import Console
            from rich.progress import Progress

            with Progress(console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task("games", total=args.games)
                report = fuzz(target, variants, args.games, args.seed,
                              progress=lambda k: bar.advance(task, k), **kwargs)
        else:
            report = fuzz(target, variants, args.games, args.seed, **kwargs)
    if args.json:
        json.dump(report_json(report, target, args.seed), sys.stdout, indent=2)
        print()
    else:
        print_report(report, target)
    if report.interrupted is not None:  # the findings so far are listed and written
        print("mtrain fuzz: interrupted", file=sys.stderr)
        from mtrain.conformance.child import exit_code_of

        return exit_code_of(report.interrupted)
    if report.harness_error is not None:  # its findings so far listed: the run is no pass
        print(f"mtrain fuzz: {report.harness_error}", file=sys.stderr)
        return 1
    failed = untested(report)
    if failed is not None:
        print(f"mtrain fuzz: {failed}", file=sys.stderr)
        return 1
    return 1 if report.new or report.errors else 0


def untested(report: FuzzReport) -> str | None:
    """Why a run tested nothing, which is no pass; None when it tested something."""
    if report.games == 0:
        why = (report.stopped or "; ".join(r for r, _ in _top(report.not_applicable_why, 2))
               or "no game was planned")
        return f"no game was played ({why})"
    if report.judged == 0 and not report.new:  # nothing was held against the rules
        why = ("rules played `other` decided every answer: "
               + ", ".join(o for o, _ in _top(report.own, 3))) if report.own else (
            "no question was answered")
        return f"no answer was judged ({why})"
    return None


def _where(g: Group) -> str:
    f = g.first
    at = "the deal" if f.step == 0 else f"step {f.step}"
    seats = f"{f.players} player" + ("" if f.players == 1 else "s")
    return (f"first in game {f.game} ({f.probe.variant}, {seats}), round "
            f"{f.round}, {at}")


def _messages(g: Group) -> list[str]:
    d = g.verdict if g.verdict is not None else g.best.disagreement
    return list(d.messages)


def print_report(report: FuzzReport, target: Target) -> None:
    from mtrain.conformance.fuzz.rulesets import context

    def print(text: str = "") -> None:  # an implementation's words are in there: escaped
        builtins.print(shown(text), flush=True)

    for w in report.warnings[:5]:
        print(f"warning: {w}")
    if len(report.warnings) > 5:
        print(f"warning: ... and {len(report.warnings) - 5} more like these")
    for k, g in enumerate(report.new, 1):
        print(f"[{k}] {g.signature}: {_count(g.count, 'time')}, {_where(g)}")
        for m in _messages(g):
            print(f"    {m}")
        for signature, n in g.also:  # the same bug (findings.one_per_bug)
            print(f"    also as `{signature}`: {_count(n, 'time')} "
                  + (f"(no reproducer: the same cause, its step naming {g.charged[0]} "
                     "first, the clause charged here: one bug)" if signature in g.unasked
                     else f"(the same clause charged, {', '.join(g.charged)}, for the "
                     "same cause: one bug)"))
        if g.shrunk is not None:
            print(f"    shrunk in {g.shrink_seconds:.1f} s ({g.shrink_tries} tries): "
                  f"{g.best.probe.written} written -> {g.shrunk.written}")
        if g.path is not None:
            print(f"    reproducer: {g.path}")
            for command in target.commands(g.path, context(g.first.probe.variant)):
                print(f"    run it: {command}")
        for p in g.problems:
            print(f"    problem: {p}")
    for e in report.errors:  # the protocol broken where no step's answer shows it
        print(f"error: {e}")
    for g in report.known:
        print(f"known: {g.signature}: {_count(g.count, 'time')} ({g.known})")
    if report.unsupported:
        print(f"{_count(sum(report.unsupported.values()), 'question')} answered `unsupported`"
              " (each not applicable; play went on):")
        for reason, n in _top(report.unsupported):
            print(f"    {n:,} x {reason}")
    if report.own or report.own_cut:  # how much of the run its own rules kept from judgement
        print(f"{report.judged:,} of {_count(report.answered, 'answer')} judged; "
              f"{sum(report.own.values()):,} decided by rules of its own "
              "(options played `other`), not judged"
              + "".join(f"{', ' if i else ': '}{o}: {n:,}"
                        for i, (o, n) in enumerate(_top(report.own))))
        if report.own_scores:  # what its own scoring decides, but for that: judged
            print(f"    judged though its scoring is its own: "
                  f"{_count(report.own_scores, '`score` answer')} at a round's end, each "
                  "against its own result on the same table (whatever its rule counts)")
        for played, n in _top(report.own_differ):
            print(f"    {n:,} of them differ from {played}, played in its place: a rule of "
                  "its own there, or bugs (if the engine plays that value, fuzz with it in "
                  "the rule-set file to judge them)")
        if report.own_cut:  # read a rule of its own, judged all the same: among the judged
            print(f"    of those judged, {sum(report.own_cut.values()):,} read a rule of its "
                  "own and were judged as conform cuts such an entry (a bracket, a release, "
                  "the markers or a round's worth aside, a move of its own by what it does): "
                  + ", ".join(f"{o}: {n:,}" for o, n in _top(report.own_cut)))
    for why, n in _top(report.cut):
        print(f"{_count(n, 'game')} ended early: {why}")
    if report.setups:  # DEAL-7: refusing is right
        right = [k for k, v in report.setups.items() if v.startswith("refused")]
        print(f"player counts the tables lack: {_count(len(report.setups), 'setup')} asked, "
              f"{len(right):,} refused")
        for key, what in [(k, v) for k, v in report.setups.items() if k not in right][:5]:
            print(f"    {key}: {what}")
    by_name: dict[str, list[str]] = {}  # `name: N players` -> last round, per rule set
    for key, last in report.match_rounds.items():
        name, _, count = key.rpartition(": ")
        by_name.setdefault(name, []).append(f"{last} at {count}")
    for name, lasts in by_name.items():
        print(f"its own match ({name}) deals rounds 1 to {', '.join(lasts)}: no game "
              "started later")
    rate = f" ({report.steps / report.seconds:,.0f} steps/s)" if report.seconds > 0 else ""
    tail = []
    if report.not_applicable:
        tail.append(f"{_count(report.not_applicable, 'game')} not applicable (every "
                    "question answered `unsupported`: "
                    + "; ".join(r for r, _ in _top(report.not_applicable_why, 2)) + ")")
    if report.stopped:
        tail.append(f"stopped: {report.stopped}, {_count(report.skipped, 'game')} not played")
    print(f"{_count(report.games, 'game')}, {_count(report.rounds, 'round')} completed, "
          f"{_count(report.steps, 'step')}, {_count(len(report.new), 'new finding')} "
          f"({_count(report.disagreements, 'disagreement')}), "
          f"{len(report.known)} known, {report.seconds:.1f} s{rate}"
          + "".join(f"; {t}" for t in tail))
    if report.new:
        print("to mark one as known, list it in a --known file, e.g.:")
        for signature in report.new[0].signatures:  # each signature of the bug
            print(f"  - {{fixture: {json.dumps(signature)}, reason: \"...\"}}")


def report_json(report: FuzzReport, target: Target, seed: int) -> JSON:
    def group(g: Group) -> JSON:
        f = g.first
        return {"signature": g.signature, "known": g.known, "count": g.count,
                "variants": g.variants,
                "first": {"game": f.game, "round": f.round, "step": f.step,
                          "variant": f.probe.variant, "players": f.players},
                "messages": _messages(g),
                "charged": list(g.charged),
                "also": [{"signature": s, "count": n, "reproduced": s not in g.unasked}
                         for s, n in g.also],
                "reproducer": None if g.path is None else str(g.path),
                "shrink": None if g.shrunk is None else {
                    "seconds": round(g.shrink_seconds, 3), "tries": g.shrink_tries,
                    "size": [g.best.probe.size, g.shrunk.size],
                    "written": [g.best.probe.written._asdict(), g.shrunk.written._asdict()]},
                "problems": g.problems}
    return {"implementation": target.label, "seed": seed, "games": report.games,
            "not_applicable": report.not_applicable, "skipped": report.skipped,
            "rounds": report.rounds, "blocked_rounds": report.blocked,
            "steered_games": report.steered, "steps": report.steps,
            "seconds": round(report.seconds, 3),
            "steps_per_second": round(report.steps / report.seconds) if report.seconds else 0,
            "stopped": report.stopped, "unsupported": report.unsupported,
            "not_applicable_reasons": report.not_applicable_why,
            "answered": report.answered, "judged": report.judged,
            "not_judged": report.own, "not_judged_differ": report.own_differ,
            "judged_by_cut": report.own_cut, "own_scores_judged": report.own_scores,
            "ended_early": report.cut, "setups": report.setups,
            "match_rounds": report.match_rounds,
            "findings": [group(g) for g in report.groups],
            "errors": report.errors, "warnings": report.warnings,
            "harness_error": report.harness_error}


def _top(counts: dict[str, int], k: int = 5) -> list[tuple[str, int]]:
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:k]


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")
