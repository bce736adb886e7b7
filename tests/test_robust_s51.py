"""Inputs the earlier robustness rounds let through (robust-s51): a hello answered twice,
the process then asked nothing (every task it took not applicable), wrote a line no result
could hold: the line was read at the shutdown and dropped, said nowhere."""

from __future__ import annotations

import dataclasses
import json
import shlex
import sys
from pathlib import Path

import pytest
from command_errors import FAR, one_error, plays, write

from mtrain.cli import main
from mtrain.conformance.report import Report, Result

# --- 1. a hello answered twice, nothing asked after it ------------------------------------------

# the reference server declaring pagat alone, which writes its hello answer twice: the
# second line waits unread until the shutdown (nothing else is asked of the process)
HELLO_TWICE = """\
import json, sys
from mtrain.conformance.serve import Server
server = Server()
for line in sys.stdin:
    answer, stop = server.handle(line)
    if "variants" in answer:
        answer["variants"] = ["pagat"]
    text = json.dumps(answer) + "\\n"
    sys.stdout.write(text + text if "protocol" in answer else text)
    sys.stdout.flush()
    if stop:
        break
"""

# a fixture for pagat and puremco; run under puremco alone, which the program above does
# not play, it is not applicable and asks nothing
PLAYS = plays(variants="pagat, puremco")


