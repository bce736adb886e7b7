"""mtrain.spec.yamlload: every error names the file and the right line."""

from __future__ import annotations

import itertools
import pickle
from pathlib import Path
from typing import Any

import pytest
import yaml

from mtrain.spec.yamlload import Document, SpecError, SpecErrors, load
from mtrain.spec.yamlschema import load_validated, schema, validate


def write(tmp_path: Path, text: str, name: str = "f.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(tmp_path: Path, text: str) -> SpecError:
    path = write(tmp_path, text)
    with pytest.raises(SpecError) as info:
        load(path)
    assert info.value.path == str(path)
    return info.value


# --- SpecError ---------------------------------------------------------------------


def test_spec_error_str_with_and_without_line() -> None:
    assert str(SpecError("a.yaml", 3, "bad")) == "a.yaml:3: bad"
    assert str(SpecError("a.yaml", None, "bad")) == "a.yaml: bad"


def test_spec_errors_joins_lines_and_exposes_first() -> None:
    errs = SpecErrors([SpecError("a.yaml", 1, "one"), SpecError("b.yaml", None, "two")])
    assert str(errs) == "a.yaml:1: one\nb.yaml: two"
    assert (errs.path, errs.line, errs.message) == ("a.yaml", 1, "one")
    assert len(errs.errors) == 2
    assert isinstance(errs, SpecError)


def test_spec_errors_pickle_round_trip() -> None:
    errs = SpecErrors([SpecError("a.yaml", 1, "one"), SpecError("a.yaml", 4, "two")])
    back = pickle.loads(pickle.dumps(errs))
    assert str(back) == str(errs)
    single = pickle.loads(pickle.dumps(SpecError("a.yaml", 2, "x")))
    assert (single.path, single.line, single.message) == ("a.yaml", 2, "x")


# --- load: errors ------------------------------------------------------------------


def test_duplicate_key_names_key_and_both_lines(tmp_path: Path) -> None:
    err = load_error(tmp_path, "a: 1\nb:\n  c: 2\n  d: 3\n  c: 4\n")
    assert err.line == 5
    assert "duplicate key 'c'" in err.message
    assert "lines 3 and 5" in err.message


def test_duplicate_key_at_top_level_in_flow_mapping(tmp_path: Path) -> None:
    err = load_error(tmp_path, "# comment\nx: {p: 1,\n    p: 2}\n")
    assert err.line == 3
    assert "'p'" in err.message and "lines 2 and 3" in err.message


def test_duplicate_int_keys_spelled_differently(tmp_path: Path) -> None:
    err = load_error(tmp_path, "table:\n  2: 15\n  +2: 16\n")
    assert err.line == 3
    assert "duplicate key 2" in err.message and "lines 2 and 3" in err.message


def test_unsafe_python_tag_is_refused(tmp_path: Path) -> None:
    err = load_error(tmp_path, "a: 1\nb: !!python/object/apply:os.system ['echo hi']\n")
    assert err.line == 2
    assert "!!python/object/apply:os.system" in err.message


def test_local_tag_is_refused(tmp_path: Path) -> None:
    err = load_error(tmp_path, "a:\n  - 1\n  - !custom 2\n")
    assert err.line == 3
    assert "'!custom'" in err.message


def test_unsafe_tag_on_a_key_is_refused(tmp_path: Path) -> None:
    err = load_error(tmp_path, "a: 1\n? !!python/name:os.system\n: 2\n")
    assert err.line == 2
    assert "python/name:os.system" in err.message


def test_syntax_error_line_from_mark(tmp_path: Path) -> None:
    err = load_error(tmp_path, "a: 1\nb: [1, 2\nc: 3\n")
    assert err.line == 3
    assert err.message.startswith("YAML syntax error:")
    assert "line 2" in err.message  # the context: where the flow sequence started


def test_syntax_error_bad_indentation(tmp_path: Path) -> None:
    err = load_error(tmp_path, "a: x\nb: y\n c: z\n")
    assert err.line == 3
    assert "YAML syntax error" in err.message


def test_a_tab_in_the_indentation_is_named(tmp_path: Path) -> None:
    err = load_error(tmp_path, "a: 1\nb:\n\tc: 2\n")
    assert err.line == 3
    assert "tab" in err.message and "YAML syntax error" in err.message


def test_two_documents_are_refused(tmp_path: Path) -> None:
    err = load_error(tmp_path, "a: 1\n---\nb: 2\n")
    assert err.line == 2
    assert "single document" in err.message


def test_control_character_is_refused_with_line(tmp_path: Path) -> None:
    err = load_error(tmp_path, "a: 1\nb: \x07\n")
    assert err.line == 2
    assert "U+0007" in err.message


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "---\n"])
def test_empty_file(tmp_path: Path, text: str) -> None:
    err = load_error(tmp_path, text)
    assert err.message == "empty file"
    assert err.line is None
    assert str(err) == f"{err.path}: empty file"


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.yaml"
    with pytest.raises(SpecError) as info:
        load(path)
    assert info.value.path == str(path)
    assert info.value.line is None
    assert "not found" in info.value.message


