"""What a failure says: refusal sets, refusals naming no clause, tile names, sources; the
text report's headline, table legends and clause section; rerun commands."""

from __future__ import annotations

import io
import json
import re
import shlex
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.report import Report, Result
from mtrain.conformance.report_text import render_text
from mtrain.spec.catalog import catalog

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
    marked: [1, 2]  # seats 1 and 2 passed their first turns: a table the rules reach
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
    from mtrain.conformance.state_compare import compare_field

    (msg,) = compare_field("drawn", "8-0", {"drawn": 90}, 12)
    assert "expected 8-0" in msg and "got 12-12" in msg


# --- the text report read at a glance ---------------------------------------------------

def _text(report: Report) -> str:
    out = io.StringIO()
    render_text(report, out)
    return out.getvalue()


def test_the_headline_says_results_and_checks_apart() -> None:
    results = [Result("a-001", "pagat", "pass", checks=3),
               Result("a-002", "pagat", "fail", ["x"], checks=2),
               Result("a-003", "pagat", "not-applicable", ["plays other rules"])]
    # 2 results ran (a-003 did not), making 3 + 2 checks
    assert Report(results).headline() == (
        "FAILED: 2 results ran (1 pass, 1 fail); 1 more not applicable (not run); "
        "5 checks within them; 0.00 s")


def test_every_column_of_the_tables_is_explained() -> None:
    results = [Result("a-001", "pagat", "pass", clauses=("TRAIN-2",)),
               Result("a-002", "pagat", "fail", ["x"], clauses=("TRAIN-2",)),
               Result("a-003", "puremco", "not-applicable", ["plays other rules"],
                      clauses=("TRAIN-2",))]
    text = _text(Report(results, outside={"pagat": 4, "puremco": 0}))
    table = text[text.index("Per rule set"):].splitlines()
    columns = re.split(r"\s{2,}", table[1].strip())[1:]
    assert columns == ["pass", "fail", "n/a", "ran", "other rules"]
    explained = {m.group(1) for line in table
                 if (m := re.match(r"  (pass|fail|n/a|ran|other rules)\s{2,}\S", line))}
    assert explained == set(columns)
    rows = {line.split()[0]: line.split()[1:] for line in table[2:4]}
    assert rows == {"pagat": ["1", "1", "0", "2", "4"], "puremco": ["0", "0", "1", "0", "0"]}


def test_a_clause_text_is_printed_once_however_many_failures_name_it() -> None:
    dbl6 = catalog().clauses["DBL-6"]
    assert dbl6.decision
    results = [Result(f"d-00{k}", v, "fail", ["x"], clauses=("DBL-6", "TRAIN-4"),
                      charged=("DBL-6",), decisions=(("DBL-6", dbl6.decision),))
               for k, v in ((1, "pagat"), (2, "pagat"), (1, "puremco"))]
    text = _text(Report(results))
    flat = " ".join(text.split())
    assert flat.count(" ".join(dbl6.decision.split())) == 1
    assert flat.count(" ".join(dbl6.text.split())) == 1
    assert flat.count("charged to: DBL-6 (see: Clauses in the failures)") == 3
    assert "DBL-6: An open double must be covered first (charged with 3 failures; " \
        "the decision under 3 failures)" in text
    assert Report(results).to_json()["failed_clauses"] == [
        {"clause": "DBL-6", "title": dbl6.title, "text": " ".join(dbl6.text.split()),
         "decision": dbl6.decision, "charged": 3, "resting": 3}]


def test_a_rerun_names_a_shipped_fixture_by_its_id_alone(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", "--adapter", f"{ADAPTERS}:ForgetsDraw", "-k", "marker-001",
                 "--variant", "pagat", "--format", "json", "--timeout", "7"]) == 1
    report = json.loads(capsys.readouterr().out)
    (rerun,) = {r["rerun"] for r in report["results"] if r["status"] == "fail"}
    assert rerun == (f"mtrain conform --adapter {ADAPTERS}:ForgetsDraw --timeout 7 "
                     "-k marker-001 --variant pagat")


