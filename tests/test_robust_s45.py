"""Inputs the earlier robustness rounds let through (robust-s45): `mtrain diff` of a rule
set that plays an option `other` showed z3 situations with an outcome "under other" that
no rule gives; the pytest plugin took `--mtrain-timeout nan` (a ValueError at the hello),
0 (read as the default), -1 (every request timed out), `--mtrain-situations -5`, an empty
`--mtrain-impl` (the plugin did nothing), both an adapter and a program (one run, the
other ignored) and a folder without fixtures (no test, no word why); identify left a
player count whose deal crashed the engine out of the table it found, as if the count
were refused (DEAL-7), and said so nowhere; a rule-set file whose `base` or `overlays`
names a file (its own, a missing one, a shipped rule-set file) was told only the
schema's pattern for names."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from calibration import Served

from mtrain.cli import main
from mtrain.conformance.process import ImplementationCrashed, ImplementationTimeout
from mtrain.spec.catalog import catalog


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- diff: no situation "under other" ---------------------------------------------------------


@pytest.mark.parametrize("options, said", [
    # "after play 9-2 on mexican goes out: scores [1, 0] under other, [0, 1] under penalty":
    # the seat that went out scored, as under positive scoring, labelled `other`
    ({"scoring": "other"}, {"scoring": "A plays scoring `other`"}),
    # a tie situation reads the scoring too: "winners [0] under other, [0, 1] under shared"
    ({"scoring": "other", "tie_rule": "other"},
     {"scoring": "A plays scoring `other`",
      "tie_rule": "A plays tie_rule and scoring `other`"})])
def test_diff_seeks_no_situation_under_a_rule_played_its_own_way(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, options: dict[str, str],
        said: dict[str, str]) -> None:
    path = write(tmp_path / "own.yaml", "name: own\nbase: pagat\noptions:\n" + "".join(
        f"  {o}: {v}\n" for o, v in options.items()))
    assert main(["diff", path, "pagat", "--no-fixtures"]) == 0
    lines = [x for x in capsys.readouterr().out.splitlines() if x.startswith("situation")]
    assert lines == [f"situation for {o}: not sought: {why}, a rule the model cannot play"
                     for o, why in said.items()]


def test_diff_still_seeks_a_situation_for_an_option_other_reads_nothing_of(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # a marker situation reads neither the scoring nor the tie rule: it is still sought,
    # and the same one as without the `other` beside it
    own = write(tmp_path / "own.yaml", "name: own\nbase: pagat\noptions:\n  scoring: other\n"
                "  marker_removal: anyone-plays-on\n")
    known = write(tmp_path / "known.yaml", "name: known\nbase: pagat\noptions:\n"
                  "  marker_removal: anyone-plays-on\n")
    found = []
    for path in (own, known):
        assert main(["diff", path, "pagat", "--no-fixtures", "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        (marker,) = [s for s in report["situations"] if s["option"] == "marker_removal"]
        found.append({k: v for k, v in marker.items() if k not in ("a", "seconds")})
    assert found[0] == found[1] and found[0]["summary"].startswith("after "), found


# --- the pytest plugin's options --------------------------------------------------------------


def run_pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    ini = tmp_path / "pytest.ini"
    ini.write_text("[pytest]\n")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ini), "-p", "mtrain.conformance.pytest_plugin",
         "-p", "no:cacheprovider", *args],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("text", ["nan", "0", "-1", "inf", "1e400", "ten"])
def test_the_plugins_timeout_is_a_positive_number_of_seconds(text: str) -> None:
    # nan: "the hello failed: ValueError: cannot convert float NaN to integer"; 0: read
    # as the default, 10 s; -1: every request "no answer within -1 s"; inf: no timeout
    import argparse

    from mtrain.conformance.pytest_plugin import _seconds
    with pytest.raises(argparse.ArgumentTypeError,
                       match=f"^must be a positive number of seconds: '{text}'$"):
        _seconds(text)
    assert _seconds("2.5") == 2.5


@pytest.mark.parametrize("text", ["-5", "1.5", "20001", "x"])
def test_the_plugins_situations_are_a_count_conform_takes(text: str) -> None:
    import argparse

    from mtrain.conformance.pytest_plugin import _count
    with pytest.raises(argparse.ArgumentTypeError,
                       match=f"^must be a whole number from 0 to 20,000: '{text}'$"):
        _count(text)
    assert (_count("0"), _count("20000")) == (0, 20000)


@pytest.mark.parametrize("args, said", [
    (["--mtrain-timeout=nan"], "error: argument --mtrain-timeout: must be a positive "
     "number of seconds: 'nan'\n"),
    # the plugin did nothing: the project's own tests passed, green, none of mtrain's run
    (["--mtrain-impl", ""], "ERROR: mtrain: --mtrain-impl is empty: name the implementation\n"),
    # conform's two are mutually exclusive; the plugin ran the program, the adapter unsaid
    (["--mtrain-impl", "mtrain serve", "--mtrain-adapter", "engine:Engine"],
     "ERROR: mtrain: --mtrain-adapter and --mtrain-impl name two implementations: give one\n"),
    # "no tests ran", exit 5, and no word of why
    (["--mtrain-impl", "mtrain serve", "--mtrain-fixtures", "empty"],
     "ERROR: mtrain: --mtrain-fixtures: no fixtures found under empty\n")])
def test_the_plugin_refuses_an_option_conform_refuses(
        tmp_path: Path, args: list[str], said: str) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "test_own.py").write_text("def test_own():\n    pass\n")
    ran = run_pytest(tmp_path, *args)
    assert ran.returncode == 4, ran.stdout + ran.stderr  # pytest's usage error
    assert said in ran.stderr, ran.stderr


# --- identify: a deal the engine crashed on ---------------------------------------------------


class DiesAt8(Served):
    """pagat's rules, but the deal for eight players fails as `failure` says."""

    def __init__(self, failure: Exception) -> None:
        super().__init__(catalog().ruleset("pagat"))
        self.failure = failure

    def deal(self, ruleset: Any, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> Any:
        if players == 8:
            raise self.failure
        return super().deal(ruleset, players, round, order, draw)


@pytest.mark.parametrize("failure, said", [
    (ImplementationCrashed("the implementation exited with code 9, before answering the "
                           "deal request"),
     "crash: the implementation exited with code 9, before answering the deal request"),
    (ImplementationTimeout("no answer to the deal request within 10 s"),
     "timeout: no answer to the deal request within 10 s")])
def test_a_count_whose_deal_broke_is_said_to_be_unmeasured(failure: Exception,
                                                           said: str) -> None:
    # identify found `hand_sizes: custom`, "dealt 2p: 15, ... 7p: 10, 9p: 8, 10p: 8",
    # "measured, margin 0", and wrote a table without eight players: the crash read as
    # the engine's refusal of the count (DEAL-7), said nowhere beside the table
    from mtrain.conformance.identify.measure import measure
    from mtrain.conformance.identify.watch import Watched
    from mtrain.spec.scope import Space

    cat = catalog()
    watched = Watched(DiesAt8(failure))
    watched.measuring = True
    deals, _ = measure(watched, Space(cat), dict(cat.ruleset("pagat").choices))
    assert 8 not in deals.table and deals.table[9] == 8  # pagat's other rows (DEAL-2)
    assert deals.problems == [
        f"likely bug: the deal for 8 players failed ({said}); that count is left out of "
        "the table unmeasured, not found undealt [DEAL-1, DEAL-7]"]


def test_a_count_the_engine_refuses_is_no_problem() -> None:
    # the refusal is the engine's word (DEAL-7): the row left out, nothing said
    from mtrain.conformance.adapter import RefusedSetup
    from mtrain.conformance.identify.measure import measure
    from mtrain.conformance.identify.watch import Watched
    from mtrain.spec.scope import Space

    cat = catalog()
    deals, _ = measure(Watched(DiesAt8(RefusedSetup("no hand size for 8 players", "DEAL-7"))),
                       Space(cat), dict(cat.ruleset("pagat").choices))
    assert 8 not in deals.table and deals.problems == []


# --- a rule-set file naming a file as its base or overlay -------------------------------------


@pytest.mark.parametrize("line, said", [
    # "base: './house.yaml' does not match the pattern ^[a-z0-9][a-z0-9-]*$"
    ("base: ./house.yaml", "base: './house.yaml' is a file, not a shipped variant: a rule-set "
     "file builds on a variant and overlays only (pagat, puremco, puremco-d9)"),
    ("base: mine.yaml", "base: 'mine.yaml' is a file, not a shipped variant: a rule-set "
     "file builds on a variant and overlays only (pagat, puremco, puremco-d9)"),  # itself
    # "unknown base variant 'double-10'", where `mtrain rules double-10` reads it
    ("base: double-10", "base: 'double-10' is a rule-set file (spec/data/rulesets/), not a "
     "shipped variant: a rule-set file builds on a variant and overlays only (pagat, "
     "puremco, puremco-d9)"),
    ("base: pagat\noverlays: [blanks-25, ../shared/overlay.yml]", "overlays: "
     "'../shared/overlay.yml' is a file, not a shipped overlay: a rule-set file builds on a "
     "variant and overlays only (`mtrain variants` lists them)")])
def test_a_base_or_overlay_named_as_a_file_is_said_to_be_one(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, line: str, said: str) -> None:
    path = write(tmp_path / "mine.yaml", f"name: mine\n{line}\n")
    assert main(["rules", path]) == 2
    where = 3 if "overlays" in line else 2
    assert capsys.readouterr().err == (
        f"mtrain rules: {path}:{where}: {said}; copy the options it needs from the file "
        "instead\n")


# --- mutants: options that could never be met, or were read by nothing ----------------------


@pytest.mark.parametrize("args, said", [
    # the whole corpus played against every mutant, then exit 1: "fewest killers 1
    # (--first: at most 1)" can never reach 2
    (["--first", "--need", "2"], "--first stops each mutant at its first kill, so --need 2 "
     "could never be met: drop one of them"),
    # --blame printed its text, exit 0: no JSON, and no mutant held to --need
    (["--blame", "--json"], "--blame reports the clauses failures are charged to, in text: "
     "it takes no --json (those are for the kill run)"),
    (["--blame", "--need", "3", "--first"], "--blame reports the clauses failures are "
     "charged to, in text: it takes no --first, --need (those are for the kill run)")])
def test_mutants_refuses_options_it_would_not_honour(
        capsys: pytest.CaptureFixture[str], args: list[str], said: str) -> None:
    assert main(["mutants", "-m", "engine-not-set-aside", *args]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"mtrain mutants: error: {said} (see 'mtrain mutants --help')")


# --- lint --write-scopes into a file of one's own ---------------------------------------------

OWN_FIXTURE = """\
- id: mine-001
  description: a deal under the house table
  clauses: [DEAL-1]
  source: [decision]
  rules: rulesets/house.yaml
  deal: {players: 4, order: sorted}
  expect:
    - variants: [house]
      state: {hand_sizes: [11, 11, 11, 11]}
"""


@pytest.mark.parametrize("eol", ["\n", "\r\n"])
def test_write_scopes_writes_a_file_named_from_the_working_folder_in_its_line_ends(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        eol: str) -> None:
    # `mtrain lint --write-scopes mine.yaml` looked for mine.yaml beside the shipped
    # corpus: "FileNotFoundError: ... '/work/.../mine.yaml'", a traceback; and a file
    # written with CRLF line ends came back with LF ones (every line changed)
    (tmp_path / "rulesets").mkdir()
    write(tmp_path / "rulesets" / "house.yaml", "name: house\nbase: pagat\noptions:\n"
          "  hand_sizes: {2: 11, 3: 11, 4: 11, 8: 9}\n")
    (tmp_path / "mine.yaml").write_bytes(OWN_FIXTURE.replace("\n", eol).encode())
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "--write-scopes", "mine.yaml"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "wrote mine.yaml"
    text = (tmp_path / "mine.yaml").read_bytes().decode()
    assert text.count(eol) == len(text.splitlines()) and (eol == "\r\n" or "\r" not in text)
    # the `when:` written (hand_sizes: the file's table, as a scope names it) holds
    assert '        hand_sizes: ["custom:house"]' + eol in text
    assert main(["lint", "mine.yaml"]) == 0
    assert "0 wider scopes proposed" in capsys.readouterr().out


# --- conform: a fixture of one's own whose steps are no moves --------------------------------

STEPS_FIXTURE = """\
- id: mine-002
  description: steps of one's own
  clauses: [TURN-1]
  source: [decision]
  table:
    engine: 12
    hands: {{0: [12-5, 5-5], 1: [3-3]}}
    trains: {{0: [12-1], 1: [12-4]}}
    boneyard: [rest]
  steps: [{steps}]
  expect:
    - variants: [pagat]
      legal: [draw]
"""


@pytest.mark.parametrize("steps, k", [
    ("pass", 1),  # seat 0 holds 12-5, which plays on the Mexican Train (TURN-1)
    ("play 3-3 on 0", 1),  # seat 0 does not hold 3-3 (TURN-7)
    ("play 12-5 on mexican, play 5-5 on mexican", 2)])  # seat 1 moves second (TURN-7)
def test_a_step_the_rules_refuse_is_the_fixtures_fault_not_the_implementations(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, steps: str, k: int) -> None:
    # the implementation (here the reference itself) refused the step as the rules do, and
    # conform said "FAIL ... step 1 `pass` was refused ... charged to: TURN-1": its fault
    path = write(tmp_path / "mine.yaml", STEPS_FIXTURE.format(steps=steps))
    assert main(["conform", "--fixtures", path, "--variant", "pagat", "--format", "json"]) == 1
    (result,) = json.loads(capsys.readouterr().out)["results"]
    step = steps.split(", ")[k - 1]
    assert (result["status"], result["message"]) == ("error", (
        f"the fixture's step {k} `{step}` is refused by the rules too (the reference engine "
        "refuses it at that table): a fixture's steps are moves the rules allow, so this is "
        "the fixture's fault, not the implementation's (`mtrain lint` names the rule)"))


def test_a_step_only_the_implementation_refuses_is_still_its_failure(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # an engine that keeps the Mexican Train closed: the step the rules allow, refused
    adapter = write(tmp_path / "refuser.py", "from mtrain.conformance.adapter import Refused, "
                    "ReferenceImplementation\n\nclass RefusesMexican(ReferenceImplementation):"
                    "\n    def apply(self, ruleset, state, action):\n        if action.get("
                    "'train') == 'mexican':\n            raise Refused('closed', 'TRAIN-4')\n"
                    "        return super().apply(ruleset, state, action)\n")
    path = write(tmp_path / "mine.yaml", STEPS_FIXTURE.format(steps="play 12-5 on mexican"))
    assert main(["conform", "--fixtures", path, "--variant", "pagat", "--adapter",
                 f"{adapter}:RefusesMexican", "--format", "json"]) == 1
    (result,) = json.loads(capsys.readouterr().out)["results"]
    assert result["status"] == "fail" and result["message"].startswith(
        "step 1 `play 12-5 on mexican` was refused: closed [TRAIN-4]"), result


def test_the_plugin_says_a_table_that_cannot_be_is_the_fixtures_fault(tmp_path: Path) -> None:
    # conform: "LOAD ERROR mine.yaml:7: ..."; the plugin ran it as a test of the
    # implementation's, "error: ... cannot set up the fixture", one failed test
    write(tmp_path / "mine.yaml", STEPS_FIXTURE.format(steps="pass").replace(
        "hands: {0: [12-5, 5-5]", "hands: {0: [12-5, 12-5]"))
    ran = run_pytest(tmp_path, "--mtrain-impl", "mtrain serve", "--mtrain-fixtures", "mine.yaml")
    assert ran.returncode == 4, ran.stdout + ran.stderr
    assert ("ERROR: mtrain: the fixtures do not load:\nmine.yaml:7: mine-002 [pagat]: 12-5 "
            "is written twice: in hand 0 (both times as 12-5)\n") in ran.stderr, ran.stderr
