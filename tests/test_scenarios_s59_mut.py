"""The thirtieth reading's own fixtures (ids mut30-, fixtures/mutants/thirtieth-reading.yaml):
under highest-draw-start a tie settled by the tied seats' run-off alone, the tiles going
back between drawings; under own-train-opens-mexican the Mexican Train opened by a player
whose own train is started while another's is empty; under own-train-first a started own
train that leaves the player free to play elsewhere.

Each holds under the reference and kills the mutant of the thirtieth reading
(conformance/mutants/thirtieth_reading.py) written beside it. The pairs were measured with
`mtrain mutants -m mut30-...` (2026-12-07); with these fixtures the reading's fewest
killers went from 1 (mut30-draw-tie-by-higher-end, mut30-draw-tiles-not-put-back) to 2,
and mut30-mexican-waits-for-every-train and mut30-own-train-first-every-turn, killed before
by chain-anywhere fixtures alone, are killed on tables of their own options.
"""

from __future__ import annotations

import pytest
from scenario_outcomes import MUTANT_FIXTURES, assert_tells_apart, file_fixtures

from mtrain.conformance.fixture import Fixture

FILE = MUTANT_FIXTURES / "thirtieth-reading.yaml"

KILLS = [
    ("mut30-draw-001", "mut30-draw-tie-by-higher-end"),
    ("mut30-draw-002", "mut30-draw-tiles-not-put-back"),
    ("mut30-mexican-001", "mut30-mexican-waits-for-every-train"),
    ("mut30-mexican-002", "mut30-mexican-waits-for-every-train"),
    ("mut30-ownfirst-001", "mut30-own-train-first-every-turn"),
    ("mut30-ownfirst-002", "mut30-own-train-first-every-turn"),
]
"""A fixture and a mutant it kills."""


def _fixtures() -> dict[str, Fixture]:
    return file_fixtures(FILE)


def test_every_fixture_beside_a_mutant() -> None:
    assert set(_fixtures()) == {fid for fid, _ in KILLS}  # every fixture kills one at least


@pytest.mark.parametrize(("fid", "name"), KILLS, ids=[f"{f}-{n}" for f, n in KILLS])
def test_a_fixture_kills_the_mutant_written_beside_it(fid: str, name: str) -> None:
    assert_tells_apart(_fixtures()[fid], name)
