"""Session 59's hand-worked fixtures where few fixtures told an option's values apart
(ids s59-; conformance/fixtures/*/s59-*.yaml), all on double-15 tables of six to twelve
seats: the tile after a second double of the turn (follow_up anywhere against restricted);
a marked player who plays off their own train (marker_removal, its three values); a
first-turn chain that could go on with a double its player could not cover (first_turn
chain against chain-no-double-end); a drawn tile that fits nowhere with tiles left to
draw, bound by a double or not (draw_rule); what follows the first tile of a first turn
(first_turn single against chain-anywhere); the Mexican Train's double and another both
binding (double_order); a live double on an empty boneyard and a dead one with tiles left
to draw (uncoverable_double), which a house rule releasing both, as brakeman's "dead or
dry" does (tests/examples/rust/brakeman.rs), answers as no known value.

Each holds under the reference, and each tells its pair of values apart: the reference
made to play one value whatever the rule set says fails it, and so does the reference made
to play the other.
"""

from __future__ import annotations

import dataclasses
import functools

import pytest
from scenario_outcomes import outcomes

from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.fixture import Fixture, fixture_files, load_file
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog

NAMES = ("s59-follow-up.yaml", "s59-marker-removal.yaml", "s59-chain-double-end.yaml",
         "s59-draw-rule.yaml", "s59-first-tile.yaml", "s59-order-and-release.yaml",
         "s59-house-near.yaml", "s59-draw-bound.yaml")
FOLLOW = ("follow_up", "anywhere", "restricted")
OWN_ANYWHERE = ("marker_removal", "owner-plays-own", "owner-plays-anywhere")
ANYONE_ANYWHERE = ("marker_removal", "anyone-plays-on", "owner-plays-anywhere")
OWN_ANYONE = ("marker_removal", "owner-plays-own", "anyone-plays-on")
CHAIN = ("first_turn", "chain", "chain-no-double-end")
FIRST_TILE = ("first_turn", "single", "chain-anywhere")
ORDER = ("double_order", "oldest-first", "any-open")
DRY = ("uncoverable_double", "released", "released-when-boneyard-empty")
DRY_TOO = ("uncoverable_double", "stays-open", "released-when-boneyard-empty")
DEAD = ("uncoverable_double", "released", "stays-open")
DRAW = ("draw_rule", "draw-one", "draw-until-playable")
TELLS: list[tuple[str, tuple[str, str, str]]] = [
    ("s59-001", FOLLOW), ("s59-002", FOLLOW), ("s59-003", FOLLOW),
    ("s59-004", OWN_ANYWHERE), ("s59-004", ANYONE_ANYWHERE),
    ("s59-005", OWN_ANYWHERE), ("s59-005", ANYONE_ANYWHERE), ("s59-005", OWN_ANYONE),
    ("s59-006", OWN_ANYWHERE), ("s59-006", ANYONE_ANYWHERE),
    ("s59-007", CHAIN), ("s59-008", CHAIN), ("s59-009", CHAIN),
    ("s59-010", DRAW), ("s59-011", DRAW), ("s59-012", DRAW),
    ("s59-013", FIRST_TILE), ("s59-014", FIRST_TILE),
    ("s59-015", ORDER), ("s59-016", ORDER),
    ("s59-017", DRY), ("s59-017", DRY_TOO), ("s59-018", DEAD), ("s59-018", DRY),
    ("s59-019", ORDER), ("s59-020", ORDER), ("s59-021", DEAD), ("s59-021", DRY),
    ("s59-022", DRAW), ("s59-023", DRAW),
]
"""A fixture and an option, with two of its values, that it tells apart."""


@functools.cache
def _fixtures() -> dict[str, Fixture]:
    """The files' fixtures, found among the corpus's files."""
    paths = [p for p in fixture_files() if p.name in NAMES]
    assert sorted(p.name for p in paths) == sorted(NAMES), paths
    return {fx.id: fx for path in paths for fx in load_file(path)}


def _playing(option: str, value: str) -> Mutant:
    """The reference, playing `value` of `option` whatever rule set it is asked for."""
    def rules(base: Rules) -> Rules:
        rs = base.ruleset
        choices = tuple((o, value if o == option else v) for o, v in rs.choices)
        return Rules.of(dataclasses.replace(rs, choices=choices))
    return Mutant(f"s59-always-{option}-{value}", f"Plays {option}={value} always", (),
                  f"Rules rebuilt with {option}={value}", rules=rules)


def test_the_fixtures_exist() -> None:
    assert set(_fixtures()) == {fid for fid, _ in TELLS}


@pytest.mark.parametrize("fid", sorted({fid for fid, _ in TELLS}))
def test_holds_under_the_reference(fid: str) -> None:
    assert set(outcomes(_fixtures()[fid], ReferenceImplementation())) == {"pass"}


@pytest.mark.parametrize(("fid", "pair"), TELLS, ids=[f"{f}-{p[1]}-{p[2]}" for f, p in TELLS])
def test_tells_the_two_values_apart(fid: str, pair: tuple[str, str, str]) -> None:
    option, one, other = pair
    fx = _fixtures()[fid]
    named = {catalog().ruleset(name)[option] for name, _ in fx.rulesets()}
    assert {one, other} <= named, named  # it names rule sets of both values
    for value in (one, other):
        engine = _playing(option, value).implementation()
        assert any(s != "pass" for s in outcomes(fx, engine)), (fid, option, value)
