"""Expectations check what their clauses set (conformance/checked_fields.py), and what lint
says the steps give for those fields (`after`: the model's effects, spec/model/steps.py)
agrees with the reference engine on every fixture."""

from __future__ import annotations

import pytest

from mtrain.conformance.adapter import ReferenceImplementation, ruleset_json
from mtrain.conformance.checked_fields import after, unchecked
from mtrain.conformance.fixture import load_corpus, load_file
from mtrain.conformance.runner import Outcome, play, resolve
from mtrain.conformance.state_compare import state_view
from mtrain.spec.catalog import catalog

FIELDS = ("engine", "seat", "starter", "phase", "marked", "open_doubles", "turn_doubles", "passes",
          "first_turns", "scores", "outs", "engine_placed", "hand_sizes", "boneyard_size")

WEAK = """
- id: weak-001
  description: Seat 0 passes with nothing to play
  clauses: [TURN-4, MARK-1, SEAT-1]
  source: [pagat]
  table:
    hands: {0: [9-8], 1: [7-2], 2: [5-4]}
    trains: {0: [12-3], 1: [12-10], 2: [12-11], mexican: [12-6]}
  steps: [draw, pass]
  expect:
    - variants: [pagat]
      legal: [draw]
"""


def test_an_expectation_that_skips_what_its_clauses_set_is_named() -> None:
    (fx,) = load_file("weak.yaml", WEAK)
    missing = unchecked(fx, fx.expect[0], catalog().clauses, resolve("pagat"))
    assert [m.split(" (")[0] for m in missing] == ["marked", "seat"]


@pytest.mark.slow
def test_the_effects_agree_with_the_engine_on_every_fixture() -> None:
    ref = ReferenceImplementation()
    fixtures, errors = load_corpus()
    assert errors == []
    runs = 0
    for fx in fixtures:
        for name in dict.fromkeys(v for v, _ in fx.rulesets()):
            rs = resolve(name)
            rj = ruleset_json(rs)
            played = play(fx, rs, ref, rj)
            if isinstance(played, Outcome):  # a setup the rules refuse: no fields to set
                assert played.refusal is not None, (fx.id, name, played.messages)
                continue
            state = played[0]
            view = state_view(state)
            engine = {k: view[k] for k in FIELDS}
            engine |= {"drawn": state.get("drawn"), "result": state.get("result")}
            mine = after(fx, rs)
            assert {k: mine[k] for k in engine} == engine, (fx.id, name)
            runs += 1
    assert runs > 1000
