"""The suite's faults gondola (tests/examples/java/Gondola.java, a double-16 engine in Java
for 2 to 8 players with a table of its own and three house rules: the lowest double dealt
starts, doubles excepted from own-train-first, a marker off at home or on a double) showed,
each fixed with a test that failed before the fix. Each is played in process over the
reference or the catalogue, so that no test needs a JDK."""

from __future__ import annotations

from pathlib import Path

from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.declaration import declared_ruleset
from mtrain.conformance.fixture import load_file
from mtrain.conformance.runner import run_one
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space
from mtrain.spec.tilesets import highest_numbers

EXAMPLES = Path(__file__).parent / "examples"
FIXTURES = Path(__file__).parent.parent / "conformance" / "fixtures"
HAND = {2: 20, 3: 18, 4: 16, 5: 14, 6: 12, 7: 11, 8: 10}
DECLARED = {"tile_set": "double-16", "engine_procedure": "set-aside", "starting_seat": "other",
            "first_turn": "single", "mexican_first_turn": "anyone",
            "own_train_first": "required", "doubles": "open", "follow_up": "anywhere",
            "double_order": "oldest-first", "uncoverable_double": "stays-open",
            "marker_removal": "other", "draw_rule": "draw-one",
            "blocked_round": "full-round-of-passes", "scoring": "penalty",
            "blank_values": "face", "tie_rule": "shared", "match_length": "full"}
"""What gondola's hello declares (Gondola.rulesDeclared), the table beside it."""


def test_a_double_16_engine_can_be_described_and_its_fixtures_pass_on_the_reference() -> None:
    """gondola deals a double-16 set: its hello's `tile_set: double-16` stopped conform and
    identify at once (exit 2, "unknown value 'double-16'"), and no rule-set file could say
    what it plays, though SET-1 allows any double-N set up to double-18. double-16 is now
    a set of the catalogue (SET-9, DEAL-11), its table one of a rule-set file's own."""
    assert highest_numbers()["double-16"] == 16
    rules = catalog().rules_file(str(EXAMPLES / "java" / "gondola-rules.yaml"))
    assert rules["tile_set"] == "double-16" and dict(rules.hand_table)[8] == 10
    assert "custom:double-16" in Space().options["hand_sizes"]
    # gondola's hello, as it writes it (its own wrong name for one house rule included)
    hello = {"rules": {"name": "gondola", "hand_sizes": {str(n): k for n, k in HAND.items()},
                       "options": {**DECLARED, "hand_sizes": "custom"}}}
    declared = declared_ruleset(hello)
    assert declared is not None and declared["tile_set"] == "double-16"
    # the hand-worked double-16 fixtures pass on the reference (it checks them, they were
    # worked out by counting: conformance/fixtures/sets/double-16.yaml's notes)
    fixtures = load_file(FIXTURES / "sets" / "double-16.yaml")
    assert [fx.id for fx in fixtures] == ["sets-060", "sets-061", "sets-062"]
    reference = ReferenceImplementation()
    for fx in fixtures:
        for exp in fx.expect:
            for variant in exp.variants:
                outcome = run_one(fx, catalog().ruleset(variant), exp, reference)
                assert outcome.status == "pass", (fx.id, variant, outcome.messages)

