"""Under a scoring rule of one's own (`scoring: other`) conform sets a round's worth aside
(its round scores, the totals, the winners), so a total never added to went unseen: the
sleeper engine (a family app's game logic, session 50) froze seat 0's total from round 2
on, and conform passed every result under `scoring: other`. Whatever a round is worth,
the totals are those carried in plus the round scores the implementation gives
(MATCH-1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.adapter import JSON
from mtrain.conformance.own_checks import carried_problems
from mtrain.conformance.reference_adapter import ReferenceImplementation


class FrozenSeatZero(ReferenceImplementation):
    """The reference, but from round 2 on seat 0's total is never added to (MATCH-1)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = super().apply(ruleset, state, action)
        if after["phase"] == "over" and state["phase"] != "over" and after["round"] > 1:
            after["scores"][0] = state["scores"][0]
        return after


class Honest(ReferenceImplementation):
    """The reference as it is, for the control."""


def _conform(capsys: pytest.CaptureFixture[str], adapter: str, rules: Path,
             fid: str) -> list[dict[str, Any]]:
    capsys.readouterr()
    main(["conform", "--adapter", f"{__file__}:{adapter}", "-k", fid, "--rules", str(rules),
          "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    return [r for r in report["results"] if r["fixture"] == fid]


def test_totals_that_do_not_carry_the_round_fail_under_a_scoring_of_ones_own(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rules = tmp_path / "own-scoring.yaml"
    rules.write_text("name: own-scoring\nbase: pagat\noptions:\n  scoring: other\n",
                     encoding="utf-8")
    # lowhand-005: round 4 (engine 9), totals [10, 20, 30, 40], seat 1 goes out; seat 0's
    # hand [2-2] [7-5] is 16 at face value, so its total becomes 26, not 10
    assert [r["status"] for r in _conform(capsys, "Honest", rules, "lowhand-005")] == ["pass"]
    mine = _conform(capsys, "FrozenSeatZero", rules, "lowhand-005")
    assert [r["status"] for r in mine] == ["fail"], mine
    assert mine[0]["charged"] == ["MATCH-1"]
    assert "the totals [10, 20, 48, 64] are not those before the round" in mine[0]["message"]


def test_only_a_step_that_ends_the_round_is_asked_to_carry_its_scores() -> None:
    over = {"phase": "over", "scores": [30, 5], "result": {"scores": [20, 0]}}
    assert carried_problems({"phase": "play", "scores": [10, 5]}, over) == []
    frozen = {**over, "scores": [10, 5]}
    problem, = carried_problems({"phase": "play", "scores": [10, 5]}, frozen)
    assert problem.where == "scores" and "[30, 5] [MATCH-1]" in problem.message
    assert carried_problems({"phase": "over", "scores": [10, 5]}, frozen) == []  # no step
    # a malformed answer is the state checks' to report, not this one's
    assert carried_problems({"phase": "play", "scores": [10]}, frozen) == []
