"""Session 56's cuts to what every `mtrain conform` repeats: a fixture file known valid is
found so without walking its data in Python (yamlschema._valid_key), and the checks under
rules of one's own build the engine's flags once per stand-in rule set, not per result
(own_checks._rules_of). Each keeps what it gives: the same verdicts, the same flags."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtrain.conformance import own_checks
from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.reference.rules import Rules
from mtrain.spec import cache, yamlload, yamlschema
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset


@pytest.fixture
def fresh_validity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing known valid yet: a cache folder of the test's own, read afresh."""
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(yamlschema, "_VALID", None)


def test_a_document_known_valid_is_found_so_without_a_walk_of_its_data(
        fresh_validity: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second look-up of a valid document reads its data once, in C (json's encoder):
    `_jsonable`, the Python walk the validator needs, is not called for it."""
    schema = {"type": "object", "properties": {"seats": {"type": "object"}}}
    doc = yamlload.load("t.yaml", "seats: {0: [a, b], 1: [c]}\nnote: x\n")
    assert yamlschema.validate(doc, schema) == []
    walked: list[object] = []
    real = yamlschema._jsonable

    def counting(value: object) -> object:
        walked.append(value)
        return real(value)
    monkeypatch.setattr(yamlschema, "_jsonable", counting)
    assert yamlschema.validate(doc, schema) == []
    assert walked == []


@pytest.mark.parametrize(("valid", "other"), [
    # a key written twice (once as a number): the validator reads the later one
    ({1: "a", "1": 5}, {"1": 5, 1: "a"}),
    # NaN is not null (a JSON writer that puts NaN as null would make them one)
    ({"n": None}, {"n": float("nan")}),
    # a number key and its string are one key to the validator, but other values differ
    ({2: 5}, {"2": "five"}),
])
def test_a_valid_documents_key_is_no_other_documents(
        fresh_validity: None, valid: dict[object, object], other: dict[object, object]) -> None:
    """What a valid document is known by never stands for data the validator reads
    otherwise: the other document is validated, and its fault found."""
    schema = {"type": "object", "patternProperties": {"^[0-9]+$": {"type": "integer"}},
              "properties": {"n": {"type": "null"}}}
    assert yamlschema.validate(yamlload.Document("v.yaml", valid), schema) == []
    assert yamlschema.validate(yamlload.Document("o.yaml", other), schema) != []


def test_a_number_key_and_its_string_are_one_document_as_validated(
        fresh_validity: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same data as the validator reads it is known by one key (JSON writes a number
    key as its string, as `_jsonable` hands it over): validated once."""
    schema = {"type": "object"}
    calls: list[int] = []
    real = yamlschema._validator

    def counting(text: str) -> object:
        calls.append(1)
        return real(text)
    monkeypatch.setattr(yamlschema, "_validator", counting)
    assert yamlschema.validate(yamlload.load("a.yaml", "{2: [x]}"), schema) == []
    assert yamlschema.validate(yamlload.load("b.yaml", '{"2": [x]}'), schema) == []
    assert len(calls) == 1


def test_own_checks_build_a_stand_ins_flags_once() -> None:
    """Two results under equal stand-ins (distinct objects, as conform makes one per
    entry) share one engine flags object, equal to the one Rules.of builds."""
    pagat = catalog().ruleset("pagat")
    twin = Ruleset(pagat.name, pagat.choices, pagat.hand_table, pagat.overlays)
    assert twin is not pagat
    own = frozenset({"scoring"})
    first = own_checks.OwnRulesChecks(ReferenceImplementation(), pagat, own)
    second = own_checks.OwnRulesChecks(ReferenceImplementation(), twin, own)
    assert second.rules is first.rules
    assert first.rules == Rules.of(pagat)
    other = catalog().ruleset("pagat+blanks-25")
    third = own_checks.OwnRulesChecks(ReferenceImplementation(), other, own)
    assert third.rules == Rules.of(other) != first.rules


def test_traced_runs_under_a_table_of_ones_own_share_one_stand_in(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Judging which entries speak about house rules with a hand table of their own plays
    each under a known stand-in dealing that table: equal stand-ins are one object
    (traced.with_table), so the engine's flags, kept by a rule set's identity, are built
    once per stand-in, not once per entry; the verdicts are those of fresh objects."""
    from mtrain.conformance import partition, traced
    from mtrain.conformance.fixture import load_file
    from mtrain.conformance.selection import read_rules_files
    from mtrain.spec.scope import Space

    (house,) = read_rules_files([str(Path(__file__).parent / "examples" / "js"
                                     / "hostler-rules.yaml")])
    assert house.custom_table and house.unknown
    fixtures = load_file(Path(__file__).parent.parent / "conformance" / "fixtures"
                         / "doubles" / "order.yaml")
    entries = [(exp, fx) for fx in fixtures for exp in fx.expect]
    assert len(entries) > 3

    def verdicts() -> list[str | None]:
        return [partition.applies(exp, fx, house, Space(catalog())) for exp, fx in entries]
    built: list[Ruleset] = []
    real = Rules.of

    def counting(rs: Ruleset) -> Rules:
        built.append(rs)
        return real(rs)
    monkeypatch.setattr(Rules, "of", staticmethod(counting))
    monkeypatch.setattr(traced, "_kept_rules", {})
    shared = verdicts()
    runs_shared = len(built)
    assert 0 < len(set(built)) == runs_shared  # each stand-in's flags built once
    # a new object each time, as before: the same verdicts
    monkeypatch.setattr(partition, "with_table", lambda rs, table: Ruleset(
        rs.name, rs.choices, table))
    assert verdicts() == shared


def test_a_named_schema_is_read_once_and_judges_as_its_dict(
        fresh_validity: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """`validate_named` (what loading a fixture file asks) says what `validate` says with
    the schema's dict, faults and lines alike, and reads the schema once per process."""
    good = yamlload.load("good.yaml", "- id: x\n")
    bad = yamlload.load("bad.yaml", "- id: 3\n  bogus: 1\n")
    expected = [yamlschema.validate(d, yamlschema.schema("fixture")) for d in (good, bad)]
    assert expected[1] != []
    read: list[str] = []
    real = yamlschema.schema

    def counting(name: str) -> dict[str, object]:
        read.append(name)
        return real(name)
    monkeypatch.setattr(yamlschema, "schema", counting)
    yamlschema._named_schema_text.cache_clear()
    for _ in range(3):
        found = [yamlschema.validate_named(d, "fixture") for d in (good, bad)]
        assert [[(e.line, e.message) for e in f] for f in found] == [
            [(e.line, e.message) for e in f] for f in expected]
    assert read == ["fixture"]