def test_directory_is_not_readable(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as info:
        load(tmp_path)
    assert info.value.path == str(tmp_path)
    assert info.value.message == "is a folder, not a file"


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("a: 1\nb: café\n".encode("latin-1"))
    with pytest.raises(SpecError) as info:
        load(path)
    assert info.value.line == 2
    assert "UTF-8" in info.value.message


@pytest.mark.parametrize(
    ("text", "line", "shown"),
    [
        ("a: 1\ntrue: 2\n", 2, "read as a boolean"),
        ("a:\n  1.5: x\n", 2, "key '1.5' is read as a number (1.5)"),
        ("a: 1\n~: 2\n", 2, "key '~' is read as null (None)"),  # (was "NoneType None")
        ("a: 1\n2024-01-01: x\n", 2, "date"),
        ("a: 1\n? [1, 2]\n: x\n", 2, "collection"),
    ],
)
def test_keys_must_be_strings_or_ints(tmp_path: Path, text: str, line: int, shown: str) -> None:
    err = load_error(tmp_path, text)
    assert err.line == line
    assert shown in err.message
    assert "strings or integers" in err.message or "string or an integer" in err.message


def test_text_argument_is_reported_under_path() -> None:
    with pytest.raises(SpecError) as info:
        load("virtual.yaml", "a: 1\na: 2\n")
    assert str(info.value) == "virtual.yaml:2: duplicate key 'a' (lines 1 and 2)"


# --- load: data and lines ----------------------------------------------------------

VALID = """\
# a comment
name: pagat
title: "Pagat rules"
source: [pagat, house]
options:
  tile_set: double-12
  follow_up: anywhere
table: {2: 15, 3: 15, 10: 8}
nested:
  - id: one
    items:
      - x
      - y: [1, 2.5, true, null, ~]
  - id: two
    text: >-
      folded
      text
defaults: &d {a: 1, b: 2}
aliased: *d
quoted: "2"
date: 2024-01-01
"""


def test_valid_file_loads_like_safe_load(tmp_path: Path) -> None:
    doc = load(write(tmp_path, VALID))
    assert isinstance(doc, Document)
    assert doc.data == yaml.safe_load(VALID)
    assert doc.data["aliased"] == {"a": 1, "b": 2}


def test_int_keys_stay_ints(tmp_path: Path) -> None:
    doc = load(write(tmp_path, VALID))
    assert doc.data["table"] == {2: 15, 3: 15, 10: 8}
    assert all(type(k) is int for k in doc.data["table"])
    assert doc.data["quoted"] == "2"


def test_line_of_nested_paths(tmp_path: Path) -> None:
    doc = load(write(tmp_path, VALID))
    assert doc.line_of([]) == 2
    assert doc.line_of(["name"]) == 2
    assert doc.line_of(["source"]) == 4
    assert doc.line_of(["source", 1]) == 4
    assert doc.line_of(["options", "follow_up"]) == 7
    assert doc.line_of(["table", 10]) == 8
    assert doc.line_of(["nested", 0]) == 10
    assert doc.line_of(["nested", 0, "items", 1]) == 13
    assert doc.line_of(["nested", 0, "items", 1, "y", 2]) == 13
    assert doc.line_of(["nested", 1, "text"]) == 15
    assert doc.line_of(["aliased"]) == 19


def test_line_of_falls_back_to_nearest_ancestor(tmp_path: Path) -> None:
    doc = load(write(tmp_path, VALID))
    assert doc.line_of(["options", "missing"]) == 5
    assert doc.line_of(["nested", 1, "nope", 3]) == 14
    assert doc.line_of(["nested", 7]) == 9
    assert doc.line_of(["table", "10"]) == 8  # a string is not the int key: falls back


def test_line_of_block_sequence_items(tmp_path: Path) -> None:
    doc = load(write(tmp_path, "list:\n  - a\n\n  - b\n  -\n    k: v\n"))
    assert [doc.line_of(["list", i]) for i in range(3)] == [2, 4, 6]
    assert doc.line_of(["list", 2, "k"]) == 6


def test_document_error_uses_line_of(tmp_path: Path) -> None:
    path = write(tmp_path, "a:\n  b:\n    c: 1\n")
    doc = load(path)
    err = doc.error(["a", "b", "c"], "no good")
    assert str(err) == f"{path}:3: no good"
    assert doc.error(["a", "zz"], "x").line == 1


# --- validate ----------------------------------------------------------------------

SIMPLE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "size"],
    "properties": {
        "name": {"type": "string"},
        "size": {"type": "integer"},
        "colour": {"enum": ["red", "green"]},
        "inner": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"ok": {"type": "boolean"}},
        },
        "table": {
            "type": "object",
            "propertyNames": {"pattern": "^[0-9]+$"},
            "additionalProperties": {"type": "integer"},
        },
    },
}


