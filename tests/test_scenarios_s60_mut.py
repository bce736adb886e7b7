"""The thirty-first reading's own fixtures (ids mut31-, fixtures/mutants/thirty-first-reading.yaml):
a tile drawn beside two open doubles under oldest-first and any-open-double; a released
double before the own train is started under own-train-first; a first turn laid anywhere
beside two doubles left by earlier chains, with and without own-train-first; a chain first
turn that cannot start under draw-until-playable; a double on the Mexican Train to cover
from an empty own train under own-train-opens-mexican.

Each holds under the reference and kills the mutant of the thirty-first reading
(conformance/mutants/thirty_first_reading.py) written beside it. The pairs were measured
with `mtrain mutants -m mut31-...` (2026-12-07): before these fixtures 5 of the reading's
16 mutants survived the corpus and 2 were killed by one fixture (doubles-053); with them
every one is killed by two fixtures or more.
"""

from __future__ import annotations

import pytest
from scenario_outcomes import MUTANT_FIXTURES, assert_tells_apart, file_fixtures

from mtrain.conformance.fixture import Fixture

FILE = MUTANT_FIXTURES / "thirty-first-reading.yaml"

KILLS = [
    ("mut31-drawn-001", "mut31-oldest-first-drawn-covers-any"),
    ("mut31-drawn-001", "mut31-any-open-drawn-covers-oldest"),
    ("mut31-drawn-002", "mut31-oldest-first-drawn-covers-any"),
    ("mut31-drawn-002", "mut31-any-open-drawn-covers-oldest"),
    ("mut31-ownfirst-001", "mut31-own-train-first-covers-released"),
    ("mut31-ownfirst-002", "mut31-own-train-first-covers-released"),
    ("mut31-chaincover-001", "mut31-chain-anywhere-covers-oldest"),
    ("mut31-chaincover-001", "mut31-chain-anywhere-cover-before-own-train"),
    ("mut31-chaincover-002", "mut31-chain-anywhere-covers-oldest"),
    ("mut31-chaincover-002", "mut31-chain-anywhere-cover-before-own-train"),
    ("mut31-firstdraw-001", "mut31-until-playable-over-first-turn"),
    ("mut31-firstdraw-002", "mut31-until-playable-over-first-turn"),
    ("mut31-mexcover-001", "mut31-own-train-started-blocks-mexican-cover"),
    ("mut31-mexcover-002", "mut31-own-train-started-blocks-mexican-cover"),
]
"""A fixture and a mutant it kills."""


def _fixtures() -> dict[str, Fixture]:
    return file_fixtures(FILE)


def test_every_fixture_beside_a_mutant() -> None:
    assert set(_fixtures()) == {fid for fid, _ in KILLS}  # every fixture kills one at least


@pytest.mark.parametrize(("fid", "name"), KILLS, ids=[f"{f}-{n}" for f, n in KILLS])
def test_a_fixture_kills_the_mutant_written_beside_it(fid: str, name: str) -> None:
    assert_tells_apart(_fixtures()[fid], name)
