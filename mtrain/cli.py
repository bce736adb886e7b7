"""The `mtrain` command line: one subcommand per job, each a small function.

Exit codes: 0 success, 1 a check failed, 2 a usage or configuration error (an unknown
variant, a malformed file), always with one clear message and never a traceback; 1 too
when the output is cut short (a broken pipe), unless the command already knew its
verdict (`mtrain conform | head` exits as the run did); 130 (SIGINT) or 143 (SIGTERM)
when interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mtrain import __version__
from mtrain.conformance.outputs import check_output
from mtrain.conformance.untrusted import shown
from mtrain.output import OutputError, guarded_stdout
from mtrain.spec.catalog import Catalog, RulesetError, catalog
from mtrain.spec.errors import InputError
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.yamlload import SpecError

Command = Callable[[argparse.Namespace], int]


def _print_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")


def resolve(cat: Catalog, variant: str, overlays: Sequence[str] = ()) -> Ruleset:
    try:
        return cat.ruleset(variant, overlays)
    except (RulesetError, SpecError) as e:
        raise InputError(str(e)) from None


# --- variants ------------------------------------------------------------------------


def cmd_variants(args: argparse.Namespace) -> int:
    cat = catalog()
    out: dict[str, Any] = {"variants": [], "overlays": []}
    for name in cat.variants:
        rs = cat.ruleset(name)
        vf = cat.variants[name]
        out["variants"].append({"name": name, "title": vf.title, "source": list(vf.source),
                                "options": dict(rs.items()),
                                "hand_sizes": {str(n): h for n, h in rs.hand_table}})
    for name, ov in cat.overlays.items():
        out["overlays"].append({"name": name, "title": ov.title, "source": list(ov.source),
                                "applies_to": list(ov.applies_to) if ov.applies_to else "any",
                                "options": ov.options})
    if args.json:
        _print_json(out)
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Variants", show_lines=False)
    table.add_column("option")
    for v in out["variants"]:
        table.add_column(v["name"])
    for option in cat.options:
        cells = [v["options"][option] for v in out["variants"]]
        style = "bold" if len(set(cells)) > 1 else ""
        table.add_row(option, *cells, style=style)
    ovt = Table(title="Overlays")
    for col in ("overlay", "sets", "applies to", "title"):
        ovt.add_column(col)
    for o in out["overlays"]:
        sets = ", ".join(f"{k}={v}" for k, v in o["options"].items())
        applies = o["applies_to"] if isinstance(o["applies_to"], str) else ", ".join(
            o["applies_to"])
        ovt.add_row(o["name"], sets, applies, o["title"])
    console = Console()
    console.print(table)
    console.print(ovt)
    return 0


# --- explain -------------------------------------------------------------------------


def cmd_explain(args: argparse.Namespace) -> int:
    cat = catalog()
    clause = cat.clauses.get(args.clause.upper())
    if clause is None:
        near = [c for c in cat.clauses if c.split("-")[0] == args.clause.upper().split("-")[0]]
        hint = f"; clauses of that group: {', '.join(near)}" if near else ""
        raise InputError(f"unknown clause {args.clause!r}{hint}")
    where = [name for name in cat.variants if clause.applies(cat.ruleset(name))]
    data = {
        "id": clause.id, "title": clause.title, "text": clause.text,
        "sources": list(clause.sources), "decision": clause.decision,
        "origin": clause.origin,
        "when": {o: sorted(v) for o, v in clause.when.items()},
        "requires": {o: sorted(v) for o, v in clause.requires.items()},
        "answers": list(clause.answers), "applies_to_variants": where,
    }
    if args.json:
        _print_json(data)
        return 0
    print(f"{clause.id}  {clause.title}")
    print(f"  {clause.text}")
    print(f"  sources: {', '.join(clause.sources)}")
    if clause.decision:
        print(f"  decision: {clause.decision}")
    if clause.origin:
        print(f"  where from: {clause.origin}")
    conds = "; ".join(f"{o} in {{{', '.join(sorted(v))}}}" for o, v in clause.when.items())
    print(f"  applies when: {conds or 'always'}")
    if clause.requires:
        req = "; ".join(f"{o} in {{{', '.join(sorted(v))}}}" for o, v in clause.requires.items())
        print(f"  requires: {req}")
    if clause.answers:
        print(f"  answers RULES.md questions: {', '.join(map(str, clause.answers))}")
    print(f"  shipped variants: {', '.join(where) or 'none (overlays only)'}")
    return 0


# --- simulate ------------------------------------------------------------------------


def cmd_simulate(args: argparse.Namespace) -> int:
    from mtrain.reference.rules import Rules
    from mtrain.reference.simulate import simulate

    rs = resolve(catalog(), args.rules or args.variant, args.overlay)
    if args.players not in rs.player_counts:
        raise InputError(f"{rs.name} has no hand size for {args.players} players; it deals to "
                         f"{', '.join(map(str, rs.player_counts))} [DEAL-7]")
    if args.rounds < 1:
        raise InputError("--rounds must be at least 1")
    rules = Rules.of(rs)
    if args.json or not sys.stderr.isatty():
        report = simulate(rules, args.players, args.rounds, args.seed, args.check_every_action)
    else:
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task(f"{rs.name}, {args.players} players", total=args.rounds)
            report = simulate(rules, args.players, args.rounds, args.seed,
                              args.check_every_action,
                              progress=lambda k: bar.advance(task, k))
    if args.json:
        _print_json(report.to_json())
    else:
        data = report.to_json()
        print(f"rule set            {data['ruleset']}, {args.players} players, seed {args.seed}")
        print(f"rounds played       {data['rounds']}")
        print(f"rounds per second   {data['rounds_per_second']}")
        print(f"average length      {data['average_round_length']} actions "
              f"(longest {data['longest_round']})")
        endings = data["endings"]
        assert isinstance(endings, dict)
        print("how rounds ended    " + ", ".join(f"{k} {v}" for k, v in endings.items()))
        print(f"invariant violations {data['invariant_violations']}")
        for line in report.first_violations:
            print(f"  {line}")
    return 1 if report.invariant_violations else 0


# --- lint --------------------------------------------------------------------------


def cmd_lint(args: argparse.Namespace) -> int:
    from mtrain.conformance.lint import lint

    if args.path is not None and not Path(args.path).exists():
        raise InputError(f"no such file or folder: {args.path}")
    report = lint(args.path, scopes=not args.no_scopes, coverage=args.coverage or None)
    if args.write_scopes:
        from mtrain.conformance.fixture import FIXTURE_ROOT
        from mtrain.conformance.lint.scopes import write_scopes
        from mtrain.spec.scope import Space

        if report.scopes is None:
            raise InputError("--write-scopes needs the scope check (drop --no-scopes)")
        root = FIXTURE_ROOT.parent.parent  # paths are shown relative to it
        for path in write_scopes(report.scopes.proposals, Space(), root):
            print(f"wrote {path}")
        report.scopes.proposals = []
    if args.json:
        _print_json(report.to_json())
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


# --- one rule set ------------------------------------------------------------------


def cmd_rules(args: argparse.Namespace) -> int:
    from mtrain.conformance.fixture import load_corpus
    from mtrain.docgen import ruleset_page

    if args.out:
        check_output(args.out, "--out")
    rs = resolve(catalog(), args.ruleset)
    fixtures, _ = load_corpus()
    return write_or_print(ruleset_page(rs, fixtures), args.out)


def cmd_situations(args: argparse.Namespace) -> int:
    from mtrain.conformance.conform import SITUATIONS, id_matches
    from mtrain.conformance.situations import render, situations

    if args.out:
        check_output(args.out, "--out")
    rs = resolve(catalog(), args.ruleset)
    made = situations(rs, SITUATIONS if args.count is None else args.count,
                      lambda fid: id_matches(fid, args.pattern or []))
    if not made:
        raise InputError("no situation matches -k " + " ".join(args.pattern or []))
    return write_or_print(render(made, rs), args.out)


def write_or_print(text: str, out: str | None) -> int:
    """`text` into the file `out` (saying so), or onto standard output."""
    if out:
        try:
            Path(out).write_text(text, encoding="utf-8")
        except OSError as e:
            raise InputError(f"--out {out}: {e.strerror or e}") from None
        print(f"wrote {out}")
    else:
        sys.stdout.write(text)
    return 0


# --- docs and pictures -----------------------------------------------------------


def cmd_docs(args: argparse.Namespace) -> int:
    from mtrain import docgen

    check_output(args.out, "--out", folder=True)
    out = Path(args.out)

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    try:
        files = docgen.generate(out, compute=not args.check, log=log)
    except ValueError as e:
        raise InputError(str(e)) from None
    if args.check:
        bad = docgen.stale(out, files)
        for path in bad:
            print(f"stale: {out / path}")
        print(f"{len(files)} generated files, {len(bad)} stale"
              + ("; run `mtrain docs` to rebuild" if bad else ""))
        return 1 if bad else 0
    try:
        count = docgen.write(out, files)
    except OSError as e:
        raise InputError(f"--out {args.out}: {e.strerror or e}") from None
    print(f"wrote {count} files under {out}")
    return 0


def cmd_render(args: argparse.Namespace) -> int:
    from mtrain.conformance.fixture import load_corpus
    from mtrain.docgen import Docs

    if args.out:
        check_output(args.out, "--out")
    docs = Docs()
    if args.fixtures:
        docs.fixtures, errors = load_corpus(args.fixtures)
        if errors:
            raise InputError(str(errors[0]))
    fx = next((f for f in docs.fixtures if f.id == args.fixture), None)
    if fx is None:
        raise InputError(f"no fixture {args.fixture!r}")
    entries = list(fx.rulesets())
    if args.variant:
        entries = [(n, e) for n, e in entries if n == args.variant]
        if not entries:
            named = ", ".join(n for n, _ in fx.rulesets())
            raise InputError(f"{fx.id} names no rule set {args.variant!r}; it names {named}")
    name, exp = entries[0]
    scene = docs.scene(fx, name, exp)
    if scene is None:
        raise InputError(f"{fx.id} cannot be set up under {name}")
    rel = docs.picture(scene)
    return write_or_print(docs.files[rel], args.out)


# --- wiring --------------------------------------------------------------------------


COMMAND_MODULES: tuple[str, ...] = (
    "mtrain.conformance.conform",
    "mtrain.conformance.identify",
    "mtrain.conformance.mutants",
    "mtrain.conformance.fuzz",
    "mtrain.conformance.diffing",
    "mtrain.conformance.speccheck.run",
)
"""Modules that add their own subcommands: each has `register(subparsers)`."""


def build_parser(modules: Sequence[str] = COMMAND_MODULES) -> argparse.ArgumentParser:
    """The whole command line; with `modules`, only those modules' commands besides the
    built-in ones."""
    parser = argparse.ArgumentParser(
        prog="mtrain", description="Mexican Train: the rules as data, a reference engine, "
        "and a conformance suite.")
    parser.add_argument("--version", action="version", version=f"mtrain {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("variants", help="list the variants and overlays with their options")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_variants)

    p = sub.add_parser("explain", help="show one clause: text, sources, options")
    p.add_argument("clause", help="a clause id, e.g. DBL-6")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_explain)

    p = sub.add_parser("lint", help="check the fixture corpus: schema, ids, tables, coverage")
    p.add_argument("path", nargs="?", help="a fixture file or folder (default: the corpus)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--no-scopes", action="store_true",
                   help="skip the scope check (the reference over the option space)")
    p.add_argument("--coverage", action="store_true",
                   help="check coverage for a folder of one's own too (always for the corpus)")
    p.add_argument("--write-scopes", action="store_true",
                   help="write each proposed wider scope into its fixture file as `when:`")
    p.set_defaults(func=cmd_lint)

    p = sub.add_parser("rules", help="one rule set as a page: options, clauses, fixtures")
    p.add_argument("ruleset", help="a variant, base+overlay+..., or a rule-set file")
    p.add_argument("--out", help="write the page here (default: standard output)")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("situations", help="tables from play under one rule set, as fixtures",
                       description="Write out the situations from play that `mtrain conform` "
                       "runs under a rule set: tables reached by random rounds of it, each "
                       "with the legal set spec/model/legality.py gives it, in the fixture format.")
    p.add_argument("ruleset", help="a variant, base+overlay+..., or a rule-set file")
    p.add_argument("-n", dest="count", type=int, default=None,
                   help="how many (default: as many as conform runs for one rule set)")
    p.add_argument("-k", dest="pattern", action="append", metavar="PATTERN",
                   help="only situations whose id contains PATTERN or matches it as a glob")
    p.add_argument("--out", help="write the fixtures here (default: standard output)")
    p.set_defaults(func=cmd_situations)

    p = sub.add_parser("docs", help="write docs/ from the spec and the fixtures")
    p.add_argument("--check", action="store_true", help="exit 1 if docs/ is stale")
    p.add_argument("--out", default="docs", help="the docs folder (default: docs)")
    p.set_defaults(func=cmd_docs)

    p = sub.add_parser("render", help="draw a fixture's table as SVG")
    p.add_argument("fixture", help="a fixture id")
    p.add_argument("--variant", help="which of its rule sets (default: the first)")
    p.add_argument("--fixtures", help="a fixture file or folder (default: the corpus)")
    p.add_argument("--out", help="write the SVG here (default: standard output)")
    p.set_defaults(func=cmd_render)

    p = sub.add_parser("simulate", help="play random legal rounds and check the invariants")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--variant", help="a variant, base+overlay+..., or a variant file")
    which.add_argument("--rules", metavar="FILE", help="a rule-set file "
                       "(spec/schemas/rules.schema.json), for example a double-15 set")
    p.add_argument("--overlay", action="append", default=[], help="add an overlay (repeatable)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--rounds", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--check-every-action", action="store_true",
                   help="check every invariant after every action (slower)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_simulate)
    for name in modules:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    # `mtrain serve` is started once per job of every fuzz and conform run: it imports
    # only the server, not every other command's modules
    parser = build_parser(("mtrain.conformance.serve",) if words[:1] == ["serve"] else
                          COMMAND_MODULES)
    args = parser.parse_args(words)
    func: Command = args.func
    try:
        with guarded_stdout():
            return func(args)
    except OutputError as e:  # a full disk: the output is lost, the run is not a success
        print(f"mtrain {args.command}: cannot write the output: {e}", file=sys.stderr)
        quiet_stdout()
        return 1
    except (InputError, SpecError) as e:  # may quote an implementation: escaped
        print(f"mtrain {args.command}: {shown(str(e))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the output was cut short: the command did not finish
        quiet_stdout()
        return 1
    except KeyboardInterrupt:
        print(f"mtrain {args.command}: interrupted", file=sys.stderr)
        return 130


def quiet_stdout() -> None:
    """After a broken pipe: send what is left to /dev/null, so that the interpreter's
    last flush does not fail too (and print a traceback)."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
