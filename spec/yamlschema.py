"""Validating a loaded document (spec/yamlload.py) against a JSON schema shipped in
spec/schemas/: every fault a :class:`SpecError` naming the file and line of the node it is
about, in words a rule set's or fixture's author reads (``a mapping``, ``one of ...``),
sorted by line. A document found valid is known by a digest of the schema and the data
(in this process and in the cache, spec/cache.py), and not validated again.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import re
from collections.abc import Container, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from mtrain.spec import cache
from mtrain.spec.errors import shown
from mtrain.spec.package_files import package_files
from mtrain.spec.yamlload import Document, Pointer, SpecError, SpecErrors, describe, load

if TYPE_CHECKING:  # imported where a document is validated: most runs need it not at all
    import jsonschema
    from jsonschema.exceptions import ValidationError

__all__ = ["judged_valid", "load_validated", "schema", "strict_validator", "validate"]


_JSON_TYPES: Final = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean (true/false)",
    "null": "null",
}


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"a {type(value).__name__}"


def _got(value: object) -> str:
    """What a value is, as a message names it: `an integer (5)`; null alone."""
    return "null" if value is None else f"{_kind(value)} ({describe(value)})"


def _where(pointer: Sequence[str | int], data: Any = None) -> str:
    """``options.follow_up``, ``source[1]``, ``table.2``; ``top level`` for the root.

    Given the data, integer mapping keys are written like other keys (``table.2``);
    without it every integer is taken for a list index.
    """
    out = ""
    node = data
    for step in pointer:
        if isinstance(step, int) and not isinstance(node, dict):
            out += f"[{step}]"
        else:
            out += ("." if out else "") + str(step)
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            node = None
    return out or "top level"


def _jsonable(value: Any) -> Any:
    """Integer mapping keys become strings for the validator (JSON keys are strings)."""
    if isinstance(value, dict):
        return {(str(k) if type(k) is int else k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    return value


def _real_pointer(data: Any, path: Iterable[str | int]) -> Pointer:
    """Map a validator path back onto the data, turning ``"2"`` back into ``2`` keys."""
    out: list[str | int] = []
    node = data
    for step in path:
        if (
            isinstance(node, dict)
            and isinstance(step, str)
            and step not in node
            and re.fullmatch(r"-?[0-9]+", step)
            and int(step) in node
        ):
            step = int(step)
        out.append(step)
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            node = None
    return tuple(out)


def _show_choices(values: Iterable[Any]) -> str:
    return ", ".join(v if isinstance(v, str) else json.dumps(v) for v in values)


def _messages(doc: Document, err: ValidationError) -> Iterator[tuple[Pointer, str]]:
    """The readable message(s) for one validation error, each with where it points."""
    pointer = _real_pointer(doc.data, err.absolute_path)
    where = _where(pointer, doc.data)
    kind = err.validator
    value: Any = err.validator_value
    inst = err.instance

    if "propertyNames" in err.relative_schema_path and isinstance(inst, str):
        # The instance is a key of the mapping at `pointer`; point at the key itself (a
        # number key, `20:`, is 20 in the data and "20" to the validator: it was told at
        # its mapping's line)
        key = _real_pointer(doc.data, [*err.absolute_path, inst])
        if kind == "pattern" and isinstance(err.schema, dict) and "x-expected" in err.schema:
            yield key, f"{where}: key {inst!r} is not {err.schema['x-expected']}"
        elif kind == "pattern":
            yield key, f"{where}: key {inst!r} does not match the pattern {value}"
        else:
            yield key, f"{where}: key {inst!r} is not allowed: {err.message}"
    elif kind == "additionalProperties" and value is False and isinstance(inst, dict):
        props = err.schema.get("properties", {}) if isinstance(err.schema, dict) else {}
        patterns = err.schema.get("patternProperties", {}) if isinstance(err.schema, dict) else {}
        allowed = f"; allowed keys: {', '.join(props)}" if props else ""
        for key in inst:
            if key in props or any(re.search(p, str(key)) for p in patterns):
                continue
            real = _real_pointer(doc.data, [*err.absolute_path, key])
            inside = "" if not pointer else f" in {where}"
            yield real, f"unknown key {shown(key)}{inside}{allowed}"
    elif kind == "required" and isinstance(inst, dict):
        for key in value:
            if key not in inst:
                yield pointer, f"{where}: missing required key {key!r}"
    elif kind == "enum":
        allowed = _show_choices(value)
        yield pointer, f"{where}: bad value {describe(inst)}; allowed values: {allowed}"
    elif kind == "const":
        yield pointer, f"{where}: bad value {describe(inst)}; must be {_show_choices([value])}"
    elif kind == "type":
        types = [value] if isinstance(value, str) else list(value)
        wanted = " or ".join(_JSON_TYPES.get(t, t) for t in types)
        # `0:` with nothing after it is null too: say how the empty list it may mean is written
        empty = "; an empty list is written []" if inst is None and "array" in types else ""
        yield pointer, (f"{where}: expected {wanted}, got {_got(inst)}{empty}"
                        + _text_for_number(inst, types))
    elif kind == "pattern" and inst == "" and isinstance(err.schema, dict) and isinstance(
            err.schema.get("minLength"), int) and err.schema["minLength"] >= 1:
        return  # an empty text breaks minLength too, whose message says it once
    elif kind == "pattern" and isinstance(err.schema, dict) and "x-expected" in err.schema:
        # A schema may say in words what the pattern stands for; a value it would match in
        # lower case (`play 5-3 on Mexican`) is told so, not left for the reader to spot
        lower = (f" (in lower case, {inst.lower()!r}, it is)" if isinstance(inst, str)
                 and isinstance(value, str) and re.search(value, inst.lower()) else
                 # and a clause id in lower case (`train-2`) in capitals, as they are written
                 f" (in capitals, {inst.upper()!r}, it is)" if isinstance(inst, str)
                 and isinstance(value, str) and re.search(value, inst.upper()) else "")
        yield pointer, f"{where}: {describe(inst)} is not {err.schema['x-expected']}{lower}"
    elif kind == "pattern":
        yield pointer, f"{where}: {describe(inst)} does not match the pattern {value}"
    elif kind == "minLength" and isinstance(inst, str) and not inst:
        expected = err.schema.get("x-expected") if isinstance(err.schema, dict) else None
        yield pointer, f"{where}: '' is empty" + (f"; expected {expected}" if expected else "")
    elif kind == "minLength" and isinstance(inst, str):
        yield pointer, (f"{where}: {describe(inst)} is too short (at least {value} "
                        f"character{'s' * (value != 1)})")
    elif kind == "minProperties" and isinstance(inst, dict) and isinstance(err.schema, dict) \
            and err.schema.get("properties"):  # an entry of known keys given too few
        has = f"gives only {', '.join(map(str, inst))}" if inst else "is empty"
        need = "one" if value == 1 else f"{value} keys"  # not "at least 1 keys"
        yield pointer, (f"{where}: {has}; it needs at least {need} of "
                        f"{', '.join(err.schema['properties'])}")
    elif kind == "maxLength" and isinstance(inst, str):
        yield pointer, f"{where}: {describe(inst)} is too long (at most {value} characters)"
    elif kind in ("anyOf", "oneOf") and (keys := _key_choice(value)):
        named = " or ".join(f"`{k}`" for k in keys)
        if not isinstance(inst, dict):  # as the type's own complaint says it (one message)
            yield pointer, f"{where}: expected a mapping, got {_got(inst)}"
        elif kind == "oneOf" and err.context == []:  # more than one choice fits
            given = [f"`{k}`" for k in keys if k in inst]
            yield pointer, f"{where}: gives both {' and '.join(given)}: give one of them"
        else:
            yield pointer, f"{where}: needs {named}"
    elif kind in ("anyOf", "oneOf") and (choice := _choice(err)) is not None:
        if isinstance(choice, str):
            yield pointer, f"{where}: expected {choice}, got {_got(inst)}"
        else:  # the one choice of the value's type: its own complaints say what is wrong
            for sub in choice:
                yield from _messages(doc, sub)
    elif kind in ("anyOf", "oneOf") and err.context:
        from jsonschema.exceptions import best_match

        hint = best_match(err.context)
        yield pointer, f"{where}: {err.message}" + (f" (e.g. {hint.message})" if hint else "")
    elif kind == "uniqueItems" and isinstance(inst, list) and (k := first_repeat(inst)) is not None:
        # the repeat named, at its own line, not the whole list quoted
        yield (*pointer, k), f"{where}: {describe(inst[k])} is listed twice (list each once)"
    else:
        yield pointer, f"{where}: {err.message}"


def first_repeat(items: Sequence[Any]) -> int | None:
    """The place of the first item equal to an earlier one (as uniqueItems compares: by
    value, 1 and true apart), or None. An answer's or a file's list of a hundred tiles
    with one tile twice is told by that tile, not quoted whole."""
    seen: set[str] = set()
    for k, item in enumerate(items):
        key = json.dumps([type(item) is bool, item], sort_keys=True, default=repr)
        if key in seen:
            return k
        seen.add(key)
    return None


def _refused_whole(sub: ValidationError) -> bool:
    """Whether a choice refused the value for its type: a `type`, or an `enum` or `const`
    of values none of which is of the value's type (a list where a name may stand)."""
    if sub.relative_path:
        return False
    if sub.validator == "type":
        return True
    allowed = sub.validator_value if sub.validator == "enum" else [sub.validator_value]
    return sub.validator in ("enum", "const") and isinstance(allowed, list) and not any(
        type(v) is type(sub.instance) for v in allowed)