def errors_for(text: str, sch: dict[str, Any] = SIMPLE_SCHEMA) -> list[SpecError]:
    return validate(load("s.yaml", text), sch)


def test_validate_clean_document_has_no_errors() -> None:
    assert errors_for("name: x\nsize: 3\ncolour: red\ntable: {2: 15}\n") == []


def test_unknown_key_points_at_its_line() -> None:
    errs = errors_for("name: x\nsize: 3\ninner:\n  ok: true\n  bogus: 1\n")
    assert len(errs) == 1
    assert errs[0].line == 5
    assert "unknown key 'bogus'" in errs[0].message
    assert "inner" in errs[0].message
    assert "ok" in errs[0].message  # lists the allowed keys


def test_several_unknown_keys_each_at_own_line() -> None:
    errs = errors_for("name: x\nextra1: 1\nsize: 3\nextra2: 2\n")
    assert [(e.line, "extra1" in e.message, "extra2" in e.message) for e in errs] == [
        (2, True, False),
        (4, False, True),
    ]


def test_bad_enum_value_names_value_and_choices() -> None:
    errs = errors_for("name: x\nsize: 3\ncolour: blue\n")
    assert len(errs) == 1
    assert errs[0].line == 3
    assert "'blue'" in errs[0].message
    assert "red, green" in errs[0].message
    assert errs[0].message.startswith("colour:")


def test_wrong_type() -> None:
    errs = errors_for("name: [a]\nsize: '3'\n")
    assert [e.line for e in errs] == [1, 2]
    assert "name: expected a string, got a list" in errs[0].message
    assert "size: expected an integer, got a string ('3')" in errs[1].message


def test_missing_required_key_at_object_line() -> None:
    errs = errors_for("# header\n\nname: x\n")
    assert len(errs) == 1
    assert errs[0].line == 3
    assert "missing required key 'size'" in errs[0].message


def test_int_keys_validated_as_strings_but_reported_at_their_line() -> None:
    errs = errors_for("name: x\nsize: 1\ntable:\n  2: 15\n  3: many\n")
    assert len(errs) == 1
    assert errs[0].line == 5
    assert "table.3" in errs[0].message


def test_errors_sorted_by_line() -> None:
    errs = errors_for("colour: blue\nname: 1\nsize: x\nzzz: 0\n")
    lines = [e.line or 0 for e in errs]
    assert lines == sorted(lines)
    assert len(errs) == 4


def test_load_validated_raises_all_errors(tmp_path: Path) -> None:
    path = write(tmp_path, "name: 1\nsize: 2\ncolour: blue\n")
    with pytest.raises(SpecErrors) as info:
        load_validated(path, SIMPLE_SCHEMA)
    assert [e.line for e in info.value.errors] == [1, 3]
    assert str(info.value).splitlines()[1].startswith(f"{path}:3: ")


