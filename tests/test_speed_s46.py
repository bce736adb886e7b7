"""Session 46's speed-ups to conform's pool and report keep what they report: the clause
table and the results under no clause counted once (Report.clause_counts) are what
`per("clause")` and `under_no_clause` say, and a pass the result memo gives the pool
directly (ResultMemo.kept) meets the skip file as a played pass does."""

from __future__ import annotations

import argparse
from pathlib import Path

from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.known_failures import SkipEntry
from mtrain.conformance.pool import Runner, run_tasks
from mtrain.conformance.report import Report, Result
from mtrain.conformance.resultmemo import ResultMemo
from mtrain.conformance.selection import default_rulesets, load_fixtures, select
from mtrain.conformance.target import Target
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


# chaindbl-001 with a scope too wide (as in test_result_memo.py): it passes where the
# first turn is a chain on a double-12 table, and fails elsewhere
WIDE = """
- id: memo-wide-001
  description: "A double inside a first-turn chain, claimed for every tile set and first turn"
  clauses: [FIRST-4, FIRST-1, FIRST-2]
  source: [pagat, decision]
  table:
    engine: 12
    first_turns: all
    hands:
      0: [12-5, 5-5, 5-3, 3-1, 7-2]
      1: [12-6, 4-4]
      2: [12-8, 1-1]
  steps: [play 12-5 on 0, play 5-5 on 0]
  expect:
    - when:
        - {tile_set: [double-9, double-12, double-15, double-18]}
      legal: [play 5-3 on 0]
      refused:
        end-chain: FIRST-4
      state:
        seat: 0
        phase: chain
        trains:
          0: [12-5, 5-5]
"""


def _results(path: Path, memo: bool) -> tuple[list[Result], ResultMemo | None]:
    fixtures, errors = load_fixtures(str(path))
    assert not errors
    tasks, _ = select(fixtures, default_rulesets(fixtures), [])
    args = argparse.Namespace(impl=None, adapter=None, timeout=10.0, fixtures=str(path),
                              require_clauses=False, format="text")
    ref = ReferenceImplementation()
    skips = [SkipEntry("memo-wide-001", None, "listed as a known failure")]
    runner = Runner(args, Target(lambda: ref, {}, "reference", True), ref.info(), skips)
    if memo:
        runner.memo = ResultMemo(tasks)
    return run_tasks(tasks, runner, ref, 1), runner.memo


def test_a_served_pass_on_the_skip_list_is_reported_as_a_played_one(tmp_path: Path) -> None:
    path = tmp_path / "wide.yaml"
    path.write_text(WIDE, encoding="utf-8")
    played, _ = _results(path, memo=False)
    served, memo = _results(path, memo=True)
    assert memo is not None and memo.served > 0  # some passes came from the memo

    def seen(results: list[Result]) -> list[tuple[object, ...]]:
        return [(r.fixture, r.variant, r.status, tuple(r.messages), r.charged,
                 r.skip_reason, r.unexpected_pass, bool(r.rerun)) for r in results]

    assert seen(served) == seen(played)
    statuses = {r.status for r in played}
    assert {"pass", "skip"} <= statuses  # passes now listed, and failures known
    assert any(r.unexpected_pass for r in served)
