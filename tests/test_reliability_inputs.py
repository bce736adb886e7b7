"""Bad input found by the adversarial hunt of issue 31 (mutated fixtures, rule-set files,
requests and answers), one regression test each: a clear error or a reported failure,
never a traceback or a silent pass."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mtrain.cli import main
from mtrain.conformance.answers import actions_problems, winners_problems
from mtrain.spec.catalog import catalog
from mtrain.spec.distinguish.question import make_question
from mtrain.spec.distinguish.solve_deal import solve_deal
from mtrain.spec.yamlschema import schema

ROOT = Path(__file__).resolve().parent.parent
DOUBLE_6 = ROOT / "docs" / "examples" / "double-6.yaml"


# --- diff: a rule-set file with a table of its own --------------------------------------


def test_the_deal_question_reads_a_table_of_ones_own() -> None:
    # solve_deal looked `custom` up among the named tables: KeyError, a traceback from
    # `mtrain diff pagat docs/examples/double-6.yaml`
    own = catalog().rules_file(DOUBLE_6)
    assert own["hand_sizes"] == "custom"
    found = solve_deal(make_question("pagat", own, "hand_sizes"))
    assert found is not None
    assert found.expect_b["state"]["hand_sizes"] == [8, 8]  # the file's own row for 2


def test_diff_against_a_table_of_ones_own(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "pagat", str(DOUBLE_6), "--no-fixtures"]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert "situation for hand_sizes" in out and "[8, 8] under custom" in out


# --- conform: a list the protocol wants each item of once ---------------------------------

DRAW = {"type": "draw"}
PLAY = {"type": "play", "tile": "5-3", "train": "mexican"}


@pytest.mark.parametrize("answer, field, check", [
    ({"id": 1, "ok": True, "actions": [PLAY, DRAW, dict(PLAY)]}, "actions", actions_problems),
    ({"id": 1, "ok": True, "winners": [1, 2, 1]}, "winners", winners_problems),
])
def test_an_item_listed_twice_is_a_schema_problem(answer: dict[str, Any], field: str,
                                                  check: Any) -> None:
    # legal's actions were compared as sets: a list naming an action twice passed
    name = "legal_answer" if field == "actions" else "winners_answer"
    array = dict(schema("protocol")["$defs"][name]["properties"][field])
    del array["items"]  # (a reference to another file; the items are valid here)
    assert not jsonschema.Draft202012Validator(array).is_valid(answer[field])  # "each once"
    assert jsonschema.Draft202012Validator(array).is_valid(answer[field][:2])
    [problem] = check(answer[field])  # ... and the fast check agrees
    assert problem.kind == "schema" and "listed twice" in problem.message
    assert check(answer[field][:2]) == []


def test_conform_fails_an_implementation_listing_an_action_twice(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    impl = tmp_path / "twice.py"
    impl.write_text(
        "import sys\nfrom mtrain.conformance.adapter import ReferenceImplementation\n"
        "class Twice(ReferenceImplementation):\n"
        "    def legal(self, ruleset, state):\n"
        "        actions = super().legal(ruleset, state)\n"
        "        return actions + actions[:1]\n")
    rc = main(["conform", "--adapter", f"{impl}:Twice", "-k", "doubles-069",
               "--variant", "puremco"])
    out, err = capsys.readouterr()
    assert rc == 1, out + err
    assert "is listed twice" in out
    assert json.dumps(PLAY) in out


# --- conform --rules: a table of one's own that lacks the fixtures' player counts ---------


def test_conform_under_a_table_dealing_only_five_players(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # a fixture's 3-player table, first read by a check, was refused by the traced
    # reference (RefusedSetup, DEAL-7) and the run ended in a traceback
    rules = tmp_path / "five.yaml"
    rules.write_text("name: five\nbase: puremco\noptions:\n  tile_set: double-9\n"
                     "  hand_sizes: {5: 1}\n")
    rc = main(["conform", "--rules", str(rules), "--situations", "0", "-k", "doubles-003"])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert rc == 1, out + err  # it deals no 5 players: nothing ran, not green
    assert "nothing ran" in out


# --- conform, state, render: two fixtures of one id -----------------------------------------


@pytest.mark.parametrize("command", [
    ["conform", "--situations", "0"],
    ["state", "doubles-069"],
    ["render", "doubles-069"],
])
def test_two_fixtures_of_one_id_are_an_error(command: list[str], tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    # only lint said so: conform ran both under one id (48 results, green) and state and
    # render took the first one silently
    text = (ROOT / "conformance" / "fixtures" / "doubles" / "first-turns.yaml").read_text()
    path = tmp_path / "twice.yaml"
    path.write_text(text + text[text.index("- id:"):])
    line = text.count("\n", 0, text.index("- id:")) + 1
    second = text.count("\n") + 1
    rc = main([*command, "--fixtures", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert rc == (1 if command[0] == "conform" else 2), out + err
    assert f"{path}:{second}: id doubles-069 is also used at {path}:{line}" in out + err
    if command[0] == "conform":  # the first one, once: as many results as the file alone
        once = tmp_path / "once.yaml"
        once.write_text(text)
        assert main([*command, "--fixtures", str(once)]) == 0
        alone = re.search(r"OK: (\d+) results ran", capsys.readouterr().out)
        assert alone is not None and f"FAILED: {alone.group(1)} results ran" in out
