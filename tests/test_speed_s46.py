"""Session 46's speed-ups to conform's pool and report keep what they report: the clause
table and the results under no clause counted once (Report.clause_counts) are what
`per("clause")` and `under_no_clause` say, and a pass the result memo gives the pool
directly (ResultMemo.kept) meets the skip file as a played pass does."""

from __future__ import annotations

from pathlib import Path

from test_result_memo import WIDE, _results

from mtrain.conformance.known_failures import SkipEntry
from mtrain.conformance.report import Report, Result
from mtrain.conformance.resultmemo import ResultMemo
from mtrain.spec.catalog import catalog


def _values(**changes: str) -> dict[str, str]:
    values = dict(catalog().ruleset("pagat").choices)
    assert set(changes) <= set(values)
    return {**values, **changes}


def test_clause_counts_are_the_clause_table_and_the_results_under_no_clause() -> None:
    clauses = catalog().clauses  # the premise: each scoring's clause applies under it alone
    assert clauses["SCORE-5"].when == {"scoring": frozenset({"penalty",
                                                              "penalty-blocked-winner"})}
    assert clauses["SCORE-6"].when == {"scoring": frozenset({"positive"})}
    both = ("SCORE-5", "SCORE-6")
    results = [
        Result("sit-001", "house", "pass", clauses=both),  # penalty: SCORE-5 only
        Result("sit-002", "house", "pass", clauses=both),
        Result("sit-001", "home", "pass", clauses=both),  # positive: SCORE-6 only
        # a charged failure counts under its charge, once, whatever applies
        Result("fx-001", "house", "fail", ["x"], clauses=("SCORE-5",),
               charged=("SCORE-6", "SCORE-6")),
        Result("fx-002", "house", "fail", ["y"], clauses=both),  # not charged: as a pass
        Result("fx-003", "house", "pass", clauses=("SCORE-6",)),  # under no clause here
        Result("fx-004", "home", "not-applicable", ["why"], clauses=("SCORE-5",)),  # nor here
    ]
    report = Report(results, values={"house": _values(scoring="penalty"),
                                     "home": _values(scoring="positive")})
    rows, nowhere = report.clause_counts()
    # worked by hand from the list above
    assert {k: {s: n for s, n in row.items() if n} for k, row in rows.items()} == {
        "SCORE-5": {"pass": 2, "fail": 1}, "SCORE-6": {"pass": 1, "fail": 1}}
    assert nowhere == 2
    assert rows == report.per("clause") and nowhere == report.under_no_clause


def _with_skip(path: Path, memo: bool) -> tuple[list[Result], ResultMemo | None]:
    # test_result_memo.py's wide fixture, its failures listed as known
    return _results(path, memo, [SkipEntry("memo-wide-001", None, "listed as a known failure")])


def test_a_served_pass_on_the_skip_list_is_reported_as_a_played_one(tmp_path: Path) -> None:
    path = tmp_path / "wide.yaml"
    path.write_text(WIDE, encoding="utf-8")
    played, _ = _with_skip(path, memo=False)
    served, memo = _with_skip(path, memo=True)
    assert memo is not None and memo.served > 0  # some passes came from the memo

    def seen(results: list[Result]) -> list[tuple[object, ...]]:
        return [(r.fixture, r.variant, r.status, tuple(r.messages), r.charged,
                 r.skip_reason, r.unexpected_pass, bool(r.rerun)) for r in results]

    assert seen(served) == seen(played)
    statuses = {r.status for r in played}
    assert {"pass", "skip"} <= statuses  # passes now listed, and failures known
    assert any(r.unexpected_pass for r in served)
