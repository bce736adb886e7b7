"""The suite's faults found while writing and running wye (tests/examples/cpp/wye.cpp, a
double-10 engine in C++ for 2 to 6 players with a table of its own, ordinary doubles and
two house rules on the own train), and the one left open by session 56, each fixed with a
test that failed before the fix.

Under `match_length: other` conform never asked an engine for its match's winners at a
round's end from play: whether the match goes on after it is the rule's own, so the end
situations asked nothing of the match (situations.end_situations). Yet who wins a match
that is over does not depend on when it ends, and conform knows the last round the
engine's match deals at each player count (own_rounds): the winners are now judged there
(conformance/own_match_winners.py), where the engine names some at any round's end, and
always at its own last round. The engines here are the reference in process with a match
of three rounds (it refuses the deal of round 4, MATCH-1)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from match_of_three import THREE_ROUNDS, MatchOfThree, conform_report, failures

from mtrain.conformance.adapter import JSON


class ThreeRounds(MatchOfThree):
    """The reference, with a match of its own: three rounds, [6-6] to [4-4], whoever
    leads; the lowest total wins, a tie shared (MATCH-2, MATCH-4)."""

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        if state["phase"] != "over" or state["round"] < self.LAST:
            return []  # its match goes on
        return self.named(state["scores"])

    def named(self, totals: list[int]) -> list[int]:
        low = min(totals)
        return [seat for seat, total in enumerate(totals) if total == low]


class HighestWins(ThreeRounds):
    """A planted bug: the highest total is named the winner (breaks MATCH-2)."""

    def named(self, totals: list[int]) -> list[int]:
        high = max(totals)
        return [seat for seat, total in enumerate(totals) if total == high]


class NamesNobody(ThreeRounds):
    """A planted bug: its match ends after round 3 (the deal of round 4 refused), and yet
    it names no winner there."""

    def named(self, totals: list[int]) -> list[int]:
        return []


def _conform(adapter: str, tmp_path: Path) -> dict[str, Any]:
    rules = tmp_path / "three-rounds.yaml"
    rules.write_text(THREE_ROUNDS, encoding="utf-8")
    return conform_report(f"{__file__}:{adapter}", rules, "play-end-*", tmp_path / "report.json")


@pytest.mark.parametrize(("adapter", "charged"), [
    ("HighestWins", ("MATCH-2",)),
    # nobody named where its match is over (it refuses round 4: holds_match_over): who
    # wins, the lowest total or, where totals tie for it, the tie rule
    ("NamesNobody", ("MATCH-2", "MATCH-4"))])
def test_a_match_of_its_own_has_its_winners_judged_at_the_round_ends_from_play(
        adapter: str, charged: tuple[str, ...], tmp_path: Path) -> None:
    """Before, neither bug failed anything: no round end from play asked `winners` under
    `match_length: other`. Now each fails at round ends (NamesNobody at round 3 alone,
    the last its match deals), charged to the rule that says who wins, and shows nothing
    else."""
    report = _conform(adapter, tmp_path)
    fails = failures(report)
    assert fails, report["summary"]
    assert all(re.search(r"^winners: expected \[[\d, ]+\], got ", text, re.MULTILINE)
               and len(got) == 1 and got[0] in charged for _, text, got in fails), fails


def test_a_match_of_its_own_that_names_its_winners_right_passes(tmp_path: Path) -> None:
    """No false failure: the right winners at its last round, none before it (its match
    goes on), and the end situations past round 3 left out (its deals refused)."""
    report = _conform("ThreeRounds", tmp_path)
    assert failures(report) == []
    assert report["summary"]["pass"] >= 10
