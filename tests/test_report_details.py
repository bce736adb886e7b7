"""What a failure says: refusal sets, refusals naming no clause, tile names, sources."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtrain.cli import main

ADAPTERS = Path(__file__).parent / "broken_impls" / "adapters.py"

FIXTURE = """\
- id: refusal-001
  description: "An open double closes the Mexican Train to the next player"
  clauses: [DBL-6, TRAIN-4]
  source: [pagat, decision]
  table:
    engine: 9
    seat: 1
    starter: 0
    hands:
      0: [2-2]
      1: [5-4, 1-7]
      2: [0-3]
    trains:
      0: [9-5, 5-5]
      mexican: [9-8, 8-1]
    open_doubles: [0]
  expect:
    - variants: [pagat]
      refused:
        play 1-7 on mexican: {refusers}
"""


def run(tmp_path: Path, adapter: str, refusers: str, *more: str) -> dict[str, object]:
    path = tmp_path / "refusal.yaml"
    path.write_text(FIXTURE.format(refusers=refusers), encoding="utf-8")
    out = tmp_path / "report.json"
    main(["conform", "--adapter", f"{ADAPTERS}:{adapter}", "--fixtures", str(path),
          "--variant", "pagat", "--format", "json", "--output", str(out), *more])
    report: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    return report


def statuses(report: dict[str, object]) -> list[str]:
    results = report["results"]
    assert isinstance(results, list)
    return [r["status"] for r in results]


def test_any_clause_of_a_refusal_set_passes(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert statuses(run(tmp_path, "CitesTrain4", "[DBL-6, TRAIN-4]")) == ["pass"]
    report = run(tmp_path, "CitesTrain4", "DBL-6")
    assert statuses(report) == ["fail"]
    results = report["results"]
    assert isinstance(results, list)
    assert "refused by TRAIN-4, expected DBL-6" in results[0]["message"]
    capsys.readouterr()


def test_a_refusal_naming_no_clause_is_counted_and_fails_on_request(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = run(tmp_path, "NamesNoClause", "DBL-6")
    assert statuses(report) == ["pass"] and report["null_refusals"] == 1
    strict = run(tmp_path, "NamesNoClause", "DBL-6", "--require-clauses")
    assert statuses(strict) == ["fail"]
    capsys.readouterr()


def test_a_failure_shows_its_source_and_the_decisions_it_rests_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = run(tmp_path, "CitesTrain4", "DBL-6")
    results = report["results"]
    assert isinstance(results, list)
    (r,) = results
    assert r["source"] == ["pagat", "decision"]
    assert [d["clause"] for d in r["decisions"]] == ["DBL-6"] or all(
        d["reason"] for d in r["decisions"])
    capsys.readouterr()


def test_a_drawn_tile_is_shown_by_name() -> None:
    from mtrain.conformance.runner import compare_field

    (msg,) = compare_field("drawn", "8-0", {"drawn": 90}, 12)
    assert "expected 8-0" in msg and "got 12-12" in msg
