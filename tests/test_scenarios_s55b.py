"""Session 55's hand-worked fixtures where few fixtures told an option's values apart
(ids s55-; conformance/fixtures/doubles/s55-*.yaml, markers/s55-marker-removal.yaml,
first-turn/s55-chain-double-end.yaml): double_order with the Mexican Train's double newer,
older or between two others; a live double on an empty boneyard and a dead one on
double-15 with tiles in the boneyard (uncoverable_double); a player held by a double who
draws a tile that does not cover it (draw_rule); the follow-up after a second double laid
in the turn (follow_up); a marked player who plays off their own train (marker_removal); a
first-turn chain that could end on a double its player cannot cover (first_turn, chain
against chain-no-double-end).

Each holds under the reference. Each but s55-004 tells its pair of values apart: the
reference made to play one value whatever the rule set says fails it, and so does the
reference made to play the other. s55-004 is the same under both known orders; it tells a
rule that puts the Mexican Train's double first (brakeman's house rule, tests/examples/
rust/brakeman.rs) from both, which no in-process engine here plays.
"""

from __future__ import annotations

import dataclasses

import pytest
from scenario_outcomes import named_fixtures, outcomes

from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.fixture import Fixture
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog

NAMES = ("s55-thin-pairs.yaml", "s55-follow-up.yaml", "s55-dead-and-drawn.yaml",
         "s55-marker-removal.yaml", "s55-chain-double-end.yaml")
ORDER = ("double_order", "oldest-first", "any-open")
DRY = ("uncoverable_double", "released", "released-when-boneyard-empty")
DEAD = ("uncoverable_double", "released", "stays-open")
DRAW = ("draw_rule", "draw-one", "draw-until-playable")
FOLLOW = ("follow_up", "anywhere", "restricted")
MARKER = ("marker_removal", "owner-plays-own", "owner-plays-anywhere")
CHAIN = ("first_turn", "chain", "chain-no-double-end")
TELLS: dict[str, tuple[str, str, str]] = {
    "s55-001": ORDER, "s55-002": ORDER, "s55-003": ORDER,
    "s55-005": DRY, "s55-006": DRY, "s55-007": DRY,
    "s55-008": DRAW, "s55-009": DRAW,
    "s55-010": FOLLOW, "s55-011": FOLLOW, "s55-012": FOLLOW,
    "s55-013": MARKER, "s55-014": MARKER,
    "s55-015": DEAD, "s55-016": DEAD, "s55-017": DRAW,
    "s55-018": CHAIN, "s55-019": CHAIN, "s55-020": CHAIN,
    "s55-021": ORDER, "s55-022": ORDER, "s55-023": DRY, "s55-024": DEAD, "s55-025": DEAD,
}
"""A fixture and the option, with two of its values, that it tells apart."""
TELLS_TOO = {"s55-014": ("marker_removal", "owner-plays-own", "anyone-plays-on"),
             "s55-015": DRY, "s55-016": DRY, "s55-024": DRY, "s55-025": DRY}
"""A second pair the fixture tells apart."""


def _fixtures() -> dict[str, Fixture]:
    return named_fixtures(*NAMES)


def _playing(option: str, value: str) -> Mutant:
    """The reference, playing `value` of `option` whatever rule set it is asked for."""
    def rules(base: Rules) -> Rules:
        rs = base.ruleset
        choices = tuple((o, value if o == option else v) for o, v in rs.choices)
        return Rules.of(dataclasses.replace(rs, choices=choices))
    return Mutant(f"s55-always-{option}-{value}", f"Plays {option}={value} always", (),
                  f"Rules rebuilt with {option}={value}", rules=rules)


def test_the_fixtures_exist() -> None:
    assert set(_fixtures()) == {*TELLS, "s55-004"}


@pytest.mark.parametrize("fid", sorted({*TELLS, "s55-004"}))
def test_holds_under_the_reference(fid: str) -> None:
    assert set(outcomes(_fixtures()[fid], ReferenceImplementation())) == {"pass"}


CASES = [(fid, pair) for fid, pair in TELLS.items()] + list(TELLS_TOO.items())


@pytest.mark.parametrize(("fid", "pair"), CASES, ids=[f"{f}-{p[0]}-{p[2]}" for f, p in CASES])
def test_tells_the_two_values_apart(fid: str, pair: tuple[str, str, str]) -> None:
    option, one, other = pair
    fx = _fixtures()[fid]
    named = {catalog().ruleset(name)[option] for name, _ in fx.rulesets()}
    assert {one, other} <= named or fid in TELLS_TOO, named  # it names rule sets of both
    for value in (one, other):
        engine = _playing(option, value).implementation()
        assert any(s != "pass" for s in outcomes(fx, engine)), (fid, option, value)
