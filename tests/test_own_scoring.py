"""A scoring of one's own (`scoring: other`) and the round's end.

How a round ends (a player going out, or blocked) and who went out do not depend on how
it is scored, so the situations from play keep their round ends under a scoring of one's
own, with the scores left unchecked; and conform's answer checks no longer hold such an
engine's states to the stand-in's scoring (INV-ROUND-SCORE under penalty scoring).
junction (tests/examples/junction_engine.py) scores a blocked round its own way: before,
all 100 of its round ends were left out, and run, a blocked one failed as a rule
difference."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mtrain.conformance.adapter import ReferenceImplementation, ruleset_json
from mtrain.conformance.answers import CheckedImplementation
from mtrain.conformance.own_checks import OwnRulesChecks
from mtrain.conformance.situations import end_situations, stand_in_for
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import action_json, table_state
from mtrain.spec.ruleset import Ruleset

JUNCTION = Path(__file__).parent / "examples" / "junction-rules.yaml"


def junction() -> Ruleset:
    return catalog().rules_file(JUNCTION)


def test_round_ends_are_kept_under_a_scoring_of_ones_own_without_their_scores() -> None:
    rs = junction()
    plays = stand_in_for(rs)
    assert plays is not None and "scoring" in rs.unknown
    ends = end_situations(rs, plays, 12)
    assert len(ends) == 12
    for fx in ends:
        result = fx.expect[0].result
        assert isinstance(result, dict) and set(result) == {"end", "winner"}, fx.id
        assert "scores are left unchecked: scoring played its own way" in fx.note
    # the same rules with a known scoring check the scores too
    known = Ruleset("junction-penalty", tuple(
        (o, "penalty" if o == "scoring" else v) for o, v in rs.choices), rs.hand_table)
    scored = end_situations(known, plays, 3)
    assert all("scores" in fx.expect[0].result for fx in scored)


def blocked_end() -> tuple[Ruleset, dict[str, Any], dict[str, Any]]:
    """The stand-in, and a blocked round's last state under it, then scored as junction
    scores it: the lowest hand 0, every other hand its value and 10."""
    rs = junction()
    plays = stand_in_for(rs)
    assert plays is not None
    fx = next(f for f in end_situations(rs, plays, 100)
              if f.expect[0].result["end"] == "blocked")
    assert fx.table is not None
    start = table_state(fx.table, plays)
    rj = ruleset_json(plays)
    over = ReferenceImplementation().apply(rj, start, action_json(fx.steps[0], 15))
    hands = over["result"]["scores"]
    low = min(hands)
    house = [0 if v == low else v + 10 for v in hands]
    over["scores"] = [t - a + b for t, a, b in zip(over["scores"], hands, house, strict=True)]
    over["result"]["scores"] = house
    return plays, rj, over


def test_an_invariant_a_rule_of_ones_own_decides_is_no_failure() -> None:
    plays, rj, over = blocked_end()
    broken = [p.where for p in CheckedImplementation(ReferenceImplementation())
              .state_problems(rj, over)]
    assert broken == ["INV-ROUND-SCORE"]
    inner = ReferenceImplementation()
    assert OwnRulesChecks(inner, plays, frozenset({"scoring"})).state_problems(rj, over) == []
    # an option of one's own that the invariant does not read keeps it
    kept = OwnRulesChecks(inner, plays, frozenset({"first_turn"})).state_problems(rj, over)
    assert [p.where for p in kept] == ["INV-ROUND-SCORE"]
