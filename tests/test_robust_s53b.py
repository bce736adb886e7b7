"""Bad inputs and interrupt paths, round 26 (robust-s53b): the last small messages. A tile
written twice in one hand was "in hand 0 and in hand 0", whatever its spellings; a fixture
copied whole was two errors (its id, its description); a request other than the hello that
timed out said nothing of whether the program had read it; a program that left the
shutdown unanswered (docs/protocol.md: "Answer it, then exit") was not told so."""

from __future__ import annotations

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
      0: [12-5]
      1: [12-3]
  expect:
    - variants: [pagat]
      legal: [play 5-3 on 0]
"""


def _errors(capsys: pytest.CaptureFixture[str], path: Path) -> list[str]:
    assert main(["lint", str(path), "--no-scopes"]) == 1
    return [x for x in capsys.readouterr().out.splitlines() if x.startswith("error:")]


@pytest.mark.parametrize("hand, said", [
    ("[5-3, 3-5]", "5-3 is written twice: in hand 0 (as 5-3 and as 3-5)"),
    ("[5-3, 5-3]", "5-3 is written twice: in hand 0 (both times as 5-3)"),
])
def test_a_tile_written_twice_in_one_hand_names_the_hand_once_and_both_spellings(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, hand: str, said: str) -> None:
    # before: "5-3 is written twice: in hand 0 and in hand 0", whichever way it was spelt
    path = tmp_path / "mine.yaml"
    path.write_text(FIXTURE.replace("HAND0", hand), encoding="utf-8")
    assert _errors(capsys, path) == [f"error: {path}:7: mine-001 [pagat]: {said}"]


def test_a_tile_in_two_places_names_both_and_the_spellings(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(FIXTURE.replace("HAND0", "[5-3, 9-1]").replace("1: [12-3]",
                                                                   "1: [12-3, 3-5]"),
                    encoding="utf-8")
    assert _errors(capsys, path) == [
        f"error: {path}:11: mine-001 [pagat]: 5-3 is written twice: in hand 0 and in train 1 "
        "(as 5-3 and as 3-5)"]


def test_a_fixture_copied_whole_is_one_error(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    # before: "id mine-001 is also used at ..." and "mine-001 has the same description as
    # mine-001", two errors for one copy
    text = FIXTURE.replace("HAND0", "[5-3, 9-1]")
    path = tmp_path / "mine.yaml"
    path.write_text(text + text, encoding="utf-8")
    second = text.count("\n") + 1
    assert _errors(capsys, path) == [
        f"error: {path}:{second}: id mine-001 is also used at {path}:1 (with the same "
        "description: a fixture copied whole?)"]


def test_an_id_and_a_description_each_used_before_are_two_errors(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the id of one fixture, the description of another: two faults, each said
    one = FIXTURE.replace("HAND0", "[5-3, 9-1]")
    two = one.replace("mine-001", "mine-002").replace("with one fault planted", "another")
    three = one.replace("with one fault planted", "another")
    path = tmp_path / "mine.yaml"
    path.write_text(one + two + three, encoding="utf-8")
    third = (one + two).count("\n") + 1
    assert _errors(capsys, path) == [
        f"error: {path}:{third}: id mine-001 is also used at {path}:1",
        f"error: {path}:{third}: mine-001 has the same description as mine-002"]
