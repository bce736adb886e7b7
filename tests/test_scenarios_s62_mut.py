"""The thirty-third reading's own fixtures (ids mut33-, fixtures/mutants/thirty-third-reading.yaml):
doubles above [15-15] on the double-16 and double-18 files, which ask for a tile and bind
as any double does; DBL-9's count where a number is on 17 or 19 tiles; a turn that leaves
a double open beside older ones, under released-when-boneyard-empty, released-after-
layers-turn and two first-turn chains; a follow-up covering the double whose marker it
took off under anyone-plays-on.

Each holds under the reference and kills the mutant of the thirty-third reading
(conformance/mutants/thirty_third_reading.py) written beside it. The pairs were measured
with `mtrain mutants -m mut33-...` (2026-12-07): before these fixtures 1 of the reading's
16 mutants survived the corpus (mut33-high-double-plain) and 2 were killed by one fixture
(chaindbl-010, sets-041); with them every one is killed by three fixtures or more.
"""

from __future__ import annotations

import pytest
from scenario_outcomes import MUTANT_FIXTURES, assert_tells_apart, file_fixtures

from mtrain.conformance.fixture import Fixture

FILE = MUTANT_FIXTURES / "thirty-third-reading.yaml"

KILLS = [
    ("mut33-highdbl-001", "mut33-high-double-plain"),
    ("mut33-highdbl-002", "mut33-high-double-plain"),
    ("mut33-highdbl-003", "mut33-high-double-plain"),
    ("mut33-highdbl-004", "mut33-high-double-plain"),
    ("mut33-count-001", "mut33-release-counted-to-sixteen"),
    ("mut33-count-002", "mut33-release-counted-to-sixteen"),
    ("mut33-older-001", "mut33-newest-turn-forgets-older"),
    ("mut33-older-002", "mut33-newest-turn-forgets-older"),
    ("mut33-older-003", "mut33-newest-turn-forgets-older"),
    ("mut33-unmarked-001", "mut33-follow-loses-unmarked-double"),
]
"""A fixture and a mutant it kills."""


def _fixtures() -> dict[str, Fixture]:
    return file_fixtures(FILE)


def test_every_fixture_beside_a_mutant() -> None:
    assert set(_fixtures()) == {fid for fid, _ in KILLS}  # every fixture kills one at least


@pytest.mark.parametrize(("fid", "name"), KILLS, ids=[f"{f}-{n}" for f, n in KILLS])
def test_a_fixture_kills_the_mutant_written_beside_it(fid: str, name: str) -> None:
    assert_tells_apart(_fixtures()[fid], name)
