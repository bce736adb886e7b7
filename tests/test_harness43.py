"""Session 43's harness fixes that are not fuzz's own (tests/test_fuzz_own_rules.py has
those): conform's charge of tenwheeler's bug 1 in a follow-up, and the double-10 fixture
that tells tenwheeler's uncoverable double from released-when-boneyard-empty."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from mtrain.cli import main

HERE = Path(__file__).parent
EXAMPLES = HERE / "examples"
TENWHEELER = [sys.executable, str(EXAMPLES / "tenwheeler_engine.py")]

FOLLOW_UP = """\
- id: harness43-follow-up-001
  description: "round 11: the tile after a double opens the empty Mexican Train with a 0"
  clauses: [DBL-1, DBL-2, TURN-1, TRAIN-4]
  source: [computation]
  table:
    engine: 0
    seat: 1
    starter: 0
    phase: follow
    hands:
      0: [rest]
      1: [10-8, 7-0]
    trains:
      1: [0-3, 3-3]
    boneyard: []
    turn_doubles: [1]
  rules: rulesets/tenwheeler.yaml
  expect:
  - variants: [tenwheeler]
    legal: [play 7-0 on mexican]
"""


def conform(tmp_path: Path, fixtures: Path, rules: Path, *fixed: str) -> dict[str, Any]:
    out = tmp_path / "report.json"
    impl = " ".join([*TENWHEELER, *(["--fixed", ",".join(fixed)] if fixed else [])])
    main(["conform", "--impl", impl, "--fixtures", str(fixtures), "--rules", str(rules),
          "--format", "json", "--output", str(out)])
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def rules_file(tmp_path: Path, name: str, **values: str) -> Path:
    """Tenwheeler's rule-set file with known values in place of its `other` ones."""
    text = (EXAMPLES / "tenwheeler-rules.yaml").read_text(encoding="utf-8")
    text = text.replace("name: tenwheeler", f"name: {name}")
    for option, value in values.items():
        text = text.replace(f"  {option}: other", f"  {option}: {value}")
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_wrong_tile_opening_the_mexican_train_in_a_follow_up_is_charged_to_train_5(
        tmp_path: Path) -> None:
    """Tenwheeler's bug 1 (a tile bearing 10 opens the empty Mexican Train) in a
    follow-up: it offers [10-8] there and not [7-0] (engine 0). A play on the Mexican
    Train was offered, so the missing opening was charged to the follow-up rule (DBL-2,
    which the fixture lists, as fuzz's reproducer did): the offered play is a wrong
    opening, the same bug, and the failure is TRAIN-5's."""
    (tmp_path / "rulesets").mkdir()
    rules = rules_file(tmp_path / "rulesets", "tenwheeler", own_train_first="not-required",
                       uncoverable_double="stays-open")
    fixtures = tmp_path / "follow-up.yaml"
    fixtures.write_text(FOLLOW_UP, encoding="utf-8")
    [result] = [r for r in conform(tmp_path, fixtures, rules)["results"]
                if r["status"] != "not-applicable"]
    assert result["status"] == "fail" and result["charged"] == ["TRAIN-5"], result
    # the control: with bug 1 off it passes
    [result] = [r for r in conform(tmp_path, fixtures, rules, "1", "2", "3")["results"]
                if r["status"] != "not-applicable"]
    assert result["status"] == "pass", result

