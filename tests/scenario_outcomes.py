"""What the hand-worked scenario tests (tests/test_scenarios_s49.py onwards) share: a
fixture's outcomes under an implementation, which a mutant it kills must change."""

from __future__ import annotations

from mtrain.conformance.adapter import Implementation
from mtrain.conformance.fixture import Fixture
from mtrain.conformance.runner import run_fixture


def outcomes(fx: Fixture, impl: Implementation) -> list[str]:
    """The status of each of `fx`'s results, rule set by rule set it names; a crash
    (under a mutant) is an outcome too, named by its exception's class."""
    out = []
    for variant in dict.fromkeys(v for v, _ in fx.rulesets()):
        try:
            out += [o.status for o in run_fixture(fx, impl, [variant])]
        except Exception as e:  # a crash under a mutant is a difference too
            out.append(f"error: {type(e).__name__}")
    return out
