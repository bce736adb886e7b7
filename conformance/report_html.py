"""The HTML report of a conformance run: one self-contained page with the summary, a
clause by variant grid coloured by the worst result, and every failure in full (its
diagnosis, the legal actions expected against those offered, the checks not reached after
a divergence, and a picture of the table the failure speaks of)."""

from __future__ import annotations

import functools
import html
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from mtrain.conformance.report import (
    FAILING,
    SHORT,
    ClauseNote,
    Report,
    Result,
    _natural,
    describe_implementation,
    not_applying,
)
from mtrain.conformance.report_text import _columns, legend
from mtrain.conformance.untrusted import shown

if TYPE_CHECKING:
    from mtrain.conformance.selection import Task

# The runner's messages for a wrong set of legal actions (expectation_checks.check).
_MISSING = "legal actions missing: "
_EXTRA = "legal actions not allowed by the rules: "
_DIAGNOSIS = "diagnosis: "  # divergence.divergence: where a replay first departs
SEVERITY = ("not-applicable", "pass", "skip", "fail", "error", "timeout", "crash")
"""Statuses from mildest to worst: a grid cell shows the worst of its results."""
MAX_PICTURES = 150
"""Failures drawn in an HTML report; later ones are described in words only."""



class Illustrator(Protocol):
    """What the HTML report needs from the fixtures to show a failure in full."""

    def expected_legal(self, result: Result) -> list[str] | None:
        """The legal actions the fixture expects under the result's rule set, if any."""
        ...

    def pictures(self, result: Result, missing: list[str],
                 extra: list[str]) -> list[tuple[str, str]]:
        """(SVG, caption) for each table a failure is drawn with: the table as the rules
        have it (its legal plays marked, and the implementation's missing and extra
        ones), and beside it the implementation's own where that differs."""
        ...


FEW = 6
"""Up to this many rule sets, the grid writes its headings across and counts in its cells."""
DOES_NOT_APPLY = "does-not-apply"
"""A grid cell's status where the clause does not apply under the rule set."""