def _key_choice(choices: Any) -> list[str]:
    """The keys of a choice among keys (`oneOf: [{required: [table]}, {required: [deal]}]`:
    a fixture has a table or a deal), or [] for any other choice."""
    if not isinstance(choices, list) or not all(
            isinstance(c, dict) and set(c) == {"required"} and len(c["required"]) == 1
            for c in choices):
        return []
    return [c["required"][0] for c in choices]


def _text_for_number(value: object, types: Sequence[str]) -> str:
    """Why a number came out as text, where a number was wanted: quoted or tagged
    (`'7'`, `!!str 7`), it is text to every YAML reader."""
    if isinstance(value, str) and ("integer" in types or "number" in types) \
            and re.fullmatch(r"[-+]?[0-9]+(\.[0-9]*)?", value.strip()):
        return f": a number quoted or tagged !!str is text; write it plain ({value.strip()})"
    return ""


_SIMPLE: Final = frozenset({"type", "const", "enum", "pattern"})


def _choice(err: ValidationError) -> str | list[ValidationError] | None:
    """For an anyOf/oneOf that refused a value: the errors of the one choice of the
    value's type, when that choice refused more than the value itself (a table where a
    name or a table may stand, one cell wrong); else, when each choice refused the value
    as a whole, what the choices want ("a string or a mapping"); else None."""
    branches: dict[Any, list[ValidationError]] = {}
    for sub in err.context or ():
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    if not branches:
        return None
    fitting = [subs for subs in branches.values() if not any(map(_refused_whole, subs))]
    if len(fitting) == 1 and any(sub.relative_path or sub.validator not in ("const", "enum")
                                 for sub in fitting[0]):
        return fitting[0]
    if not all(not sub.relative_path and sub.validator in _SIMPLE
               for subs in branches.values() for sub in subs):
        return None
    wanted: list[str] = []
    for subs in branches.values():
        for text in _wants(subs):
            if text not in wanted:
                wanted.append(text)
    return " or ".join(wanted)