def test_a_rerun_names_the_rules_file_given_or_none_for_declared_rules(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "mine.yaml"
    rules.write_text("name: mine\nbase: pagat\n", encoding="utf-8")
    assert main(["conform", "--adapter", f"{ADAPTERS}:ForgetsDraw", "-k", "marker-001",
                 "--rules", str(rules), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    (rerun,) = {r["rerun"] for r in report["results"] if r["status"] == "fail"}
    assert rerun == shlex.join(["mtrain", "conform", "--adapter", f"{ADAPTERS}:ForgetsDraw",
                                "-k", "marker-001", "--rules", str(rules)])
    assert main(["conform", "--adapter", f"{ADAPTERS}:DeclaresPagatForgetsDraw",
                 "-k", "marker-001", "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    (rerun,) = {r["rerun"] for r in report["results"] if r["status"] == "fail"}
    assert rerun == (f"mtrain conform --adapter {ADAPTERS}:DeclaresPagatForgetsDraw "
                     "-k marker-001")


def test_every_rule_set_failing_ends_with_a_hint_to_declare_the_rules() -> None:
    # tests/examples/cantina_engine.py says `variants: ["*"]` and plays one rule set: run
    # without --rules, all 181 rule sets fail, 12,061 failures, nearly all rule
    # differences; the report now says what to do at its end, beside the verdict
    every = [Result("a-001", "pagat", "fail", ["x"]), Result("a-001", "puremco", "fail", ["x"]),
             Result("a-002", "puremco", "pass")]
    text = _text(Report(every))
    last = text.splitlines()[-2:]
    assert last[0].startswith("hint: every one of the 2 rule sets run has failures")
    assert "mtrain identify" in last[0] and last[1].startswith("FAILED")
    from mtrain.conformance.report_formats import render_markdown

    assert "> hint: every one of the 2 rule sets run has failures" in render_markdown(
        Report(every))  # a CI summary says it too
    # one rule set, or one that passes everything: no hint
    assert Report(every[:1]).hint is None
    assert Report([*every[:1], Result("a-001", "puremco", "pass")]).hint is None
    # crashes, timeouts and broken answers are no rule difference, whatever the rules
    broken = [Result("a-001", "pagat", "crash", ["x"]), Result("a-001", "puremco", "timeout",
                                                               ["x"])]
    assert Report(broken).hint is None
    assert Report([*broken, *every]).hint is not None


def test_a_refused_step_says_what_the_implementation_offers_there(tmp_path: Path) -> None:
    # a step refused says why as far as the engine can: what it offers there instead
    # (sixes refused the draws of its situations, believing a released double playable)
    path = tmp_path / "draw.yaml"
    path.write_text("""\
- id: draw-001
  description: "Nothing fits: seat 0 draws the boneyard's first tile"
  clauses: [TURN-2]
  source: [pagat]
  table:
    engine: 9
    hands:
      0: [2-1]
      1: [5-4]
    boneyard: [3-3, rest]
    marked: [0, 1]  # both passed their first turns: a table the rules reach
  steps: [draw]
  expect:
    - variants: [pagat]
      state: {drawn: 3-3}
""", encoding="utf-8")
    out = tmp_path / "report.json"
    assert main(["conform", "--adapter", f"{ADAPTERS}:NeverDraws", "--fixtures", str(path),
                 "--variant", "pagat", "--format", "json", "--output", str(out)]) == 1
    (result,) = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert result["messages"][0].startswith("step 1 `draw` was refused: a tile can be played")
    assert result["messages"][0].endswith("; it offers there: play 2-1 on mexican")


def test_fixtures_at_other_player_counts_have_a_column_of_their_own() -> None:
    results = [Result("a-001", "junction", "pass", clauses=("TRAIN-2",))]
    text = _text(Report(results, outside={"junction": 3}, seats={"junction": 578}))
    table = text[text.index("Per rule set"):].splitlines()
    assert re.split(r"\s{2,}", table[1].strip())[1:] == ["pass", "ran", "other rules",
                                                          "other seats"]
    assert table[2].split()[1:] == ["1", "1", "3", "578"]
    assert any(re.match(r"  other seats\s{2,}\S.*does not deal", line) for line in table)


def test_a_result_as_the_pool_makes_it_is_a_pass_of_those_fields() -> None:
    # Result.of gives every field in order: a field added or moved must not shift them
    made = Result.of("turn-001", "pagat", "a.yaml", 3, ("TURN-1",), "words", ("pagat",),
                     (("TURN-1", "why"),))
    assert made == Result("turn-001", "pagat", "pass", path="a.yaml", line=3,
                          clauses=("TURN-1",), description="words", source=("pagat",),
                          decisions=(("TURN-1", "why"),))
