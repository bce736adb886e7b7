"""Session 59b's cuts: a broken state is told by jsonschema walking its broken fields alone
(conformance/answers.py, schema_problems), with the messages the whole schema gives."""

from __future__ import annotations

from typing import Any
from unittest import mock

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from test_answers import mutated, sample_states

from mtrain.conformance import answers as A
from mtrain.reference import codec
from mtrain.reference.deal import deal
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog


def test_a_broken_count_is_told_without_walking_the_tiles(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """A state whose `passes` is text: jsonschema looked at every tile of every hand and of
    the boneyard to say so (50 ms a state in the mutants' play); each field that passes
    its check by hand is now skipped whole."""
    state = codec.state_to_json(deal(Rules.of(catalog().ruleset("pagat")), 4, 1, seed=1))
    state["passes"] = "0"
    tiles = sum(map(len, state["hands"])) + len(state["boneyard"])
    walked: list[Any] = []
    kind: Any = type(A._validator("state"))
    descend = kind.descend

    def counted(self: Any, instance: Any, *args: Any, **kwargs: Any) -> Any:
        walked.append(instance)
        return descend(self, instance, *args, **kwargs)

    monkeypatch.setattr(kind, "descend", counted)
    problems = A.schema_problems("state", state)
    assert [(p.where, p.message) for p in problems] == [
        ("passes [state.schema.json#/properties/passes/type]", "'0' is not of type 'integer'")]
    assert tiles > 50 and len(walked) < tiles


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_a_broken_state_is_told_as_the_whole_schema_tells_it(doc: Any) -> None:
    """The same problems, word for word, as jsonschema walking the whole state; and a field
    that passes its check by hand (what lets it be skipped) holds no error of its schema."""
    whole = A._validator("state")
    if whole.is_valid(doc):
        return
    if isinstance(doc, dict):
        for e in whole.iter_errors(doc):
            # (an error of the `allOf`, engine_placed against phase, is no field's own)
            if list(e.absolute_schema_path)[:1] == ["properties"]:
                field = str(e.absolute_schema_path[1])
                assert not A._FIELDS[field](doc[field]), e.message
    told = [(p.kind, p.where, p.message) for p in A.schema_problems("state", doc)]
    with mock.patch.object(A, "_state_validator", lambda broken: whole):
        assert told == [(p.kind, p.where, p.message) for p in A.schema_problems("state", doc)]


def test_every_field_of_a_sample_state_passes_its_check() -> None:
    """The checks by hand accept each field of a valid state (a field refused is walked by
    jsonschema again: slow, not wrong), and state_valid is their conjunction."""
    validator: jsonschema.protocols.Validator = A._validator("state")
    for s in sample_states()[::25]:
        assert validator.is_valid(s)
        assert all(A._FIELDS[k](s[k]) for k in s) and A.state_valid(s)
