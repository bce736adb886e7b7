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
    ("[5-3, 5-3]", "[12-5]", 7, "5-3 is written twice: in hand 0 (both times as 5-3)"),
    ("[5-3, 9-1]", "[12-5, 5-3]", 10, "5-3 is written twice: in hand 0 and in train 0"),
    ("[5-3, 9-1]", "[6-5]", 10, "train 0: 6-5 does not continue from 12"),
    ("[5-3, 12-12]", "[12-5]", 7, "12-12 is the engine, already in the centre"),
    ("[5-3, 9-1]\n      3: [1-1]", "[12-5]", 6, "hands must list seats 0..2, got [0, 1, 3]"),
    ("[5-3, 9-1]", "[12-5]\n      5: [12-1]", 11, "5 is not a train (a seat 0..1 or 'mexican')"),
    ("\n        - 5-3\n        - 9-9\n        - 9-9", "[12-5]", 10,
     "9-9 is written twice: in hand 0 (both times as 9-9)"),
])
def test_a_table_fault_is_named_at_its_line(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path, hand: str, train: str, line: int,
                                            fault: str) -> None:
    path = write(tmp_path, hand, train)
    assert main(["lint", str(path), "--no-scopes"]) == 1
    out = capsys.readouterr().out
    assert f"error: {path}:{line}: mine-001 [pagat]: {fault}" in out, out
    assert main(["conform", "--fixtures", str(path), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)  # the file's fault, no engine's (9d82953)
    assert report["results"] == [], report["results"]
    (said,) = report["load_errors"]
    assert said.startswith(f"{path}:{line}: mine-001 [pagat]: {fault}"), said


@pytest.mark.parametrize("hand, line, fault", [
    ("[5.3, 9-1]", 7, 'hands.0[0]: expected a tile, written A-B with numbers 0 to 18 '
     '(e.g. 5-3) or "rest", got a number (5.3)'),
    ("[05-3, 9-1]", 7, "hands.0[0]: expected a tile, written A-B with numbers 0 to 18 "
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


DEAL = """\
- id: mine-003
  description: A deal under highest-draw, with one fault planted
  clauses: [SEAT-5]
  source: [decision]
  deal:
    players: 2
    engine: 12
    order: ORDER
    draw: DRAW
  expect:
    - variants: [pagat+highest-draw-start]
      state:
        seat: 1
        starter: 1
"""


def write_deal(tmp_path: Path, order: str = "sorted", draw: str = "[[0-0], [1-0]]") -> Path:
    path = tmp_path / "mine.yaml"
    path.write_text(DEAL.replace("ORDER", order).replace("DRAW", draw))
    return path


@pytest.mark.parametrize("order, fault", [
    ("[]", "it lists 0 (missing: 0-0, 1-0, 1-1, 2-0, 2-1, 2-2, ...) [DEAL-1]"),
    ("[0-0, 0-0, 1-0]", "it lists 3 (twice: 0-0; missing: 1-1, 2-0, 2-1, 2-2, 3-0, 3-1, "
     "...) [DEAL-1]"),
])
def test_a_deal_order_that_is_not_the_set_is_the_fixtures_fault(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, order: str, fault: str) -> None:
    path = write_deal(tmp_path, order=order)
    assert main(["lint", str(path), "--no-scopes"]) == 1  # passed before
    out = capsys.readouterr().out
    want = ("deal.order must list each of the 91 tiles dealt from exactly once (the "
            f"double-12 set); {fault}")
    assert f"error: {path}:8: mine-003 [pagat+highest-draw-start]: {want}" in out, out
    assert main(["conform", "--fixtures", str(path), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    # was "the implementation's answer could not be used: ValueError: ... (at deal.py:82)";
    # then a result in error; now the file's fault, no engine's (9d82953)
    assert report["results"] == [], report["results"]
    assert report["load_errors"] == [f"{path}:8: mine-003 [pagat+highest-draw-start]: {want}"]


@pytest.mark.parametrize("draw, fault", [
    ("[[0-0], [0-0]]", "drawing 1 holds a tile twice [SEAT-5]"),
    ("[[], []]", "seat 0 drew no tile [SEAT-5]"),
    ("[[0-0]]", "the draw lists 1 seats for 2 players [SEAT-5]"),
    ("[[13-0], [1-0]]", "tile '13-0' is not in a double-12 set"),
    ("[[1-0, 2-0], [0-1, 3-0]]", "drawing 1 holds a tile twice [SEAT-5]"),
    ("[[1-0, 2-0], [0-0]]", "seat 0 draws again after winning the draw [SEAT-5]"),
])
def test_a_draw_the_rule_cannot_produce_is_named_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, draw: str, fault: str) -> None:
    path = write_deal(tmp_path, draw=draw)
    assert main(["lint", str(path), "--no-scopes"]) == 1  # passed before: 0 errors
    out = capsys.readouterr().out
    assert (f"error: {path}:9: mine-003 [pagat+highest-draw-start]: the draw for the start "
            f"cannot be: {fault} (an entry that expects it refused says refused_setup: "
            "SEAT-5)") in out, out


def test_a_draw_refused_where_the_rules_allow_it_is_charged_to_seat_5(tmp_path: Path) -> None:
    from mtrain.conformance.adapter import JSON, ReferenceImplementation, RefusedSetup
    from mtrain.conformance.fixture import load_file
    from mtrain.conformance.runner import run_fixture

    class RefusesDraws(ReferenceImplementation):
        def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
                 draw: list[list[str]] | None = None) -> JSON:
            if draw is not None:
                raise RefusedSetup("no draws here", "SEAT-5")
            return super().deal(ruleset, players, round, order, draw)

    (fx,) = load_file(write_deal(tmp_path))
    assert [o.status for o in run_fixture(fx, ReferenceImplementation())] == ["pass"]
    (out,) = run_fixture(fx, RefusesDraws())
    assert out.status == "fail" and out.charged == ["SEAT-5"]  # DEAL-7 before
    assert out.messages == ["the implementation refused the setup: no draws here [SEAT-5]; "
                            "the rules allow it"]


@pytest.mark.parametrize("counts, fault", [
    ("scores: [-5, 2]", "[0].table.scores[0]: -5 is less than the minimum of 0"),
    ("scores: [99999999999999999999999, 2]",
     "[0].table.scores[0]: 99999999999999999999999 is greater than the maximum of 2147483647"),
    ("outs: [0, -1]", "[0].table.outs[1]: -1 is less than the minimum of 0"),
    ("passes: 3000000000", "[0].table.passes: 3000000000 is greater than the maximum"),
])
def test_a_count_no_state_can_hold_is_the_fixtures_fault_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, counts: str, fault: str) -> None:
    # charged to the implementation before ("the implementation's answer could not be
    # used: StateError"), as if the engine had written the -5
    path = write(tmp_path, "[5-3, 9-1]", "[12-5]")
    path.write_text(path.read_text().replace("  expect:", f"    {counts}\n  expect:"))
    assert main(["conform", "--fixtures", str(path), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["results"] == [], report["results"]
    (error,) = report["load_errors"]
    assert f"{path}:12: {fault}" in str(error), error
