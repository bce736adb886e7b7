"""Bad inputs and interrupt paths, round 24 (robust-s52): the in-process reference refused a
play written with the wrong JSON types, citing no clause, where `mtrain serve` answers the
same request `bad-request`."""

from __future__ import annotations

from typing import Any

import pytest

from mtrain.conformance.adapter import ReferenceImplementation, Refused, ruleset_json
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import table_state

RS = catalog().ruleset("puremco-d9")
RJ = ruleset_json(RS)
# seat 0 to act, holding [4-0] on a double-9 set, two seats: seat 1's train ends in 5
STATE = table_state({"engine": 0, "hands": {0: ["0-4"], 1: ["3-3", "2-1"]},
                     "trains": {1: ["0-5"]}, "scores": [30, 12], "outs": [4, 5]}, RS)

# --- 1. a malformed play, in process ----------------------------------------------------------


class _Unremembering(ReferenceImplementation):
    remembers_states = False  # the path without the answers memo (the mutants' engine)


MALFORMED = [
    {"type": "play", "tile": 40, "train": 0},
    {"type": "play", "tile": ["4", "0"], "train": 0},
    {"type": "play", "tile": None, "train": 0},
    {"type": "play", "tile": "four-nothing", "train": 0},
    {"type": "play", "train": 0},
    {"type": "play", "tile": "4-0", "train": "0"},
    {"type": "play", "tile": "4-0", "train": None},
    {"type": "play", "tile": "4-0", "train": True},
    {"type": "play", "tile": "4-0", "train": -1},
    {"type": "play", "tile": "4-0"},
]


@pytest.mark.parametrize("engine", [ReferenceImplementation, _Unremembering])
@pytest.mark.parametrize("action", MALFORMED)
def test_the_in_process_reference_answers_a_malformed_play_as_serve_does_not_by_a_refusal(
        engine: type[ReferenceImplementation], action: dict[str, Any]) -> None:
    # protocol.md: such an action is no action of the game, a bad-request over the
    # protocol; in process, an exception other than Refused (a ValueError naming the field)
    impl = engine()
    for _ in range(2):  # asked again: not answered from a memo as a refusal either
        with pytest.raises(ValueError) as caught:
            impl.apply(RJ, STATE, action)
        assert not isinstance(caught.value, Refused)
        field = "tile" if action.get("tile") != "4-0" else "train"
        assert field in str(caught.value), caught.value


@pytest.mark.parametrize("engine", [ReferenceImplementation, _Unremembering])
@pytest.mark.parametrize(("action", "clause"), [
    ({"type": "play", "tile": "13-1", "train": 0}, "SET-1"),  # a tile of no double-9 set
    ({"type": "play", "tile": "4-0", "train": 2}, "TRAIN-1"),  # two seats: no train 2
])
def test_the_in_process_reference_still_refuses_a_well_formed_play_of_no_such_tile_or_train(
        engine: type[ReferenceImplementation], action: dict[str, Any], clause: str) -> None:
    impl = engine()
    for _ in range(2):
        with pytest.raises(Refused) as caught:
            impl.apply(RJ, STATE, action)
        assert caught.value.clause == clause
