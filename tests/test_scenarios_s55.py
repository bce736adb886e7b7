"""The twenty-sixth reading's own fixtures (ids mut26-, fixtures/mutants/
twenty-sixth-reading.yaml): the double-16 file's table at its last rows (9 and 10
players), and a deal asked for one player.

Each holds under the reference and kills the mutant of the twenty-sixth reading
(conformance/mutants/twenty_sixth_reading.py) written beside it. The pairs were measured
with `mtrain mutants -m mut26-...` (2026-12-06); with these fixtures the reading went from
17 of 18 killed (fewest killers 0; mut26-solo-game-dealt by one) to 18 of 18 (fewest 2).
"""

from __future__ import annotations

import pytest
from scenario_outcomes import assert_tells_apart, corpus_fixtures

from mtrain.conformance.fixture import Fixture

KILLS = [
    ("mut26-d16-001", "mut26-d16-table-stops-at-eight"),
    ("mut26-d16-002", "mut26-d16-table-stops-at-eight"),
    ("mut26-solo-001", "mut26-solo-game-dealt"),
]
"""A fixture and a mutant it kills."""


def _fixtures() -> dict[str, Fixture]:
    return corpus_fixtures("mut26-")


def test_every_fixture_beside_a_mutant() -> None:
    assert set(_fixtures()) == {fid for fid, _ in KILLS}  # every fixture kills one at least


@pytest.mark.parametrize(("fid", "name"), KILLS, ids=[f"{f}-{n}" for f, n in KILLS])
def test_a_fixture_kills_the_mutant_written_beside_it(fid: str, name: str) -> None:
    fx = _fixtures()[fid]
    assert_tells_apart(fx, name)
