"""Faults of the suite found by writing flagstop (tests/examples/flagstop_engine.py), an
in-process engine on a double-8 set with rules of its own on who may open the Mexican
Train and on one's own train first, as an outside author would, and using the suite on it
(session 44)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from file_module import file_module

from mtrain.cli import main

EXAMPLES = Path(__file__).parent / "examples"

# A first turn's pass after a draw in vain: seat 2's own train and the Mexican Train are
# empty, the drawn [7-7] matches no open end (12 on every train but seat 1's 5). Which
# trains seat 2 may use is its rules' (own_train_first, mexican_first_turn), but no
# train takes [7-7]: the pass is the one move whatever they say, and what it leaves
# (the marker, the first turn struck off, FIRST-6) is every rule set's.
PASS_IN_VAIN = """\
- id: play44-001
  description: A first turn's drawn tile that matches no train is passed whoever may play where
  clauses: [TURN-4, MARK-1, FIRST-6]
  source: [decision]
  note: FIRST-6 strikes the first turn off when it ends, by a pass too.
  table:
    engine: 12
    seat: 2
    starter: 0
    hands: {0: [11-3, 9-9], 1: [6-2, 8-1], 2: [10-4, 7-7]}
    trains: {1: [12-5]}
    first_turns: [1, 2]
    drawn: 7-7
  steps: [pass]
  expect:
  - when: {tile_set: [double-12], first_turn: [single], draw_rule: [draw-one]}
    state: {first_turns: [1], marked: [2], seat: 0}
"""


def conform(tmp_path: Path, options: str) -> dict[str, Any]:
    (tmp_path / "fx").mkdir(exist_ok=True)
    (tmp_path / "fx" / "pass.yaml").write_text(PASS_IN_VAIN, encoding="utf-8")
    rules = tmp_path / "own.yaml"
    rules.write_text(f"name: own\nbase: pagat\noptions:\n  first_turn: single\n{options}",
                     encoding="utf-8")
    out = tmp_path / "report.json"
    main(["conform", "--adapter", "mtrain.conformance.adapter:ReferenceImplementation",
          "--rules", str(rules), "--fixtures", str(tmp_path / "fx"), "--format", "json",
          "--output", str(out)])
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


@pytest.mark.parametrize("options", [
    "  mexican_first_turn: other\n  own_train_first: other\n",
    "  own_train_first: other\n", "  mexican_first_turn: other\n"])
def test_a_tile_that_matches_no_train_leaves_who_may_play_where_undecided(
        options: str, tmp_path: Path) -> None:
    """The reference read own_train_first and mexican_first_turn wherever the player's own
    train was empty, whether or not a tile could go anywhere: such a table was not
    applicable under rules of one's own on them (flagstop's bug 3, a first turn kept
    after a pass, fuzz found and could write no reproducer of: "conform would not run
    it")."""
    [result] = conform(tmp_path, options)["results"]
    assert result["status"] == "pass", result


def _flagstop() -> Any:
    return file_module(EXAMPLES / "flagstop_engine.py")


class FirstPassKept(_flagstop().Flagstop):  # type: ignore[misc]
    """flagstop with its bug 3 alone: a first turn ended by a pass stays listed."""

    def __init__(self) -> None:
        super().__init__(fixed={1, 2})


def test_fuzz_writes_a_reproducer_of_a_first_turn_kept_under_rules_of_its_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Its shrunk table (a drawn [7-7] that matches no train) was not one conform would
    run under flagstop's rules, so the finding was left without a reproducer."""
    capsys.readouterr()
    code = main(["fuzz", "--adapter", f"{__file__}:FirstPassKept", "--rules",
                 str(EXAMPLES / "flagstop-rules.yaml"), "--games", "1", "--seed", "1",
                 "--out", str(tmp_path / "out"), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    [finding] = report["findings"]
    assert finding["signature"] == "after pass: first_turns"
    assert finding["problems"] == [] and finding["reproducer"], finding
