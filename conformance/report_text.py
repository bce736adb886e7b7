"""The conformance report as text: plain lines, or rich tables on a terminal (the clauses
and rule sets counted, each failure with its messages and stderr, alike failures of the
process counted on one line, and a legend of the columns). report.py holds the results
and the report they make; report_formats.py and report_html.py, the other formats."""

from __future__ import annotations

import functools
import textwrap
from collections import Counter
from collections.abc import Sequence
from typing import TextIO

from mtrain.conformance.report import (
    ALIKE_SHOWN,
    FAILING,
    NOT_RUN_SHOWN,
    SHORT,
    STATUSES,
    ClauseNote,
    Report,
    Result,
    _natural,
    _note,
    describe_implementation,
)
from mtrain.conformance.untrusted import shown


def render_text(report: Report, out: TextIO, *, rich: bool = False,
                verbose: bool = False) -> None:
    if rich:
        _render_rich(report, out, verbose)
        return

    def w(text: str) -> None:  # an implementation's words are in there: escaped
        out.write(shown(text))
    w(f"mtrain conform: {describe_implementation(report.implementation)}\n")
    for warning in report.warnings:
        w(f"warning: {warning}\n")
    for e in report.load_errors:
        w(f"LOAD ERROR {e}\n")
    for p in report.problems:
        w(f"PROBLEM {p}\n")
    w("\n")
    full, alike = _alike_failures(report.results, verbose)
    for r in full:
        w("\n".join(_failure_lines(r)) + "\n\n")
    for line in _alike_lines(alike, verbose):
        w(line + "\n")
    if alike:
        w("\n")
    notes = report.failed_clauses()
    if notes:
        w("\n".join(_clause_lines(notes)) + "\n\n")
    skipped = [r for r in report.results if r.status == "skip"]
    if skipped:
        w("Known failures (--skip):\n")
        for r in skipped:
            w(f"  SKIP {r.fixture} [{r.variant}]: {r.skip_reason}\n")
        w("\n")
    if report.unexpected_passes:
        w("Listed in the skip file but now passing (remove them from it):\n")
        for r in report.unexpected_passes:
            w(f"  {r.fixture} [{r.variant}] ({r.skip_reason})\n")
        w("\n")
    not_run = report.not_run()
    if not_run:
        w("Not applicable (not run), by reason:\n")
        shown_reasons = not_run if verbose else not_run[:NOT_RUN_SHOWN]
        w("".join(f"  {n:>6}  {why}\n" for why, n in shown_reasons))
        if len(shown_reasons) < len(not_run):
            w(f"  (and {len(not_run) - len(shown_reasons)} reasons more: -v lists them)\n")
        w("\n")
    if verbose:
        for r in report.results:
            if r.status not in FAILING and r.status != "skip":
                note = f": {r.message}" if r.messages else ""
                w(f"{r.status.upper()} {r.fixture} [{r.variant}]{note}\n")
        w("\n")
    (clauses, nowhere), rulesets = report.clause_counts(), report.per_ruleset()
    w(_plain_table("Per clause", "clause", clauses))
    w("\n".join(_legend_lines(clauses, "clause", nowhere)) + "\n\n")
    w(_plain_table(_ruleset_title(report), "rule set", rulesets))
    w("\n".join(_legend_lines(rulesets, "rule set")) + "\n\n")
    if report.hint:
        w(f"hint: {report.hint}\n")
    w(report.headline() + "\n")


def _ruleset_title(report: Report) -> str:
    return f"Per rule set ({report.rulesets})" if report.rulesets else "Per rule set"


def _failure_lines(r: Result) -> list[str]:
    """A failure in words; the clauses' own texts are in the report's clause section."""
    lines = [f"{r.status.upper()} {r.fixture} [{r.variant}]  {r.where}"]
    if r.description:
        lines.append(f"  {r.description}")
    if r.clauses:
        lines.append(f"  clauses: {', '.join(r.clauses)}")
    if r.status == "fail" and r.charged:
        lines.append(f"  charged to: {', '.join(r.blamed)} (see: Clauses in the failures)")
    if r.source:
        lines.append(f"  source: {', '.join(r.source)}")
    if r.decisions:
        lines.append("  rests on decisions of this specification, not of a source: "
                     + ", ".join(c for c, _ in r.decisions) + " (why: Clauses in the failures)")
    lines += [f"  - {m}" for m in r.messages]
    if r.stderr:
        lines.append("  stderr (last lines):")
        lines += [f"    | {x}" for x in r.stderr.splitlines()]
    if r.rerun:
        lines.append(f"  rerun: {r.rerun}")
    return lines


def _alike_failures(results: Sequence[Result], verbose: bool
                    ) -> tuple[list[Result], list[Result]]:
    """(the failures to write out in full, those that repeat one already written out:
    a process failure with the same status, messages and stderr, past ALIKE_SHOWN)."""
    full: list[Result] = []
    alike: list[Result] = []
    seen: Counter[tuple[str, tuple[str, ...], str]] = Counter()
    for r in results:
        if r.status not in FAILING:
            continue
        key = (r.status, tuple(r.messages), r.stderr)
        if r.status != "fail":
            seen[key] += 1
            if seen[key] > ALIKE_SHOWN:
                alike.append(r)
                continue
        full.append(r)
    return full, alike


