"""Inputs the earlier robustness rounds let through (robust-s47): a `when:` list holding an
empty condition (`[{}, {}]`: every rule set, the others idle), a condition twice, or one
lying within another, loaded silently; a fixture folder's hidden files (an editor's lock
`.#x.yaml`, a link to nowhere; a swap or backup copy `.x.yaml`) were read as fixtures;
`mtrain state --variant NAME` wrote the table under a rule set no entry of the fixture
speaks about."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from test_robust_s46 import fixture, lint_errors, write

from mtrain.cli import main

# --- a `when:` list whose every condition adds rule sets ---------------------------------------


@pytest.mark.parametrize("when, line, said", [
    # loaded: every rule set, twice, and no word of the condition meant
    ("[{}, {}]", 20, "`when` condition 1 is empty, which is every rule set and leaves the "
     "others idle: give it its options and values, or write `when: {}` for every rule set"),
    ("[{tile_set: [double-9]}, {}]", 20, "`when` condition 2 is empty, which is every rule "
     "set and leaves the others idle: give it its options and values, or write `when: {}` "
     "for every rule set"),
    ("\n        - {tile_set: [double-9]}\n        - {tile_set: double-9}", 22,
     "`when` condition 2 repeats condition 1: it adds no rule set; leave it out or widen it"),
    ("[{tile_set: [double-9], doubles: [open]}, {tile_set: [double-9, double-15]}]", 20,
     "`when` condition 1 lies within condition 2: it adds no rule set; leave it out or "
     "widen it")])
def test_a_when_condition_that_adds_no_rule_set_is_refused_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, when: str, line: int,
        said: str) -> None:
    path = fixture(tmp_path, when=f"      when: {when}\n")
    assert lint_errors(capsys, "--no-scopes", path) == [
        f"error: {path}:{line}: fixture own-001: {said}"]


@pytest.mark.parametrize("when", ["[{}]", "{}", "[{tile_set: [double-9]}, {doubles: [open]}]"])
def test_when_conditions_each_adding_rule_sets_still_load(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, when: str) -> None:
    # `[{}]` is `{}`, every rule set (docs/fixture-format.md); two overlapping conditions
    # each take in rule sets the other does not
    path = fixture(tmp_path, when=f"      when: {when}\n")
    assert main(["lint", "--no-scopes", path]) == 0, capsys.readouterr().out


# --- a fixture folder's hidden files --------------------------------------------------------------


def test_hidden_files_in_a_fixture_folder_are_skipped(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # an editor's lock (a link to nowhere) was "not a regular file", its swap copy and a
    # backup in .git each another own-001: three errors for one good fixture
    folder = tmp_path / "corpus"
    (folder / ".git").mkdir(parents=True)
    text = Path(fixture(tmp_path)).read_text(encoding="utf-8")
    write(folder / "own.yaml", text)
    write(folder / ".own.yaml", text)
    write(folder / ".git" / "own.yaml", text)
    write(folder / "own.yaml~", text)  # a backup: not a `.yaml` name, never read
    os.symlink("user@host.1234:1700000000", folder / ".#own.yaml")
    assert main(["lint", "--no-scopes", str(folder)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("1 fixtures, ")


def test_a_folder_of_hidden_files_alone_names_them(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    write(folder / ".own.yaml", Path(fixture(tmp_path)).read_text(encoding="utf-8"))
    for command in (["lint", "--no-scopes", str(folder)],
                    ["conform", "--fixtures", str(folder), "--variant", "pagat"]):
        assert main(command) == 2
        assert capsys.readouterr().err == (
            f"mtrain {command[0]}: no fixtures found under {folder}; skipped as hidden (a "
            "name beginning with `.`, as editors' lock and swap files are): "
            f"{folder / '.own.yaml'}; rename a fixture file so to have it read\n")


def test_a_hidden_file_named_on_its_own_is_read(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path / ".own.yaml", Path(fixture(tmp_path)).read_text(encoding="utf-8"))
    assert main(["lint", "--no-scopes", path]) == 0, capsys.readouterr().out


# --- mtrain state under a rule set the fixture does not speak about -------------------------------

HOUSE = "name: house\nbase: {base}\noptions:\n  hand_sizes: {{2: 15, 3: 15, 4: 15}}\n"


@pytest.mark.parametrize("flag, value, base", [
    # each wrote a state, stepped under rules no entry of own-001 checks
    ("--variant", "puremco", ""), ("--variant", "double-10", ""),
    ("--rules", "house.yaml", "puremco")])
def test_state_under_a_rule_set_no_entry_speaks_about_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, flag: str, value: str,
        base: str) -> None:
    if base:
        value = write(tmp_path / value, HOUSE.format(base=base))
    assert main(["state", "own-001", "--fixtures", fixture(tmp_path), flag, value]) == 2
    assert capsys.readouterr().err == (
        f"mtrain state: {flag} {value}: no entry of own-001 speaks about it (they speak about "
        "pagat); conform would not run it there: give a rule set it speaks about\n")


@pytest.mark.parametrize("flag, value", [
    ("--variant", "pagat"), ("--rules", "house.yaml"),  # pagat's rules, a table of its own
    ("--variant", "puremco")])  # taken in by the entry's `when`
def test_state_under_a_rule_set_an_entry_speaks_about_is_written(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, flag: str, value: str) -> None:
    if flag == "--rules":
        value = write(tmp_path / value, HOUSE.format(base="pagat"))
    # puremco's first turn is single: the `when` takes it in (whether the entry holds
    # there is lint's to check; state asks only whether an entry speaks about it)
    when = "      when: {first_turn: [single]}\n" if value == "puremco" else ""
    path = fixture(tmp_path, when=when)
    assert main(["state", "own-001", "--fixtures", path, flag, value]) == 0, (
        capsys.readouterr().err)


# --- an answer's state: the schema's every bound, each place named once ----------------------


def _dealt() -> dict[str, Any]:
    from mtrain.reference import codec
    from mtrain.reference.deal import deal
    from mtrain.reference.rules import Rules
    from mtrain.spec.catalog import catalog

    return codec.state_to_json(deal(Rules.of(catalog().ruleset("pagat")), 4, 1, seed=3))


def _changed(field: str, value: int) -> dict[str, Any]:
    state = _dealt()
    if field in ("scores", "outs", "first_turns"):
        state[field] = [value, *state[field][1:]]
    elif field in ("hands", "trains"):  # `value` seats, or trains
        empty: Any = [] if field == "hands" else {"tiles": [], "end": 12, "marker": False}
        state[field] = state[field] + [empty] * (value - len(state[field]))
    elif field == "winner":
        state["phase"] = "over"
        state["result"] = {"end": "domino", "winner": value, "scores": [0, 0, 0, 0]}
    else:
        state[field] = [value] if field == "open_doubles" else value
    return state


# (field, the schema's bound): 2^31 - 1 for counts and scores, 19 for a seat and for outs
# (state.schema.json), 20 seats and trains
BOUNDS = [("passes", 2**31 - 1), ("scores", 2**31 - 1), ("outs", 19), ("seat", 19),
          ("starter", 19), ("first_turns", 19), ("open_doubles", 19), ("winner", 19),
          ("hands", 20), ("trains", 20)]


@pytest.mark.parametrize("field, most", BOUNDS)
def test_the_quick_state_check_holds_each_maximum_of_the_schema(field: str, most: int) -> None:
    # it held none of them: a score of 10**400 or a 21st seat passed it, and was then
    # told as a broken table (a failure charged to the rules), not a broken schema
    from mtrain.conformance.answers import state_valid
    from mtrain.spec.yamlschema import schema, strict_validator

    validator = strict_validator(schema("state"))
    for value, valid in ((most, True), (most + 1, False)):
        state = _changed(field, value)
        assert validator.is_valid(state) is valid, (field, value)  # the schema's verdict
        assert state_valid(state) is valid, (field, value)


def test_an_action_on_a_seat_past_twenty_is_still_an_action() -> None:
    # action.schema.json gives a train's seat no maximum (whether it is at the table is
    # the state's to say): the quick check keeps to it
    from mtrain.conformance.answers import action_valid

    assert action_valid({"type": "play", "tile": "1-1", "train": 25})


def test_a_huge_score_is_a_broken_schema_told_with_its_reason() -> None:
    # "state.scores[0]: 1000...(all 401 digits) is not in 0..2147483647", a failure; or
    # jsonschema's message cut at 200 characters, inside the number, before its reason
    from mtrain.conformance.adapter import ruleset_json
    from mtrain.conformance.answers import state_problems
    from mtrain.spec.catalog import catalog

    (problem,) = state_problems(ruleset_json(catalog().ruleset("pagat")),
                                _changed("scores", 10**400))
    assert problem.status == "error"
    assert str(problem) == (
        "the returned state breaks the schema: scores/0 [state.schema.json#/properties/"
        "scores/items/maximum]: 1000000000000000000000000000000000000000000000000000000000"
        "00... (401 characters written out) is greater than the maximum of 2147483647")


@pytest.mark.parametrize("change, said", [
    # "state.trains must have one train per player (4), not 3: state.trains must have
    # one train per player (4), not 3": the sentence taken for the place, and said twice
    (lambda s: s["trains"].pop(), "state.trains: must have one train per player (4), not 3"),
    (lambda s: s["hands"].append([]), "state.trains: must have one train per player (5), "
     "not 4"),
    (lambda s: s.update(scores=[0, 0, 0]), "state.scores: must be a list of 4 integers")])
def test_a_state_that_is_no_table_names_its_place_once(change: Any, said: str) -> None:
    from mtrain.conformance.adapter import ruleset_json
    from mtrain.conformance.answers import state_problems
    from mtrain.spec.catalog import catalog

    state = _dealt()
    change(state)
    (problem,) = state_problems(ruleset_json(catalog().ruleset("pagat")), state)
    assert (problem.status, str(problem)) == ("fail", f"the returned state is not a table: "
                                                      f"{said}")


# --- a hello refused for the protocol's version ------------------------------------------------

VERSIONS = """
import json, sys
from mtrain.conformance.serve import Server

