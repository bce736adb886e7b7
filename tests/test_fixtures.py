"""The shipped corpus: lint-clean, and the reference engine passes every fixture."""

from __future__ import annotations

import pytest

from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.lint import lint
from mtrain.conformance.runner import run_fixture

FIXTURES, LOAD_ERRORS = load_corpus()
REFERENCE = ReferenceImplementation()


def test_corpus_loads() -> None:
    assert [str(e) for e in LOAD_ERRORS] == []
    assert len(FIXTURES) > 0


@pytest.mark.parametrize("fx", FIXTURES, ids=[f.id for f in FIXTURES])
def test_reference_passes(fx: Fixture) -> None:
    failures = [f"[{o.variant}] {o.status}: {o.message}"
                for o in run_fixture(fx, REFERENCE) if o.status != "pass"]
    assert failures == [], f"{fx.where}"


@pytest.mark.slow
def test_corpus_is_lint_clean(corpus_explored: None) -> None:
    """`mtrain lint` of the shipped corpus, its scope check included: the one run of the
    corpus scope check (.ci/run leaves it to this test; it is explored once per run by
    tests/conftest.py's corpus_explored, whose results in the cache the lint reads)."""
    report = lint()
    assert report.errors == []
    assert report.uncovered == []
    assert report.pairs_missing == []
    assert report.warnings == []  # every expectation checks what its clauses set
    # The scopes: no entry claims a rule set where it fails, no two entries of a fixture
    # meet (both errors above), and every fixture holds beyond the variants it was
    # written for, as widely as it can.
    scopes = report.scopes
    assert scopes is not None and scopes.errors == [] and scopes.fixtures == len(FIXTURES)
    assert scopes.proposals == [], [p.fixture.id for p in scopes.proposals][:5]
    assert scopes.beyond_written >= 0.9 * len(FIXTURES)


def test_refusal_sets_name_every_clause_that_refuses() -> None:
    """A fixture's refusal lists every clause in force that refuses the action, so any
    implementation citing one of them passes (issue 10); the reference cites the first by
    refusals.REFUSAL_PRECEDENCE, which must be among them (test_reference_passes)."""
    from mtrain.conformance.runner import in_force, play, resolve
    from mtrain.reference import codec, refusals
    from mtrain.reference.rules import Rules
    from mtrain.spec.notation import action_json, max_pip_of

    uneven = []
    for fx in FIXTURES:
        for variant, exp in fx.rulesets():
            if not exp.refused:
                continue
            rs = resolve(variant)
            played = play(fx, rs, REFERENCE)
            assert isinstance(played, tuple), (fx.id, variant)
            st = codec.state_from_json(Rules.of(rs), played[0])
            for text, clauses in in_force(exp, rs).refused.items():
                try:
                    action = codec.action_from_json(st, action_json(text, max_pip_of(rs)))
                except codec.StateError:
                    continue  # no such train or tile: the protocol refuses it (TRAIN-1, SET-1)
                found = {r.clause for r in refusals.refusals(st, action)}
                if found != set(clauses):
                    uneven.append(f"{fx.where} [{variant}] {text}: lists {sorted(clauses)}, "
                                  f"refused by {sorted(found)}")
    assert uneven == []
