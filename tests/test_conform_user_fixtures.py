"""A fixture file of the user's own given to `mtrain conform --fixtures`: a table that
cannot exist under a rule set is the file's fault, named with its file and line, and no
implementation is asked about it or charged for it (the shipped corpus is held to this
by `mtrain lint`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.fixture import FIXTURE_ROOT
from mtrain.conformance.selection import shipped_fixtures

SOURCE = FIXTURE_ROOT / "turns" / "boneyard-twelfth-reading.yaml"


def first_fixture(tmp_path: Path, change: tuple[str, str] | None = None) -> Path:
    """bone12-001 alone (a double-9 table, seat 0 to draw), `change` made to its text."""
    text = SOURCE.read_text().split("\n- id: bone12-002")[0]
    if change is not None:
        assert change[0] in text
        text = text.replace(*change, 1)
    path = tmp_path / "mine.yaml"
    path.write_text(text)
    return path


def conform(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, dict[str, Any]]:
    rc = main(["conform", "--fixtures", str(path), "--variant", "puremco-d9",
               "--situations", "0", "--format", "json"])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, json.loads(out)


def test_a_table_that_cannot_be_is_the_files_fault(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    # a drawn tile the hand does not hold (INV-TURN): before, the embedded engine's
    # refusal of the table was the implementation's error ("the implementation's answer
    # could not be used: StateError")
    path = first_fixture(tmp_path, ("    seat: 0\n    hands:", "    seat: 0\n    drawn: 7-7\n"
                                                             "    hands:"))
    rc, report = conform(capsys, path)
    assert rc == 1
    assert report["results"] == []  # nothing asked
    assert report["load_errors"] == [
        f"{path}:8: bone12-001 [puremco-d9]: impossible table: INV-TURN the drawn tile 7-7 "
        "is not in the hand"]


def test_a_tile_outside_the_set_is_named_where_it_is_written(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = first_fixture(tmp_path, ("0: [2-1, 4-3]", "0: [2-1, 13-2]"))
    rc, report = conform(capsys, path)
    assert rc == 1 and report["results"] == []
    [error] = report["load_errors"]
    assert error.startswith(f"{path}:24: bone12-001 [puremco-d9]: ") and "13-2" in error


def test_a_possible_table_of_ones_own_runs(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    rc, report = conform(capsys, first_fixture(tmp_path))
    assert rc == 0 and report["load_errors"] == []
    assert [(r["fixture"], r["status"]) for r in report["results"]] == [("bone12-001", "pass")]


def test_only_files_outside_the_shipped_corpus_are_checked_again() -> None:
    assert shipped_fixtures(str(FIXTURE_ROOT)) and shipped_fixtures(str(SOURCE))
    assert not shipped_fixtures(str(FIXTURE_ROOT.parent))


def test_a_shipped_folder_copied_as_ones_own_runs_as_shipped(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # single-003 expects round 2's deal refused under a single round (MATCH-7) on every set
    # its `when` names: on double-15 its table is round 4, which such a game never reaches,
    # the very refusal it expects; it was a load error when checked as one's own
    copy = tmp_path / "match"
    shutil.copytree(FIXTURE_ROOT / "match", copy)
    rc = main(["conform", "--fixtures", str(copy), "--situations", "0", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert report["load_errors"] == []
    assert rc == 0 and {r["status"] for r in report["results"]} <= {"pass", "not-applicable"}
    assert any(r["fixture"] == "single-003" and "double-15" in r["variant"]
               for r in report["results"])
