"""The published facts: facts.yaml against the exact computations, plus hand-made checks.

Expected values come from the rules text (facts.yaml, the RULES.md table) or are computed
here independently by brute force / math.comb, never from the code under test.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from math import comb

import pytest

from mtrain.spec import facts
from mtrain.spec import tiles as T
from mtrain.spec.facts import FACTS, Fact, check_facts, load_facts

# The table published in RULES.md ("Facts the project must reproduce"), copied by hand.
PUBLISHED_NO_STARTER = {8: "30.2", 10: "22.0", 12: "15.9", 15: "9.5", 16: "8.0"}

ALL_FACTS = load_facts()


def test_every_fact_has_a_computation_and_every_computation_a_fact() -> None:
    assert {f.id for f in ALL_FACTS} == set(FACTS)


@pytest.mark.parametrize("fact", ALL_FACTS, ids=lambda f: f.id)
def test_fact_reproduced_within_tolerance(fact: Fact) -> None:
    value = Fraction(FACTS[fact.id]())
    assert abs(value - Fraction(str(fact.expected))) <= Fraction(str(fact.tolerance)), (
        f"{fact.id}: published {fact.expected}, computed {float(value)}"
    )


def test_exact_facts_are_exact() -> None:
    """Integer facts (tolerance 0) must come out as that integer, not merely close."""
    for fact in ALL_FACTS:
        if fact.tolerance == 0:
            assert isinstance(fact.expected, int)
            assert FACTS[fact.id]() == fact.expected


def test_check_facts_all_ok() -> None:
    rows = check_facts()
    assert len(rows) == len(ALL_FACTS)
    assert [r[0] for r in rows if not r[3]] == []


def test_no_starter_table_matches_rules_text() -> None:
    """The yaml's no-starter entries are the RULES.md table, one for one."""
    in_yaml = {f.id: f for f in ALL_FACTS if f.unit == "percent"}
    assert len(in_yaml) == len(PUBLISHED_NO_STARTER)
    for k, pct in PUBLISHED_NO_STARTER.items():
        fact = in_yaml[f"FACT-NO-STARTER-{k:02d}"]
        assert Fraction(str(fact.expected)) == Fraction(pct)
        assert Fraction(str(fact.tolerance)) == Fraction(1, 20)


# --- independent spot checks --------------------------------------------------------------


def test_set_sizes_and_pips_by_brute_force() -> None:
    d12 = [(a, b) for a in range(13) for b in range(a + 1)]
    assert len(d12) == 91 == facts.total_tiles(12)
    total = 0
    for a in range(13):
        for b in range(a + 1):
            total += a + b
    assert total == 1092 == facts.total_pips(12)
    assert 13 * 84 == 1092  # each number 0..12 is on 13 tiles; a double shows it twice
    assert facts.mean_tile_pips(12) == Fraction(total, len(d12)) == 12
    for n in range(13):
        assert sum(1 for a, b in d12 if n in (a, b)) == 13 == facts.tiles_bearing(12, n)
    assert len([(a, b) for a in range(10) for b in range(a + 1)]) == 55 == facts.total_tiles(9)


def test_single_tile_costs() -> None:
    assert facts.pips(12, 12) == 24
    assert facts.pips(11, 12) == facts.pips(12, 11) == 23
    assert facts.pips(1, 2) == 3
    assert facts.pips(0, 0) == 0


def test_short_set_is_double9() -> None:
    assert facts.short_set_equals_double9()
    removed = [(a, b) for a in range(13) for b in range(a + 1) if a >= 10]
    assert len(removed) == 36 == facts.short_set_removed(12, 9)
    assert facts.short_set_size_if_double9() == 55