_HTML_STYLE = """
:root { --pass: #2e9e5b; --fail: #d23c3c; --error: #e0702a; --timeout: #8e44ad;
  --crash: #5d2a82; --skip: #e3b505; --na: #c9cfd4; --ink: #1f2d3a; --muted: #66737f;
  --line: #dde2e6; --bg: #f6f7f4; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
  color: var(--ink); background: var(--bg); }
main { max-width: 1200px; margin: 0 auto; padding: 24px 28px 60px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 36px 0 10px; border-bottom: 1px solid var(--line);
  padding-bottom: 4px; }
h3 { font-size: 16px; margin: 0 0 6px; }
code, pre { font-family: "SFMono-Regular", Menlo, Consolas, monospace; font-size: 13px; }
pre { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px;
  overflow-x: auto; white-space: pre-wrap; word-break: break-word; }
.verdict { display: inline-block; padding: 3px 12px; border-radius: 14px; color: #fff;
  font-weight: 700; letter-spacing: .04em; }
.verdict.ok { background: var(--pass); } .verdict.failed { background: var(--fail); }
.headline { color: var(--muted); margin: 6px 0 0; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 18px 0 0; }
.card { background: #fff; border: 1px solid var(--line); border-left: 6px solid var(--na);
  border-radius: 8px; padding: 8px 14px; min-width: 110px; }
.card b { display: block; font-size: 24px; }
.card span { color: var(--muted); font-size: 13px; }
.s-pass { --c: var(--pass); } .s-fail { --c: var(--fail); } .s-error { --c: var(--error); }
.s-timeout { --c: var(--timeout); } .s-crash { --c: var(--crash); }
.s-skip { --c: var(--skip); } .s-not-applicable { --c: var(--na); }
.card.s-pass, .card.s-fail, .card.s-error, .card.s-timeout, .card.s-crash, .card.s-skip,
.card.s-not-applicable { border-left-color: var(--c); }
.notes li { color: #8a5a00; }
.grid-wrap { display: inline-block; max-width: 100%; vertical-align: top; overflow-x: auto;
  background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 8px; }
table.grid { border-collapse: separate; border-spacing: 2px; font-size: 12px; }
table.grid th { font-weight: 600; white-space: nowrap; }
table.grid thead th { vertical-align: bottom; height: 210px; }
table.grid thead th span { writing-mode: vertical-rl; transform: rotate(180deg);
  display: inline-block; max-height: 210px; overflow: hidden; text-overflow: ellipsis; }
table.grid tbody th { text-align: left; padding-right: 8px; position: sticky; left: 0;
  background: #fff; }
table.grid tbody th small { color: var(--muted); font-weight: 400; }
table.grid td { width: 16px; min-width: 16px; height: 16px; border-radius: 3px; padding: 0; }
table.grid td.cell { background: var(--c); }
table.grid td.cell a { display: block; width: 100%; height: 100%; }
table.grid td.none { background: #f0f2f3; }
table.grid td.s-does-not-apply { background: repeating-linear-gradient(135deg, #eef0f1 0 4px,
  #d9dde0 4px 6px); }
table.grid.few thead th { height: auto; padding: 2px 8px; }
table.grid.few thead th span { writing-mode: horizontal-tb; transform: none; }
table.grid.few td { width: auto; min-width: 64px; height: 22px; padding: 0 8px;
  text-align: center; color: #fff; font-weight: 600; }
table.grid.few td.s-does-not-apply, table.grid.few td.none { color: var(--muted);
  font-weight: 400; }
table.grid.few td.cell a { color: inherit; text-decoration: none; }
.legend { display: flex; flex-wrap: wrap; gap: 14px; margin: 8px 0 0; color: var(--muted);
  font-size: 13px; }
.legend i { display: inline-block; width: 14px; height: 14px; border-radius: 3px;
  background: var(--c); vertical-align: -2px; margin-right: 5px; }
.legend i.s-does-not-apply { background: repeating-linear-gradient(135deg, #eef0f1 0 4px,
  #d9dde0 4px 6px); border: 1px solid #d5dade; }
article.failure { background: #fff; border: 1px solid var(--line);
  border-left: 6px solid var(--c); border-radius: 8px; padding: 14px 18px; margin: 16px 0; }
article.failure .where { color: var(--muted); font-size: 13px; }
.status { display: inline-block; padding: 1px 8px; border-radius: 10px; color: #fff;
  background: var(--c); font-size: 12px; font-weight: 700; text-transform: uppercase;
  vertical-align: 2px; }
.versus { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; margin: 10px 0; }
.versus > div { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; }
.versus h4 { margin: 0 0 4px; font-size: 13px; color: var(--muted); text-transform: uppercase;
  letter-spacing: .04em; }
.versus ul { margin: 0; padding-left: 18px; }
li.missing { color: var(--pass); font-weight: 600; }
li.extra { color: var(--fail); font-weight: 600; }
figure { margin: 12px 0 4px; overflow-x: auto; }
.tables { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 12px; }
.tables figure { margin: 0; min-width: 0; }
@media (max-width: 900px) { .tables { grid-template-columns: minmax(0, 1fr); } }
section#clauses div.clause { background: #fff; border: 1px solid var(--line);
  border-radius: 8px; padding: 10px 16px; margin: 10px 0; }
section#clauses p.decision { color: #5b4a00; }
section#clauses p.told, .legend-text { color: var(--muted); font-size: 13px; }
.legend-text dt { font-weight: 600; float: left; clear: left; width: 90px; }
.legend-text dd { margin: 0 0 2px 100px; }
figure svg { max-width: 100%; height: auto; }
p.diagnosis { border-left: 4px solid var(--fail); background: #fff; padding: 6px 10px; }
div.unreached { color: var(--muted); border: 1px dashed var(--line); border-radius: 6px;
  padding: 2px 10px; }
p.not-reached { font-style: italic; }
figcaption { color: var(--muted); font-size: 13px; }
table.counts { border-collapse: collapse; background: #fff; }
table.counts th, table.counts td { border: 1px solid var(--line); padding: 3px 10px;
  text-align: right; }
table.counts th:first-child, table.counts td:first-child { text-align: left; }
footer { color: var(--muted); font-size: 13px; margin-top: 40px; }
"""


def legal_difference(messages: Iterable[str]) -> tuple[list[str], list[str]]:
    """The (missing, extra) legal actions named in a result's messages."""
    missing: list[str] = []
    extra: list[str] = []
    for m in messages:
        for prefix, into in ((_MISSING, missing), (_EXTRA, extra)):
            if m.startswith(prefix):
                into += [a.strip() for a in m[len(prefix):].split(",") if a.strip()]
    return missing, extra


