"""spec/schemacheck.py: the compiled validity check says what jsonschema says.

spec/yamlschema.py trusts the check's "valid" and asks jsonschema only when it says "not
valid", so a check looser than jsonschema would let a bad file through. Here both judge
every shipped document and every example file of the tests, thousands of seeded
mutations of them (a value of another kind, a key taken away or added, an item
repeated), and the corner cases where JSON Schema's equality and types are not
Python's. (The bad files of the other tests need their schema faults reported: were the
check to call one valid, validate would report nothing and they would fail.)
"""

from __future__ import annotations

import copy
import functools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from mtrain.spec import yamlschema
from mtrain.spec.schemacheck import Unsupported, compile_schema, equal, unique
from mtrain.spec.yamlload import load

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "conformance" / "fixtures"
DATA = ROOT / "spec" / "data"


def documents() -> dict[str, list[Path]]:
    """Every YAML file of the project that is read against a schema, by schema."""
    fixtures = [p for root in (FIXTURES, ROOT / "tests" / "data")
                for p in sorted(root.rglob("*.yaml")) if "rulesets" not in p.parts]
    rules = [*sorted(DATA.glob("rulesets/*.yaml")), *sorted(FIXTURES.rglob("rulesets/*.yaml")),
             *sorted((ROOT / "tests" / "examples").rglob("*.yaml"))]
    return {"fixture": fixtures, "rules": rules,
            "variant": [*sorted(DATA.glob("variants/*.yaml")),
                        *sorted(DATA.glob("overlays/*.yaml"))],
            "rulebooks": [DATA / "rulebooks.yaml"]}


@functools.cache
def judges(name: str) -> tuple[Any, Any]:
    """(the compiled check, jsonschema's validator) of a shipped schema."""
    text = json.dumps(yamlschema.schema(name), sort_keys=True)
    return compile_schema(yamlschema.schema(name)), yamlschema._validator(text)


def agree(name: str, data: Any) -> bool:
    check, validator = judges(name)
    return bool(check(data)) is bool(validator.is_valid(data))


def test_every_schema_a_file_is_read_against_compiles() -> None:
    for name in ("fixture", "rules", "variant", "rulebooks", "ruleset", "state", "action"):
        compile_schema(yamlschema.schema(name))
    with pytest.raises(Unsupported, match="outside the document"):
        compile_schema(yamlschema.schema("protocol"))  # it refers to the other files


@pytest.mark.parametrize("name, half", [("fixture", 0), ("fixture", 1), ("rules", 0),
                                        ("variant", 0), ("rulebooks", 0)])
def test_every_shipped_document_is_judged_alike(name: str, half: int) -> None:
    paths = documents()[name]
    assert len(paths) > {"fixture": 100, "rules": 10, "variant": 20, "rulebooks": 0}[name]
    for path in paths[half::2] if name == "fixture" else paths:
        data = yamlschema._jsonable(load(path).data)
        assert agree(name, data), path
        assert judges(name)[0](data), f"{path}: shipped, and found invalid"


