"""Writing fixtures by hand: messages that say where, and `rest` in several places."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import FixtureError, table_state

PAGAT = catalog().ruleset("pagat")


def state(**table: object) -> dict[str, object]:
    return table_state({"engine": 9, **table}, PAGAT)


def test_a_tile_written_twice_names_both_places() -> None:
    with pytest.raises(FixtureError, match=r"5-1 is written twice: in hand 0 and in train 1"):
        state(hands={0: ["5-1", "rest"], 1: []}, trains={1: ["9-5", "5-1"]})


def test_the_engine_in_a_hand_says_it_is_the_engine() -> None:
    with pytest.raises(FixtureError, match=r"9-9 is the engine, already in the centre: it is "
                                           r"written in hand 1"):
        state(hands={0: ["rest"], 1: ["9-9"]})


def test_a_marker_on_the_mexican_train_cites_mark_2() -> None:
    with pytest.raises(FixtureError, match=r"never carries a marker \(MARK-2\)"):
        state(hands={0: ["rest"], 1: []}, marked=["mexican"])


def test_rest_in_several_places_deals_the_leftovers_in_turn() -> None:
    # 91 tiles on a double-12 set, the engine [9-9] in the centre, [1-0] written: 89 are
    # left, in set order [0-0], [1-1], [2-0], [2-1], [2-2], [3-0], ..., dealt one at a
    # time to hand 0, hand 1, the boneyard, hand 0, ...: 30, 30 and 29 tiles.
    st = state(hands={0: ["rest"], 1: ["1-0", "rest"]}, boneyard=["rest"])
    hands, bone = st["hands"], st["boneyard"]
    assert isinstance(hands, list) and isinstance(bone, list)
    assert [len(hands[0]), len(hands[1]) - 1, len(bone)] == [30, 30, 29]
    assert "0-0" in hands[0] and "2-1" in hands[0] and "1-1" in hands[1]
    assert bone[:2] == ["2-0", "3-0"]


def test_lint_of_a_folder_of_ones_own_skips_coverage(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mine.yaml").write_text("""\
- id: mine-001
  description: "Two tiles fit the own train"
  clauses: [TRAIN-4]
  source: [pagat]
  table:
    engine: 9
    hands:
      0: [5-5, 5-1]
      1: [0-1]
    trains:
      0: [9-5]
    marked: [1]
  expect:
    - variants: [pagat]
      when: {first_turn: [chain]}
      legal: [play 5-5 on 0, play 5-1 on 0]
""", encoding="utf-8")
    assert main(["lint", str(tmp_path), "--no-scopes"]) == 0
    assert "coverage not checked" in capsys.readouterr().out
    assert main(["lint", str(tmp_path), "--no-scopes", "--coverage"]) == 1
    assert "uncovered" in capsys.readouterr().out


MINE = """\
- id: {id}
  description: "Two tiles fit the own train ({id})"
  clauses: [TRAIN-4]
  source: [pagat]
  table:
    engine: 9
    hands:
      0: [5-5, 5-1]
      1: [0-1]
    trains:
      0: [9-5]
    marked: [1]
  expect:
    - variants: [pagat]
      when: {{first_turn: [chain]}}
      legal: [play 5-5 on 0, play 5-1 on 0]
"""


def test_lint_takes_several_paths_as_one_corpus(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a").mkdir()
    one, two = tmp_path / "a" / "one.yaml", tmp_path / "two.yaml"
    one.write_text(MINE.format(id="mine-001"), encoding="utf-8")
    two.write_text(MINE.format(id="mine-002"), encoding="utf-8")
    assert main(["lint", str(tmp_path / "a"), str(two), "--no-scopes"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("2 fixtures, ")
    two.write_text(MINE.format(id="mine-001").replace("(mine-001)", "again"),
                   encoding="utf-8")  # one id in two files: an error across the paths
    assert main(["lint", str(tmp_path / "a"), str(two), "--no-scopes"]) == 1
    out = capsys.readouterr().out
    assert f"error: {two}:1: id mine-001 is also used at {one}:1" in out
    assert main(["lint", str(two), str(tmp_path / "nope")]) == 2
    assert f"no such file or folder: {tmp_path / 'nope'}" in capsys.readouterr().err


def test_a_bad_action_says_what_an_action_is(tmp_path: Path) -> None:
    from mtrain.conformance.fixture import load_file
    from mtrain.spec.yamlload import SpecErrors

    path = tmp_path / "bad.yaml"
    path.write_text("""\
- id: bad-001
  description: "A step that is not an action"
  clauses: [TRAIN-4]
  source: [pagat]
  table:
    engine: 9
    hands:
      0: [rest]
      1: []
  steps: [lay 5-3 on 0]
  expect:
    - variants: [pagat]
      legal: []
""", encoding="utf-8")
    with pytest.raises(SpecErrors) as info:
        load_file(path)
    text = str(info.value)
    assert "is not an action: `play A-B on SEAT`" in text and "pattern" not in text
