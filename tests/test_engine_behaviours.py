"""Engines that play a behaviour issue 21 found only in software: each is declared in a
rule-set file (tests/examples/engine-rules/) that loads with a known value for every
option, so that such an engine runs the whole corpus, with no option played `other`."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtrain.spec.catalog import catalog

RULES = Path(__file__).parent / "examples" / "engine-rules"
# Read by hand from each file: the option value it declares for its engine's behaviour.
DECLARED = {
    "blocked-winner.yaml": ("scoring", "penalty-blocked-winner"),
    "highest-double.yaml": ("engine_procedure", "highest-double-held"),
    "designated-opens.yaml": ("engine_procedure", "designated-opens"),
    "highest-draw.yaml": ("starting_seat", "highest-draw"),
    "heaviest-in-hand.yaml": ("starting_seat", "heaviest-in-hand"),
    "no-double-end.yaml": ("first_turn", "chain-no-double-end"),
    "single-round.yaml": ("match_length", "single-round"),
    "ordinary-doubles.yaml": ("doubles", "ordinary"),
    "release-on-empty-boneyard.yaml": ("uncoverable_double", "released-when-boneyard-empty"),
    "follow-up-only.yaml": ("uncoverable_double", "released-after-layers-turn"),
}


def test_every_file_is_listed() -> None:
    assert sorted(p.name for p in RULES.glob("*.yaml")) == sorted(DECLARED)


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_an_engine_behaviour_loads_with_no_other(name: str) -> None:
    rs = catalog().rules_file(RULES / name)
    option, value = DECLARED[name]
    assert rs[option] == value
    assert [o for o, v in rs.items() if v == "other"] == []
    assert set(dict(rs.items())) == set(catalog().options)
