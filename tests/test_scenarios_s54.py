"""The twenty-fifth reading's own fixtures (ids mut25-, fixtures/mutants/
twenty-fifth-reading.yaml): FIRST-9's starter in a later round under highest-draw-start,
a later round's chain doubles (FIRST-5), and END-3's count around a first-turn pass, a
failed follow-up and a play off the own train, and a cover on another player's unmarked
train under the three marker rules.

Each holds under the reference and kills the mutant of the twenty-fifth reading
(conformance/mutants/twenty_fifth_reading.py) written beside it. The pairs were measured
with `mtrain mutants -m mut25-...` (2026-12-06); with these fixtures the reading went from
15 of 18 killed (fewest killers 0) to 18 of 18 (fewest 2).
"""

from __future__ import annotations

import pytest
from scenario_outcomes import assert_tells_apart, corpus_fixtures

from mtrain.conformance.fixture import Fixture

KILLS = [
    ("mut25-starter-001", "mut25-starter-only-means-draw-winner"),
    ("mut25-starter-002", "mut25-starter-only-means-draw-winner"),
    ("mut25-chain-001", "mut25-chain-doubles-wait-in-round-one"),
    ("mut25-chain-002", "mut25-chain-doubles-wait-in-round-one"),
    ("mut25-pass-001", "mut25-first-turn-pass-uncounted"),
    ("mut25-pass-002", "mut25-passes-reset-at-home-only"),
    ("mut25-follow-001", "mut25-follow-pass-counts-twice"),
    ("mut25-follow-002", "mut25-follow-pass-counts-twice"),
    ("mut25-cover-001", "mut25-cover-elsewhere-lowers-marker"),
]
"""A fixture and a mutant it kills."""


def _fixtures() -> dict[str, Fixture]:
    return corpus_fixtures("mut25-")


def test_every_fixture_beside_a_mutant() -> None:
    assert set(_fixtures()) == {fid for fid, _ in KILLS}  # every fixture kills one at least


@pytest.mark.slow
@pytest.mark.parametrize(("fid", "name"), KILLS, ids=[f"{f}-{n}" for f, n in KILLS])
def test_a_fixture_kills_the_mutant_written_beside_it(fid: str, name: str) -> None:
    fx = _fixtures()[fid]
    assert_tells_apart(fx, name)
