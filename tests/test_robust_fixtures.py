"""Fixture files a demanding user writes wrong: every fault is named at its own line,
by lint and by conform, never a traceback and never a green run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtrain.cli import main

FIXTURE = """\
- id: mine-001
  description: A fixture of my own, with one fault planted
  clauses: [TRAIN-2]
  source: [pagat]
  table:
    hands:
      0: HAND0
      1: [11-11, 10-0]
    trains:
      0: TRAIN0
      1: [12-3]
  expect:
    - variants: [pagat]
      legal: [play 5-3 on 0]
"""


def write(tmp_path: Path, hand: str, train: str) -> Path:
    path = tmp_path / "mine.yaml"
    path.write_text(FIXTURE.replace("HAND0", hand).replace("TRAIN0", train))
    return path


@pytest.mark.parametrize("hand, train, line, fault", [
    ("[5-3, 13-1]", "[12-5]", 7, "tile '13-1' is not in a double-12 set"),
    ("[5-3, 5-3]", "[12-5]", 7, "5-3 is written twice: in hand 0 and in hand 0"),
    ("[5-3, 9-1]", "[12-5, 5-3]", 10, "5-3 is written twice: in hand 0 and in train 0"),
    ("[5-3, 9-1]", "[6-5]", 10, "train 0: 6-5 does not continue from 12"),
    ("[5-3, 12-12]", "[12-5]", 7, "12-12 is the engine, already in the centre"),
    ("[5-3, 9-1]\n      3: [1-1]", "[12-5]", 6, "hands must list seats 0..2, got [0, 1, 3]"),
    ("[5-3, 9-1]", "[12-5]\n      5: [12-1]", 11, "5 is not a train (a seat 0..1 or 'mexican')"),
    ("\n        - 5-3\n        - 9-9\n        - 9-9", "[12-5]", 10,
     "9-9 is written twice: in hand 0 and in hand 0"),
])
def test_a_table_fault_is_named_at_its_line(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path, hand: str, train: str, line: int,
                                            fault: str) -> None:
    path = write(tmp_path, hand, train)
    assert main(["lint", str(path), "--no-scopes"]) == 1
    out = capsys.readouterr().out
    assert f"error: {path}:{line}: mine-001 [pagat]: {fault}" in out, out
    assert main(["conform", "--fixtures", str(path), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    (result,) = report["results"]
    assert result["status"] == "error"
    assert result["message"].endswith(f"{fault} (at {path}:{line})") or (
        f"{fault}" in result["message"] and f"(at {path}:{line})" in result["message"]), result


@pytest.mark.parametrize("hand, line, fault", [
    ("[5.3, 9-1]", 7, 'hands.0[0]: expected a tile, written A-B with numbers 0 to 12 '
     '(e.g. 5-3) or "rest", got a number (5.3)'),
    ("[05-3, 9-1]", 7, "hands.0[0]: expected a tile, written A-B with numbers 0 to 12 "
     "(e.g. 5-3) or \"rest\", got a string ('05-3')"),
    ("[5-3, 010]", 7, "'010' is a number written in a form YAML versions read"),
    ("[5-3, 0x9-1]", 7, "hands.0[1]: expected a tile"),
    ("yes", 7, "'yes' is read as a boolean"),
])
def test_a_tile_written_wrong_is_named_at_its_line(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path, hand: str, line: int,
                                                   fault: str) -> None:
    path = write(tmp_path, hand, "[12-5]")
    assert main(["lint", str(path), "--no-scopes"]) == 1
    out = capsys.readouterr().out
    assert f"error: {path}:{line}: " in out and fault in out, out
