"""Whether a document is valid against a JSON schema, answered by a check compiled once
per schema into plain Python closures: what spec/yamlschema.py asks first, before the
jsonschema validator, which is many times slower (1.3 CPU s for the shipped fixtures on
a first run) and is still what finds and words every fault.

The check covers the keywords the project's schemas use, with the meaning jsonschema's
Draft 2020-12 validator gives them as spec/yamlschema.py configures it (an integer is an
int, never 8.0 nor true; a number is never a bool; `const`, `enum` and `uniqueItems` tell
true from 1; `pattern` is `re.search`). A schema with any other keyword, a reference
outside its own document, or a keyword's value of an unexpected kind is not compiled
(Unsupported): such a schema is left to jsonschema alone. Its answer may only ever be
stricter than jsonschema's: "valid" is trusted, "not valid" sends the document to
jsonschema, whose verdict stands (tests/test_schemacheck.py compares the two on every
shipped document, every bad file of the tests, and mutations of them).
"""

from __future__ import annotations

import itertools
import numbers
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

Check = Callable[[Any], bool]

ANNOTATIONS = frozenset(("title", "description", "$comment", "default", "examples",
                         "deprecated", "readOnly", "writeOnly", "$defs"))
"""Keywords that assert nothing (`$defs` holds what `$ref` points to)."""


class Unsupported(ValueError):
    """The schema uses what this check does not implement: leave it to jsonschema."""


def compile_schema(schema: Any) -> Check:
    """The check of a whole schema document (its `$ref`s point into it)."""
    return _Compiler(schema).root()


class _Compiler:
    def __init__(self, root: Any) -> None:
        self.root_schema = root
        self.refs: dict[str, Check] = {}

    def root(self) -> Check:
        schema = self.root_schema
        if isinstance(schema, dict):  # the document's own identifiers: annotations here
            schema = {k: v for k, v in schema.items() if k not in ("$schema", "$id")}
        return self.compile(schema)

    def compile(self, schema: Any) -> Check:
        if schema is True:
            return _always
        if schema is False:
            return _never
        if not isinstance(schema, dict):
            raise Unsupported(f"a schema must be an object or a boolean: {schema!r}")
        checks: list[Check] = []
        for key, value in schema.items():
            if key in ANNOTATIONS or key.startswith("x-") or key in ("then", "else"):
                continue
            make = _KEYWORDS.get(key)
            if make is None:
                raise Unsupported(f"keyword {key!r}")
            checks.append(make(self, value, schema))
        return _all_of(checks)

    def ref(self, ref: Any, _schema: Mapping[str, Any]) -> Check:
        if not isinstance(ref, str) or not ref.startswith("#"):
            raise Unsupported(f"$ref {ref!r} outside the document")
        if ref not in self.refs:  # compiled once; a schema may refer to itself
            slot: list[Check] = []
            self.refs[ref] = lambda value: slot[0](value)
            slot.append(self.compile(_resolve(self.root_schema, ref)))
        return self.refs[ref]


def _resolve(root: Any, ref: str) -> Any:
    node = root
    pointer = ref[1:]
    if pointer and not pointer.startswith("/"):
        raise Unsupported(f"$ref {ref!r}: an anchor")
    for raw in pointer.split("/")[1:]:
        step = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(node, list) and step.isdigit() and int(step) < len(node):
            node = node[int(step)]
        else:
            raise Unsupported(f"$ref {ref!r} points nowhere")
    return node


def _always(_value: Any) -> bool:
    return True


def _never(_value: Any) -> bool:
    return False


def _all_of(checks: Sequence[Check]) -> Check:
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks

        def both(value: Any) -> bool:
            return first(value) and second(value)
        return both
    items = tuple(checks)

    def every(value: Any) -> bool:
        for check in items:  # noqa: SIM110 (plain loops here: no generator a call)
            if not check(value):
                return False
        return True
    return every


# --- equality as JSON Schema has it (true is not 1, [1] is not [true]) -----------------


_TRUE, _FALSE = object(), object()


def _unbool(value: Any) -> Any:
    if value is True:
        return _TRUE
    if value is False:
        return _FALSE
    return value


