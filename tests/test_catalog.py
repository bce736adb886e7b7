"""The specification as data: the catalogue loads, answers every question of RULES.md,
composes rule sets, and refuses bad ones with a message that points at the cause."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from mtrain.conformance.declaration import ADDED_WITHIN_V1
from mtrain.spec.catalog import Catalog, RulesetError, catalog
from mtrain.spec.yamlload import SpecError
from mtrain.spec.yamlschema import schema

CAT = catalog()

VARIANTS = {"pagat", "puremco", "puremco-d9"}
OVERLAYS = {
    "any-double-first", "blanks-25", "blocked-winner", "cardinal-hands", "celko-double-6",
    "celko-double-9",
    "chain-anywhere-start",
    "celko-double-15", "double-15", "double-blank-25", "double-blank-50",
    "draw-until-playable", "engine-aside", "engine-designated-opens", "engine-everyone-draws",
    "engine-highest-double",
    "engine-holder-draws", "follow-up-only",
    "release-after-layers-turn",
    "fundex-hands",
    "goodsam-hands", "hathaway-hands", "highest-draw-start",
    "heaviest-in-hand-start",
    "marker-anyone", "after-engine-start", "no-double-end-start",
    "marker-owner-anywhere", "own-train-first", "own-train-opens-mexican", "passes-end-round",
    "ordinary-doubles",
    "positive-scoring", "single-round",
    "release-on-empty-boneyard", "release-uncoverable", "rotate-start", "single-tile-start",
    "starter-opens-mexican",
    "tie-lowest-seat", "tie-most-outs",
    "wikipedia-doubles",
}
QUESTIONS = range(1, 11)  # the numbered questions at the end of shared/RULES.md


# --- the catalogue -----------------------------------------------------------------------


def test_catalog_loads_and_a_fresh_load_agrees() -> None:
    fresh = Catalog()
    assert set(fresh.options) == set(CAT.options)
    assert set(fresh.clauses) == set(CAT.clauses)
    assert len(CAT.clauses) > 50


def test_shipped_variants_and_overlays_exist() -> None:
    assert set(CAT.variants) == VARIANTS
    assert set(CAT.overlays) == OVERLAYS
    for name in VARIANTS:
        rs = CAT.ruleset(name)
        assert set(rs) == set(CAT.options)


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_question_is_answered(question: int) -> None:
    """Each question of RULES.md is an option (`question: N`) or a clause (`answers`)."""
    options = [o.name for o in CAT.options.values() if o.question == question]
    clauses = [c.id for c in CAT.clauses.values() if question in c.answers]
    assert options or clauses, f"question {question} is answered nowhere"


def test_answers_name_real_questions() -> None:
    for c in CAT.clauses.values():
        assert set(c.answers) <= set(QUESTIONS), c.id
    for o in CAT.options.values():
        assert o.question is None or o.question in QUESTIONS, o.name


def test_every_decision_clause_gives_its_reason() -> None:
    for c in CAT.clauses.values():
        if "decision" in c.sources:
            assert c.decision and len(c.decision.split()) >= 5, c.id
        if c.decision:
            assert "decision" in c.sources, f"{c.id} gives a decision but no 'decision' source"


# --- provenance ----------------------------------------------------------------------------

# The only rules the seed names as house rules: positive scoring, penalised blanks.
SEED_HOUSE = {"SCORE-2", "SCORE-3", "SCORE-6", "MATCH-3", "scoring=positive",
              "blank_values=blank-25", "blank_values=double-blank-50", "positive-scoring",
              "blanks-25", "double-blank-50"}


def _labelled() -> dict[str, tuple[str, ...]]:
    out = {c.id: c.sources for c in CAT.clauses.values()}
    out |= {f"{o.name}={v.name}": v.source for o in CAT.options.values()
            for v in o.values.values()}
    out |= {f.name: f.source for f in [*CAT.variants.values(), *CAT.overlays.values()]}
    return out


def test_every_label_is_defined_and_used() -> None:
    used = {label for sources in _labelled().values() for label in sources}
    assert used == set(CAT.sources), set(CAT.sources) ^ used
    for label in CAT.sources.values():
        assert label.kind and len(label.text.split()) >= 8, label.name


def test_house_marks_only_the_house_rules_the_seed_names() -> None:
    assert {k for k, sources in _labelled().items() if "house" in sources} == SEED_HOUSE


def test_decisions_give_reasons_and_common_rules_say_where_from() -> None:
    """A house rule from elsewhere (`common`) and a behaviour seen in engines (`engine`)
    both say in `origin` what it is and where it was found."""
    for o in CAT.options.values():
        for v in o.values.values():
            assert ("decision" in v.source) == bool(v.decision), (o.name, v.name)
            told = "common" in v.source or "engine" in v.source
            assert told == bool(v.origin), (o.name, v.name)
    for c in CAT.clauses.values():
        told = "common" in c.sources or "engine" in c.sources
        assert told == bool(c.origin), c.id


def test_an_engine_label_needs_its_origin() -> None:
    from mtrain.spec.catalog_entries import provenance_problem

    assert provenance_problem(["engine"], {}) == (
        "an 'engine' source must give which engines play it in `origin`")
    assert provenance_problem(["engine"], {"origin": "seen in one app"}) is None
    assert "without" in (provenance_problem(["pagat"], {"origin": "x"}) or "")


def test_the_corrected_labels() -> None:
    """Issue 11: what the seed does and does not say, clause by clause."""
    assert CAT.clauses["SEAT-2"].sources == ("decision",)  # pagat is silent on who starts
    assert "puremco" not in CAT.clauses["DBL-7"].sources  # the seed gives the order for pagat
    for cid in ("TURN-5", "MATCH-5", "SCORE-4"):
        assert "common" in CAT.clauses[cid].sources, cid
    for cid in ("FIRST-9", "TRAIN-7", "END-3", "DBL-8"):
        assert "decision" in CAT.clauses[cid].sources, cid
    assert "differ" in (CAT.clauses["DBL-6"].decision or "")
    assert "30" in (CAT.clauses["SCORE-2"].decision or "")
    assert "newer open double" in CAT.clauses["DBL-10"].text


def test_the_last_tile_tap_is_set_aside_with_its_reason() -> None:
    tap = next(a for a in CAT.set_aside if "tap" in a.title.lower())
    assert tap.sources == ("puremco",) and tap.changes and tap.reason
    assert len({a.id for a in CAT.set_aside}) == len(CAT.set_aside)
    assert not {a.id for a in CAT.set_aside} & set(CAT.clauses)


def test_clause_ids_are_well_formed_and_have_text() -> None:
    for cid, c in CAT.clauses.items():
        assert re.fullmatch(r"[A-Z]+-[0-9]+", cid), cid
        assert c.title.strip() and c.text.strip() and c.sources, cid
        assert c.line is not None


def test_every_option_value_is_named_by_a_clause_or_documented() -> None:
    for option in CAT.options.values():
        for value in option.values.values():
            named = CAT.clauses_for(option.name, value.name)
            assert named or (value.text.strip() and value.source), (option.name, value.name)


def test_clause_conditions_name_real_options_and_values() -> None:
    for c in CAT.clauses.values():
        for cond in (c.when, c.requires):
            for option, values in cond.items():
                assert option in CAT.options, (c.id, option)
                assert values <= set(CAT.options[option].values), (c.id, option)


def test_every_variant_and_overlay_names_known_options() -> None:
    for vf in [*CAT.variants.values(), *CAT.overlays.values()]:
        for option, value in vf.options.items():
            assert value in CAT.options[option].values, (vf.name, option, value)


# --- published hand-size tables (issue 21, item 4) ---------------------------------------

# Each table as its source prints it, written here from the source's own text (what each
# page gives is in docs/sources-survey.md), never from options.yaml: (value, source label,
# rows). A comment gives the page and its figures.
PUBLISHED_TABLES = [
    # https://www.pagat.com/domino/star/mextrain-c.html (Joe Celko's rules on pagat): one
    # table, players 2 to 12 across, a row per set. Double Six: 9, 8, 6 (2 to 4 players).
    ("celko-d6", "celko", {2: 9, 3: 8, 4: 6}),
    # the same table, Double Nine: 9, 9, 9, 7, 7, 7, 6 (2 to 8 players)
    ("celko-d9", "celko", {2: 9, 3: 9, 4: 9, 5: 7, 6: 7, 7: 7, 8: 6}),
    # the same table, Double Twelve: 15, 15, 15, 12, 12, 11, 11 (2 to 8 players)
    ("cardinal", "celko", {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 11, 8: 11}),
    # the same table, Double Fifteen: 15, 15, 15, 15, 15, 13, 13, 11, 11, 11, 11 (2 to 12)
    ("celko-d15", "celko", {2: 15, 3: 15, 4: 15, 5: 15, 6: 15, 7: 13, 8: 13,
                            9: 11, 10: 11, 11: 11, 12: 11}),
    # http://franklincosilvergames.com/page/?p=57 ("Cardinal's Mexican Train Dominoes"):
    # 2, 3 or 4 players draw 15 each, 5 or 6 draw 12, 7 or 8 draw 11
    ("cardinal", "cardinal", {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 11, 8: 11}),
    # https://shop.owlshollow.com/mexican-train-domino-set-double-12.html (the Fundex
    # sheet's text): 2 to 4 players 15 dominoes, 5 to 6 players 11, 7 to 8 players 8
    ("fundex", "fundex", {2: 15, 3: 15, 4: 15, 5: 11, 6: 11, 7: 8, 8: 8}),
    # https://ourpastimes.com/instructions-double-twelve-dominoes-8530740.html: two or
    # three players draw 16, four 15, five 14, six 12, seven 10, eight 9
    ("puremco-d12", "ourpastimes", {2: 16, 3: 16, 4: 15, 5: 14, 6: 12, 7: 10, 8: 9}),
    # https://www.idahogoodsam.org/gamerules/9: 2 players 16 tiles, 3 15, 4 14, 5 13,
    # 6 12, 7 11, 8 10
    ("goodsam", "goodsam", {2: 16, 3: 15, 4: 14, 5: 13, 6: 12, 7: 11, 8: 10}),
    # https://www.billhathaway.com/mexican-train: up to 4 players 15 each, 5 or 6 take 11,
    # 7 or 8 take 10, 9 or 10 take 8 (a game has 2 players at least)
    ("hathaway", "hathaway", {2: 15, 3: 15, 4: 15, 5: 11, 6: 11, 7: 10, 8: 10,
                              9: 8, 10: 8}),
]

# hand_sizes values whose every source lacks an address, and why (docs/sources-survey.md):
# this list may only shrink.
NO_ADDRESS = {
    "puremco-d9": "the Puremco sheet is known here only through the seed; no stored page "
                  "gives its double-9 table",
}


def _sources_yaml() -> dict[str, Any]:
    data = yaml.safe_load((Path(__file__).resolve().parents[1] / "spec" / "data"
                           / "sources.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize(("value", "label", "rows"), PUBLISHED_TABLES,
                         ids=[f"{v}-{lb}" for v, lb, _ in PUBLISHED_TABLES])
def test_each_published_table_has_the_rows_its_source_gives(
        value: str, label: str, rows: dict[int, int]) -> None:
    option = CAT.options["hand_sizes"].values[value]
    assert dict(option.table) == rows
    assert label in option.source
    says = _sources_yaml()[label]["says"]
    assert isinstance(says, dict)
    assert value in says["hand_sizes"]["values"]


def test_every_hand_size_table_cites_a_source_with_an_address() -> None:
    data = _sources_yaml()
    for label, body in data.items():
        for address in body.get("addresses") or ():
            assert str(address).startswith(("https://", "http://")), (label, address)
            assert address in " ".join(str(body["text"]).split()), (label, address)
    gaps = set()
    for name, value in CAT.options["hand_sizes"].values.items():
        if not any(data[label].get("addresses") for label in value.source):
            gaps.add(name)
    assert gaps == set(NO_ADDRESS)


def test_the_celko_tables_are_dealt_from_their_own_sets() -> None:
    """DEAL-12 to DEAL-14 tie each of Celko's tables to its set; on double-6 nothing but
    Celko's table (or a file's own) can be dealt (DEAL-8)."""
    for overlay, tile_set, value in (("celko-double-6", "double-6", "celko-d6"),
                                     ("celko-double-9", "double-9", "celko-d9"),
                                     ("celko-double-15", "double-15", "celko-d15")):
        rs = CAT.ruleset(f"pagat+{overlay}")
        assert (rs["tile_set"], rs["hand_sizes"]) == (tile_set, value)
        assert dict(rs.hand_table) == dict(CAT.options["hand_sizes"].values[value].table)
    assert CAT.ruleset("pagat+celko-double-6").hand_size(4) == 6  # 24 of 28 tiles
    with pytest.raises((RulesetError, SpecError), match="DEAL-13"):
        CAT.ruleset("pagat", overrides={"hand_sizes": "celko-d9"})
    with pytest.raises((RulesetError, SpecError), match="DEAL-8"):
        CAT.ruleset("pagat+celko-double-6", overrides={"hand_sizes": "pagat"})
    with pytest.raises((RulesetError, SpecError), match="DEAL-10"):
        CAT.ruleset("pagat+celko-double-15", overrides={"hand_sizes": "cardinal"})


def test_deal_11_names_the_published_double_6_table() -> None:
    """A double-6 table is published (Celko); DEAL-11 is about the sets with none,
    double-8, double-10, double-16 and double-18, and the five options.yaml's
    `every_double` rule gives (double-7, -11, -13, -14, -17)."""
    deal11 = CAT.clauses["DEAL-11"]
    assert deal11.when == {"tile_set": frozenset({"double-7", "double-8", "double-10",
                                                  "double-11", "double-13", "double-14",
                                                  "double-16", "double-17", "double-18"})}
    assert "DEAL-12" in (deal11.decision or "")
    assert CAT.clauses["DEAL-10"].requires["hand_sizes"] == {"ourpastimes-d15", "celko-d15"}
    assert CAT.options["tile_set"].values["double-6"].source == ("celko",)


# --- the rule-set schema -----------------------------------------------------------------


def test_ruleset_schema_enums_match_the_catalog() -> None:
    """spec/schemas/ruleset.schema.json copies the options by hand: it must not drift."""
    options = schema("ruleset")["properties"]["options"]
    assert list(options["properties"]) == list(CAT.options)
    # an option added within protocol version 1 may be left out (docs/protocol.md)
    assert options["required"] == [o for o in CAT.options if o not in ADDED_WITHIN_V1]
    assert set(ADDED_WITHIN_V1) <= set(CAT.options)
    for name, option in CAT.options.items():
        assert options["properties"][name]["enum"] == list(option.values), name
        assert options["properties"][name]["description"].strip(), name


def test_rulesets_validate_against_the_schema() -> None:
    validator = jsonschema.Draft202012Validator(schema("ruleset"))
    specs = [*VARIANTS, "pagat+blanks-25+tie-most-outs", "puremco+own-train-first"]
    for spec in specs:
        data = CAT.ruleset(spec).to_json()
        assert list(validator.iter_errors(data)) == [], spec
    bad = CAT.ruleset("pagat").to_json()
    assert isinstance(bad["options"], dict)
    assert not validator.is_valid({**bad, "options": {**bad["options"], "scoring": "weird"}})
    options = {k: v for k, v in bad["options"].items() if k != "scoring"}
    assert not validator.is_valid({**bad, "options": options})


CONDITIONS = {"if", "then", "else", "not"}
"""Conditional subschemas restate constraints on fields described elsewhere."""


@pytest.mark.parametrize("name", ["state", "action", "ruleset", "variant", "rulebooks"])
def test_schemas_are_valid_and_describe_every_field(name: str) -> None:
    data = schema(name)
    jsonschema.Draft202012Validator.check_schema(data)
    assert data["$id"] == f"https://mtrain.invalid/schemas/{name}.schema.json"
    assert data["$schema"] == "https://json-schema.org/draft/2020-12/schema"

    def walk(node: object, where: str) -> None:
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict):
                for key, sub in props.items():
                    described = isinstance(sub, dict) and (
                        "description" in sub or set(sub) == {"$ref"})
                    assert described, f"{name}: {where}.{key} has no description"
            for key, sub in node.items():
                if key not in CONDITIONS:
                    walk(sub, f"{where}.{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{where}[{i}]")

    walk(data, name)


# --- composition ---------------------------------------------------------------------


def test_compose_overlays_by_name_and_by_list() -> None:
    a = CAT.ruleset("pagat+blanks-25+tie-most-outs")
    b = CAT.ruleset("pagat", ["blanks-25", "tie-most-outs"])
    assert dict(a) == dict(b)
    assert a["blank_values"] == "blank-25" and a["tie_rule"] == "most-outs"
    assert a.overlays == ("blanks-25", "tie-most-outs")


def test_puremco_d9_inherits_from_puremco() -> None:
    d9, d12 = CAT.ruleset("puremco-d9"), CAT.ruleset("puremco")
    changed = {o for o in d9 if d9[o] != d12[o]}
    assert changed == {"tile_set", "hand_sizes"}
    assert dict(d9.hand_table) == {2: 15, 3: 13, 4: 10}


@pytest.mark.parametrize(("spec", "pattern"), [
    ("nope", r"unknown variant 'nope'"),
    ("pagat+nope", r"unknown overlay 'nope'"),
    ("puremco+engine-aside", r"'engine-aside' applies only to pagat"),
    ("puremco+marker-anyone", r"'marker-anyone' applies only to pagat"),
    ("pagat+blanks-25+double-blank-50", r"'blanks-25' and 'double-blank-50' conflict"),
    ("pagat+double-blank-25+double-blank-50", r"conflict"),
    ("pagat+cardinal-hands+fundex-hands", r"conflict"),
])
def test_composition_refused_by_name(spec: str, pattern: str) -> None:
    with pytest.raises(RulesetError, match=pattern):
        CAT.ruleset(spec)


@pytest.mark.parametrize(("overrides", "pattern"), [
    ({"nope": "x"}, r"unknown option 'nope'"),
    ({"scoring": "weird"}, r"unknown value 'weird' for option scoring"),
])
def test_unknown_option_or_value_refused(overrides: dict[str, str], pattern: str) -> None:
    with pytest.raises(RulesetError, match=pattern):
        CAT.ruleset("pagat", overrides=overrides)


def test_requires_failure_names_the_clause() -> None:
    """FIRST-9 requires a single-tile start; pagat starts with a chain."""
    with pytest.raises(SpecError) as info:
        CAT.ruleset("pagat+starter-opens-mexican")
    assert "FIRST-9" in str(info.value)
    assert info.value.path.endswith("starter-opens-mexican.yaml")
    assert info.value.line is not None
    # with a single-tile start the same overlay composes
    assert CAT.ruleset("pagat+single-tile-start+starter-opens-mexican")[
        "mexican_first_turn"] == "starter-only"


def test_requires_failure_from_an_override() -> None:
    with pytest.raises(RulesetError, match="SEAT-2"):
        CAT.ruleset("puremco", overrides={"starting_seat": "engine-holder"})


# --- variant files -------------------------------------------------------------------


def write(tmp_path: Path, text: str, name: str = "variant.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


UNDEALABLE = """\
name: short-but-big
title: A double-9 set with pagat's hand sizes
source: [house]
base: puremco-d9
options:
  hand_sizes: pagat