server = Server()
for line in sys.stdin:
    answer, stop = server.handle(line)
    if "protocol" in answer:
        answer = {"id": answer["id"], "ok": False, "error": {
            "kind": "protocol-version", "message": "unsupported",
            "supported": json.loads(sys.argv[1])}}
    sys.stdout.write(json.dumps(answer) + "\\n")
    sys.stdout.flush()
    if stop:
        break
"""


@pytest.mark.slow  # starts an engine
@pytest.mark.parametrize("supported, said", [
    # "does not speak protocol 1: unsupported", and not a word of what it speaks
    ([2, 3], " (it speaks 2, 3)"),
    ([], ""), ([True], ""), (["2"], "")])  # nothing, or nothing a version: nothing told
def test_a_hello_refused_for_the_version_says_the_versions_spoken(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, supported: list[Any],
        said: str) -> None:
    import json
    import shlex
    import sys

    impl = shlex.join([sys.executable, write(tmp_path / "versions.py", VERSIONS),
                       json.dumps(supported)])
    assert main(["conform", "--impl", impl, "--fixtures", fixture(tmp_path), "--variant",
                 "pagat", "--timeout", "5"]) == 2
    assert capsys.readouterr().err == (
        f"mtrain conform: {impl} does not speak protocol 1{said}: unsupported\n")


# --- a word without an option, given empty ----------------------------------------------------


@pytest.mark.parametrize("args, name, optional", [
    # "no fixture '' under the shipped corpus; ids containing it: chaindbl-001, ..."
    (["state", ""], "fixture", False),
    (["render", " "], "fixture", False),
    # "unknown variant ''", as if a rule set had been named
    (["rules", ""], "ruleset", False),
    (["diff", "pagat", ""], "b", False),
    (["situations", ""], "ruleset", True),
    # "no such file or folder: " and no name
    (["lint", "--no-scopes", ""], "PATH", True),
    (["mutants", ""], "path", True)])
def test_an_empty_word_for_a_fixture_rule_set_or_path_is_refused(
        capsys: pytest.CaptureFixture[str], args: list[str], name: str,
        optional: bool) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    leave = ", or leave it out" if optional else ""
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"mtrain {args[0]}: error: argument {name}: an empty value (an unset shell "
        f"variable?); give one{leave} (see 'mtrain {args[0]} --help')")


def test_a_clause_id_pasted_with_spaces_around_is_the_clause(
        capsys: pytest.CaptureFixture[str]) -> None:
    # "unknown clause ' TURN-1 '; clauses of that group: TURN-1, ...", TURN-1 among them
    assert main(["explain", " turn-1 "]) == 0
    assert capsys.readouterr().out.startswith("TURN-1 ")


# --- a table's seats past twenty, or not numbered ----------------------------------------------


@pytest.mark.parametrize("old, new, line, said", [
    # "key '20' does not match the pattern ^(1[0-9]|[0-9])$"
    # (a number key was told at its mapping's line, `hands:`)
    ("      2: [8-1, 2-2]\n", "      20: [8-1, 2-2]\n", 10, "[0].table.hands: key '20' is not "
     "a seat, numbered 0 to 19 (a table seats at most 20, the most a hand-size table lists)"),
    ("      1: [5-5, 3-1]\n", "      one: [5-5, 3-1]\n", 9, "[0].table.hands: key 'one' is "
     "not a seat, numbered 0 to 19 (a table seats at most 20, the most a hand-size table "
     "lists)"),
    ("      2: [9-2]\n", "      21: [9-2]\n", 14, "[0].table.trains: key '21' is not a train: "
     "its owner's seat, numbered 0 to 19 (a table seats at most 20, the most a hand-size "
     "table lists), or mexican"),
    ("      mexican: [9-7]\n", "      Mexican: [9-7]\n", 15, "[0].table.trains: key 'Mexican' "
     "is not a train: its owner's seat, numbered 0 to 19 (a table seats at most 20, the most "
     "a hand-size table lists), or mexican")])
def test_a_table_seat_that_is_no_seat_number_is_told_what_one_is(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, old: str, new: str, line: int,
        said: str) -> None:
    text = Path(fixture(tmp_path)).read_text(encoding="utf-8")
    assert old in text
    path = write(tmp_path / "own.yaml", text.replace(old, new, 1))
    assert lint_errors(capsys, "--no-scopes", path) == [f"error: {path}:{line}: {said}"]


def test_an_empty_line_to_serve_is_not_said_to_hold_nul_bytes() -> None:
    # "not JSON (Expecting value at character 0; its NUL bytes look like UTF-16 or
    # UTF-32)": no byte at all is not a wide encoding
    from mtrain.conformance.serve import Server

    answer, _ = Server().handle("")
    assert answer["error"]["message"] == "not JSON (Expecting value at character 0): ''"


# --- a hello declaring its rules and limits beside them -----------------------------------------

DECLARES = """
import json, sys
from mtrain.conformance.serve import Server