def worst(statuses: Iterable[str]) -> str:
    return max(statuses, key=SEVERITY.index, default="not-applicable")


def _anchor(r: Result) -> str:
    return "f-" + re.sub(r"[^A-Za-z0-9_-]+", "_", f"{r.fixture}--{r.variant}")


def _variant_order(results: Iterable[Result]) -> list[str]:
    seen = list(dict.fromkeys(r.variant for r in results))
    plain = [v for v in seen if "+" not in v]
    return plain + sorted(v for v in seen if "+" in v)


def render_html(report: Report, illustrator: Illustrator | None = None) -> str:
    """One self-contained HTML page: the summary, a clause-by-variant grid coloured by the
    worst result of each cell, and every failure with expected against actual and (given
    an `illustrator`) the picture of its table."""
    e = html.escape
    who = describe_implementation(report.implementation)
    verdict = "failed" if report.failed else "ok"
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>mtrain conform: {e(who)}</title>",
           f"<style>{_HTML_STYLE}</style>", "</head>", "<body>", "<main>",
           '<header id="summary">',
           f"<h1>mtrain conform: {e(who)}</h1>",
           f'<p><span class="verdict {verdict}">{verdict.upper()}</span></p>',
           f'<p class="headline">{e(report.headline())}</p>',
           '<div class="cards">']
    for status, n in report.summary.items():
        out.append(f'<div class="card s-{status}" data-status="{status}"><b>{n}</b>'
                   f"<span>{e(status)}</span></div>")
    out.append("</div>")
    notes = [f"warning: {w}" for w in report.warnings]
    notes += [f"load error: {x}" for x in report.load_errors]
    notes += [f"problem of the run: {x}" for x in report.problems]
    if notes:
        out.append('<ul class="notes">' + "".join(f"<li>{e(n)}</li>" for n in notes) + "</ul>")
    out.append("</header>")
    out += _html_grid(report)
    out += _html_failures(report, illustrator)
    out += _html_clauses(report.failed_clauses())
    out += _html_known(report)
    rows = report.per_ruleset()
    if rows:
        cols = _columns(rows)
        head, told = legend(rows, "rule set")
        out += ['<section id="per-variant">', "<h2>Per rule set</h2>",
                '<table class="counts"><thead><tr><th>rule set</th>'
                + "".join(f"<th>{e(SHORT.get(c, c))}</th>" for c in cols) + "</tr></thead>",
                "<tbody>"]
        out += ["<tr><td>" + e(k) + "</td>" + "".join(f"<td>{v.get(c, 0)}</td>" for c in cols)
                + "</tr>" for k, v in rows.items()]
        out += ["</tbody></table>", f'<p class="legend-text">{e(head.capitalize())}.</p>',
                '<dl class="legend-text">']
        out += [f"<dt>{e(c)}</dt><dd>{e(what)}</dd>" for c, what in told]
        out += ["</dl>", "</section>"]
    out += ["<footer>Written by <code>mtrain conform --format html</code>. Statuses: "
            "docs/protocol.md; clauses: docs/rules/.</footer>",
            "</main>", "</body>", "</html>"]
    # an implementation's words (names, messages, actions) are in there: whatever the
    # escaping on the way, no control or bidi character reaches the page as itself
    return shown("\n".join(out) + "\n")


