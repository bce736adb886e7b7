"""select() finds each fixture's entry for the rule sets of known values by bit masks
(selection.ScopeMasks); entry_for asks each scope about each rule set directly. The two
must choose the same entry for every fixture and rule set of the shipped corpus."""

from __future__ import annotations

import pytest

from mtrain.conformance.fixture import Fixture
from mtrain.conformance.selection import (
    ScopeMasks,
    choose_rulesets,
    entry_for,
    load_fixtures,
    select,
)
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space


@pytest.fixture(scope="module")
def corpus() -> tuple[list[Fixture], list[Ruleset]]:
    fixtures, _ = load_fixtures(None)
    rulesets, _, _ = choose_rulesets([], None, fixtures)
    return fixtures[::4], rulesets  # a quarter of the corpus: every kind of scope is there


def test_select_chooses_the_entries_entry_for_chooses(
        corpus: tuple[list[Fixture], list[Ruleset]]) -> None:
    fixtures, rulesets = corpus
    plain = [rs for rs in rulesets if not rs.unknown and not rs.custom_table]
    assert len(plain) > 100
    tasks, outside = select(fixtures, plain, [])
    space = Space()
    expected, counted = [], dict.fromkeys((rs.name for rs in plain), 0)
    for fx in fixtures:
        for rs in plain:
            exp, why = entry_for(fx, rs, space)
            if exp is None and why is None:
                counted[rs.name] += 1
            else:
                expected.append((fx.id, rs.name, exp, why))
    got = [(t.fixture.id, t.ruleset.name, t.expectation, t.why) for t in tasks]
    assert len(got) == len(expected)
    assert all(g[:2] == e[:2] and g[2] is e[2] and g[3] == e[3]
               for g, e in zip(got, expected, strict=True))
    assert {n: outside.rules[n] + outside.seats[n] for n in counted} == counted


def test_a_mask_is_the_rule_sets_a_scope_contains(
        corpus: tuple[list[Fixture], list[Ruleset]]) -> None:
    fixtures, rulesets = corpus
    values = [dict(rs.choices) for rs in rulesets]
    masks = ScopeMasks(rulesets, values)
    for fx in fixtures[::3]:
        for e in fx.expect:
            m = masks.mask(e.scope)
            for i in range(len(rulesets)):
                want = i in masks.plain and e.scope.contains(values[i])
                assert bool(m >> i & 1) == want, (fx.id, rulesets[i].name)