def _alike_lines(alike: Sequence[Result], verbose: bool) -> list[str]:
    """One line for the failures that repeat one written out (one each with -v)."""
    if not alike:
        return []
    counts = Counter(r.status.upper() for r in alike)
    kinds = ", ".join(f"{n:,} {status}" for status, n in counts.items())
    head = (f"... and {len(alike):,} more results ({kinds}) that failed exactly as one "
            "written out above (the same messages and stderr)")
    if verbose:
        return [head + ":"] + [f"  {r.status.upper()} {r.fixture} [{r.variant}]" for r in alike]
    first = ", ".join(f"{r.fixture} [{r.variant}]" for r in alike[:3])
    return [f"{head}: {first}{', ...' if len(alike) > 3 else ''} (-v lists them)"]


def _failure_text(r: Result) -> str:
    """One failure on its own (JUnit's body): its lines, then the words of its clauses."""
    names = set(r.blamed if r.status == "fail" else ()) | {c for c, _ in r.decisions}
    notes = [_note(c, 0, 0) for c in sorted(names, key=_natural)]
    return "\n".join(_failure_lines(r) + [
        f"  {line}" for n in notes for line in _note_lines(n, counts=False)]) + "\n"


def _clause_lines(notes: Sequence[ClauseNote]) -> list[str]:
    lines = ["Clauses in the failures (each once; `mtrain explain CLAUSE` says more):"]
    for n in notes:
        lines += [f"  {line}" for line in _note_lines(n)]
    return lines


def _note_lines(n: ClauseNote, counts: bool = True) -> list[str]:
    head = f"{n.id}: {n.title}" if n.title else n.id
    if counts:
        told = ([f"charged with {n.charged} failure{'s' if n.charged != 1 else ''}"]
                if n.charged else [])
        told += [f"the decision under {n.resting} failure{'s' if n.resting != 1 else ''}"
                 ] if n.resting else []
        head += f" ({'; '.join(told)})" if told else ""
    lines = [head]
    wrap = functools.partial(textwrap.wrap, width=88, initial_indent="    ",
                             subsequent_indent="    ")
    lines += wrap(n.text) if n.text else []
    if n.decision:
        lines += wrap("decision of this specification: " + " ".join(n.decision.split()))
    return lines


COLUMN_MEANING = {
    "pass": "results that agree with the rules",
    "fail": "results where the implementation's answers differ from the rules",
    "error": "results that could not be asked: an error answer, a malformed answer, a "
             "table that does not set up",
    "timeout": "results with no answer in time (the implementation was stopped)",
    "crash": "results where the implementation exited or closed its output first",
    "skip": "known failures listed in the --skip file (run, and failed again)",
    "not-applicable": "results not run: the implementation does not play this rule set, "
                      "or the fixture reads a rule it plays its own way (-v says why)",
    "ran": "results run: every column before it but n/a",
    "other rules": "fixtures selected that give no result here: each of their entries "
                   "speaks about other rule sets",
    "other seats": "fixtures selected that give no result here: their table has a number "
                   "of players the rule set's hand table does not deal (DEAL-7)",
}
"""What each column of the per-clause and per-rule-set tables counts."""


def legend(rows: dict[str, dict[str, int]], key: str,
           nowhere: int = 0) -> tuple[str, list[tuple[str, str]]]:
    """What a table counts: one line for the table, and (column, meaning) for each of
    its columns (the per-clause table's columns are the per-rule-set table's); `nowhere`,
    for the per-clause table, the results it counts under no clause."""
    head = ("a result counts under each clause its fixture lists that applies under its "
            "rule set; a failure only under the clause charged with it" if key == "clause" else
            "a result is one fixture under one rule set (the checks are the comparisons "
            "inside the results)")
    if key == "clause" and nowhere:
        head += (f"; {nowhere} result{'s' if nowhere != 1 else ''} under none (no clause "
                 f"{'their' if nowhere != 1 else 'its'} fixture lists applies there)")
    cols = _columns(rows) if rows and key != "clause" else []
    return head, [(SHORT.get(c, c), COLUMN_MEANING[c]) for c in cols]


def _legend_lines(rows: dict[str, dict[str, int]], key: str,
                  nowhere: int = 0) -> list[str]:
    if not rows:
        return []
    head, cols = legend(rows, key, nowhere)
    width = max((len(c) for c, _ in cols), default=0)
    return [f"  {head}"] + [f"  {c:<{width}}  {what}" for c, what in cols]


EXTRA_COLUMNS = ("ran", "other rules", "other seats")
"""Per rule set: results run, and fixtures whose entries all speak about other rules."""


