"""Session 54's hand-worked fixtures for own train first with the boneyard empty (ids s54-,
conformance/fixtures/turns/s54-own-train-empty-boneyard.yaml).

Before them the corpus put a player with an empty own train before tiles for other trains
only while the boneyard held tiles, so a house rule keeping the player home only while it
does (drover, tests/examples/java/Drover.java) was read `own_train_first: required`,
likely, margin 41; with them identify reads `other` (margin 4, the four fixtures below).

Each fixture holds under the reference and tells the two known values apart: an engine
that plays `not-required` whatever it is asked fails it, and so does one that plays
`required` whatever it is asked.
"""

from __future__ import annotations

import dataclasses
import functools

import pytest
from scenario_outcomes import outcomes

from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.fixture import Fixture, fixture_files, load_file
from mtrain.conformance.mutants import mutant
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference.rules import Rules

IDS = ("s54-001", "s54-002", "s54-003", "s54-004")
NAME = "s54-own-train-empty-boneyard.yaml"


@functools.cache
def _fixtures() -> dict[str, Fixture]:
    """The file's fixtures, found among the corpus's files (the whole corpus costs 4 s)."""
    paths = [p for p in fixture_files() if p.name == NAME]
    assert len(paths) == 1, paths
    return {fx.id: fx for fx in load_file(paths[0])}


def _always_required(rules: Rules) -> Rules:
    return dataclasses.replace(rules, own_train_first=True)


ALWAYS_REQUIRED = Mutant("s54-own-train-first-always", "Plays own train first under every "
                         "rule set", ("TRAIN-7",), "Rules.own_train_first forced true",
                         rules=_always_required)
"""The other direction of the catalogue's `own-train-first-ignored` (TRAIN-7 forced off)."""


def test_the_fixtures_exist_and_each_has_an_empty_boneyard_when_it_decides() -> None:
    found = _fixtures()
    assert set(found) == set(IDS)
    for fx in found.values():
        assert fx.table is not None and "TRAIN-7" in fx.clauses
        # empty already, or its one tile drawn by the step before the expectation
        assert fx.table["boneyard"] == [] or (len(fx.table["boneyard"]) == 1
                                               and fx.steps == ("draw",))


@pytest.mark.parametrize("fid", IDS)
def test_holds_under_the_reference_and_tells_required_from_not_required(fid: str) -> None:
    fx = _fixtures()[fid]
    assert set(outcomes(fx, ReferenceImplementation())) == {"pass"}
    for engine in (mutant("own-train-first-ignored"), ALWAYS_REQUIRED.implementation()):
        assert any(s != "pass" for s in outcomes(fx, engine))
