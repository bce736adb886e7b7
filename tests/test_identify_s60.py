"""identify, session 60: faults left open on the house engines of session 59.

trolley (tests/examples/c/trolley_engine.c) leaves each hand's highest tile out of its
count (its bug 2), and was read `scoring: positive, contradicted`: its score fixtures fail
under every known scoring, and positive scoring, under which most of them have no entry,
explained them for nothing. additive.py's probe asked about hands of three tiles or more,
which those fixtures seldom hold; it now makes its hands of three tiles of different
worths from the hand and the boneyard, so a table with any hand to score is asked, and
asks the model (spec/model/scoring.py), not a sentence of its own, whether every known
scoring adds a tile the same to either hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mtrain.conformance.fixture import Expectation
from mtrain.conformance.identify import additive
from mtrain.conformance.identify.additive import Additive, pips, split
from mtrain.spec.catalog import catalog

CAT = catalog()
PAGAT = CAT.ruleset("pagat")
SCORED = Expectation(variants=(), result={"end": "domino", "scores": [0, 26, 37]})
# bone12-007's round gone out: seat 0 out, two tiles in each other hand
TWO_TILES = {"hands": [[], ["7-3", "14-2"], ["9-4", "13-11"]], "boneyard": ["1-0", "6-6"],
             "drawn": None, "result": {"end": "domino", "winner": 0}}


def worth(hand: list[str]) -> int:
    return sum(pips(t) for t in hand)


class Scorer:
    """An engine's `score` alone: penalty, each hand counted by `count`."""

    def __init__(self, count: Callable[[list[str]], int]) -> None:
        self.count = count
        self.asked = 0

    def score(self, ruleset: Any, state: Any, winner: int | None) -> list[int]:
        self.asked += 1
        return [0 if s == winner else self.count(h) for s, h in enumerate(state["hands"])]


def bound(count: Callable[[list[str]], int], table: Any = TWO_TILES) -> bool:
    return Additive.of(PAGAT).bound(SCORED, {}, table, Scorer(count))  # type: ignore[arg-type]


def highest_free(hand: list[str]) -> int:
    """trolley's bug 2: the hand's highest tile (by its numbers) left out."""
    return worth(hand) - worth([max(hand, key=lambda t: sorted(map(int, t.split("-")))[::-1])]
                               ) if hand else 0


def test_a_hand_of_two_tiles_is_enough_to_find_a_count_that_leaves_a_tile_out() -> None:
    # the tiles asked: 7-3 (10) and 14-2 (16) from the hand, 1-0 (1) from the boneyard;
    # c = 7-3 adds to [14-2] 10 under trolley's count and to [1-0] 1 (by hand)
    found = split(TWO_TILES)
    assert found is not None
    winner, states = found
    assert winner == 0
    assert [s["hands"][1] for s in states] == [["7-3", "14-2"], ["14-2"], ["7-3", "1-0"],
                                               ["1-0"]]
    for s in states:  # the other hands as they were; every tile still on the table once
        assert s["hands"][2] == ["9-4", "13-11"]
        assert sorted(s["boneyard"] + s["hands"][1]) == sorted(["7-3", "14-2", "1-0", "6-6"])
    assert bound(highest_free)
    # the lowest tile left out, or the first one listed: found too (c the middle worth,
    # listed first)
    assert bound(lambda h: worth(h) - min(pips(t) for t in h))
    assert bound(lambda h: worth(h[1:]))
    # honest counts, a constant or a factor on top: a tile adds its worth wherever it goes
    for count in (worth, lambda h: worth(h) + 12, lambda h: 2 * worth(h)):
        assert not bound(count)


def test_too_few_tiles_of_different_worths_ask_nothing() -> None:
    engine = Scorer(highest_free)
    table = {**TWO_TILES, "hands": [[], ["7-3", "6-4"], ["5-5"]], "boneyard": ["8-2"]}
    assert not Additive.of(PAGAT).bound(SCORED, {}, table, engine)  # type: ignore[arg-type]
    assert engine.asked == 0


def test_whether_every_known_scoring_adds_up_is_the_models_word(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a model under which a hand's highest tile counted nothing would make trolley's
    # count a known scoring: the probe then reads no bug
    seen: list[dict[str, str]] = []

    def model(hands: list[list[str]], winner: int, values: dict[str, str]) -> list[int]:
        seen.append(values)
        return [0 if s == winner else highest_free(h) for s, h in enumerate(hands)]
    monkeypatch.setattr(additive, "gone_out", model)
    assert not bound(highest_free)
    assert seen and {(v["scoring"], v["blank_values"]) for v in seen} <= {
        (s, b) for s in CAT.options["scoring"].values for b in CAT.options["blank_values"].values}