def _columns(rows: dict[str, dict[str, int]]) -> list[str]:
    cols = [s for s in STATUSES if any(c.get(s) for c in rows.values())] or ["pass"]
    return cols + [c for c in EXTRA_COLUMNS if any(c in r for r in rows.values())]


def _plain_table(title: str, key: str, rows: dict[str, dict[str, int]]) -> str:
    if not rows:
        return f"{title}: nothing run\n"
    cols = _columns(rows)
    width = max(len(key), *(len(k) for k in rows))
    head = f"{key:<{width}}  " + "  ".join(f"{SHORT.get(c, c):>7}" for c in cols)
    body = [f"{k:<{width}}  " + "  ".join(f"{counts.get(c, 0):>7}" for c in cols)
            for k, counts in rows.items()]
    return f"{title}:\n" + "\n".join([head, *body]) + "\n"


def _render_rich(report: Report, out: TextIO, verbose: bool) -> None:
    from rich.console import Console
    from rich.markup import escape as markup
    from rich.table import Table

    def escape(text: str) -> str:  # rich markup, and an implementation's hidden characters
        return markup(shown(text))

    console = Console(file=out, highlight=False, soft_wrap=True)
    style = {"pass": "green", "fail": "red", "error": "red", "timeout": "magenta",
             "crash": "magenta", "skip": "yellow", "not-applicable": "dim"}
    who = describe_implementation(report.implementation)
    console.print(f"[bold]mtrain conform[/]: {escape(who)}")
    for warning in report.warnings:
        console.print(f"[yellow]warning:[/] {escape(warning)}")
    for e in report.load_errors:
        console.print(f"[red]LOAD ERROR[/] {escape(e)}")
    for p in report.problems:
        console.print(f"[red]PROBLEM[/] {escape(p)}")
    console.print()
    full, alike = _alike_failures(report.results, verbose)
    written = {id(r) for r in full}
    for r in report.results:
        if id(r) in written or (verbose and r.status not in FAILING and r.status != "skip"):
            s = style[r.status]
            console.print(f"[{s} bold]{r.status.upper()}[/] [bold]{escape(r.fixture)}[/] "
                          f"{escape(f'[{r.variant}]')}  [dim]{escape(r.where)}[/]")
            if r.status not in FAILING:
                continue
            for line in _failure_lines(r)[1:]:
                if line.startswith("  rerun: "):
                    console.print(f"  rerun: [cyan]{escape(line[9:])}[/]")
                elif line.startswith("    | "):
                    console.print(f"[dim]{escape(line)}[/]")
                else:
                    console.print(escape(line))
            console.print()
    for line in _alike_lines(alike, verbose):
        console.print(escape(line))
    if alike:
        console.print()
    notes = report.failed_clauses()
    if notes:
        head, *rest = _clause_lines(notes)
        console.print(f"[bold]{escape(head)}[/]")
        for line in rest:
            console.print(escape(line) if line.startswith("    ") else
                          f"[bold]{escape(line)}[/]")
        console.print()
    not_run = report.not_run()
    if not_run:
        console.print("[dim]Not applicable (not run), by reason:[/]")
        for why, n in not_run if verbose else not_run[:NOT_RUN_SHOWN]:
            console.print(f"  {n:>6}  {escape(why)}")
        if not verbose and len(not_run) > NOT_RUN_SHOWN:
            console.print(f"  (and {len(not_run) - NOT_RUN_SHOWN} reasons more: -v lists them)")
        console.print()
    skipped = [r for r in report.results if r.status == "skip"]
    if skipped:
        console.print("[yellow]Known failures (--skip):[/]")
        for r in skipped:
            console.print(f"  SKIP {escape(r.fixture)} {escape(f'[{r.variant}]')}: "
                          f"{escape(r.skip_reason or '')}")
        console.print()
    if report.unexpected_passes:
        console.print("[yellow]Listed in the skip file but now passing (remove them):[/]")
        for r in report.unexpected_passes:
            console.print(f"  {escape(r.fixture)} {escape(f'[{r.variant}]')}")
        console.print()
    for title, key, rows in (("Per clause", "clause", report.per("clause")),
                             (_ruleset_title(report), "rule set", report.per_ruleset())):
        if not rows:
            continue
        cols = _columns(rows)
        table = Table(title=title, title_justify="left")
        table.add_column(key)
        for c in cols:
            table.add_column(SHORT.get(c, c), justify="right", style=style.get(c, ""))
        for k, counts in rows.items():
            bad = any(counts.get(c) for c in FAILING)
            table.add_row(escape(k), *(str(counts.get(c, 0)) for c in cols),
                          style="bold" if bad else "")
        console.print(table)
        nowhere = report.under_no_clause if key == "clause" else 0
        console.print("[dim]" + escape("\n".join(_legend_lines(rows, key, nowhere))) + "[/]")
        console.print()
    if report.hint:
        console.print(f"[yellow]hint:[/] {escape(report.hint)}")
    colour = "red" if report.failed else "green"
    console.print(f"[{colour} bold]{escape(report.headline())}[/]")
