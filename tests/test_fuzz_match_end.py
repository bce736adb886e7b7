"""Fuzz under a match length of the engine's own (`match_length: other`), as conform judges
it (conformance/match_end_alone.py): whether the match is over is the engine's to say (no
winners passes), and the winners it names must be the rules' winners of the totals.

Coupling (tests/examples/coupling_engine.py) ends its match after the round of a third
out; its bug 3 names only the lowest seat of a tie on the lowest total (MATCH-4). Before,
fuzz judged no winners there and never found it, and a third of its games that started at
a later round had made-up outs that had already ended coupling's match (20 of 60, seed 1).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.fuzz.judge import compare_winners
from mtrain.conformance.fuzz.rulesets import context

EXAMPLES = Path(__file__).parent / "examples"
ENGINE = EXAMPLES / "coupling_engine.py"
RULES = EXAMPLES / "coupling-rules.yaml"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    capsys.readouterr()
    code = main([*argv, "--rules", str(RULES)])
    return code, json.loads(capsys.readouterr().out)


def _fuzz(which: str, out: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    return _run(["fuzz", "--adapter", f"{ENGINE}:{which}", "--games", "12", "--seed", "1",
                 "--out", str(out), "--json"], capsys)


def test_an_empty_answer_passes_and_named_winners_are_the_totals() -> None:
    """Totals [40, 12, 30, 12]: seats 1 and 3 share the lowest (MATCH-2, MATCH-4)."""
    ctx = context("pagat")
    totals = [40, 12, 30, 12]
    judged = {repr(got): compare_winners(ctx, "pass", [1, 3], got, None, totals,
                                         over_left_open=True)
              for got in ([], [1, 3], [1], [0])}
    assert judged["[]"] == [] and judged["[1, 3]"] == []
    assert [d.signature for d in judged["[1]"]] == ["winners"]
    assert judged["[1]"][0].clauses[0] == "MATCH-4"  # a tie named: the tie rule's, as conform
    assert judged["[0]"][0].clauses[0] == "MATCH-2"  # not on the lowest total at all
    # without a match length of its own an empty answer is a match that should be over
    assert compare_winners(ctx, "pass", [1, 3], [], None, totals) != []


@pytest.mark.slow  # two fuzz runs and two of conform on one fixture, ~5 CPU s
def test_fuzz_finds_coupling_tie_to_first_and_nothing_with_its_bugs_off(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _fuzz("Coupling", tmp_path / "on", capsys)
    assert code == 1
    ties = [f for f in report["findings"] if f["signature"] == "winners"]
    assert ties, [f["signature"] for f in report["findings"]]
    assert ties[0]["reproducer"], ties[0]["problems"]
    reproducer = ties[0]["reproducer"]
    # conform runs it (the match's end left to the engine) and charges the tie rule
    for which, status in (("Coupling", "fail"), ("Fixed", "pass")):
        _, ran = _run(["conform", "--adapter", f"{ENGINE}:{which}", "--fixtures", reproducer,
                       "--format", "json"], capsys)
        assert [r["status"] for r in ran["results"]] == [status], ran["results"]
        if status == "fail":
            assert ran["results"][0]["charged"] == ["MATCH-4"]
    # a later round starts from made-up rounds nobody went out in: none has ended its match
    assert report["ended_early"] == {}
    code, report = _fuzz("Fixed", tmp_path / "off", capsys)
    assert (code, report["findings"], report["ended_early"]) == (0, [], {})