def test_load_validated_returns_document(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nsize: 2\n")
    assert load_validated(path, SIMPLE_SCHEMA).data == {"name": "x", "size": 2}


# --- the variant schema ------------------------------------------------------------

GOOD_VARIANT = """\
name: pagat
title: Pagat's rules
source: [pagat, decision]
description: The rules as published on pagat.com.
options:
  tile_set: double-12
  hand_sizes: pagat
  follow_up: anywhere
"""


def test_variant_schema_is_shipped() -> None:
    sch = schema("variant")
    assert sch["$id"] == "https://mtrain.invalid/schemas/variant.schema.json"
    assert sch["additionalProperties"] is False


def test_variant_schema_accepts_good_file() -> None:
    assert validate(load("v.yaml", GOOD_VARIANT), schema("variant")) == []
    overlay = "name: blanks\ntitle: x\nsource: [house]\noptions: {}\napplies_to: [pagat]\n"
    assert validate(load("o.yaml", overlay), schema("variant")) == []


def test_variant_schema_errors() -> None:
    text = (
        "name: Pagat Rules\n"  # 1: not a slug
        "title: t\n"
        "source:\n"
        "  - pagat\n"
        "  - bgg\n"  # 5: not in enum
        "options:\n"
        "  Tile-Set: double-12\n"  # 7: bad option name
        "  follow_up: 3\n"  # 8: wrong type
        "overlay: [x]\n"  # 9: unknown key (typo of overlays)
    )
    errs = validate(load("v.yaml", text), schema("variant"))
    by_line = {e.line: e.message for e in errs}
    assert sorted(e.line or 0 for e in errs) == [1, 5, 7, 8, 9]
    assert "Pagat Rules" in by_line[1]
    assert "'bgg'" in by_line[5] and "pagat" in by_line[5] and "fundex" in by_line[5]
    assert "Tile-Set" in by_line[7]
    assert "follow_up" in by_line[8] and "string" in by_line[8]
    assert "unknown key 'overlay'" in by_line[9]


def test_variant_schema_requires_fields() -> None:
    errs = validate(load("v.yaml", "title: t\n"), schema("variant"))
    missing = sorted(m.split("'")[1] for m in (e.message for e in errs))
    assert missing == ["name", "options", "source"]


def test_unknown_schema_name() -> None:
    with pytest.raises(SpecError):
        schema("no-such-schema")


# --- bounded: aliases, recursion, depth ----------------------------------------------


def test_alias_expansion_is_bounded(tmp_path: Path) -> None:
    # Each line stands for ten of the line before: line 6 is 10**6 nodes expanded.
    text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{q}: &{q} [{', '.join([f'*{p}'] * 10)}]\n" for p, q in itertools.pairwise("abcdef"))
    err = load_error(tmp_path, text)
    assert err.line == 5 and "more than 100,000 nodes" in err.message


def test_aliases_below_the_bound_load_as_shared_data(tmp_path: Path) -> None:
    doc = load(write(tmp_path, "a: &a [1, 2]\nb: [*a, *a, *a]\n"))
    assert doc.data == {"a": [1, 2], "b": [[1, 2]] * 3}


def test_recursive_alias_is_refused(tmp_path: Path) -> None:
    err = load_error(tmp_path, "top:\n  a: &a [1, *a]\n")
    assert err.line == 2 and "refers to the node that contains it" in err.message


@pytest.mark.parametrize("depth, ok", [(50, True), (51, False), (900, False)])
def test_nesting_depth_is_bounded(tmp_path: Path, depth: int, ok: bool) -> None:
    text = "{a: " * depth + "1" + "}" * depth + "\n"
    if ok:
        assert load(write(tmp_path, text)).data is not None
    else:
        err = load_error(tmp_path, text)
        assert err.line == 1 and "nested more than 50 levels deep" in err.message


@pytest.mark.parametrize("text, line", [
    ("a: 1\nb: " + "9" * 5000 + "\n", 2),          # Python converts at most 4,300 digits
    ("a:\n  - -" + "1" * 1001 + "\n", 2),
    ("a: !!int '" + "7" * 4400 + "'\n", 1),        # a tagged string is an integer too
])
def test_an_integer_too_long_to_read_is_refused_at_its_line(tmp_path: Path, text: str,
                                                          line: int) -> None:
    err = load_error(tmp_path, text)  # was a ValueError with no file or line
    assert err.line == line and "too long to read (at most 1,000 digits)" in err.message


def test_a_long_integer_within_the_bound_loads(tmp_path: Path) -> None:
    assert load(write(tmp_path, "a: " + "9" * 1000 + "\n")).data == {"a": int("9" * 1000)}


# --- YAML 1.1 spellings: refused, with the line, never read as a surprise ----------
# PyYAML reads YAML 1.1, where `0x8` and `010` are 8, `1_000` is 1000, `1:30` is 90,
# `yes`/`no`/`on`/`off` are booleans and `.inf` is a float; YAML 1.2 readers (and most
# people) read several of them otherwise. Each is refused where it stands.


@pytest.mark.parametrize(("text", "line", "shown"), [
    ("a: 1\nb: 0x8\n", 2, "'0x8'"),
    ("a: 1\nb: 010\n", 2, "'010'"),
    ("a: 1\nb: 0o7\n", 2, "'0o7'"),  # a string in YAML 1.1, the number 7 in YAML 1.2
    ("a: 1\nb: 1_000\n", 2, "'1_000'"),
    ("a: 1\nb: 1:30\n", 2, "'1:30'"),
    ("a: 1\nb: 1e3\n", 2, "'1e3'"),  # a string in YAML 1.1, a number in YAML 1.2
    ("a: 1\nb: 1.0e3\n", 2, "'1.0e3'"),
    ("a: 1\nb: 0b11\n", 2, "'0b11'"),
    ("a:\n  - 1\n  - 0x2\n", 3, "'0x2'"),
    ("t:\n  2: 15\n  010: 16\n", 3, "'010'"),  # as a key
    ("a: 1\nb: yes\n", 2, "'yes'"),
    ("a: 1\nb: No\n", 2, "'No'"),
    ("a: 1\nb: on\n", 2, "'on'"),
    ("a: {x: 1, y: OFF}\n", 1, "'OFF'"),
    ("a: 1\nb: .inf\n", 2, "'.inf'"),
    ("a: 1\nb: -.Inf\n", 2, "'-.Inf'"),
    ("a: 1\nb: .nan\n", 2, "'.nan'"),
    ("a: 1\nb: 1_0.5\n", 2, "'1_0.5'"),
    ("a: 1\nb: 1:30.5\n", 2, "'1:30.5'"),
])
def test_yaml_1_1_spellings_are_refused_at_their_line(tmp_path: Path, text: str, line: int,
                                                      shown: str) -> None:
    err = load_error(tmp_path, text)
    assert err.line == line, str(err)
    assert shown in err.message, str(err)
    assert "quote" in err.message  # says how to write it as text


@pytest.mark.parametrize(("text", "data"), [
    ("a: 8\nb: -3\nc: 0\n", {"a": 8, "b": -3, "c": 0}),
    ("a: true\nb: false\nc: True\n", {"a": True, "b": False, "c": True}),
    ("a: 2.5\nb: -0.5\nc: 1.0e+3\nd: +5\n", {"a": 2.5, "b": -0.5, "c": 1000.0, "d": 5}),
    ("a: '0x8'\nb: \"yes\"\nc: 'off'\n", {"a": "0x8", "b": "yes", "c": "off"}),
    ("a: y\nb: n\n", {"a": "y", "b": "n"}),  # strings to PyYAML already
    ("a: null\nb: ~\nc:\n", {"a": None, "b": None, "c": None}),
])
def test_plain_spellings_load_as_written(tmp_path: Path, text: str, data: Any) -> None:
    assert load(write(tmp_path, text)).data == data


def test_an_integer_written_as_a_float_is_not_an_integer() -> None:
    errs = errors_for("name: x\nsize: 8.0\n")
    assert [e.line for e in errs] == [2]
    assert "size: expected an integer, got a number (8.0)" in errs[0].message


def test_a_merge_key_is_refused_as_the_yaml_versions_read_it_apart(tmp_path: Path) -> None:
    # YAML 1.1 (PyYAML) copies the keys in; YAML 1.2 reads a key named '<<' (tests of
    # the fixture and rule-set files: test_robust_s43b.py)
    with pytest.raises(SpecError, match=r":3: '<<' is a merge key to YAML 1.1"):
        load(write(tmp_path, "base: &b {x: 1, y: 2}\nmine:\n  <<: *b\n  y: 3\n"))
    assert load(write(tmp_path, "mine:\n  '<<': 1\n")).data == {"mine": {"<<": 1}}


def test_a_choice_says_what_each_alternative_wants() -> None:
    sch = {"type": "object", "properties": {"t": {"anyOf": [
        {"type": "string", "pattern": "^[0-9]-[0-9]$", "x-expected": "a tile such as 5-3"},
        {"const": "rest"}]}}}
    assert [e.message for e in errors_for("t: 5.3\n", sch)] == [
        't: expected a tile such as 5-3 or "rest", got a number (5.3)']
    assert [e.message for e in errors_for("t: '05-3'\n", sch)] == [
        "t: expected a tile such as 5-3 or \"rest\", got a string ('05-3')"]
    assert errors_for("t: rest\n", sch) == [] and errors_for("t: 5-3\n", sch) == []
