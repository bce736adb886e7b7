"""Session 54's hand-worked fixtures on tables where a house rule and a known value part:
own train first with the boneyard empty (s54-001..004, turns/s54-own-train-empty-
boneyard.yaml), an empty own train with a tile for a marked train alone (s54-005, -006,
turns/s54-own-train-marked-only.yaml), and a total past 200 after an early round of a full
match (s54-match-, match/s54-total-past-200.yaml).

Before the first four the corpus put a player with an empty own train before tiles for
other trains only while the boneyard held tiles, so a house rule keeping the player home
only while it does (drover, tests/examples/java/Drover.java) was read `own_train_first:
required`, likely, margin 41; with them identify reads `other` (margin 4, those four).

Each own-train fixture holds under the reference and tells the two known values apart: an
engine that plays `not-required` whatever it is asked fails it, and so does one that plays
`required` whatever it is asked. Each match fixture holds under the reference and fails an
engine that ends the match once a total reaches 200 (sleeper's house rule, tests/examples/
sleeper_engine.py; identify already read it `other` from the situations from play, margin
17, 19 with them: before them no fixture held the table).
"""

from __future__ import annotations

import dataclasses

import pytest
from scenario_outcomes import assert_tells_apart, named_fixtures

from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.fixture import Fixture
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.conformance.protocol import JSON
from mtrain.reference.rules import Rules

IDS = ("s54-001", "s54-002", "s54-003", "s54-004")
MARKED_IDS = ("s54-005", "s54-006")  # a marked train's tile alone (marshal's house rule)
MATCH_IDS = ("s54-match-001", "s54-match-002")
NAMES = ("s54-own-train-empty-boneyard.yaml", "s54-own-train-marked-only.yaml",
         "s54-total-past-200.yaml")


def _fixtures() -> dict[str, Fixture]:
    return named_fixtures(*NAMES)


def _always_required(rules: Rules) -> Rules:
    return dataclasses.replace(rules, own_train_first=True)


ALWAYS_REQUIRED = Mutant("s54-own-train-first-always", "Plays own train first under every "
                         "rule set", ("TRAIN-7",), "Rules.own_train_first forced true",
                         rules=_always_required)
"""The other direction of the catalogue's `own-train-first-ignored` (TRAIN-7 forced off)."""


def test_the_fixtures_exist_and_each_has_an_empty_boneyard_when_it_decides() -> None:
    found = _fixtures()
    assert set(found) == {*IDS, *MARKED_IDS, *MATCH_IDS}
    for fx in (found[fid] for fid in IDS):
        assert fx.table is not None and "TRAIN-7" in fx.clauses
        # empty already, or its one tile drawn by the step before the expectation
        assert fx.table["boneyard"] == [] or (len(fx.table["boneyard"]) == 1
                                               and fx.steps == ("draw",))


@pytest.mark.parametrize("fid", IDS + MARKED_IDS)
def test_holds_under_the_reference_and_tells_required_from_not_required(fid: str) -> None:
    fx = _fixtures()[fid]
    assert_tells_apart(fx, "own-train-first-ignored", ALWAYS_REQUIRED.implementation())


class FirstTo200(ReferenceImplementation):
    """The reference, but the match ends after any round that leaves a total of 200 or
    more, the lowest total winning (shared)."""

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        got = super().winners(ruleset, state)
        totals = state["scores"]
        if got or state.get("phase") != "over" or max(totals) < 200:
            return got
        return [s for s, t in enumerate(totals) if t == min(totals)]


@pytest.mark.parametrize("fid", MATCH_IDS)
def test_holds_under_the_reference_and_tells_full_from_first_to_200(fid: str) -> None:
    fx = _fixtures()[fid]
    assert_tells_apart(fx, FirstTo200())
