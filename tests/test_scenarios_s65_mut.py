"""The thirty-fifth reading's own fixtures (ids mut35-, fixtures/mutants/mut35-*.yaml): a
double laid on another player's marked train whose follow-up fails, under anyone-plays-on
(MARK-4) and the two other marker rules; END-2 under any-open beside a dead older double
(DBL-8, DBL-10); a three-way tie in the draw for the start (SEAT-5).

Each holds under the reference and kills the mutant of the thirty-fifth reading
(conformance/mutants/thirty_fifth_reading.py) written beside it. Measured with `mtrain
mutants -m mut35-...` (2026-12-07): before these fixtures 1 of the reading's 12 mutants
survived the corpus (mut35-failed-follow-restores-markers) and 2 were killed by one
fixture each (mut35-blocked-reads-oldest-first, mut35-draw-run-off-first-two); with them
every one is killed by two fixtures or more.
"""

from __future__ import annotations

import functools

import pytest
from scenario_outcomes import MUTANT_FIXTURES, assert_tells_apart, file_fixtures

from mtrain.conformance.fixture import Fixture

FILE = MUTANT_FIXTURES / "mut35-markers-blocked-draw.yaml"

KILLS = [
    ("mut35-follow-001", "mut35-failed-follow-restores-markers"),
    ("mut35-follow-001", "mut35-anyone-double-keeps-marker"),
    ("mut35-follow-002", "mut35-failed-follow-restores-markers"),
    ("mut35-anyopen-001", "mut35-blocked-reads-oldest-first"),
    ("mut35-draw-001", "mut35-draw-run-off-first-two"),
]
"""A fixture and a mutant it kills."""


@functools.cache
def _fixtures() -> dict[str, Fixture]:
    return dict(file_fixtures(FILE))


@pytest.mark.parametrize(("fid", "name"), KILLS, ids=[f"{f}-{n}" for f, n in KILLS])
def test_a_fixture_kills_the_mutant_written_beside_it(fid: str, name: str) -> None:
    assert_tells_apart(_fixtures()[fid], name)


def test_every_fixture_beside_a_mutant() -> None:
    assert set(_fixtures()) == {fid for fid, _ in KILLS}  # every fixture kills one at least