def _html_grid(report: Report) -> list[str]:
    e = html.escape
    variants = _variant_order(report.results)
    aside_of = functools.cache(lambda v: not_applying(report.values.get(v)))
    # a cell counts what the per-clause table counts (Report.per); the results that ran
    # under a clause that does not apply there only hatch the cell
    cells: dict[tuple[str, str], list[Result]] = {}
    aside: dict[tuple[str, str], list[Result]] = {}
    for r in report.results:
        for c in r.blamed:
            counted = r.was_charged or c not in aside_of(r.variant)
            (cells if counted else aside).setdefault((c, r.variant), []).append(r)
    clauses = sorted({c for c, _ in (*cells, *aside)}, key=_natural)
    few = len(variants) <= FEW
    out = ['<section id="grid">', "<h2>Clauses by rule set</h2>",
           "<p>Each cell is one clause under one rule set, coloured by the worst result of "
           "the fixtures that exercise it; a failure counts only under the clauses charged "
           "with it (the clause that decides each comparison that failed). A clause that "
           "does not apply under a rule set (its option takes another value there, or is "
           "played its own way) is "
           "hatched, not green: its fixtures ran, but it did not decide them. A failing "
           "cell links to its first failure."
           + (" Each cell counts its results; a failing one, how many of them fail "
              "(\u201c2 of 5\u201d)." if few else "")
           + "</p>"]
    if not clauses:
        return [*out, "<p>Nothing was run.</p>", "</section>"]
    out += ['<div class="grid-wrap">', f'<table class="grid{" few" if few else ""}">',
            "<thead><tr><th></th>"]
    out += [f'<th title="{e(v)}"><span>{e(v)}</span></th>' for v in variants]
    out += ["</tr></thead>", "<tbody>"]
    for clause in clauses:
        counts = Counter(r.status for v in variants for r in cells.get((clause, v), []))
        bad = sum(counts[s] for s in FAILING)
        note = f" <small>{bad} failing</small>" if bad else ""
        row = [f'<tr data-clause="{e(clause)}"><th>{e(clause)}{note}</th>']
        for v in variants:
            results = cells.get((clause, v))
            ran = aside.get((clause, v))
            if not results and not ran:
                row.append('<td class="none" title="not exercised"></td>')
                continue
            if results:
                status = worst(r.status for r in results)
                tally = Counter(r.status for r in results)
                tip = f"{clause} under {v}: " + ", ".join(f"{n} {s}" for s, n in tally.items())
            else:
                results, status = ran or [], DOES_NOT_APPLY
                tally = Counter(r.status for r in results)
                tip = (f"{clause} does not apply under {v}: its fixtures ran ("
                       + ", ".join(f"{n} {s}" for s, n in tally.items())
                       + "), but it did not decide them")
            first = next((r for r in results if r.status in FAILING), None)
            failing = sum(tally[s] for s in FAILING)
            text = ("" if not few else "\u2014" if status == DOES_NOT_APPLY else
                    f"{failing} of {len(results)}" if failing else str(len(results)))
            inner = f'<a href="#{_anchor(first)}">{text}</a>' if first is not None else text
            row.append(f'<td class="cell s-{status}" data-status="{status}" '
                       f'title="{e(tip)}">{inner}</td>')
        out.append("".join(row) + "</tr>")
    out += ["</tbody></table>", "</div>", '<div class="legend">']
    out += [f'<span class="s-{s}"><i></i>{e(s)}</span>' for s in reversed(SEVERITY)]
    out += [f'<span><i class="s-{DOES_NOT_APPLY}"></i>does not apply under that rule set'
            "</span>",
            '<span><i style="background:#f0f2f3;border:1px solid #d5dade"></i>not exercised'
            "</span>", "</div>",
            "</section>"]
    return out


def _html_clauses(notes: Sequence[ClauseNote]) -> list[str]:
    """Each clause the failures speak of, its words once (the cards link here)."""
    if not notes:
        return []
    e = html.escape
    out = ['<section id="clauses">', "<h2>Clauses in the failures</h2>"]
    for n in notes:
        head = f"{n.id}: {n.title}" if n.title else n.id
        told = [f"charged with {n.charged} failure{'s' if n.charged != 1 else ''}"
                ] if n.charged else []
        told += [f"a decision under {n.resting} failure{'s' if n.resting != 1 else ''}"
                 ] if n.resting else []
        out += [f'<div class="clause" id="clause-{e(n.id)}">', f"<h3>{e(head)}</h3>"]
        out += [f"<p>{e(n.text)}</p>"] if n.text else []
        out += [f'<p class="decision"><b>Decision of this specification:</b> '
                f"{e(n.decision)}</p>"] if n.decision else []
        out += [f'<p class="told">{e("; ".join(told))}</p>', "</div>"]
    out.append("</section>")
    return out


def _clause_links(ids: Iterable[str]) -> str:
    return ", ".join(f'<a href="#clause-{html.escape(c)}">{html.escape(c)}</a>' for c in ids)