@pytest.mark.slow  # starts a program per job
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_hello_answered_twice_with_nothing_asked_after_is_a_problem_of_the_run(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, jobs: int) -> None:
    # the line came after the last answer read (the hello's), and no task asked the
    # process anything: no result to charge it to, and it was said nowhere
    program = shlex.join([sys.executable, write(tmp_path / "twice.py", HELLO_TWICE)])
    fixtures = write(tmp_path / "ends.yaml", PLAYS)
    code = main(["conform", "--impl", program, "--fixtures", fixtures, "--variant",
                 "puremco", "--jobs", str(jobs), "--timeout", str(FAR), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and not report["ok"], report
    assert [r["status"] for r in report["results"]] == ["not-applicable"]
    [problem] = report["problems"]
    assert problem.startswith(
        "after its answer to the last request the implementation wrote another line, read "
        "only at the shutdown: '{\"id\": 1, \"ok\": true, \"protocol\": 1,"), problem
    assert "the last request sent: '{\"id\":1,\"type\":\"hello\"" in problem, problem
    assert problem.endswith("no task asked this process anything after its hello (every "
                            "task it took was not applicable): no result holds the line")


def test_a_problem_of_the_run_fails_a_run_whose_results_pass() -> None:
    # under --jobs, the process greeted first may take only tasks not applicable while
    # another's pass: the problem alone must fail the run, in every format
    from io import StringIO

    from mtrain.conformance.report_formats import render_junit, render_markdown
    from mtrain.conformance.report_text import render_text

    passed = Result("ends-001", "pagat", "pass", [], path="ends.yaml", line=1)
    assert not Report([passed]).failed
    report = Report([passed], problems=["the hello answered twice"])
    assert report.failed and report.exit_code == 1
    assert report.to_json()["problems"] == ["the hello answered twice"]
    assert report.headline().startswith(
        "FAILED: 1 results ran (1 pass), 1 problem of the run (no result holds it); ")
    text = StringIO()
    render_text(report, text)
    assert "\nPROBLEM the hello answered twice\n" in text.getvalue()
    assert ('<testcase classname="run-problems" name="the hello answered twice">'
            in render_junit(report))
    assert "## Problems of the run\n\n- the hello answered twice\n" in render_markdown(report)


# --- the hunt: answers that are no answer, told as such ------------------------------------------


def test_a_winner_past_the_table_is_a_broken_answer_not_a_wrong_winner() -> None:
    # `winners: [3]` at a table of three seats was compared with the winners expected and
    # failed, charged to who wins the match (MATCH-2), as if it named a seat that lost
    from mtrain.conformance.answers import AnswerError, checked

    class Beyond:
        def info(self) -> dict[str, object]:
            return {}

        def winners(self, ruleset: object, state: object) -> list[int]:
            return [3]

    with pytest.raises(AnswerError) as info:
        checked(Beyond()).winners({}, {"hands": [[], [], []]})  # type: ignore[arg-type]
    [problem] = info.value.problems
    assert problem.message == "seat 3 is not at the table: the state has 3 seats, 0 to 2"


@pytest.mark.parametrize("action, said", [
    # jsonschema's "{'type': 'PASS'} is not valid under any of the given schemas"
    ({"type": "PASS"}, 'type "PASS" is none of "play" or "draw" or "pass" or "end-chain", '
     "written exactly so"),
    # "[4, 0] is not of type 'string'", and a regular expression for "04-00"
    ({"type": "play", "tile": [4, 0], "train": 0}, '[4, 0] is not a tile: a tile is text, its '
     'two ends (0 to 18) joined by a hyphen: "4-0", no space nor leading zero'),
    ({"type": "play", "tile": "04-00", "train": 0}, '"04-00" is not a tile: a tile is text, '
     'its two ends (0 to 18) joined by a hyphen: "4-0", no space nor leading zero'),
])
def test_an_action_of_no_kind_or_a_tile_of_another_shape_says_what_is_wanted(
        action: dict[str, object], said: str) -> None:
    from mtrain.conformance.answers import schema_problems

    assert [p.message for p in schema_problems("action", action)] == [said]


def test_a_tile_of_another_shape_in_a_hand_says_what_a_tile_is(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from mtrain.conformance.answers import schema_problems

    fixtures = write(tmp_path / "ends.yaml", PLAYS)
    assert main(["state", "ends-001", "--fixtures", fixtures, "--as", "state"]) == 0
    state = json.loads(capsys.readouterr().out)
    state["hands"][0][0] = "7|7"
    assert [(p.where.split(" ")[0], p.message) for p in schema_problems("state", state)] == [
        ("hands/0/0", '"7|7" is not a tile: a tile is text, its two ends (0 to 18) joined by '
         'a hyphen: "4-0", no space nor leading zero')]


def test_an_error_that_is_no_object_is_said_so() -> None:
    # `"error": "boom"` was told "an error answer needs error.message", as if a field were
    # missing from an object
    from mtrain.conformance.protocol import ProtocolError, check_answer

    with pytest.raises(ProtocolError) as info:
        check_answer("legal", 2, {"id": 2, "ok": False, "error": "boom"})
    assert str(info.value).startswith(
        "an error answer's error must be an object {\"kind\": ..., \"message\": ...}, got "
        "\"boom\""), info.value


# --- the hunt: a hello's declared rules -----------------------------------------------------


def test_a_field_of_the_declared_rules_the_protocol_does_not_read_is_warned_of() -> None:
    # `"hand_size": {...}` beside `"hand_sizes": "pagat"` was ignored unseen: the run
    # played pagat's table, the engine its own
    from mtrain.conformance.declaration import unread_rules_fields

    rules = {"name": "mine", "options": {}, "hand_size": {"2": 9}}
    assert unread_rules_fields({"rules": rules}) == [
        "the hello's `rules` has field 'hand_size', not of protocol v1 (did you mean "
        "'hand_sizes'?): ignored; a rule set's fields: hand_sizes, name, options"]
    assert unread_rules_fields({"rules": {"name": "mine", "options": {}}}) == []


# robust-s53b: a double-N set the suite lacks is said so, with the sets it knows (every
# double-N from 6 to 18 since session 55: double-5 is one it lacks)
NO_DOUBLE_5 = ("; double-5 is smaller than any set the suite knows (the smallest is "
               "double-6; it knows every double-N set from double-6 to double-18)")
KNOWN = ("double-12, double-9, double-6, double-10, double-15, double-18, double-8, double-16, "
         "double-7, double-11, double-13, double-14, double-17")


@pytest.mark.parametrize("hello, said", [
    # a number for the name was read as the text "5"
    ({"rules": {"name": 5, "options": {}}},
     "`rules.name` must be a string (what reports call the rule set), got 5"),
    # the message offered `other`, which the next check refused
    ({"rules": {"options": {"tile_set": "double-5"}}},
     "`rules.options.tile_set`: unknown value 'double-5'; known: " + KNOWN + NO_DOUBLE_5),
    ({"variants": ["*"], "options": {"tile_set": ["double-5"]}},
     "`options.tile_set`: unknown value 'double-5'; known: " + KNOWN + NO_DOUBLE_5),
])
def test_declared_rules_of_the_wrong_type_or_an_unknown_set_are_said_plainly(
        hello: dict[str, object], said: str) -> None:
    from mtrain.conformance.declaration import DeclarationError, declared_ruleset

    with pytest.raises(DeclarationError) as info:
        declared_ruleset(hello)
    assert str(info.value) == said


# --- the hunt: rule sets named and written --------------------------------------------------


@pytest.mark.parametrize("name, said", [
    ("+pagat", "no variant before the `+` in '+pagat': a rule set is written "
     "base+overlay+... (pagat+blanks-25)"),  # "unknown variant ''"
    ("pagat+puremco", "'puremco' is a variant, not an overlay: a rule set has one base, "
     "written first (base+overlay+...)"),  # "unknown overlay 'puremco'; known: ..."
])
def test_a_rule_set_name_misusing_the_plus_says_how_one_is_written(
        capsys: pytest.CaptureFixture[str], name: str, said: str) -> None:
    assert one_error(capsys, "rules", name) == f"mtrain rules: {said}\n"


@pytest.mark.parametrize("value, said", [
    ("", "null (a key with no value)"), (" 5", "an integer (5)"), (" [open]", "a list")])
def test_an_option_given_no_name_in_a_rule_set_file_is_not_offered_a_table(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, value: str, said: str) -> None:
    # "options.doubles: expected a string or a mapping": only hand_sizes takes a mapping
    path = write(tmp_path / "mine.yaml", f"name: mine\nbase: pagat\noptions:\n  doubles:{value}\n")
    assert one_error(capsys, "rules", path) == (
        f"mtrain rules: {path}:4: option doubles takes the name of a value (open, ordinary, or "
        f"other), got {said}\n")


# --- the hunt: a fixture of one's own -------------------------------------------------------


@pytest.mark.parametrize("old, new, said", [
    # "unknown value 'other'", where `other` is a value every option takes in a rule set
    ("- variants: [pagat, puremco]", "- when: {first_turn: other}",
     "16: fixture ends-001: `when` first_turn: `other` names no rule (a rule set plays it for "
     "a rule of its own, whose outcomes no fixture can know); name the known values the entry "
     "holds under: chain, single, chain-anywhere, chain-no-double-end"),
    # the words of the form alone, the one letter in capitals left for the reader to spot
    ("- play 5-3 on 0", "- play 5-3 on Mexican",
     "14: [0].steps[0]: 'play 5-3 on Mexican' is not an action: `play A-B on SEAT`, `play A-B "
     "on mexican`, `draw`, `pass` or `end-chain`; or, as a step, `next-round` (`next-round "
     "reversed`) (in lower case, 'play 5-3 on mexican', it is)"),
])
def test_a_fixture_naming_other_or_an_action_in_capitals_is_told_why(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, old: str, new: str,
        said: str) -> None:
    assert old in PLAYS
    path = write(tmp_path / "ends.yaml", PLAYS.replace(old, new))
    assert main(["lint", "--no-scopes", path]) == 1
    assert f"error: {path}:{said}\n" in capsys.readouterr().out


def test_known_failures_written_as_a_mapping_are_told_at_their_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # `ends-001: flaky` said "expected a list of {fixture, variant, reason}", no line, no
    # word of what the file held
    fixtures = write(tmp_path / "ends.yaml", PLAYS)
    skip = write(tmp_path / "skip.yaml", "# known\nends-001: flaky\n")
    err = one_error(capsys, "conform", "--fixtures", fixtures, "--variant", "pagat",
                    "--skip", skip)
    assert err == (f"mtrain conform: --skip {skip}:2: expected a list of known failures, each "
                   "`- fixture: ID` with `reason:` (and `variant:` if one rule set), got a "
                   "mapping\n")


# --- the hunt: fuzz asked for a table no rule set has ------------------------------------------

REFERENCE = "mtrain.conformance.adapter:ReferenceImplementation"


@pytest.mark.parametrize("players, said", [
    # both said "the implementation supports none of the shipped variants and overlays with
    # N players", of the reference engine itself: no shipped rule set deals that many
    (30, "error: --players 30: a table seats at most 20 (no hand-size table deals more) "
     "(see 'mtrain fuzz --help')"),
    (15, "--players 15: no shipped variant or overlay deals 15 players (their hand tables "
     "seat 2 to 12); a rule-set file with a hand table of one's own may (--rules FILE)"),
])
def test_fuzz_at_a_player_count_no_shipped_table_deals_blames_the_count(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, players: int, said: str) -> None:
    err = one_error(capsys, "fuzz", "--adapter", REFERENCE, "--players", str(players),
                    "--games", "1", "--out", str(tmp_path / "out"))
    assert err == f"mtrain fuzz: {said}\n"


# --- the hunt: a hello of very many variants ----------------------------------------------------


def test_a_hello_of_many_variants_is_matched_from_patterns_compiled_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # each rule set's name went through fnmatch once per pattern, whose cache holds 32,768:
    # a hello of 40,000 names compiled every pattern again for every rule set (a conform
    # run of 222 s wall, 110 s CPU, where 20,000 names took 5 s)
    import fnmatch

    from mtrain.conformance.declaration import unsupported

    def one_at_a_time(name: str, pattern: str) -> bool:
        raise AssertionError("a pattern matched by itself, compiled again past fnmatch's cache")

    monkeypatch.setattr(fnmatch, "fnmatchcase", one_at_a_time)
    info = {"variants": [f"v{i}" for i in range(40_000)] + ["puremco+*", "pagat"]}
    assert unsupported(info, "pagat", None) is None
    assert unsupported(info, "puremco+blanks-25", None) is None
    assert unsupported(info, "v39999", None) is None
    assert unsupported(info, "pagat+blanks-25", None) == (
        "the implementation supports v0, v1, v2, v3, v4, v5, v6, v7 and 39,994 more")


def test_a_hello_of_many_unknown_variants_warns_of_a_few_and_counts_the_rest() -> None:
    # one warning per name: a hello of 40,000 names wrote as many into the report
    from mtrain.conformance.declaration import unknown_variants

    said = unknown_variants({"variants": ["pagat", *(f"v{i}" for i in range(40)), "x*"]})
    assert [w.split(",")[0] for w in said[:5]] == [
        f"the hello's variants name 'v{i}'" for i in range(5)]
    assert said[5:] == ["the hello's variants name 35 more that are no rule set here"]


# --- the hunt: a run whose every result is a known failure ---------------------------------------


def test_a_run_whose_every_result_is_a_known_failure_is_not_green() -> None:
    # a skip file of `- fixture: "*"` made the run of an engine that answers nothing right
    # "OK: 14 results ran (14 skip)", exit 0: it showed nothing to pass
    skipped = Result("ends-001", "pagat", "skip", ["known failure (error): broken"],
                     path="ends.yaml", line=1)
    passed = Result("ends-002", "pagat", "pass", [], path="ends.yaml", line=20)
    report = Report([skipped, dataclasses.replace(skipped, variant="puremco")])
    assert report.failed and report.exit_code == 1
    assert report.headline().startswith(
        "FAILED: 2 results ran (2 skip); nothing passed: every result run is a known failure "
        "of the skip file, so the run tested nothing; ")
    assert report.to_json()["nothing_passed"] == report.nothing_passed
    assert not Report([skipped, passed]).failed  # one pass: known failures beside it


@pytest.mark.parametrize("pattern", [".*", "^pagat$", "pagat|puremco", "pagat.+"])
def test_a_hello_variant_written_as_a_regular_expression_is_warned_of(pattern: str) -> None:
    # `".*"` matched no rule set, unsaid: every result "not applicable (the implementation
    # supports .*)", the unknown names' warning leaving patterns alone
    from mtrain.conformance.declaration import unknown_variants

    assert unknown_variants({"variants": [pattern, "puremco+*", "pagat"]}) == [
        f"the hello's variants name {pattern!r}, which reads as a regular expression: "
        "variants are shell-style patterns (`*` for every rule set, `puremco+*` for puremco "
        "with any overlays)"]


def test_a_round_result_naming_its_winner_as_text_is_told_by_its_field(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # "result: {'end': 'domino', 'winner': '0', ...} is not valid under any of the given
    # schemas": the result's one choice that fits breaks at one field, two ways
    from mtrain.conformance.answers import schema_problems

    fixtures = write(tmp_path / "ends.yaml", PLAYS)
    assert main(["state", "ends-001", "--fixtures", fixtures, "--as", "state"]) == 0
    state = json.loads(capsys.readouterr().out)
    state.update(phase="over", result={"end": "domino", "winner": "0", "scores": [0, 5]})
    assert [(p.where.split(" ")[0], p.message) for p in schema_problems("state", state)] == [
        ("result/winner", '"0" is a string; expected an integer or null')]
