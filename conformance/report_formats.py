"""The conformance report as files other tools read: JUnit XML (CI systems) and Markdown
(pull requests, wikis), beside report.py's text and JSON; `html` is report_html.py's."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable

from mtrain.conformance.report import (
    FAILING,
    SHORT,
    Report,
    Result,
    describe_implementation,
    render_json,
)
from mtrain.conformance.report_text import _columns, _failure_text, legend
from mtrain.conformance.untrusted import shown

# --- JUnit XML -------------------------------------------------------------------------

_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _x(text: str) -> str:
    """Text that XML 1.0 can carry (implementations may write any bytes), with hidden
    characters escaped."""
    return _XML_BAD.sub("\ufffd", shown(text))


def render_junit(report: Report) -> str:
    """JUnit XML: one testsuite per topic, one testcase per fixture and rule set."""
    root = ET.Element("testsuites", name="mtrain conform")
    by_topic: dict[str, list[Result]] = {}
    for r in report.results:
        by_topic.setdefault(r.topic, []).append(r)
    totals: Counter[str] = Counter()
    # what no result holds, each an error case of a suite of its own: a CI reading only
    # the XML fails the run on it
    apart = {"load-errors": ("load-error", report.load_errors),
             "run-problems": ("run-problem", report.problems)}
    for topic, (_, said) in apart.items():
        if said:
            by_topic.setdefault(topic, [])
    for topic, results in by_topic.items():
        suite = ET.SubElement(root, "testsuite", name=_x(topic))
        counts: Counter[str] = Counter()
        if topic in apart:
            kind, said = apart[topic]
            for e in said:
                case = ET.SubElement(suite, "testcase", classname=topic, name=_x(e))
                ET.SubElement(case, "error", message=_x(e), type=kind).text = _x(e)
                counts["tests"] += 1
                counts["errors"] += 1
        for r in results:
            counts["tests"] += 1
            attrs = {"classname": _x(topic), "name": _x(f"{r.fixture}[{r.variant}]"),
                     "file": _x(r.path), "time": f"{r.duration:.6f}"}
            if r.line:
                attrs["line"] = str(r.line)
            case = ET.SubElement(suite, "testcase", attrs)
            if r.status == "fail" and r.charged:  # the clauses the failure is charged to
                props = ET.SubElement(case, "properties")
                for c in r.blamed:
                    ET.SubElement(props, "property", name="charged", value=c)
            body = _x(_failure_text(r))
            if r.status == "fail":
                counts["failures"] += 1
                ET.SubElement(case, "failure", message=_x(r.message), type="fail").text = body
            elif r.status in FAILING:
                counts["errors"] += 1
                ET.SubElement(case, "error", message=_x(r.message), type=r.status).text = body
            elif r.status in ("skip", "not-applicable"):
                counts["skipped"] += 1
                why = r.skip_reason if r.status == "skip" else r.message
                ET.SubElement(case, "skipped", message=_x(f"{r.status}: {why or ''}"))
            if r.stderr:
                ET.SubElement(case, "system-err").text = _x(r.stderr)
        suite_time = sum(r.duration for r in results)
        for k in ("tests", "failures", "errors", "skipped"):
            suite.set(k, str(counts[k]))
            totals[k] += counts[k]
        suite.set("time", f"{suite_time:.6f}")
    for k in ("tests", "failures", "errors", "skipped"):
        root.set(k, str(totals[k]))
    root.set("time", f"{report.duration:.3f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, "unicode") + "\n"


# --- Markdown --------------------------------------------------------------------------


def _md(text: str) -> str:
    return _md_html(text).replace("|", "\\|").replace("\n", " ")


def _md_html(text: str) -> str:
    """`text` with no HTML in it: Markdown renders a tag as a tag, and an implementation's
    words (or a fixture's) are no page's markup."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _fence(text: str) -> str:
    """A code fence longer than any run of backticks in `text`, which would end it."""
    longest = max((len(m) for m in re.findall("`+", text)), default=0)
    return "`" * max(3, longest + 1)


def _md_clause(cid: str) -> str:
    return f"[{cid}](#clause-{cid})"


def render_markdown(report: Report) -> str:
    lines = [f"# mtrain conform: {_md(describe_implementation(report.implementation))}", "",
             f"**{report.headline()}**", "",
             *([f"> hint: {_md(report.hint)}", ""] if report.hint else []),
             "| status | results |", "|---|---:|"]
    lines += [f"| {s} | {n} |" for s, n in report.summary.items()]
    lines.append("")
    for warning in report.warnings:
        lines.append(f"> warning: {_md(warning)}")
    if report.load_errors:
        lines += ["## Load errors", ""] + [f"- `{_md(e)}`" for e in report.load_errors] + [""]
    if report.problems:
        lines += ["## Problems of the run", ""] + [f"- {_md(p)}" for p in report.problems]
        lines.append("")
    failing = [r for r in report.results if r.status in FAILING]
    if failing:
        lines += ["## Failures", ""]
        for r in failing:
            lines += [f"### `{r.fixture}` [{r.variant}]: {r.status}", ""]
            said = [f"`{r.where}`"] + ([f"clauses {', '.join(r.clauses)}"] if r.clauses else [])
            if r.status == "fail" and r.charged:
                said.append(f"charged to {', '.join(_md_clause(c) for c in r.blamed)}")
            if r.decisions:
                said.append("rests on the decisions "
                            + ", ".join(_md_clause(c) for c, _ in r.decisions))
            lines.append("; ".join(said))
            if r.description:
                lines += ["", _md_html(r.description)]
            lines.append("")
            lines += [f"- {_md_html(m)}" for m in r.messages]
            if r.stderr:  # a fence it cannot close: what follows is no page of its making
                fence = _fence(r.stderr)
                lines += ["", "stderr (last lines):", "", fence, r.stderr, fence]
            if r.rerun:
                fence = _fence(r.rerun)
                lines += ["", f"{fence}sh", r.rerun, fence]
            lines.append("")
    notes = report.failed_clauses()
    if notes:
        lines += ["## Clauses in the failures", ""]
        for n in notes:
            head = f"{n.id}: {n.title}" if n.title else n.id
            lines += [f'### <a id="clause-{n.id}"></a>{_md(head)}', ""]
            lines += [_md(n.text), ""] if n.text else []
            if n.decision:
                lines += [f"Decision of this specification: {_md(n.decision)}", ""]
    not_run = report.not_run()
    if not_run:
        lines += ["## Not applicable (not run), by reason", "", "| results | reason |",
                  "|---:|---|"] + [f"| {n} | {_md(why)} |" for why, n in not_run] + [""]
    skipped = [r for r in report.results if r.status == "skip"]
    if skipped:
        lines += ["## Known failures", "", "| fixture | variant | reason |", "|---|---|---|"]
        lines += [f"| `{r.fixture}` | {r.variant} | {_md(r.skip_reason or '')} |"
                  for r in skipped]
        lines.append("")
    if report.unexpected_passes:
        lines += ["## Listed as known failures but passing", ""]
        lines += [f"- `{r.fixture}` [{r.variant}]" for r in report.unexpected_passes]
        lines.append("")
    for title, key, rows in (("Per rule set", "rule set", report.per_ruleset()),
                             ("Per clause", "clause", report.per("clause"))):
        if not rows:
            continue
        cols = _columns(rows)
        lines += [f"## {title}", "", f"| {key} | " + " | ".join(SHORT.get(c, c) for c in cols)
                  + " |", "|---|" + "---:|" * len(cols)]
        lines += [f"| {_md(k)} | " + " | ".join(str(c.get(s, 0)) for s in cols) + " |"
                  for k, c in rows.items()]
        head, told = legend(rows, key, report.under_no_clause if key == "clause" else 0)
        lines += ["", _md(head.capitalize()) + ("." if not told else ":"), ""]
        lines += [f"- `{c}`: {_md(what)}" for c, what in told]
        lines.append("")
    return shown("\n".join(lines))  # an implementation's words are in there: escaped


RENDERERS: dict[str, Callable[[Report], str]] = {
    "json": render_json, "junit": render_junit, "markdown": render_markdown}
"""The formats one call renders; `html` (conformance/report_html.py) draws the tables too."""