def _html_failures(report: Report, illustrator: Illustrator | None) -> list[str]:
    e = html.escape
    failing = [r for r in report.results if r.status in FAILING]
    out = ['<section id="failures">', f"<h2>Failures ({len(failing)})</h2>"]
    if not failing:
        return [*out, "<p>None: every fixture that ran agrees with the rules.</p>",
                "</section>"]
    for k, r in enumerate(failing):
        missing, extra = legal_difference(r.messages)
        out += [f'<article class="failure s-{r.status}" id="{_anchor(r)}" '
                f'data-fixture="{e(r.fixture)}" data-variant="{e(r.variant)}">',
                f'<h3><span class="status">{e(r.status)}</span> <code>{e(r.fixture)}</code> '
                f"under <code>{e(r.variant)}</code></h3>",
                f'<div class="where">{e(r.where)}'
                + (f" &middot; clauses {e(', '.join(r.clauses))}" if r.clauses else "")
                + (f" &middot; charged to {_clause_links(r.blamed)}"
                   if r.status == "fail" and r.charged else "")
                + (f" &middot; rests on the decision{'s' if len(r.decisions) > 1 else ''} "
                   f"{_clause_links(c for c, _ in r.decisions)}" if r.decisions else "")
                + "</div>"]
        if r.description:
            out.append(f"<p>{e(r.description)}</p>")
        diagnosis = [m for m in r.messages if m.startswith(_DIAGNOSIS)]
        for m in diagnosis:  # beside the verdict: where the state first went astray
            out.append(f'<p class="diagnosis">{e(m)}</p>')
        checks: list[str] = []
        if missing or extra:
            checks += _versus(missing, extra,
                              illustrator.expected_legal(r) if illustrator is not None else None)
        others = [m for m in r.messages if not m.startswith((_MISSING, _EXTRA, _DIAGNOSIS))]
        if others:
            checks.append("<ul>" + "".join(f"<li>{e(m)}</li>" for m in others) + "</ul>")
        if r.unreached and checks:
            out += ['<div class="unreached">',
                    f'<p class="not-reached">Not reached: the checks below compare the state '
                    f"after every step, and it had already departed after step {r.diverged}."
                    "</p>", *checks, "</div>"]
        else:
            out += checks
        if illustrator is not None and k < MAX_PICTURES:
            drawn = illustrator.pictures(r, missing, extra)
            figures = [["<figure>", svg.strip(), f"<figcaption>{e(caption)}</figcaption>",
                        "</figure>"] for svg, caption in drawn]
            if len(figures) > 1:  # the rules' table beside the implementation's
                out += ['<div class="tables">', *(x for f in figures for x in f), "</div>"]
            elif figures:
                out += figures[0]
        if r.stderr:
            out += ["<p>stderr (last lines):</p>", f"<pre>{e(r.stderr)}</pre>"]
        if r.rerun:
            out.append(f"<p>Rerun just this one:</p><pre><code>{e(r.rerun)}</code></pre>")
        out.append("</article>")
    if illustrator is not None and len(failing) > MAX_PICTURES:
        out.append(f"<p>Pictures are drawn for the first {MAX_PICTURES} failures only.</p>")
    out.append("</section>")
    return out


def _caption(r: Result, extra: list[str], legal: bool = True) -> str:
    """What a failure's picture shows (FixtureIllustrator draws it)."""
    if r.refused_step:
        where = "the table" if r.refused_step == 1 else f"the state after step {r.refused_step - 1}"
        return (f"The state before step {r.refused_step}, which the implementation refused: "
                f"{where}, as the rules have it.")
    if r.unreached:
        return (f"The table after step {r.diverged} as the rules have it: the "
                "implementation's state departs from it there.")
    return ("The table as the rules have it" + (", its legal plays in green" if legal else "")
            + ("; in red, plays the implementation offered that the rules do not allow"
               if extra else "") + ".")


def _versus(missing: list[str], extra: list[str], expected: list[str] | None) -> list[str]:
    """Two columns, the legal actions expected against those offered; when the expected
    set is not known, only the differences."""
    e = html.escape
    if expected is None:
        want = [(a, "missing") for a in missing]
        got = [(a, "extra") for a in extra]
    else:
        want = [(a, "missing" if a in missing else "") for a in sorted(expected)]
        got = sorted([(a, "") for a in expected if a not in missing]
                     + [(a, "extra") for a in extra])
    label = {"missing": " <small>(missing)</small>", "extra": " <small>(not allowed)</small>"}

    def items(pairs: list[tuple[str, str]], none: str) -> list[str]:
        return [f'<li class="{cls}">{e(a)}{label.get(cls, "")}</li>' if cls
                else f"<li>{e(a)}</li>" for a, cls in pairs] or [f"<li><em>{none}</em></li>"]

    return ['<div class="versus">', "<div><h4>Expected: legal under the rules</h4><ul>",
            *items(want, "nothing"), "</ul></div>",
            "<div><h4>Actual: offered by the implementation</h4><ul>",
            *items(got, "nothing"), "</ul></div>", "</div>"]


