"""The twenty-eighth reading's own fixtures (ids mut28-, fixtures/mutants/
twenty-eighth-reading.yaml): a chain-anywhere first turn covering an earlier chain's
double, the deal's search for a double that ends at the first one drawn, and the last
rounds of a match on a set no source publishes (double-8, -10, -16).

Each holds under the reference and kills the mutant of the twenty-eighth reading
(conformance/mutants/twenty_eighth_reading.py) written beside it. The pairs were measured
with `mtrain mutants -m mut28-...` (2026-12-07); with these fixtures the reading went from
13 of 16 killed (fewest killers 0: mut28-chain-anywhere-cover-ends-chain,
mut28-deal-search-in-laps and mut28-rounds-of-published-set) to 16 of 16 (fewest 2).
"""

from __future__ import annotations

import pytest
from scenario_outcomes import MUTANT_FIXTURES, assert_tells_apart, file_fixtures

from mtrain.conformance.fixture import Fixture

FILE = MUTANT_FIXTURES / "twenty-eighth-reading.yaml"

KILLS = [
    ("mut28-chaincover-001", "mut28-chain-anywhere-cover-ends-chain"),
    ("mut28-chaincover-002", "mut28-chain-anywhere-cover-ends-chain"),
    ("mut28-dblsearch-001", "mut28-deal-search-in-laps"),
    ("mut28-dblsearch-002", "mut28-deal-search-in-laps"),
    ("mut28-lastrounds-001", "mut28-rounds-of-published-set"),
    ("mut28-lastrounds-002", "mut28-rounds-of-published-set"),
    ("mut28-lastrounds-003", "mut28-rounds-of-published-set"),
]
"""A fixture and a mutant it kills."""


def _fixtures() -> dict[str, Fixture]:
    return file_fixtures(FILE)


def test_every_fixture_beside_a_mutant() -> None:
    assert set(_fixtures()) == {fid for fid, _ in KILLS}  # every fixture kills one at least


@pytest.mark.parametrize(("fid", "name"), KILLS, ids=[f"{f}-{n}" for f, n in KILLS])
def test_a_fixture_kills_the_mutant_written_beside_it(fid: str, name: str) -> None:
    fx = _fixtures()[fid]
    assert_tells_apart(fx, name)