def equal(one: Any, two: Any) -> bool:
    """Whether two values are the same JSON value: strings by text, lists item by item,
    mappings key by key, true and false never equal to 1 and 0, numbers by value."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return one.keys() == two.keys() and all(equal(one[k], two[k]) for k in one)
    return bool(_unbool(one) == _unbool(two))


_PLAIN = (str, int, float, type(None))


def unique(items: list[Any]) -> bool:
    """Whether no two items are equal (as `equal` has it). Strings, ints, floats and null
    compare as in a set; anything else (true and false, lists, mappings) pairwise after
    a sort, as jsonschema does: its sort can leave equal items apart, never report ones
    that differ, so this is never looser than it."""
    if all(type(item) in _PLAIN for item in items):
        return len(set(items)) == len(items)
    try:
        ordered = sorted(_unbool(item) for item in items)
        return not any(equal(a, b) for a, b in itertools.pairwise(ordered))
    except (NotImplementedError, TypeError):
        seen: list[Any] = []
        for item in items:
            item = _unbool(item)
            if any(equal(item, other) for other in seen):
                return False
            seen.append(item)
        return True


# --- the keywords ----------------------------------------------------------------------


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Number) and not isinstance(value, bool)


_TYPES: dict[str, Check] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: type(v) is int,  # spec/yamlschema.py's strict integers
    "number": _is_number,
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _type(_c: _Compiler, value: Any, _schema: Mapping[str, Any]) -> Check:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names or any(n not in _TYPES for n in names):
        raise Unsupported(f"type {value!r}")
    if len(names) == 1:
        return _TYPES[names[0]]
    checks = tuple(_TYPES[n] for n in names)
    return lambda v: any(check(v) for check in checks)


def _count(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise Unsupported(f"a count {value!r}")
    return value


def _bound(value: Any) -> Any:
    if not _is_number(value):
        raise Unsupported(f"a bound {value!r}")
    return value


def _minimum(_c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    low = _bound(value)
    return lambda v: not _is_number(v) or v >= low


def _maximum(_c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    high = _bound(value)
    return lambda v: not _is_number(v) or v <= high


def _exclusive_minimum(_c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    low = _bound(value)
    return lambda v: not _is_number(v) or v > low


def _exclusive_maximum(_c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    high = _bound(value)
    return lambda v: not _is_number(v) or v < high


def _min_length(_c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    n = _count(value)
    return lambda v: not isinstance(v, str) or len(v) >= n


def _max_length(_c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    n = _count(value)
    return lambda v: not isinstance(v, str) or len(v) <= n


def _pattern(_c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    if not isinstance(value, str):
        raise Unsupported(f"pattern {value!r}")
    search = re.compile(value).search
    return lambda v: not isinstance(v, str) or search(v) is not None


def _const(_c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    return lambda v: equal(v, value)


def _enum(_c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    if not isinstance(value, list):
        raise Unsupported(f"enum {value!r}")
    options = tuple(value)
    if all(type(o) is str for o in options):  # the common case: a set of names
        names = frozenset(options)
        return lambda v: isinstance(v, str) and v in names
    return lambda v: any(equal(o, v) for o in options)


def _min_items(_c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    n = _count(value)
    return lambda v: not isinstance(v, list) or len(v) >= n


def _max_items(_c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    n = _count(value)
    return lambda v: not isinstance(v, list) or len(v) <= n


def _unique_items(_c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    if not isinstance(value, bool):
        raise Unsupported(f"uniqueItems {value!r}")
    if not value:
        return _always
    return lambda v: not isinstance(v, list) or unique(v)


def _items(c: _Compiler, value: Any, schema: Mapping[str, Any]) -> Check:
    if "prefixItems" in schema:
        raise Unsupported("prefixItems")
    each = c.compile(value)
    if each is _always:
        return _always

    def items(v: Any) -> bool:
        if not isinstance(v, list):
            return True
        for item in v:  # noqa: SIM110
            if not each(item):
                return False
        return True
    return items


def _min_properties(_c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    n = _count(value)
    return lambda v: not isinstance(v, dict) or len(v) >= n


def _max_properties(_c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    n = _count(value)
    return lambda v: not isinstance(v, dict) or len(v) <= n


def _required(_c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
        raise Unsupported(f"required {value!r}")
    names = tuple(value)
    return lambda v: not isinstance(v, dict) or all(k in v for k in names)


def _properties(c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    if not isinstance(value, dict):
        raise Unsupported(f"properties {value!r}")
    checks = tuple((k, c.compile(s)) for k, s in value.items())
    checks = tuple((k, check) for k, check in checks if check is not _always)

    def properties(v: Any) -> bool:
        if not isinstance(v, dict):
            return True
        for key, check in checks:  # noqa: SIM110
            if key in v and not check(v[key]):
                return False
        return True
    return properties


def _pattern_properties(c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise Unsupported(f"patternProperties {value!r}")
    checks = tuple((re.compile(k).search, c.compile(s)) for k, s in value.items())

    def pattern_properties(v: Any) -> bool:
        if not isinstance(v, dict):
            return True
        for search, check in checks:
            for key, item in v.items():
                if search(key) is not None and not check(item):
                    return False
        return True
    return pattern_properties


def _additional_properties(c: _Compiler, value: Any, schema: Mapping[str, Any]) -> Check:
    named = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    if not isinstance(named, dict) or not isinstance(patterns, dict):
        raise Unsupported("properties")
    known = frozenset(named)
    searches = tuple(re.compile(p).search for p in patterns)
    each = c.compile(value)
    if each is _always:
        return _always

    def extra(key: Any) -> bool:
        return key not in known and not any(s(key) is not None for s in searches)

    if each is _never:
        if not searches:
            return lambda v: not isinstance(v, dict) or known.issuperset(v)
        return lambda v: not isinstance(v, dict) or not any(extra(k) for k in v)

    def additional(v: Any) -> bool:
        if not isinstance(v, dict):
            return True
        for key, item in v.items():  # noqa: SIM110
            if extra(key) and not each(item):
                return False
        return True
    return additional


def _property_names(c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    each = c.compile(value)
    return lambda v: not isinstance(v, dict) or all(each(k) for k in v)


def _subschemas(c: _Compiler, value: Any, keyword: str) -> tuple[Check, ...]:
    if not isinstance(value, list) or not value:
        raise Unsupported(f"{keyword} {value!r}")
    return tuple(c.compile(s) for s in value)


def _all_of_keyword(c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    return _all_of(_subschemas(c, value, "allOf"))


def _any_of(c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    checks = _subschemas(c, value, "anyOf")
    return lambda v: any(check(v) for check in checks)


def _one_of(c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    checks = _subschemas(c, value, "oneOf")

    def one_of(v: Any) -> bool:
        found = False
        for check in checks:
            if check(v):
                if found:
                    return False
                found = True
        return found
    return one_of


def _not(c: _Compiler, value: Any, _s: Mapping[str, Any]) -> Check:
    check = c.compile(value)
    return lambda v: not check(v)


def _if(c: _Compiler, value: Any, schema: Mapping[str, Any]) -> Check:
    test = c.compile(value)
    then = c.compile(schema.get("then", True))
    otherwise = c.compile(schema.get("else", True))
    return lambda v: then(v) if test(v) else otherwise(v)


_KEYWORDS: dict[str, Callable[[_Compiler, Any, Mapping[str, Any]], Check]] = {
    "type": _type, "minimum": _minimum, "maximum": _maximum,
    "exclusiveMinimum": _exclusive_minimum, "exclusiveMaximum": _exclusive_maximum,
    "minLength": _min_length, "maxLength": _max_length, "pattern": _pattern,
    "const": _const, "enum": _enum, "minItems": _min_items, "maxItems": _max_items,
    "uniqueItems": _unique_items, "items": _items, "minProperties": _min_properties,
    "maxProperties": _max_properties, "required": _required, "properties": _properties,
    "patternProperties": _pattern_properties, "additionalProperties": _additional_properties,
    "propertyNames": _property_names, "allOf": _all_of_keyword, "anyOf": _any_of,
    "oneOf": _one_of, "not": _not, "if": _if, "$ref": _Compiler.ref,
}
