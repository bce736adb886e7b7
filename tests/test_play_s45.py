"""Faults of the suite found by writing viaduct (tests/examples/viaduct_engine.py), a
program on a double-18 set for 4 to 14 players with rules of its own on an uncoverable
double, a blocked round, a tie and the match's length, as an outside author would, and
using the suite on it (session 45)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mtrain.cli import main

ADAPTERS = Path(__file__).parent / "broken_impls" / "adapters.py"


def test_refused_later_rounds_are_counted_under_one_reason(tmp_path: Path) -> None:
    """A match of its own length refuses every round past its own: one cause, which the
    report's count of results not run by reason gave once per round and table (viaduct's
    match, a multiple of its player count, showed 55 lines for it, each the round and the
    implementation's words). Each result still names its round."""
    rules = tmp_path / "own.yaml"
    rules.write_text("name: own\nbase: pagat\noptions:\n  match_length: other\n",
                     encoding="utf-8")
    out = tmp_path / "report.json"
    assert main(["conform", "--adapter", f"{ADAPTERS}:ThreeRounds", "--rules", str(rules),
                 "-k", "engine-", "--format", "json", "--output", str(out)]) == 0
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    refused = [r for r in report["results"] if r["status"] == "not-applicable"
               and "need not have it [MATCH-1]" in r["message"]]
    rounds = {m.split(":")[0] for r in refused for m in r["messages"][1:]}
    assert len(rounds) > 1  # several rounds refused: 4, 5, ...
    assert all(r.startswith("round ") for r in rounds), rounds
    reasons = [n for n in report["not_applicable"] if "need not have it" in n["reason"]]
    assert [n["results"] for n in reasons] == [len(refused)]


def test_a_tie_rule_of_ones_own_leaves_the_totals_judged(tmp_path: Path) -> None:
    """A tie rule decides who wins among equal totals (MATCH-4..6), never what a total is
    (MATCH-1). Under `tie_rule: other` a fixture ending a match ran without its totals,
    so an engine that does not add the last round's scores passed match-015 (viaduct's
    bug 3, a tie-break written into the totals, showed nowhere); it fails there now,
    charged to MATCH-1, as under a known tie rule."""
    adapter = tmp_path / "totals.py"
    adapter.write_text("from mtrain.conformance.mutants import mutant\n\n"
                       "Engine = mutant('totals-not-accumulated')\n", encoding="utf-8")
    results = {}
    for tie in ("other", "shared"):
        rules = tmp_path / f"{tie}.yaml"
        rules.write_text(f"name: own\nbase: pagat\noptions:\n  tie_rule: {tie}\n",
                         encoding="utf-8")
        out = tmp_path / f"{tie}.json"
        main(["conform", "--adapter", f"{adapter}:Engine", "--rules", str(rules),
              "-k", "match-015", "--format", "json", "--output", str(out)])
        results[tie] = json.loads(out.read_text(encoding="utf-8"))["results"][0]
    for result in results.values():
        assert result["status"] == "fail" and result["charged"] == ["MATCH-1"], result
        assert "scores: expected [122, 122, 122]" in "\n".join(result["messages"])
