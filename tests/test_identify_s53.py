"""identify inside an engine's own match (session 53).

reefer (tests/examples/js/reefer_engine.js) plays five rounds of a double-8 set's nine
(`match_length: other`) and refuses the tables of rounds 6 to 9. identify left its scoring
undetermined: 31 of the 34 fixtures that tell scoring apart there were refused, most of
them set at the last round of a full match (the [0-0] engine), and its round ends from play
were drawn at any of the nine rounds. Now the engine is asked which rounds it deals
(own_rounds.last_dealt), a refused table is carried to one of them where the numbers of
the two engines are written nowhere it reads as written (carried.py), the model judging the
carried table afresh, and the round ends from play keep to those rounds.
"""

from __future__ import annotations

from typing import Any

import pytest

from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.identify.carried import carried, carry_all, dealt_rounds, round_of
from mtrain.conformance.identify.cells import explore_in
from mtrain.conformance.identify.found import Observation
from mtrain.conformance.identify.shared import escaping
from mtrain.conformance.interface import RefusedSetup
from mtrain.conformance.situations import end_situations, stand_in_for
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space

REEFER_TABLE = ((3, 12), (4, 10), (5, 8), (6, 7), (7, 6))
MEASURED = {"tile_set": frozenset({"double-8"}), "hand_sizes": frozenset({"custom"}),
            "engine_procedure": frozenset({"set-aside"}),
            "starting_seat": frozenset({"rotate"})}


@pytest.fixture(scope="module")
def corpus() -> dict[str, Fixture]:
    fixtures, errors = load_corpus()
    assert not errors
    return {fx.id: fx for fx in fixtures}


def reefer_rules() -> Ruleset:
    return catalog().rules_file("tests/examples/js/reefer-rules.yaml")


class FiveRounds:
    """The reference engine with a match of five rounds: a deal of a later round refused
    with no clause, as reefer refuses it."""

    def __init__(self) -> None:
        self.ref = ReferenceImplementation()

    def deal(self, ruleset: Any, players: int, round: int, order: list[str],
             draw: Any = None) -> Any:
        if round > 5:
            raise RefusedSetup(f"a match has rounds 1 to 5, not {round}")
        return self.ref.deal(ruleset, players, round, order, draw)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.ref, name)


def test_the_last_round_an_engine_deals_is_asked_at_each_player_count() -> None:
    rs = reefer_rules()
    plays = stand_in_for(rs)
    assert plays is not None
    assert dealt_rounds(FiveRounds(), plays, [3, 5, 3]) == {3: 5, 5: 5}
    # the reference's own full match: all nine rounds of a double-8 set
    assert dealt_rounds(ReferenceImplementation(), plays, [4]) == {4: 9}


def test_round_ends_from_play_keep_to_the_rounds_the_engine_deals() -> None:
    rs = reefer_rules()
    plays = stand_in_for(rs)
    assert plays is not None
    everywhere = [round_of(fx, 8) for fx in end_situations(rs, plays, 8)]
    assert max(r or 0 for r in everywhere) > 5  # without a limit, past reefer's match
    kept = [round_of(fx, 8) for fx in end_situations(
        rs, plays, 8, rounds={n: 5 for n, _ in REEFER_TABLE})]
    assert len(kept) == 8 and all(r is not None and 1 <= r <= 5 for r in kept), kept


def test_a_refused_last_round_table_is_carried_with_its_hands_and_answers_as_written(
        corpus: dict[str, Fixture]) -> None:
    fx = corpus["house49a-004"]  # a blocked round at [0-0]: its hands hold 1 to 6
    moved = carried(fx, 8, 5)
    assert moved is not None and moved.table is not None and fx.table is not None
    # rounds 5 to 3 ([4-4], [5-5], [6-6]) are numbers its hands hold: round 2, [7-7]
    assert moved.id == "house49a-004>round-2" and moved.table["engine"] == 7
    assert moved.table["hands"] == fx.table["hands"] and moved.expect == fx.expect
    assert round_of(moved, 8) == 2
    # the model judges it afresh: a blocked round scored at round 2 as at round 9, each
    # known scoring passing its own entry alone (match_length full: the table exists)
    space = Space(catalog())
    pieces = explore_in(moved, {**space.full(), **MEASURED}, MEASURED, space, REEFER_TABLE)
    by_scoring = {next(iter(p.region["scoring"])): p.outcomes for p in pieces
                  if "scoring" in p.region}
    assert by_scoring == {"penalty": ("pass", "fail", "fail"),
                          "penalty-blocked-winner": ("fail", "pass", "fail"),
                          "positive": ("fail", "fail", "pass")}


def test_a_table_is_carried_only_past_the_last_round_and_with_its_numbers_free(
        corpus: dict[str, Fixture]) -> None:
    # trains from [0-0] are swapped with the new engine's number; the hand keeps [6-2]
    moved = carried(corpus["house47a-001"], 8, 5)
    assert moved is not None and moved.table is not None
    assert moved.table["trains"] == {0: ["7-4"], 1: ["7-1"], 2: ["7-3", "3-6"],
                                     "mexican": ["7-5"]}
    assert carried(corpus["house47a-001"], 8, 9) is None  # round 9 is dealt
    assert carried(corpus["ident45-003"], 8, 5) is None  # round 3: nothing to carry
    # a table whose engine's number a hand holds cannot move without changing that hand
    s47 = corpus["s47-match-001"]
    assert s47.table is not None and round_of(s47, 8) == 9
    assert carried(s47, 8, 5) is None
    # and only for a player count whose rounds the engine was asked
    refused = [Observation(corpus["house49a-004"], (None, None, None), refused=True)]
    assert carry_all(refused, 8, {4: 5}) == []
    assert [f.id for f in carry_all(refused, 8, {3: 5})] == ["house49a-004>round-2"]


def test_an_early_end_keeps_the_match_length_open_to_a_rule_of_its_own_after_a_shared_failure(
        corpus: dict[str, Fixture]) -> None:
    """sleeper with its bugs on: seat 0's total left out of MATCH-1's sum charges every
    round end from round 2 to MATCH-1, a clause every value shares, so its declared
    `match_length: full` was taken at its word there, and its match stopping at 200
    (the engine naming winners where the entry expects the match to go on) was left to
    its scoring of its own. The early end is no known value's the entry is about."""
    fx = corpus["house47a-001"]
    failed = tuple("fail" for _ in fx.expect)
    charged: dict[int, tuple[str, ...]] = {i: ("MATCH-1",) for i in range(len(fx.expect))}
    free = ["scoring", "match_length"]
    cat = catalog()
    plain = Observation(fx, failed, by_entry=charged)
    assert escaping(plain, cat, free, {}, {"match_length"}) == ["scoring"]  # its word
    early = Observation(fx, failed, by_entry=charged, over_early=frozenset({0}))
    assert escaping(early, cat, free, {}, {"match_length"}) == free
    # a word on another option is still kept
    assert escaping(early, cat, free, {}, {"scoring"}) == ["match_length"]
