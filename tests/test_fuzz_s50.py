"""Session 50's fuzz and charge work where house rules live: a round's scores off by some
tiles' values charged to the clause that values tiles (SCORE-1 at face value, the blank
rule's own under blanks), whoever holds a blank, and wrong scores of another kind to who
scores (SCORE-5..7)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation

# --- a round's scores off by a tile's value -------------------------------------------

GONE_OUT = """\
- id: fzs50-score-001
  description: "Seat 0 goes out; seat 1 holds a blank and a twelve, seat 2 a double"
  clauses: [END-1, SCORE-5, SCORE-1, SCORE-2]
  source: [pagat, decision]
  note: >-
    Seat 0 plays its last tile [6-3] on its own train (ending in 6) and the round ends
    (END-1). Penalty scoring (SCORE-5): each seat scores what its hand is worth. At face
    value (SCORE-1) seat 1's [0-5] and [12-11] are 0 + 5 + 12 + 11 = 28, seat 2's [4-4]
    is 8. With each blank end at 25 (SCORE-2) [0-5] is 25 + 5 = 30, so seat 1 scores
    30 + 23 = 53 and seat 2 still 8.
  table:
    engine: 12
    hands:
      0: [6-3]
      1: [0-5, 12-11]
      2: [4-4]
    trains:
      0: [12-6]
      1: [12-7]
      2: [12-8]
      mexican: [12-9]
    boneyard: [rest]
    first_turns: []
  steps: [play 6-3 on 0]
  expect:
    - variants: [pagat]
      when: {scoring: [penalty], blank_values: [face]}
      result: {end: domino, winner: 0, scores: [0, 28, 8]}
    - variants: [pagat]
      when: {scoring: [penalty], blank_values: [blank-25]}
      result: {end: domino, winner: 0, scores: [0, 53, 8]}
"""
"""Worked by hand (the note)."""

BLANKS_25 = """\
name: pagat-blanks-25
base: pagat
options:
  blank_values: blank-25
"""


class TwelveAsTen(ReferenceImplementation):
    """Honest, but its `score` counts a 12 end as 10 (a tile's value, SCORE-1)."""

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        hands = state["hands"]
        return [s - 2 * sum(t.split("-").count("12") for t in hands[i]) if i != winner else s
                for i, s in enumerate(super().score(ruleset, state, winner))]


class HandsTwice(ReferenceImplementation):
    """Honest, but its `score` counts every hand twice (who scores what, SCORE-5)."""

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        return [2 * s for s in super().score(ruleset, state, winner)]


def _conform(tmp_path: Path, adapter: str, rules: str | None) -> dict[str, Any]:
    fixtures = tmp_path / "scores.yaml"
    fixtures.write_text(GONE_OUT, encoding="utf-8")
    where = ["--variant", "pagat"]
    if rules is not None:
        (tmp_path / "rules.yaml").write_text(rules, encoding="utf-8")
        where = ["--rules", str(tmp_path / "rules.yaml")]
    out = tmp_path / f"{adapter}.json"
    main(["conform", "--adapter", f"{__file__}:{adapter}", "--fixtures", str(fixtures),
          *where, "--format", "json", "--output", str(out)])
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def test_a_score_off_by_a_face_value_beside_a_blank_is_the_face_values_clause(
        tmp_path: Path) -> None:
    """At face value a hand holding a blank scored 2 short for its 12 is SCORE-1's (the
    blank decided the charge before: SCORE-5, as the blank rule is face)."""
    (result,) = _conform(tmp_path, "TwelveAsTen", None)["results"]
    assert result["status"] == "fail", result
    assert result["charged"] == ["SCORE-1"]
    assert "expected round scores [0, 28, 8], got [0, 26, 8]" in "\n".join(result["messages"])


def test_every_hand_counted_twice_is_who_scores_blanks_in_hand_or_not(tmp_path: Path) -> None:
    """Under blanks at 25 every score doubled is the scoring rule's (SCORE-5), not the
    blank rule's because a hand holds a blank (charged SCORE-2 before)."""
    (result,) = _conform(tmp_path, "HandsTwice", BLANKS_25)["results"]
    assert result["status"] == "fail", result
    assert result["charged"] == ["SCORE-5"]
    assert "got [0, 106, 16]" in "\n".join(result["messages"])


def test_the_honest_engine_passes_both_scorings(tmp_path: Path) -> None:
    for rules in (None, BLANKS_25):
        (result,) = _conform(tmp_path, "ReferenceImplementation", rules)["results"]
        assert result["status"] == "pass", result
