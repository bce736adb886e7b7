"""Session 51's hand-worked scenarios (ids s51-, sets/thin-corners-session51.yaml): the
double-8, double-10 and double-18 files at the player counts the corpus held least of,
and the house values with the fewest fixtures (holder-lays-and-draws, own-train-started,
heaviest-in-hand, released-after-layers-turn, double-blank-25, chain-no-double-end,
highest-draw, after-engine, highest-double-held, single-round).

Each scenario holds under the reference and kills a mutant beside it: a mutant of the
twenty-second reading (conformance/mutants/twenty_second_reading.py) where one does,
else the catalogue's mutant of the rule the scenario turns on. The pairs were measured
with `mtrain mutants -m ... conformance/fixtures/sets/thin-corners-session51.yaml`
(2026-12-06); with these scenarios the reading's fewest killers rose from 1
(mut22-seat-moves-on-after-going-out) to 5.
"""

from __future__ import annotations

import pytest
from scenario_outcomes import assert_tells_apart, corpus_fixtures

from mtrain.conformance.fixture import Fixture

KILLS = [
    ("s51-out-001", "mut22-out-credited-to-train-owner"),
    ("s51-out-001", "mut22-seat-moves-on-after-going-out"),
    ("s51-out-002", "mut22-last-double-asks-follow-up"),
    ("s51-out-002", "mut22-last-round-totalled-twice"),
    ("s51-seat-001", "mut22-rotation-masked-by-players"),
    ("s51-seat-002", "mut22-after-engine-masked-by-players"),
    ("s51-seat-003", "mut22-draw-start-masked-by-players"),
    ("s51-turn-001", "mut22-drawn-kept-through-follow-up"),
    ("s51-deal-001", "mut22-deal-boneyard-written-as-stack"),
    ("s51-ots-001", "own-train-mexican-ignored"),
    ("s51-heavy-001", "mut22-starter-follows-the-turn"),
    ("s51-release-001", "layers-turn-double-binds-others"),
    ("s51-blank-001", "mut22-winner-written-from-one"),
    ("s51-chain-001", "no-double-end-ignored"),
    ("s51-blocked-001", "mut22-passes-cleared-at-round-end"),
    ("s51-single-001", "mut22-match-over-at-blank-engine"),
    ("s51-hdh-001", "mut22-deal-hands-listed-from-starter"),
]
"""A scenario and a mutant it kills."""


def _fixtures() -> dict[str, Fixture]:
    return corpus_fixtures("s51-")


def test_there_are_fifteen_scenarios_or_more_each_beside_a_mutant() -> None:
    scenarios = set(_fixtures())
    assert len(scenarios) >= 15
    assert scenarios == {fid for fid, _ in KILLS}  # every scenario kills one at least


@pytest.mark.slow
@pytest.mark.parametrize(("fid", "name"), KILLS, ids=[f"{f}-{n}" for f, n in KILLS])
def test_a_scenario_kills_the_mutant_written_beside_it(fid: str, name: str) -> None:
    fx = _fixtures()[fid]
    assert_tells_apart(fx, name)
