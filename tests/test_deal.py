"""A seeded deal is the shuffle of `random.Random(seed)` (reference/deal.py's contract).

`deal.shuffle` walks the tiles itself rather than calling `Random.shuffle`, to spare a
method call per tile; these tests hold it to the standard library's order.
"""

from __future__ import annotations

import random

import pytest

from mtrain.reference.deal import deal, deal_pool, shuffle
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T
from mtrain.spec.catalog import catalog

SEEDS: list[int | str] = [0, 1, 7, 2**31 - 1, 2**64 + 3, 1_000_003 * 5 + 17, "a", "round 3"]


@pytest.mark.parametrize("seed", SEEDS)
def test_shuffle_orders_as_random_shuffle(seed: int | str) -> None:
    for size in (*range(0, 40), 54, 90, 91, 119, 135, 136, 189, 190, T.TILE_COUNT):
        ours = list(range(size))
        shuffle(ours, random.Random(seed))
        theirs = list(range(size))
        random.Random(seed).shuffle(theirs)
        assert ours == theirs, (seed, size)


def test_shuffle_leaves_the_generator_where_random_shuffle_does() -> None:
    ours, theirs = random.Random(11), random.Random(11)
    shuffle(list(range(91)), ours)
    theirs.shuffle(list(range(91)))
    assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize(("variant", "players"), [("pagat", 4), ("puremco", 6),
                                                  ("pagat+double-15", 12)])
def test_seeded_deal_is_the_deal_of_the_stdlib_shuffle(variant: str, players: int) -> None:
    rules = Rules.of(catalog().ruleset(variant))
    for seed in (3, 1_000_003 + 2, "x"):
        for round_no in (1, 2, rules.rounds):
            order = deal_pool(rules, round_no)
            random.Random(seed).shuffle(order)
            assert deal(rules, players, round_no, seed=seed) == deal(
                rules, players, round_no, order=order)
