"""The suite's faults gantry (tests/examples/cpp/gantry.cpp, a double-12 engine in C++17
for 2 to 8 players with a table of its own and two house rules: the player holding the
most tiles of the engine's number leads, and nobody opens the Mexican Train before every
player has had a first turn) showed, each fixed with a test that failed before the fix.
Each behaviour is played here by a few lines over the reference, on a fixture of the
corpus, so that no test needs a C++ compiler."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fixture import load_file
from mtrain.conformance.runner import resolve, run_one

FIXTURES = Path(__file__).parent.parent / "conformance" / "fixtures"


def _by_train(refs: list[Any]) -> list[Any]:
    """Open doubles in the order of a std::map keyed by train (the Mexican Train -1)."""
    return sorted(refs, key=lambda r: -1 if r == "mexican" else int(r))


class OpenDoublesByTrain(ReferenceImplementation):
    """gantry's bug 2 in general: its open doubles live in a map keyed by the train they
    lie on, so it writes (and covers) them in train order, the Mexican Train first, not in
    the order laid."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        out = super().apply(ruleset, state, action)
        return {**out, "open_doubles": _by_train(out["open_doubles"])}


def _run(file: str, fixture: str, variant: str, impl: ReferenceImplementation) -> Any:
    fx = next(f for f in load_file(FIXTURES / file) if f.id == fixture)
    rs = resolve(variant)
    exp = next(e for e in fx.expect if variant in e.variants)
    assert run_one(fx, rs, exp, ReferenceImplementation()).status == "pass"
    return run_one(fx, rs, exp, impl)


def test_open_doubles_in_another_order_are_charged_to_the_order_they_are_covered_in() -> None:
    """doubles-005 lays [5-5] on seat 0's train, then [7-7] on the Mexican Train: gantry
    wrote `open_doubles` [mexican, 0] and the failure was charged DBL-1 (a double is
    open), which it keeps; the same doubles in another order break the order laid, which
    DBL-7 covers them by (and fuzz read the one bug as two findings: this and DBL-7's
    play)."""
    out = _run("doubles/follow-up.yaml", "doubles-005", "pagat", OpenDoublesByTrain())
    assert out.status == "fail", out.messages
    assert "open_doubles: expected [0, 'mexican'], got ['mexican', 0]" in " ".join(out.messages)
    assert out.charged == ["DBL-7"], (out.charged, out.messages)

