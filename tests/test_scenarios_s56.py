"""The twenty-seventh reading's own fixtures (ids mut27-, fixtures/mutants/
twenty-seventh-reading.yaml): several open doubles of earlier turns, one released.

Each holds under the reference and kills the mutant of the twenty-seventh reading
(conformance/mutants/twenty_seventh_reading.py) written beside it. The pairs were measured
with `mtrain mutants -m mut27-...` (2026-12-06); with these fixtures the reading went from
15 of 17 killed (fewest killers 0: mut27-any-open-dead-frees-all and
mut27-empty-release-oldest-only) to 17 of 17 (fewest 2).
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from scenario_outcomes import outcomes

from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.fixture import Fixture, load_file
from mtrain.conformance.mutants import mutant

FILE = (Path(__file__).parent.parent / "conformance" / "fixtures" / "mutants"
        / "twenty-seventh-reading.yaml")

KILLS = [
    ("mut27-anyopen-001", "mut27-any-open-dead-frees-all"),
    ("mut27-anyopen-002", "mut27-any-open-dead-frees-all"),
    ("mut27-emptyrel-001", "mut27-empty-release-oldest-only"),
    ("mut27-emptyrel-002", "mut27-empty-release-oldest-only"),
]
"""A fixture and a mutant it kills."""


@functools.cache
def _fixtures() -> dict[str, Fixture]:
    return {fx.id: fx for fx in load_file(FILE)}


def test_every_fixture_beside_a_mutant() -> None:
    assert set(_fixtures()) == {fid for fid, _ in KILLS}  # every fixture kills one at least


@pytest.mark.parametrize(("fid", "name"), KILLS, ids=[f"{f}-{n}" for f, n in KILLS])
def test_a_fixture_kills_the_mutant_written_beside_it(fid: str, name: str) -> None:
    fx = _fixtures()[fid]
    assert set(outcomes(fx, ReferenceImplementation())) == {"pass"}
    assert any(s != "pass" for s in outcomes(fx, mutant(name)))
