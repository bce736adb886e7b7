"""A winners answer naming a seat the table has not is a broken answer everywhere it is
read: conform said so (session 51); identify took it as evidence of a match rule and fuzz
as a wrong winner charged to who wins the match (MATCH-2), where the answer is no winner
at all."""

from __future__ import annotations

from typing import Any

import pytest

from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.fuzz.judge import compare_winners
from mtrain.conformance.fuzz.rulesets import context
from mtrain.conformance.identify import Watched
from mtrain.conformance.process import ProtocolViolation
from mtrain.spec.catalog import catalog


def test_fuzz_judges_a_seat_past_the_table_a_broken_answer_not_a_wrong_winner() -> None:
    totals = [40, 12, 30, 12]  # four seats: 0 to 3
    broken = compare_winners(context("pagat"), "pass", [1, 3], [1, 7], None, totals)
    assert [d.signature for d in broken] != ["winners"], broken
    assert "seat 7 is not at the table" in " ".join(broken[0].messages), broken[0].messages
    # a seat at the table, wrong, is still a wrong winner
    wrong = compare_winners(context("pagat"), "pass", [1, 3], [0], None, totals)
    assert [d.signature for d in wrong] == ["winners"]


class PastTheTable(ReferenceImplementation):
    def winners(self, ruleset: Any, state: Any) -> list[int]:
        return [len(state["hands"])]  # the seat after the last


def test_identify_reads_no_match_rule_in_a_seat_past_the_table() -> None:
    rj = {"name": "pagat", "options": dict(catalog().ruleset("pagat").choices)}
    order = [f"{a}-{b}" for a in range(12, -1, -1) for b in range(a, -1, -1)]
    state = ReferenceImplementation().deal(rj, 4, 1, order)
    watched = Watched(PastTheTable())
    with pytest.raises(ProtocolViolation, match="seat 4 is not at the table"):
        watched.winners(rj, state)
    assert watched.failed  # counted as a request that failed, not read as evidence