def _wants(errors: list[ValidationError]) -> list[str]:
    """What one choice wants, in words: its own x-expected, else its const, enum or type."""
    for sub in errors:
        if isinstance(sub.schema, dict) and isinstance(sub.schema.get("x-expected"), str):
            return [sub.schema["x-expected"]]
    out: list[str] = []
    for sub in errors:
        value: Any = sub.validator_value
        if sub.validator == "const":
            out.append(json.dumps(value))
        elif sub.validator == "enum":
            out.append("one of " + _show_choices(value))
        elif sub.validator == "type":
            types = [value] if isinstance(value, str) else list(value)
            out += [_JSON_TYPES.get(t, t) for t in types]
        elif sub.validator == "pattern":
            out.append(f"a string matching {value}")
    return out


@functools.lru_cache(maxsize=32)
def _validator(schema_text: str) -> jsonschema.Draft202012Validator:
    """A checked validator per schema, built once (checking a schema is not cheap)."""
    import jsonschema

    schema = json.loads(schema_text)
    jsonschema.Draft202012Validator.check_schema(schema)
    return _strict(schema)


@functools.cache
def _strict_class() -> Any:
    """Draft 2020-12 with one change: an integer is an int, never a float such as 8.0
    (JSON Schema counts 8.0 as an integer; a hand size or a seat written 8.0 is a slip)."""
    import jsonschema

    base = jsonschema.Draft202012Validator
    checker = base.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: type(value) is int)
    extend: Any = jsonschema.validators.extend
    return extend(base, type_checker=checker)


