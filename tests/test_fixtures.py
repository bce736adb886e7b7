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


def test_corpus_is_lint_clean() -> None:
    report = lint()
    assert report.errors == []
    assert report.uncovered == []
    assert report.pairs_missing == []
    assert report.warnings == []  # every expectation checks what its clauses set
