"""A failure is charged to the clause that decides it (conformance/attribution.py):
the three slips an engine author met (issue 24), each with a rule bug that shows it."""

from __future__ import annotations

import functools

from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.mutants import mutant
from mtrain.conformance.runner import run_one
from mtrain.reference import engine
from mtrain.reference.deal import deal
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog


@functools.cache
def corpus() -> dict[str, Fixture]:
    """The shipped corpus by id, loaded when a test asks (not at collection)."""
    return {fx.id: fx for fx in load_corpus()[0]}


def charged(fixture: str, variant: str, bug: str) -> list[str]:
    fx = corpus()[fixture]
    rs = catalog().ruleset(variant)
    exp = next(e for e in fx.expect if e.scope.contains(dict(rs.choices)))
    out = run_one(fx, rs, exp, mutant(bug))
    assert out.status == "fail", out.messages
    return out.charged


def test_a_step_refused_after_a_round_ended_too_early_is_charged_to_the_end() -> None:
    # end-015: the bug blocks the round after the first pass; the second pass is then
    # refused (END-1), but what went wrong is END-2's test, after step 1
    assert charged("end-015", "pagat", "blocked-ignores-markers") == ["END-2"]


def test_a_tie_broken_by_seat_is_charged_to_the_tie_rule() -> None:
    # match-005 names MATCH-1 and MATCH-5, not MATCH-4; under pagat the shared win is
    # MATCH-4's, and the bug breaks it
    assert charged("match-005", "pagat", "tie-broken-by-lowest-seat") == ["MATCH-4"]


def test_end_chain_without_chains_is_refused_by_the_single_tile_start() -> None:
    for variant, clause in (("puremco", "FIRST-7"), ("pagat", "FIRST-1")):
        st = deal(Rules.of(catalog().ruleset(variant)), 4, 1, seed=3)
        while st.phase == engine.ENGINE:  # draw for the engine until it is placed
            engine.perform(st, engine.DRAW)
        if variant == "pagat":  # out of the chain: a turn after the first ones
            st.first_pending = 0
        (refusal,) = engine.refusals(st, engine.END_CHAIN)
        assert refusal.clause == clause
        assert catalog().clauses[clause].applies(st.rules.ruleset)