def test_pool_and_averages_by_hand() -> None:
    pool = [(a, b) for a in range(13) for b in range(a + 1) if (a, b) != (12, 12)]
    assert len(pool) == 90 == facts.pool_size(12)
    pool_pips = sum(a + b for a, b in pool)
    assert pool_pips == 1068 == facts.pool_pips(12)
    assert facts.expected_hand_pips(12, 15) == Fraction(15 * 1068, 90) == 178
    assert facts.expected_starters(12, 15) == Fraction(15 * 12, 90) == 2
    for engine in range(13):
        others = [(a, b) for a in range(13) for b in range(a + 1) if (a, b) != (engine, engine)]
        assert sum(1 for a, b in others if engine in (a, b)) == 12 == facts.starters(12, engine)


@pytest.mark.parametrize("k", [1, 8, 10, 12, 15, 16, 78])
def test_no_starter_probability_equals_direct_comb(k: int) -> None:
    direct = Fraction(comb(78, k), comb(90, k))
    assert facts.no_starter_probability(12, k) - direct == 0


def test_no_starter_probability_by_sequential_draws() -> None:
    """Product of (78-i)/(90-i) over i < k: the same number by a different route."""
    for k in range(0, 20):
        p = Fraction(1)
        for i in range(k):
            p *= Fraction(78 - i, 90 - i)
        assert facts.no_starter_probability(12, k) == p


def test_double9_table() -> None:
    """Double-9, [9-9] aside: 9 starters among 54 tiles."""
    assert facts.pool_size(9) == 54
    assert facts.starters(9) == 9
    rows = facts.no_starter_table(9, [10, 13, 15])
    assert [r.hand for r in rows] == [10, 13, 15]
    for hand, p, pct in rows:
        assert p == Fraction(comb(45, hand), comb(54, hand))
        assert pct == pytest.approx(100 * comb(45, hand) / comb(54, hand))


def test_engine_not_aside_and_other_engines() -> None:
    # Whole set dealt: the engine is in the pool but is not a starter.
    assert facts.pool_size(12, aside=False) == 91
    assert facts.starters(12, aside=False) == 12
    assert facts.no_starter_probability(12, 8, aside=False) == Fraction(comb(79, 8), comb(91, 8))
    # Any round's engine gives the same numbers for a double-12 set.
    assert facts.no_starter_probability(12, 8, engine=3) == Fraction(comb(78, 8), comb(90, 8))


def test_bad_arguments_raise() -> None:
    with pytest.raises(ValueError):
        facts.no_starter_probability(12, 91)
    with pytest.raises(ValueError):
        facts.starters(9, engine=10)
    with pytest.raises(ValueError):
        facts.total_tiles(T.MAX_PIP + 1)  # beyond the largest set of the data


# --- the checks can fail ------------------------------------------------------------------


def test_wrong_expected_value_is_flagged() -> None:
    by_id = {f.id: f for f in ALL_FACTS}
    wrong = [
        dataclasses.replace(by_id["FACT-PIPS-D12"], expected=1091),
        dataclasses.replace(by_id["FACT-NO-STARTER-08"], expected=30.3),
        dataclasses.replace(by_id["FACT-HAND-PIPS-15"], expected=177),
        by_id["FACT-TILES-D12"],
    ]
    rows = check_facts(wrong)
    assert [ok for *_, ok in rows] == [False, False, False, True]


def test_tolerance_is_tight() -> None:
    """30.25 (just outside 30.2 +/- 0.05) must not pass for the 8-tile fact."""
    fact = next(f for f in ALL_FACTS if f.id == "FACT-NO-STARTER-08")
    assert not fact.accepts(Fraction(3025, 100) + Fraction(1, 10**9))
    assert fact.accepts(Fraction(3025, 100))


def test_unknown_fact_and_bad_yaml_rejected() -> None:
    ghost = dataclasses.replace(ALL_FACTS[0], id="FACT-NOPE")
    with pytest.raises(KeyError):
        check_facts([ghost])
    with pytest.raises(ValueError):
        facts.parse_facts([{"id": "X", "text": "t", "expected": "91"}])
    good = {
        "id": "X",
        "text": "t",
        "expected": 1,
        "tolerance": 0,
        "unit": "tiles",
        "source": "s",
    }
    with pytest.raises(ValueError, match="duplicate"):
        facts.parse_facts([good, good])
