"""The thirty-fourth reading's own fixtures (ids mut34-, fixtures/mutants/mut34-*.yaml):
blocked rounds on the double-6 file where a dead oldest double binds first under
oldest-first and stays-open, though a newer one could be covered (mut34-blocked-oldest);
round-2 deals of a double-6 match where the deal opens on [6-6] (ENG-7, ENG-8) and the
round's own double, [5-5], is scored in hand (mut34-round-double).

Each holds under the reference and kills the mutant of the thirty-fourth reading
(conformance/mutants/thirty_fourth_reading.py) written beside it. The pairs were measured
with `mtrain mutants -m mut34-...` (2026-12-07): before these fixtures 1 of the reading's
14 mutants survived the corpus (mut34-round-double-unpriced) and 1 was killed by one
fixture (mut34-blocked-ignores-oldest-first, doubles-064); with them every one is killed
by two fixtures or more.
"""

from __future__ import annotations

import pytest
from scenario_outcomes import MUTANT_FIXTURES, assert_tells_apart, file_fixtures, outcomes

from mtrain.conformance.fixture import Fixture
from mtrain.conformance.mutants import mutant

FILES = [MUTANT_FIXTURES / "mut34-blocked-oldest.yaml",
         MUTANT_FIXTURES / "mut34-round-double.yaml"]

KILLS = [
    ("mut34-oldest-001", "mut34-blocked-ignores-oldest-first"),
    ("mut34-oldest-001", "mut34-blocked-tested-at-starter-only"),
    ("mut34-oldest-002", "mut34-blocked-ignores-oldest-first"),
    ("mut34-oldest-002", "mut34-blocked-tested-at-starter-only"),
    ("mut34-rounddbl-001", "mut34-round-double-unpriced"),
    ("mut34-rounddbl-002", "mut34-round-double-unpriced"),
]
"""A fixture and a mutant it kills."""


def _fixtures() -> dict[str, Fixture]:
    out: dict[str, Fixture] = {}
    for path in FILES:
        out.update(file_fixtures(path))
    return out


def test_every_fixture_beside_a_mutant() -> None:
    assert set(_fixtures()) == {fid for fid, _ in KILLS}  # every fixture kills one at least


@pytest.mark.parametrize(("fid", "name"), KILLS, ids=[f"{f}-{n}" for f, n in KILLS])
def test_a_fixture_kills_the_mutant_written_beside_it(fid: str, name: str) -> None:
    assert_tells_apart(_fixtures()[fid], name)


@pytest.mark.parametrize("fid", ["mut34-rounddbl-001", "mut34-rounddbl-002"])
def test_the_round_double_fixtures_leave_the_top_double_reading_alone(fid: str) -> None:
    """[6-6] is the engine there, never in hand: the [N-N] reading (a different slip) plays
    them as the reference does, so each fixture speaks to its own mutant."""
    fx = _fixtures()[fid]
    assert set(outcomes(fx, mutant("mut34-top-double-unpriced"))) == {"pass"}