"""


def test_undealable_table_points_at_the_option(tmp_path: Path) -> None:
    """DEAL-8: pagat deals 4 x 15 = 60 tiles; a double-9 set less its engine has 54."""
    path = write(tmp_path, UNDEALABLE)
    with pytest.raises(SpecError) as info:
        CAT.ruleset(str(path))
    err = info.value
    assert (err.path, err.line) == (str(path), 6)
    assert "DEAL-8" in err.message
    assert str(err).startswith(f"{path}:6: ")


def test_a_good_variant_file_composes(tmp_path: Path) -> None:
    path = write(tmp_path, "name: mine\ntitle: Mine\nsource: [house]\nbase: pagat\n"
                 "overlays: [blanks-25]\noptions:\n  tie_rule: most-outs\n")
    rs = CAT.ruleset(str(path))
    assert rs["blank_values"] == "blank-25" and rs["tie_rule"] == "most-outs"
    assert rs["first_turn"] == "chain"


@pytest.mark.parametrize(("text", "line", "pattern"), [
    ("name: x\ntitle: X\nsource: [house]\nname: y\noptions: {}\n", 4, r"duplicate key 'name'"),
    ("name: x\ntitle: X\nsource: [house]\nbase: pagat\noptions: {}\ncolour: red\n", 6,
     r"unknown key 'colour'"),
    ("name: x\ntitle: X\nsource: [house]\nbase: pagat\noptions:\n  scoring: [a\n", None,
     r"YAML"),
    ("name: x\ntitle: X\nsource: [house]\nbase: pagat\noptions:\n  nope: penalty\n", 6,
     r"unknown option 'nope'"),
    ("name: x\ntitle: X\nsource: [house]\nbase: pagat\noptions:\n  scoring: weird\n", 6,
     r"unknown value 'weird'"),
    ("name: x\ntitle: X\nsource: [house]\nbase: nope\noptions: {}\n", 4,
     r"unknown base variant 'nope'"),
    ("name: x\ntitle: X\nsource: [house]\noptions:\n  scoring: penalty\n", 4,
     r"must give every option"),
])
def test_malformed_variant_file(tmp_path: Path, text: str, line: int | None,
                                pattern: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(SpecError) as info:
        CAT.ruleset(str(path))
    err = info.value
    assert err.path == str(path)
    assert err.line is not None
    if line is not None:
        assert err.line == line, str(err)
    assert re.search(pattern, err.message), str(err)


# --- the command line ------------------------------------------------------------------


def run_cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mtrain", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120, check=False)


def test_cli_bad_variant_file_one_line_exit_2(tmp_path: Path) -> None:
    path = write(tmp_path, UNDEALABLE, "bad.yaml")
    proc = run_cli(tmp_path, "simulate", "--variant", str(path), "--rounds", "1")
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert re.search(rf"{re.escape(str(path))}:6: .*\[DEAL-8\]$", lines[0]), lines[0]


def test_cli_malformed_yaml_one_line_exit_2(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\ntitle: X\nname: y\n", "dup.yaml")
    proc = run_cli(tmp_path, "simulate", "--variant", str(path))
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert re.search(rf"{re.escape(str(path))}:3: duplicate key 'name'", lines[0]), lines[0]


def test_cli_unknown_variant_name_exit_2(tmp_path: Path) -> None:
    proc = run_cli(tmp_path, "simulate", "--variant", "pagat+nope")
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "unknown overlay 'nope'" in lines[0], proc.stderr


def test_a_declaration_written_before_doubles_and_match_length_plays_open_and_full() -> None:
    """A hello written for the first release of protocol 1 names neither option; it is
    accepted, and plays open doubles over a full match (docs/protocol.md)."""
    from mtrain.conformance.declaration import declared_ruleset

    options = {o: v for o, v in CAT.variants["pagat"].options.items()
               if o not in ("doubles", "match_length")}
    rs = declared_ruleset({"rules": {"options": options}})
    assert rs is not None
    assert rs["doubles"] == "open" and rs["match_length"] == "full"
    assert rs["follow_up"] == options["follow_up"]