def strict_validator(schema: dict[str, Any]) -> jsonschema.Draft202012Validator:
    """A Draft 2020-12 validator of `schema` whose integers are ints (see _strict_class):
    the files, the protocol's checks and the answers' checks read integers alike."""
    validator: jsonschema.Draft202012Validator = _strict_class()(schema)
    return validator


_strict = strict_validator


def validate(doc: Document, schema: dict[str, Any],
             known_valid: Container[str] = ()) -> list[SpecError]:
    """All the ways ``doc.data`` breaks ``schema`` (JSON Schema 2020-12), sorted by line.

    Integer mapping keys are checked as their decimal strings, as JSON would have them
    (so a schema can describe ``{2: 15}`` with ``patternProperties`` / ``propertyNames``).
    A document found valid is known by a digest of the validator's version, the schema
    and the data as the validator reads it (in this process, and in the cache,
    spec/cache.py): the same data is not validated again. `known_valid` holds more such
    digests, of documents jsonschema found valid elsewhere (those of the shipped corpus,
    conformance/shipped.py): a digest names the very data, so another text, schema or
    validator is never found in it. Only validity is kept; a document with a fault is
    validated each time, to say where.
    """
    return _validate(doc, json.dumps(schema, sort_keys=True), known_valid)


def validate_named(doc: Document, name: str, known_valid: Container[str] = ()
                   ) -> list[SpecError]:
    """`validate` against the shipped schema `name` (what `schema(name)` gives), its text
    written once per process: a run loads hundreds of fixture files, and reading the
    schema's JSON and writing it again for each cost a third of finding them valid."""
    return _validate(doc, _named_schema_text(name), known_valid)


@functools.cache
def _named_schema_text(name: str) -> str:
    return json.dumps(schema(name), sort_keys=True)


def _validate(doc: Document, schema_text: str, known_valid: Container[str]
              ) -> list[SpecError]:
    key = _valid_key(schema_text, doc.data)
    if key is not None and (key in known_valid or key in _known_valid()):
        return []
    errors = _faults(doc, schema_text, _jsonable(doc.data))
    if not errors and key is not None:
        _remember_valid(key)
    return errors


def judged_valid(doc: Document, schema: dict[str, Any]) -> str | None:
    """The digest `doc` is known valid by (what `validate` looks up), when jsonschema
    finds it valid now, whatever is known already; None for a document with a fault or
    data JSON cannot write. What conformance/shipped.py ships for the shipped corpus."""
    schema_text = json.dumps(schema, sort_keys=True)
    key = _valid_key(schema_text, doc.data)
    return key if key is not None and not _faults(doc, schema_text, _jsonable(doc.data)) \
        else None


def _faults(doc: Document, schema_text: str, data: Any) -> list[SpecError]:
    """jsonschema's faults of `data` (doc's, as the validator reads it), sorted by line."""
    validator = _validator(schema_text)
    found: dict[tuple[int, Pointer, str], SpecError] = {}
    for err in validator.iter_errors(data):
        for pointer, message in _messages(doc, err):
            spec_err = doc.error(pointer, message)
            found.setdefault((spec_err.line or 0, pointer, message), spec_err)
    ordered = sorted(found.items(), key=lambda kv: (kv[0][0], _where(kv[0][1]), kv[0][2]))
    return [spec_err for _, spec_err in ordered]


VALID_KIND, VALID_NAME = "schemas", "valid.json"
KEPT_VALID = 4096
"""The most documents known valid that the cache keeps (the least recent go)."""
_VALID: dict[str, None] | None = None


