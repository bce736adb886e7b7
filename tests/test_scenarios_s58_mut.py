"""The twenty-ninth reading's own fixtures (ids mut29-, fixtures/mutants/
twenty-ninth-reading.yaml): under own-train-first another player's empty marked train
started by a player whose own train is started, and a duty that comes before starting an
empty own train; under engine-holder-draws with the rotating start the holder's
replacement; under starter-opens-mexican a non-starter's first-turn chain on its own train,
the Mexican Train still closed.

Each holds under the reference and kills the mutant of the twenty-ninth reading
(conformance/mutants/twenty_ninth_reading.py) written beside it. The pairs were measured
with `mtrain mutants -m mut29-...` (2026-12-07); with these fixtures the reading went from
11 of 14 killed (fewest killers 0: mut29-own-train-first-closes-empty-trains,
mut29-own-train-first-start-beside-duty and mut29-replacement-to-starter) to 14 of 14
(fewest 2).
"""

from __future__ import annotations

import pytest
from scenario_outcomes import MUTANT_FIXTURES, assert_tells_apart, file_fixtures

from mtrain.conformance.fixture import Fixture

FILE = MUTANT_FIXTURES / "twenty-ninth-reading.yaml"

KILLS = [
    ("mut29-ownfirst-001", "mut29-own-train-first-closes-empty-trains"),
    ("mut29-ownfirst-002", "mut29-own-train-first-closes-empty-trains"),
    ("mut29-ownfirst-003", "mut29-own-train-first-start-beside-duty"),
    ("mut29-ownfirst-004", "mut29-own-train-first-start-beside-duty"),
    ("mut29-replace-001", "mut29-replacement-to-starter"),
    ("mut29-replace-002", "mut29-replacement-to-starter"),
    ("mut29-starter-001", "mut29-starter-only-lifted-by-own-train"),
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
