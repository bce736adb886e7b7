"""The twenty-seventh reading's own fixtures (ids mut27-, fixtures/mutants/
twenty-seventh-reading.yaml): several open doubles of earlier turns, one released.

Each holds under the reference and kills the mutant of the twenty-seventh reading
(conformance/mutants/twenty_seventh_reading.py) written beside it. The pairs were measured
with `mtrain mutants -m mut27-...` (2026-12-06); with these fixtures the reading went from
15 of 17 killed (fewest killers 0: mut27-any-open-dead-frees-all and
mut27-empty-release-oldest-only) to 17 of 17 (fewest 2).
"""

from __future__ import annotations

import pytest
from scenario_outcomes import MUTANT_FIXTURES, assert_tells_apart, file_fixtures

from mtrain.conformance.fixture import Fixture

FILE = MUTANT_FIXTURES / "twenty-seventh-reading.yaml"

KILLS = [
    ("mut27-anyopen-001", "mut27-any-open-dead-frees-all"),
    ("mut27-anyopen-002", "mut27-any-open-dead-frees-all"),
    ("mut27-emptyrel-001", "mut27-empty-release-oldest-only"),
    ("mut27-emptyrel-002", "mut27-empty-release-oldest-only"),
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