def _valid_key(schema_text: str, data: Any) -> str | None:
    """The digest a valid document is known by; None for data that JSON cannot write
    (a YAML date): such a document is validated each time.

    The data is written as loaded, in its own key order, by json's C encoder: it writes
    an integer key as the string the validator reads it as (`_jsonable`), and a key
    written twice keeps both, in order, the later being the one `_jsonable` keeps. So
    one text is one document as validated, without the Python walk of `_jsonable` and
    the sort (two thirds of what finding a shipped fixture file valid cost)."""
    try:
        text = json.dumps(data, separators=(",", ":"))
    except (TypeError, ValueError):
        return None
    return cache.digest(_jsonschema_version(), _STRICTNESS, schema_text, text)


_STRICTNESS: Final = "integers-are-ints"
"""Part of the key: what this project's validator adds to the draft (a change to it must
not find documents valid under the old one)."""


@functools.cache
def _jsonschema_version() -> str:
    """Part of the key: another version of the validator may judge otherwise. Read from
    the metadata installed beside the package where there is one set of it (what
    importlib.metadata finds there), else asked of importlib.metadata: importing that
    (and the email package under it) was an eighth of the start-up of `mtrain serve` and
    of every adapter host, which build the catalogue and so ask this once."""
    found = _installed_version("jsonschema")
    if found is not None:
        return found
    import importlib.metadata

    try:
        return importlib.metadata.version("jsonschema")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _installed_version(package: str) -> str | None:
    """The Version of the one NAME-VERSION.dist-info folder beside the top-level
    `package` as the import system finds it; None where there is none, more than one,
    or it cannot be read (the caller asks importlib.metadata instead)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    where = Path(next(iter(spec.submodule_search_locations))).parent
    named = _normalized(package)
    try:
        infos = [e for e in os.scandir(where) if e.name.endswith(".dist-info")
                 and _normalized(e.name.split("-")[0]) == named]
        if len(infos) != 1:
            return None
        with open(os.path.join(infos[0].path, "METADATA"), encoding="utf-8") as f:
            for line in f:  # the headers come first, each on a line; a blank line ends them
                if not line.strip():
                    return None
                if line.startswith("Version:"):
                    return line.partition(":")[2].strip() or None
    except (OSError, UnicodeDecodeError):
        return None
    return None


def _normalized(name: str) -> str:
    """A distribution's name as the packaging standards compare them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _known_valid() -> dict[str, None]:
    global _VALID
    if _VALID is None:
        kept = cache.read(VALID_KIND, VALID_NAME)
        _VALID = dict.fromkeys(k for k in kept if isinstance(k, str)) if isinstance(
            kept, list) else {}
    return _VALID


def _remember_valid(key: str) -> None:
    """Know `key` valid; the cache's list is written once, when the process ends (a first
    run finds a few hundred documents valid: one write, not one each)."""
    global _UNSAVED
    known = _known_valid()
    known[key] = None
    if len(known) > KEPT_VALID:
        for old in list(known)[:len(known) - KEPT_VALID]:
            del known[old]
    if not _UNSAVED:
        _UNSAVED = True
        atexit.register(save_valid)


_UNSAVED = False


def save_valid() -> None:
    """Write the documents known valid into the cache (at exit, or when a test asks)."""
    global _UNSAVED
    if _UNSAVED and _VALID is not None:
        cache.write(VALID_KIND, VALID_NAME, list(_VALID))
    _UNSAVED = False


def load_validated(path: str | Path, schema: dict[str, Any]) -> Document:
    """``load`` then ``validate``; raises ``SpecErrors`` listing every schema problem."""
    doc = load(path)
    errors = validate(doc, schema)
    if errors:
        raise SpecErrors(errors)
    return doc


@functools.cache
def _schema_text(name: str) -> str:
    """A shipped schema's text, read once per process: the catalogue asks for the variant
    schema once per variant file (45 reads of it were a tenth of building the catalogue,
    which every `mtrain serve` and adapter host does)."""
    resource = package_files("mtrain.spec") / "schemas" / f"{name}.schema.json"
    try:
        return str(resource.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SpecError(f"schemas/{name}.schema.json", None, "no such schema") from None


def schema(name: str) -> dict[str, Any]:
    """The JSON schema ``spec/schemas/<name>.schema.json`` shipped with ``mtrain.spec``
    (a copy of its own for each caller)."""
    loaded = json.loads(_schema_text(name))
    if not isinstance(loaded, dict):
        raise SpecError(f"schemas/{name}.schema.json", None, "a schema must be a JSON object")
    return loaded
