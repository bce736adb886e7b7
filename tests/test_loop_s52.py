"""The test loop's own tools, session 52 (issue 20): the weights the xdist scheduler orders a
clean clone's run by are read from a run's log (tests/cpu_weights.py `--log`): CI writes
no table, but every run ends with its costliest files' CPU seconds and the tests over
their budget (tests/conftest.py)."""

from __future__ import annotations

import json
from pathlib import Path

import cpu_weights
import pytest
from cpu_weights import from_log, read_log

LOG = """\
5611 passed, 1 skipped
================== CPU seconds of the 15 costliest test files ==================
  299.44 s   120 tests  tests/test_house_engines.py
  131.42 s    30 tests  tests/test_identify.py
 1092.40 s  5612 tests  in all (load average at the end 1.97 1.98 1.81; --cpu-table=PATH lists all)
====================== over the time budget (CPU seconds) ======================
  96.07 s > 60 s  tests/test_identify.py::test_random[double-12] (wall 98.15 s, slow)
   3.18 s > 2 s  tests/test_docs.py::test_pages (wall 3.35 s)
"""


def test_a_runs_log_gives_its_files_and_its_tests_over_budget(tmp_path: Path) -> None:
    log = tmp_path / "ci.log"
    log.write_text(LOG, encoding="utf-8")
    files, tests = read_log(log)
    # the line "in all" names no file; the tests' wall seconds are not read
    assert files == {"tests/test_house_engines.py": 299.44, "tests/test_identify.py": 131.42}
    assert tests == {"tests/test_identify.py::test_random[double-12]": 96.07,
                     "tests/test_docs.py::test_pages": 3.18}


def test_a_log_without_the_summary_is_refused_naming_it(tmp_path: Path) -> None:
    log = tmp_path / "ci.log"
    log.write_text("5611 passed\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"ci\.log: no file's CPU seconds"):
        read_log(log)


def test_a_logged_file_is_scaled_its_logged_test_exact_the_others_kept() -> None:
    weights = {"files": {"tests/test_a.py": 100.0, "tests/test_b.py": 10.0},
               "tests": {"tests/test_a.py::test_big": 60.0, "tests/test_a.py::test_mid": 20.0,
                         "tests/test_b.py::test_one": 5.0}}
    got = from_log(weights, {"tests/test_a.py": 200.0},
                   {"tests/test_a.py::test_big": 150.0})
    # a: 200 (logged); test_big 150 (logged); test_mid 20 x 200/100 = 40, but a leaves
    # 200 - 150 = 50 to its other tests, so 40 stands; b untouched
    assert got == {"files": {"tests/test_a.py": 200.0, "tests/test_b.py": 10.0},
                   "tests": {"tests/test_a.py::test_big": 150.0,
                             "tests/test_a.py::test_mid": 40.0,
                             "tests/test_b.py::test_one": 5.0}}
    # where the scaled figures pass what the file leaves, they share it: 200 - 190 = 10
    got = from_log(weights, {"tests/test_a.py": 200.0}, {"tests/test_a.py::test_big": 190.0})
    assert got["tests"]["tests/test_a.py::test_mid"] == 10.0
    # the order the scheduler reads: a's share of its unlisted tests never below zero
    est = cpu_weights.estimates(["tests/test_a.py::test_big", "tests/test_a.py::test_mid",
                                 "tests/test_a.py::test_small"], {}, got)
    assert est["tests/test_a.py::test_small"] == 0.0


def test_the_command_writes_the_weights_from_a_log(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    weights = tmp_path / "cpu_weights.json"
    weights.write_text(json.dumps({"files": {"tests/test_identify.py": 100.0,
                                             "tests/test_docs.py": 4.0},
                                   "tests": {"tests/test_docs.py::test_pages": 2.0}}),
                       encoding="utf-8")
    monkeypatch.setattr(cpu_weights, "WEIGHTS", weights)
    log = tmp_path / "ci.log"
    log.write_text(LOG, encoding="utf-8")
    assert cpu_weights.main(["--log", str(log)]) == 0
    got = json.loads(weights.read_text(encoding="utf-8"))
    assert got["files"] == {"tests/test_docs.py": 4.0, "tests/test_house_engines.py": 299.44,
                            "tests/test_identify.py": 131.42}
    assert got["tests"] == {"tests/test_docs.py::test_pages": 3.18,
                            "tests/test_identify.py::test_random[double-12]": 96.07}
    assert "2 files and 2 tests from the log" in capsys.readouterr().out
    assert cpu_weights.main(["--log"]) == 2
    assert cpu_weights.main(["--log", str(tmp_path / "missing.log")]) == 2
    assert "missing.log" in capsys.readouterr().err


def test_a_whole_summary_caps_the_files_it_does_not_list_at_its_cheapest() -> None:
    """A file the run's summary of its COSTLIEST files leaves out cost less than the
    cheapest one listed: a stale larger figure (session 58: test_blame's 81.9 CPU s, the
    corpus play since charged to another test) is brought down to it, its tests with it."""
    listed = {f"tests/test_{i}.py": 20.0 + i for i in range(cpu_weights.COSTLIEST)}
    weights = {"files": {"tests/test_stale.py": 80.0, "tests/test_cheap.py": 3.0},
               "tests": {"tests/test_stale.py::test_play": 60.0}}
    got = from_log(weights, listed, {})
    assert got["files"]["tests/test_stale.py"] == 20.0  # the cheapest listed
    assert got["files"]["tests/test_cheap.py"] == 3.0  # below it: kept
    assert got["tests"]["tests/test_stale.py::test_play"] == 15.0  # 60 x 20/80
    # a partial summary (fewer files than COSTLIEST) says nothing of the others
    few = dict(list(listed.items())[:3])
    assert from_log(weights, few, {})["files"]["tests/test_stale.py"] == 80.0
