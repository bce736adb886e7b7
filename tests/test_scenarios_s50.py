"""Session 50's hand-worked scenarios (ids s50-) and the twenty-first reading's witnesses
(ids mut21-): tables of one's own on the double-6, double-8, double-10 and double-18
files, later rounds' deals, 9 to 12 players on double-15 and double-18, and house-rule
overlays (positive scoring, the tie rules, single-round, blocked-winner,
draw-until-playable, highest-double-held).

Each scenario holds under the reference and kills a mutant of the twenty-first reading
(conformance/mutants/twenty_first_reading.py) that the corpus had one witness of, or
none, before it: the pairs below were measured with `mtrain mutants -m ...` (2026-12-06).
"""

from __future__ import annotations

import pytest
from scenario_outcomes import assert_tells_apart, corpus_fixtures

from mtrain.conformance.fixture import Fixture

KILLS = [
    ("s50-tie-001", "mut21-most-outs-over-whole-table"),
    ("s50-tie-001", "mut21-collector-takes-following-seats"),
    ("s50-tie-002", "mut21-most-outs-equal-shared-by-all"),
    ("s50-tie-002", "mut21-most-outs-then-lowest-seat"),
    ("s50-tie-003", "mut21-outs-read-from-zero-scores"),
    ("s50-blocked-001", "mut21-blocked-scores-differences"),
    ("s50-pips-001", "mut21-ends-in-four-bits"),
    ("s50-mark-001", "mut21-last-tile-bookkeeping-skipped"),
    ("s50-drawdbl-001", "mut21-until-playable-stops-at-double"),
    ("s50-own-001", "mut21-mexican-out-uncredited"),
    ("s50-own-002", "mut21-engines-ascend-from-blank"),
    ("s50-own-003", "mut21-engines-ascend-from-blank"),
    ("s50-own-004", "mut21-shared-tie-to-those-out"),
    ("s50-own-005", "mut21-hands-dealt-off-the-bottom"),
    ("s50-big-001", "mut21-hands-dealt-off-the-bottom"),
    ("s50-big-002", "mut21-lowest-seat-read-from-the-end"),
    ("s50-big-003", "mut21-engines-ascend-from-blank"),
    ("s50-later-001", "mut21-hands-dealt-off-the-bottom"),
    ("mut21-pips-001", "mut21-ends-in-four-bits"),
    ("mut21-draw-001", "mut21-until-playable-passes-doubles"),
]
"""A scenario and a mutant it kills."""


def _fixtures() -> dict[str, Fixture]:
    return corpus_fixtures("s50-", "mut21-")


def test_there_are_fifteen_scenarios_or_more_each_beside_a_mutant() -> None:
    scenarios = {fid for fid in _fixtures() if fid.startswith("s50-")}
    assert len(scenarios) >= 15
    assert scenarios <= {fid for fid, _ in KILLS}  # every scenario kills one at least


@pytest.mark.slow
@pytest.mark.parametrize(("fid", "name"), KILLS, ids=[f"{f}-{n}" for f, n in KILLS])
def test_a_scenario_kills_the_mutant_written_beside_it(fid: str, name: str) -> None:
    fx = _fixtures()[fid]
    assert_tells_apart(fx, name)
