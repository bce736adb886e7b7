"""Session 52's hand-worked scenarios (ids s52-, sets/thin-corners-session52.yaml) and the
twenty-third reading's own fixtures (ids mut23-, fixtures/mutants/twenty-third-reading.yaml):
double-9 at 3, 7 and 8 players, double-15 at 2, 3, 5, 6 and 8, the double-10 file at 2
and 4, double-12 at 8, and the values and clauses the corpus held least of.

Each holds under the reference and kills a mutant beside it: a mutant of the
twenty-third reading (conformance/mutants/twenty_third_reading.py) where one does, else
the catalogue's mutant of the rule the scenario turns on. The pairs were measured with
`mtrain mutants conformance/fixtures/sets/thin-corners-session52.yaml` (2026-12-06); with
these fixtures the reading went from 18 of 20 killed (fewest killers 1) to 20 of 20
(fewest 2).
"""

from __future__ import annotations

import pytest
from scenario_outcomes import assert_tells_apart, corpus_fixtures

from mtrain.conformance.fixture import Fixture

KILLS = [
    ("s52-out-001", "mut23-ordinary-last-double-left-open"),
    ("s52-out-001", "mut23-ordinary-double-on-mexican-opens"),
    ("s52-follow-001", "mut23-follow-fail-turn-from-double-train"),
    ("s52-cover-001", "mut23-mexican-cover-lowers-marker"),
    ("s52-chain-001", "mut23-cover-clears-turn-doubles"),
    ("s52-deal-001", "mut23-replacement-skipped-on-short-boneyard"),
    ("s52-deal-002", "holder-draws-no-replacement"),
    ("s52-engine-001", "mut23-deal-engine-search-from-even-top"),
    ("s52-engine-002", "mut23-deal-engine-search-from-even-top"),
    ("s52-first-001", "mut23-first-turn-spent-by-draw"),
    ("s52-blank-001", "double-blank-penalty-ignored"),
    ("s52-single-001", "mut23-winners-before-last-round-added"),
    ("s52-own-001", "own-train-mexican-ignored"),
    ("s52-heavy-001", "heaviest-start-ignored"),
    ("s52-mark-001", "mut23-pass-after-draw-toggles-marker"),
    ("s52-blank-002", "positive-at-face-value"),
    ("s52-match-001", "mut23-winners-before-last-round-added"),
    ("s52-tie-001", "mut23-last-out-counted-twice-in-tie"),
    ("mut23-chain-001", "mut23-cover-clears-turn-doubles"),
    ("mut23-deal-001", "mut23-replacement-skipped-on-short-boneyard"),
    ("mut23-out-001", "mut23-ordinary-last-double-left-open"),
    ("mut23-follow-001", "mut23-follow-fail-turn-from-double-train"),
    ("mut23-cover-001", "mut23-mexican-cover-lowers-marker"),
]
"""A fixture and a mutant it kills."""


def _fixtures() -> dict[str, Fixture]:
    return corpus_fixtures("s52-", "mut23-")


def test_fifteen_scenarios_or_more_and_every_fixture_beside_a_mutant() -> None:
    found = set(_fixtures())
    assert len({f for f in found if f.startswith("s52-")}) >= 15
    assert found == {fid for fid, _ in KILLS}  # every fixture kills one at least


@pytest.mark.slow
@pytest.mark.parametrize(("fid", "name"), KILLS, ids=[f"{f}-{n}" for f, n in KILLS])
def test_a_fixture_kills_the_mutant_written_beside_it(fid: str, name: str) -> None:
    fx = _fixtures()[fid]
    assert_tells_apart(fx, name)
