"""The per-clause counts (text, JSON, Markdown, HTML grid) count a result only under the
clauses that apply under the rule set it ran under; a failure the Referee charged counts
under the clauses charged with it whatever the rule set. The clauses' `when` are read
from spec/data/clauses.yaml; each test first checks the premise it rests on."""

from __future__ import annotations

import io
import json
import re
from typing import Any

from mtrain.conformance.report import Report, Result, clause_applies, render_json
from mtrain.conformance.report_formats import render_markdown
from mtrain.conformance.report_html import render_html
from mtrain.conformance.report_text import render_text
from mtrain.spec.catalog import catalog


def _values(**changes: str) -> dict[str, str]:
    """pagat's option values with `changes` made (a rule set of one's own)."""
    values = dict(catalog().ruleset("pagat").choices)
    assert set(changes) <= set(values)
    return {**values, **changes}


PENALTY = _values(scoring="penalty")
"""A rule set that scores penalty: SCORE-5 applies there, SCORE-6 (positive) does not."""


def _scoring_premise() -> None:
    clauses = catalog().clauses
    assert clauses["SCORE-6"].when == {"scoring": frozenset({"positive"})}
    assert clauses["SCORE-5"].applies(PENALTY) and not clauses["SCORE-6"].applies(PENALTY)


def _passes(n: int, variant: str = "house") -> list[Result]:
    # a situation lists every clause of its kind: both scorings' clauses
    return [Result(f"sit-{k:03}", variant, "pass", clauses=("SCORE-5", "SCORE-6"))
            for k in range(n)]


def test_a_pass_counts_only_under_the_clauses_that_apply() -> None:
    _scoring_premise()
    rows = Report(_passes(3), values={"house": PENALTY}).per("clause")
    assert rows["SCORE-5"]["pass"] == 3
    assert "SCORE-6" not in rows  # before: "SCORE-6: 3 passed" under a penalty rule set


def test_each_rule_set_counts_its_own_clauses() -> None:
    _scoring_premise()
    positive = _values(scoring="positive")
    results = [*_passes(2, "house"), *_passes(5, "home")]
    rows = Report(results, values={"house": PENALTY, "home": positive}).per("clause")
    assert (rows["SCORE-5"]["pass"], rows["SCORE-6"]["pass"]) == (2, 5)


def test_a_charged_failure_counts_under_its_charge_whatever_applies() -> None:
    # the Referee decides the charge: the counts do not second-guess it
    _scoring_premise()
    failed = Result("sit-001", "house", "fail", ["x"], clauses=("SCORE-5", "SCORE-6"),
                    charged=("SCORE-6",))
    report = Report([failed, *_passes(1)], values={"house": PENALTY})
    rows = report.per("clause")
    assert rows["SCORE-6"]["fail"] == 1 and rows["SCORE-6"]["pass"] == 0
    assert rows["SCORE-5"] == {**rows["SCORE-5"], "pass": 1, "fail": 0}
    assert [n.id for n in report.failed_clauses()] == ["SCORE-6"]


def test_an_uncharged_failure_counts_under_the_clauses_that_apply() -> None:
    _scoring_premise()
    crashed = Result("sit-001", "house", "crash", ["exited"], clauses=("SCORE-5", "SCORE-6"))
    rows = Report([crashed], values={"house": PENALTY}).per("clause")
    assert rows == {"SCORE-5": {**rows["SCORE-5"], "crash": 1}}


def test_an_option_played_its_own_way_applies_none_of_its_clauses() -> None:
    # TRAIN-7 applies only where one's own train is required first; a rule set that plays
    # own_train_first `other` runs only entries every known value decides alike, so no
    # result there tells TRAIN-7 from its alternative (report.clause_applies says why)
    assert catalog().clauses["TRAIN-7"].when == {"own_train_first": frozenset({"required"})}
    own = _values(own_train_first="other")
    assert not clause_applies("TRAIN-7", own)
    assert clause_applies("TRAIN-7", _values(own_train_first="required"))
    assert clause_applies("TRAIN-2", own)  # a clause with no `when` applies everywhere
    results = [Result("sit-001", "house", "pass", clauses=("TRAIN-2", "TRAIN-7"))]
    rows = Report(results, values={"house": own}).per("clause")
    assert list(rows) == ["TRAIN-2"]


def test_without_values_every_clause_counts() -> None:
    # a report built without the rule sets' values (the pytest plugin's, a test's) cannot
    # tell, and says nothing is missing rather than guess
    _scoring_premise()
    rows = Report(_passes(2)).per("clause")
    assert rows["SCORE-5"]["pass"] == rows["SCORE-6"]["pass"] == 2
    assert clause_applies("NOT-A-CLAUSE", PENALTY)


def _formats(report: Report) -> dict[str, str]:
    out = io.StringIO()
    render_text(report, out)
    return {"text": out.getvalue(), "markdown": render_markdown(report)}


def test_every_format_shows_the_same_counts() -> None:
    _scoring_premise()
    report = Report(_passes(3), values={"house": PENALTY})
    data: dict[str, Any] = json.loads(render_json(report))
    assert set(data["clauses"]) == {"SCORE-5"}
    for name, text in _formats(report).items():
        assert re.search(r"SCORE-5\b", text), name
        assert "SCORE-6" not in text, name
        assert "that applies under its rule set" in text, name  # the legend says so
    grid = {m[0]: m[1] for m in re.findall(
        r'<tr data-clause="([^"]+)"><th>[^<]*</th><td class="cell s-([a-z-]+)"',
        render_html(report))}
    assert grid == {"SCORE-5": "pass", "SCORE-6": "does-not-apply"}


def test_the_grid_counts_no_failure_where_the_clause_does_not_apply() -> None:
    _scoring_premise()
    crashed = Result("sit-001", "house", "crash", ["exited"], clauses=("SCORE-5", "SCORE-6"))
    page = render_html(Report([crashed], values={"house": PENALTY}))
    rows = dict(re.findall(r'<tr data-clause="([^"]+)"><th>[^<]*(<small>[^<]*</small>)?',
                           page))
    assert rows == {"SCORE-5": "<small>1 failing</small>", "SCORE-6": ""}


def test_a_result_no_clause_of_which_applies_is_said_not_lost() -> None:
    # a fixture generated for positive scoring, run under penalty where its entry holds
    # alike: it counts under no clause, and the per-clause legend says how many
    _scoring_premise()
    results = [Result("gen-001", "house", "pass", clauses=("SCORE-6",)), *_passes(1)]
    report = Report(results, values={"house": PENALTY})
    assert report.under_no_clause == 1
    assert json.loads(render_json(report))["under_no_clause"] == 1
    assert report.per_ruleset()["house"]["pass"] == 2  # the rule set's table keeps both
    for name, text in _formats(report).items():
        assert "1 result under none (no clause its fixture lists applies there)" in (
            " ".join(text.split())), name
    assert Report(_passes(1), values={"house": PENALTY}).under_no_clause == 0