def _html_known(report: Report) -> list[str]:
    e = html.escape
    out: list[str] = []
    not_run = report.not_run()
    if not_run:
        out += ['<section id="not-run">', "<h2>Not applicable (not run), by reason</h2>",
                '<table class="counts"><thead><tr><th>reason</th><th>results</th></tr>'
                "</thead><tbody>"]
        out += [f"<tr><td>{e(why)}</td><td>{n}</td></tr>" for why, n in not_run]
        out += ["</tbody></table>", "</section>"]
    skipped = [r for r in report.results if r.status == "skip"]
    if skipped:
        out += ['<section id="known">', "<h2>Known failures (--skip)</h2>", "<ul>"]
        out += [f"<li><code>{e(r.fixture)}</code> under <code>{e(r.variant)}</code>: "
                f"{e(r.skip_reason or '')}</li>" for r in skipped]
        out += ["</ul>", "</section>"]
    if report.unexpected_passes:
        out += ['<section id="now-passing">', "<h2>Listed as known failures, now passing</h2>",
                "<ul>"]
        out += [f"<li><code>{e(r.fixture)}</code> under <code>{e(r.variant)}</code></li>"
                for r in report.unexpected_passes]
        out += ["</ul>", "</section>"]
    return out


# --- the pictures, from the fixtures run --------------------------------------------


class FixtureIllustrator:
    """For the HTML report: a failure's expected legal actions, and its table drawn by
    mtrain.conformance.render as the reference engine sets it up, with the expected legal plays and
    the implementation's wrong ones marked."""

    def __init__(self, tasks: Sequence[Task]) -> None:
        self.tasks = {(t.fixture.id, t.variant): t for t in tasks}

    def expected_legal(self, result: Result) -> list[str] | None:
        task = self.tasks.get((result.fixture, result.variant))
        exp = None if task is None else task.expectation
        return None if exp is None or exp.legal is None else list(exp.legal)

    def pictures(self, result: Result, missing: list[str],
                 extra: list[str]) -> list[tuple[str, str]]:
        from mtrain.conformance.render import (
            draw_fixture,
            fixture_state,
            render_state,
            state_differences,
        )

        task = self.tasks.get((result.fixture, result.variant))
        if task is None or task.sent is None:
            return []
        # Any: mypy sees this package both as conformance.* and, from mtrain.conformance.render, as
        # mtrain.conformance.*; the two Fixture classes are one at run time.
        fx: Any = task.fixture
        sent: Any = task.sent
        upto = _drawn_step(result)
        earlier = upto is not None and upto < len(fx.steps)  # an earlier table: no legal marks
        rules = fixture_state(fx, sent, upto=upto) if result.actual is not None else None
        differ = (state_differences(result.actual, rules)
                  if rules is not None and result.actual is not None else None)
        title = f"{fx.id} under {result.variant}" + (
            f", {_step_name(upto)}" if earlier and upto is not None else "")
        svg = (draw_fixture(fx, sent, upto=upto, title=title, differ=differ) if earlier else
               draw_fixture(fx, sent, missing=missing, extra=extra, title=title,
                            differ=differ))
        if svg is None:
            return []
        same = (" The implementation's table is the same here: only its answers differ."
                if differ is not None and not differ else "")
        legal = self.expected_legal(result) is not None
        out = [(svg, _caption(result, extra, legal) + same)]
        if differ and result.actual is not None:
            mine = render_state(result.actual, None, f"{title}: the implementation's", differ)
            out = [(svg, "Expected: " + _caption(result, extra, legal)),
                   (mine, "The implementation's table at the same point, where it differs "
                    "from the rules' marked in red: " + ", ".join(differ.words()) + ".")]
        return out


def _drawn_step(result: Result) -> int | None:
    """The steps played for a failure's picture: up to the step the implementation
    refused (the state before it), or to the step after which its state departed; None
    for the fixture's own state after every step."""
    if result.refused_step:
        return result.refused_step - 1
    return result.diverged


def _step_name(k: int) -> str:
    return "before step 1" if k == 0 else f"after step {k}"
