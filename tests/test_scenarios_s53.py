"""Session 53's hand-worked scenarios (ids s53-, sets/thin-corners-session53.yaml) and the
twenty-fourth reading's own fixtures (ids mut24-, fixtures/mutants/twenty-fourth-reading.yaml):
double-8 at 2 and 3 players, double-9 at 4 and 6, double-10 at 4, Celko's double-9 and
double-15 tables and OurPastimes' at 2, Fundex's at 7, and the values and clauses the
corpus held least of (owner-plays-anywhere, anyone-plays-on, double-blank-25, any-open,
lowest-seat, most-outs, cover-own, released-after-layers-turn, positive scoring,
penalty-blocked-winner, full-round-of-passes).

Each holds under the reference and kills a mutant beside it: a mutant of the
twenty-fourth reading (conformance/mutants/twenty_fourth_reading.py) where one does, else
the catalogue's mutant of the rule the scenario turns on. The pairs were measured with
`mtrain mutants conformance/fixtures/sets/thin-corners-session53.yaml` (2026-12-06); with
these fixtures the reading went from 17 of 20 killed (fewest killers 0) to 20 of 20
(fewest 2).
"""

from __future__ import annotations

import pytest
from scenario_outcomes import assert_tells_apart, corpus_fixtures

from mtrain.conformance.fixture import Fixture

KILLS = [
    ("s53-block-001", "mut24-blocked-unchecked-after-follow-pass"),
    ("s53-tie-001", "mut24-blocked-winner-tie-first-two"),
    ("s53-release-001", "mut24-released-double-binds-layer"),
    ("s53-pass-001", "mut24-emptying-draw-counts-a-pass"),
    ("s53-deal-001", "mut24-fundex-seven-take-11"),
    ("s53-deal-002", "mut24-celko-d15-two-take-16"),
    ("s53-deal-003", "mut24-celko-d9-two-take-10"),
    ("s53-positive-001", "mut24-collector-takes-largest-hand"),
    ("s53-match-001", "mut24-three-way-tie-nobody-wins"),
    ("s53-seat-001", "lowest-seat-ignored"),
    ("s53-outs-001", "most-outs-ignored"),
    ("s53-mark-001", "marker-owner-anywhere-ignored"),
    ("s53-anyone-001", "marker-anyone-ignored"),
    ("s53-blank-001", "double-blank-25-at-50"),
    ("s53-cover-001", "cover-own-ignored"),
    ("s53-open-001", "any-open-ignored"),
    ("s53-order-001", "mut24-turn-doubles-newest-first"),
    ("mut24-blocked-001", "mut24-blocked-winner-tie-first-two"),
    ("mut24-follow-001", "mut24-blocked-unchecked-after-follow-pass"),
    ("mut24-release-001", "mut24-released-double-binds-layer"),
    ("mut24-pass-001", "mut24-emptying-draw-counts-a-pass"),
]
"""A fixture and a mutant it kills."""


def _fixtures() -> dict[str, Fixture]:
    return corpus_fixtures("s53-", "mut24-")


def test_fifteen_scenarios_or_more_and_every_fixture_beside_a_mutant() -> None:
    found = set(_fixtures())
    assert len({f for f in found if f.startswith("s53-")}) >= 15
    assert found == {fid for fid, _ in KILLS}  # every fixture kills one at least


@pytest.mark.slow
@pytest.mark.parametrize(("fid", "name"), KILLS, ids=[f"{f}-{n}" for f, n in KILLS])
def test_a_fixture_kills_the_mutant_written_beside_it(fid: str, name: str) -> None:
    fx = _fixtures()[fid]
    assert_tells_apart(fx, name)