server = Server()
for line in sys.stdin:
    answer, stop = server.handle(line)
    if "protocol" in answer:
        answer.pop("variants")
        answer.update(json.loads(sys.argv[1]))
    sys.stdout.write(json.dumps(answer) + "\\n")
    sys.stdout.flush()
    if stop:
        break
"""


@pytest.mark.slow  # plays an engine
@pytest.mark.parametrize("beside, warned", [
    # run under its rules alone, and `"variants": ["puremco"]` passed over unsaid
    ({"variants": ["puremco"]}, "`variants`: the declared rules ('house') say what the "
     "implementation plays, and its variants are not read"),
    ({"options": {"doubles": ["open"]}, "variants": ["pagat", "puremco"]}, "`variants` and "
     "`options`: the declared rules ('house') say what the implementation plays, and its "
     "variants and options are not read"),
    # ["*"], the default beside rules, and no options limit nothing: no word
    ({"variants": ["*"], "options": {}}, None), ({}, None)])
def test_a_hello_giving_rules_and_limits_beside_them_is_warned_of(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, beside: dict[str, Any],
        warned: str | None) -> None:
    import json
    import shlex
    import sys

    from mtrain.spec.catalog import catalog

    hello = {"rules": {"name": "house", "options": dict(catalog().ruleset("pagat").choices)},
             **beside}
    impl = shlex.join([sys.executable, write(tmp_path / "declares.py", DECLARES),
                       json.dumps(hello)])
    assert main(["conform", "--impl", impl, "--fixtures", fixture(tmp_path), "--timeout", "5",
                 "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [w for w in report["warnings"] if w.startswith("the hello declares")] == (
        [f"the hello declares `rules` and {warned}"] if warned else [])
    assert [r["status"] for r in report["results"]] == ["pass"]  # pagat's rules, run


# --- a fixture of one's own seating more than its rules deal -------------------------------------

ELEVEN = "".join(f"      {k}: []\n" for k in range(3, 11))


def _seated(tmp_path: Path, refused: bool = False) -> str:
    """own-001 at eleven seats (seats 3 to 10 hold nothing); pagat deals 2 to 10 (DEAL-7)."""
    text = Path(fixture(tmp_path)).read_text(encoding="utf-8").replace(
        "      2: [8-1, 2-2]\n", "      2: [8-1, 2-2]\n" + ELEVEN).replace(
        "      mexican: [9-7]\n", ELEVEN + "      mexican: [9-7]\n")
    if refused:  # an entry expecting the table refused: what such a test is about
        text = text.replace("  steps: [draw]\n", "").split("      legal:")[0] + (
            "      refused_setup: DEAL-7\n")
    return write(tmp_path / "eleven.yaml", text)


def test_a_table_of_more_seats_than_its_rules_deal_is_the_fixtures_fault(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # "fail: the implementation refused the setup: no hand size for 11 players ... [DEAL-7];
    # the rules allow it": the reference itself charged with the fixture's slip
    import json

    path = _seated(tmp_path)
    assert main(["conform", "--fixtures", path, "--variant", "pagat", "--format",
                 "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["results"] == []
    assert report["load_errors"] == [
        f"{path}:1: own-001 [pagat]: pagat has no hand size for 11 players (it lists 2, 3, 4, "
        "5, 6, 7, 8, 9, 10) [DEAL-7]"]


def test_a_table_of_more_seats_expecting_the_refusal_still_runs(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["conform", "--fixtures", _seated(tmp_path, refused=True), "--variant",
                 "pagat"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("OK: 1 results ran (1 pass)")


# --- a rule-set file's base or overlays written as --variant writes them -------------------------


@pytest.mark.parametrize("text, line, said", [
    # each: "does not match the pattern ^[a-z0-9][a-z0-9-]*$"
    ("name: own\nbase: pagat+blanks-25+tie-most-outs\n", 2, "base: 'pagat+blanks-25+"
     "tie-most-outs' joins names with `+`, as --variant does: a rule-set file writes them "
     "apart, `base: pagat` and `overlays: [blanks-25, tie-most-outs]`"),
    ("name: own\nbase: pagat\noverlays: [blanks-25+tie-most-outs]\n", 3, "overlays: "
     "'blanks-25+tie-most-outs' joins names with `+`, as --variant does: a rule-set file "
     "writes them apart, each as an item: [blanks-25, tie-most-outs]"),
    ("name: own\nbase: Pagat\n", 2, "base: 'Pagat': names are written in lower case "
     "('pagat')"),
    ("name: own\nbase: pagat\noverlays: [Blanks-25]\n", 3, "overlays: 'Blanks-25': names are "
     "written in lower case ('blanks-25')"),
    ("name: own\nbase: Nosuch\n", 2, "base: 'Nosuch': names are written in lower case and "
     "'nosuch' is none either; known: pagat, puremco, puremco-d9")])
def test_a_base_or_overlay_written_as_a_variant_name_is_told_how_to_write_it(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, line: int,
        said: str) -> None:
    path = write(tmp_path / "own.yaml", text)
    assert main(["rules", path]) == 2
    assert capsys.readouterr().err == f"mtrain rules: {path}:{line}: {said}\n"


def test_a_base_and_overlays_written_apart_still_load(tmp_path: Path) -> None:
    from mtrain.spec.catalog import catalog

    path = write(tmp_path / "own.yaml", "name: own\nbase: pagat\noverlays: [blanks-25, "
                 "tie-most-outs]\n")
    assert dict(catalog().rules_file(path).choices)["tie_rule"] == "most-outs"


# --- a fixture or rule-set file given as the known failures --------------------------------------


@pytest.mark.parametrize("kind, said", [
    # "entry 1: unknown key 'clauses'", of the fixture file given in the wrong place
    ("fixtures", "a fixture file (a list of fixtures), not a list of known failures "
     "({fixture, variant, reason}): `mtrain conform --fixtures` reads it"),
    # "expected a list of {fixture, variant, reason}"
    ("rules", "a rule-set file (a mapping: name, base, options), not a list of known "
     "failures: --rules reads it")])
def test_a_fixture_or_rule_set_file_given_as_known_failures_is_told_what_it_is(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str, said: str) -> None:
    path = fixture(tmp_path)
    given = path if kind == "fixtures" else write(tmp_path / "house.yaml", HOUSE.format(
        base="pagat"))
    assert main(["conform", "--fixtures", path, "--variant", "pagat", "--skip", given]) == 2
    assert capsys.readouterr().err == f"mtrain conform: --skip {given}: {said}\n"
    assert main(["fuzz", "--adapter", "mtrain.conformance.adapter:ReferenceImplementation",
                 "--known", given, "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err == f"mtrain fuzz: --known {given}: {said}\n"


# --- an engine answering `unsupported` to everything --------------------------------------------


class Unsupporting:
    """Plays nothing: every request answered `unsupported`."""

    def info(self) -> Any:
        return {"name": "nothing", "version": "1", "variants": ["*"]}

    def _none(self, *args: Any, **kwargs: Any) -> Any:
        from mtrain.conformance.adapter import Unsupported
        raise Unsupported("not implemented")

    deal = legal = apply = score = winners = _none


def sets_corpus() -> Any:
    from mtrain.conformance.fixture import FIXTURE_ROOT, load_corpus
    found, errors = load_corpus(FIXTURE_ROOT / "sets")
    assert found and not errors
    return found


@pytest.mark.slow  # the sets corpus's scope partition read, ~2 CPU s
def test_identify_stops_on_an_engine_answering_unsupported_to_everything() -> None:
    # before, identify played every fixture that tells rule sets apart, each answered
    # `unsupported` (over the whole corpus: 850 fixtures, 876 requests more), to say
    # "nothing identified" beside a table of undetermined values
    from mtrain.conformance.identify import EngineFailed, Watched, identify
    watched = Watched(Unsupporting())
    with pytest.raises(EngineFailed, match=r"^the implementation answered `unsupported` to "
                       r"all [0-9]+ requests: deals of every tile set under every engine "
                       r"procedure, at every player count, and up to 24 tables of each tile "
                       r"set; it plays nothing identify can ask about, so identify stopped "
                       r"before playing the fixtures$"):
        identify(watched, sets_corpus())
    assert watched.requests > 0 and watched.answered == 0


def test_any_answer_but_unsupported_counts_as_one() -> None:
    # a refused setup, an error, a crash are answers of an engine that plays something: an
    # engine refusing every deal is identified as before (DEAL-7 read), never stopped here
    from mtrain.conformance.adapter import RefusedSetup
    from mtrain.conformance.identify import Watched
    from mtrain.conformance.process import ImplementationError

    class Refusing(Unsupporting):
        def deal(self, *args: Any, **kwargs: Any) -> Any:
            raise RefusedSetup("no such table", "DEAL-7")

        def legal(self, *args: Any, **kwargs: Any) -> Any:
            raise ImplementationError("internal: a bug")

    watched = Watched(Refusing())
    assert not watched.only_unsupported()  # nothing asked: nothing said
    with pytest.raises(Exception, match="not implemented"):
        watched.apply({}, {}, {})
    assert watched.only_unsupported()
    with pytest.raises(RefusedSetup):
        watched.deal({}, 2, 1, [])
    assert not watched.only_unsupported()
    watched = Watched(Refusing())
    with pytest.raises(ImplementationError):
        watched.legal({}, {})
    assert not watched.only_unsupported()


# --- mtrain state --as apply: a train the table has not -----------------------------------------


@pytest.mark.parametrize("train, sent", [("7", 7), ("2", 2), ("mexican", '"mexican"')])
def test_state_writes_an_action_on_any_train_as_asked(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, train: str, sent: Any) -> None:
    # a play on a train the table has not (own-001 seats 3) is what an author pastes to
    # see their engine refuse it by TRAIN-1 (docs/refusals.md's example does so): refusing
    # it here, tried this session, took that request away from them
    assert main(["state", "own-001", "--fixtures", fixture(tmp_path), "--as", "apply",
                 "--action", f"play 4-0 on {train}"]) == 0
    assert capsys.readouterr().out.endswith(
        f'"action":{{"type":"play","tile":"4-0","train":{sent}}}}}\n')


# --- a hello whose name is empty ------------------------------------------------------------------


@pytest.mark.slow  # plays an engine
@pytest.mark.parametrize("name, warned", [("", True), ("  ", True), ("house", False)])
def test_a_hello_with_an_empty_name_is_warned_of_and_called_by_its_command(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, warned: bool) -> None:
    # protocol.md: the answer names the implementation; the schema takes any string, so
    # an empty one is run, warned of (the header read "mtrain conform:  0.1.0 (...)")
    import json
    import shlex
    import sys

    impl = shlex.join([sys.executable, write(tmp_path / "declares.py", DECLARES),
                       json.dumps({"name": name, "variants": ["*"]})])
    assert main(["conform", "--impl", impl, "--fixtures", fixture(tmp_path), "--timeout", "5",
                 "--variant", "pagat"]) == 0
    lines = capsys.readouterr().out.splitlines()
    said = ("the hello's `name` is empty: it is what the reports call the implementation "
            "(docs/protocol.md); they call it by its command instead")
    assert (f"warning: {said}" in lines) is warned, lines
    from mtrain import __version__
    assert lines[0] == (f"mtrain conform: {impl} (its hello gave an empty name, version "
                        f"{__version__})" if warned else
                        f"mtrain conform: house {__version__} ({impl})"), lines[0]


# --- an output's missing folders: made by none, refused alike ----------------------------------


@pytest.mark.parametrize("args, option, named", [
    # fuzz made nope/deeper/out, a tree of its own for a typo in a parent; conform refused
    (["fuzz", "--mutant", "wrong-engine-double", "--games", "1", "--out"], "--out",
     "nope/deeper/out"),
    (["check", "--dump"], "--dump", "nope/deeper/out"),
    (["conform", "--impl", "x", "--output"], "--output", "nope/deeper/out.json")])
def test_an_output_in_a_missing_folder_is_refused_by_every_command(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], option: str,
        named: str) -> None:
    path = tmp_path / named
    assert main([*args, str(path)]) == 2
    assert capsys.readouterr().err.startswith(
        f"mtrain {args[0]}: {option} {path}: no such folder: {tmp_path / 'nope' / 'deeper'}")
    assert list(tmp_path.iterdir()) == []


def test_an_output_folder_whose_parent_is_there_is_made() -> None:
    # the folder named, with its parent there, is made when written (tried, then put back)
    import tempfile

    from mtrain.conformance.outputs import check_output_folder
    with tempfile.TemporaryDirectory() as parent:
        check_output_folder(str(Path(parent) / "findings"), "--out")
        assert list(Path(parent).iterdir()) == []


# --- a run emptied by fixtures' impossible tables ------------------------------------------------


@pytest.mark.parametrize("other", [False, True])
def test_a_run_emptied_by_a_table_its_rules_cannot_have_says_so(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, other: bool) -> None:
    # before: "no fixture could be loaded" (it loaded), or beside a fixture of other rules,
    # "no fixture loaded without error speaks about the rule sets run; declare the rules
    # the implementation plays", sending one to the engine for the fixture's slip
    path = Path(_seated(tmp_path))
    if other:  # own-002 speaks about puremco alone
        text = path.read_text(encoding="utf-8")
        own = Path(fixture(tmp_path)).read_text(encoding="utf-8")
        write(path, text + own.replace("own-001", "own-002").replace(
            "variants: [pagat]", "variants: [puremco]"))
    assert main(["conform", "--fixtures", str(path), "--variant", "pagat"]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        "FAILED: nothing ran: the fixture selected sets a table the rules run cannot have "
        "(pagat); the load errors say why: fix the table, or run it under rules that have "
        "it, 1 load errors")
