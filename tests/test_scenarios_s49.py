"""Session 49's hand-worked scenarios on the tables house-rule engines meet most: 9 to 12
players on the double-15 and double-18 sets, tables of one's own, later and last rounds.

Two things are checked. The scenarios written as tables (not deals) for 9 to 12 seats
are asked of the example engines whose own tables deal that many players, wherever
their rules are known values the scenario's outcome reads (`selection.entry_for`, the
entry conform runs), and left out where those rules change the outcome. And the
scenarios kill the twentieth reading's mutants they were written beside, each with a
witness more than the corpus had (conformance/mutants/twentieth_reading.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario_outcomes import assert_tells_apart, corpus_fixtures

from mtrain.conformance.fixture import Fixture
from mtrain.conformance.selection import entry_for
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

EXAMPLES = Path(__file__).parent / "examples"

ASKED = {
    # double-18, a table of its own to 12 players; single first turn, anywhere, oldest
    # first, released, owner-plays-own, full-round-of-passes, penalty, double-blank-50,
    # most-outs (mexican_first_turn and own_train_first its own: every train is started)
    "hump-rules.yaml": ["s49-big-001", "s49-big-002", "s49-big-003", "s49-big-004",
                        "s49-big-005", "s49-big-006", "s49-big-008", "s49-big-009",
                        "s49-big-011", "s49-big-014", "s49-big-015", "s49-match-001",
                        "s49-match-003"],
    # double-15, a table of its own to 12 players; penalty at face, a shared tie, and a
    # match of its own (so no scenario that names the winners)
    "signalbox-rules.yaml": ["s49-big-003", "s49-big-004", "s49-big-006", "s49-big-008",
                             "s49-big-009", "s49-big-010", "s49-big-011", "s49-big-015",
                             "s49-match-003"],
}

LEFT_OUT = {
    # seat 0's hand holds [0-0], which hump's double-blank-50 scores 50 (SCORE-3); a
    # second draw in a turn (TURN-5) that draw-one refuses; a chain (FIRST-1) where hump
    # lays one tile; a next round dealt by a table, hump's own
    "hump-rules.yaml": ["s49-big-010", "s49-big-007", "s49-big-016", "s49-match-002"],
    # tiles of a double-18 set
    "signalbox-rules.yaml": ["s49-big-001", "s49-big-014"],
}

KILLS = [
    ("s49-big-017", "mut20-designation-wraps-at-eight"),
    ("s49-match-004", "mut20-most-outs-ignored-in-single-round"),
    ("s49-big-009", "mut20-open-doubles-on-eight-trains"),
    ("s49-big-009", "mut20-oldest-first-by-train-order"),
    ("s49-big-013", "mut20-engine-search-wraps-at-eight"),
    ("s49-big-013", "mut20-lap-wraps-at-eight"),
    ("s49-big-010", "mut20-round-scores-in-a-byte"),
    ("s49-match-001", "mut20-most-outs-read-as-went-out"),
    ("s49-match-001", "mut20-lowest-seat-in-playing-order"),
    ("s49-match-001", "mut20-match-totals-in-a-byte"),
    ("s49-match-003", "mut20-blank-rule-ignored-above-twelve"),
    ("s49-big-007", "mut20-unfollowable-drawn-double-unplayable"),
    ("s49-big-007", "mut20-until-playable-keeps-last-draw-only"),
    ("s49-big-008", "mut20-empty-release-only-dead-doubles"),
    ("s49-own-004", "mut20-hand-size-clamped-at-sixteen"),
    ("s49-own-004", "mut20-boneyard-array-of-91"),
]
"""A scenario and a mutant it kills (measured with `mtrain mutants -m ...`, 2026-12-06)."""


def _fixtures() -> dict[str, Fixture]:
    return corpus_fixtures("s49-")


def _entries(rules: str, ids: list[str]) -> dict[str, bool]:
    """Whether conform runs an entry of each fixture under the rule-set file `rules`."""
    fixtures, space = _fixtures(), Space()
    rs = catalog().rules_file(EXAMPLES / rules)
    return {fid: entry_for(fixtures[fid], rs, space)[0] is not None for fid in ids}


@pytest.mark.parametrize("rules", sorted(ASKED))
def test_a_large_table_scenario_is_asked_of_an_engine_whose_own_table_deals_it(
        rules: str) -> None:
    found = _entries(rules, ASKED[rules])
    assert [fid for fid, asked in found.items() if not asked] == []


@pytest.mark.parametrize("rules", sorted(LEFT_OUT))
def test_a_scenario_whose_outcome_those_rules_change_is_left_out(rules: str) -> None:
    found = _entries(rules, LEFT_OUT[rules])
    assert [fid for fid, asked in found.items() if asked] == []


def test_a_match_whose_length_is_its_own_is_asked_its_winners_only_if_it_ends() -> None:
    """signalbox plays a match length of its own (and a start of its own): s49-match-001's
    last round is asked only as the cut that names the winners should the match end there
    (match_end_alone), not whether it ends. Until session 54 it was left out whole: the
    table's default starter (the notation's, read for a table that names none) counted as
    a read of signalbox's own start (partition.notation_only now excuses it there too)."""
    fixtures, space = _fixtures(), Space()
    rs = catalog().rules_file(EXAMPLES / "signalbox-rules.yaml")
    entry, _ = entry_for(fixtures["s49-match-001"], rs, space)
    assert entry is not None
    assert entry.match_over is None and entry.winners_unless_going_on
    assert entry.winners == (2, 10)  # shared ties (signalbox's tie rule): seats 2 and 10


def test_there_are_twenty_scenarios_or_more() -> None:
    assert len(_fixtures()) >= 20


@pytest.mark.slow
@pytest.mark.parametrize(("fid", "name"), KILLS, ids=[f"{f}-{n}" for f, n in KILLS])
def test_a_scenario_kills_the_mutant_written_beside_it(fid: str, name: str) -> None:
    fx = _fixtures()[fid]
    assert_tells_apart(fx, name)