def _pieces(data: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every node of a document."""
    out = [at]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _pieces(v, (*at, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _pieces(v, (*at, i))
    return out


STRANGERS: list[Any] = [None, True, False, 0, 1, -1, 8.0, 19, 20, 2**31, 1.5, "", "x",
                        "5-3", "19-3", "rest", "mexican", "play 5-3 on 1", "DBL-1", "pagat",
                        [], {}, ["a", "a"], [1, True], [True, 1], [1, 1.0], [[1], [True]],
                        {"x": 1}, {"0": ["5-3"]}, "a" * 130]


def _mutated(data: Any, rng: random.Random, own: list[Any]) -> Any:
    doc = copy.deepcopy(data)
    for _ in range(rng.randint(1, 2)):
        path = rng.choice(_pieces(doc))
        if not path:
            continue
        *up, last = path
        parent = doc
        for step in up:
            parent = parent[step]
        how = rng.randrange(6)
        if how == 0:
            parent[last] = rng.choice(STRANGERS)
        elif how == 1:  # a value from elsewhere in the same document
            parent[last] = copy.deepcopy(rng.choice(own))
        elif how == 2 and isinstance(parent, dict):
            del parent[last]
        elif how == 3 and isinstance(parent, dict):
            parent[rng.choice(["extra", "id", "note", "when", "legal", "3", "seat"])] = (
                rng.choice(STRANGERS))
        elif how == 4 and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[last]))
        elif isinstance(parent[last], list):
            parent[last] = parent[last][:rng.randrange(2)]
    return doc


@pytest.mark.parametrize("names, tries", [(("fixture",), 2), (("rules", "variant",
                                                                    "rulebooks"), 8)])
def test_mutations_are_judged_alike(names: tuple[str, ...], tries: int) -> None:
    rng = random.Random(f"20261204 {names}")
    judged = invalid = 0
    for name in names:
        for path in documents()[name]:
            data = yamlschema._jsonable(load(path).data)
            # a fixture file's fixtures one at a time: smaller documents, as many faults
            units = [[fx] for fx in data] if name == "fixture" else [data]
            for unit in rng.sample(units, min(len(units), 4)):
                own = [_at(unit, p) for p in _pieces(unit) if p]
                for _ in range(tries):
                    mutated = _mutated(unit, rng, own)
                    assert agree(name, mutated), (path, mutated)
                    judged += 1
                    invalid += not judges(name)[1].is_valid(mutated)
    assert judged > 500 and invalid > judged // 3  # the mutations do break documents


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


CORNERS: list[tuple[dict[str, Any], list[Any]]] = [
    ({"type": "integer"}, [1, 8.0, True, -3, 2**70, None, "1"]),
    ({"type": "number"}, [1, 1.5, True, False, None, "1"]),
    ({"type": ["string", "null"]}, ["", None, 0, False]),
    ({"type": "boolean"}, [True, 0, 1, None]),
    ({"minimum": 0, "maximum": 19}, [0, 19, 20, -1, True, "x", 19.5, None]),
    ({"exclusiveMinimum": 0, "exclusiveMaximum": 2}, [0, 1, 2, 1.5, False]),
    ({"const": 1}, [1, 1.0, True, "1", [1]]),
    ({"const": True}, [True, 1, False]),
    ({"const": [1, {"a": False}]}, [[1, {"a": False}], [True, {"a": 0}], [1.0, {"a": False}]]),
    ({"enum": ["a", "b"]}, ["a", "c", 1, None]),
    ({"enum": [0, None, [True]]}, [0, False, None, [True], [1], 0.0]),
    ({"uniqueItems": True}, [[1, True], [1, 1.0], [0, False], [[1], [True]], ["a", "a"],
                             [{"a": 1}, {"a": True}], [{"a": 1}, {"a": 1}], [None, None],
                             [[1], [True], [1]], [1, "1"], [], "not a list"]),
    ({"pattern": "^[a-z]+$"}, ["abc", "ab1", "", 5]),
    ({"pattern": "b"}, ["abc", "xyz"]),
    ({"minLength": 2, "maxLength": 3}, ["a", "ab", "abcd", ["a"], 7]),
    ({"minItems": 1, "maxItems": 2}, [[], [1], [1, 2, 3], "ab"]),
    ({"minProperties": 1, "maxProperties": 1}, [{}, {"a": 1}, {"a": 1, "b": 2}, []]),
    ({"required": ["a"], "properties": {"a": {"type": "string"}},
      "additionalProperties": False}, [{"a": "x"}, {"a": 1}, {}, {"a": "x", "b": 1}, [1]]),
    ({"patternProperties": {"^[0-9]+$": {"type": "integer"}}, "additionalProperties": False},
     [{"1": 1}, {"1": "x"}, {"x": 1}, {}]),
    ({"additionalProperties": {"type": "integer"}, "properties": {"a": True}},
     [{"a": "x", "b": 1}, {"b": "x"}]),
    ({"propertyNames": {"pattern": "^[a-z]+$"}}, [{"ab": 1}, {"a1": 1}, {}]),
    ({"items": {"type": "integer"}}, [[1, 2], [1, "2"], [], {"a": "b"}]),
    ({"anyOf": [{"type": "string"}, {"minimum": 3}]}, ["x", 4, 2, None]),
    ({"oneOf": [{"type": "integer"}, {"minimum": 3}]}, [1, 4, 4.5, "x"]),
    ({"allOf": [{"type": "integer"}, {"minimum": 3}]}, [1, 4, 4.5]),
    ({"not": {"type": "string"}}, ["x", 1]),
    ({"if": {"type": "integer"}, "then": {"minimum": 3}, "else": {"type": "string"}},
     [1, 4, "x", None]),
    ({"then": {"type": "integer"}}, ["x"]),  # `then` without `if`: nothing asked
    ({"$defs": {"n": {"type": "integer"}, "l": {"items": {"$ref": "#/$defs/l"},
                                                  "type": ["array", "integer"]}},
      "properties": {"n": {"$ref": "#/$defs/n"}, "l": {"$ref": "#/$defs/l"}}},
     [{"n": 1}, {"n": "x"}, {"l": [1, [2, [3]]]}, {"l": [1, ["x"]]}]),
    (True, [1, None]),  # type: ignore[list-item]
    (False, [1, None]),  # type: ignore[list-item]
]


@pytest.mark.parametrize("schema, instances", CORNERS)
def test_corner_cases_are_judged_alike(schema: Any, instances: list[Any]) -> None:
    text = json.dumps(schema, sort_keys=True)
    check, validator = compile_schema(schema), yamlschema._validator(text)
    for value in instances:
        assert bool(check(value)) == validator.is_valid(value), (schema, value)


def test_equality_is_json_schemas() -> None:
    assert equal(1, 1.0) and not equal(1, True) and not equal(0, False)
    assert not equal([1], [True]) and equal({"a": [1]}, {"a": [1.0]}) and not equal("1", 1)
    assert not unique([1, 1.0]) and unique([1, True]) and unique([0, False, None])


@pytest.mark.parametrize("schema", [
    {"format": "date"}, {"prefixItems": [True]}, {"$ref": "other.json#/x"},
    {"$ref": "#/$defs/missing"}, {"type": "integr"}, {"minimum": "3"},
    {"properties": {"a": {"$id": "inner"}}}, {"dependentRequired": {"a": ["b"]}},
    {"items": [True]},
])
def test_what_it_does_not_implement_is_left_to_jsonschema(schema: dict[str, Any]) -> None:
    with pytest.raises(Unsupported):
        compile_schema(schema)


def test_a_schema_it_cannot_compile_is_still_validated(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}},
              "dependentRequired": {"n": ["m"]}}
    with pytest.raises(Unsupported):
        compile_schema(schema)
    doc = load("bad.yaml", "n: 1\n")
    (err,) = yamlschema.validate(doc, schema)
    assert "m" in str(err) and err.line == 1
    assert yamlschema.validate(load("good.yaml", "n: 1\nm: 2\n"), schema) == []
