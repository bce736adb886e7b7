"""The README's suite figures come from one command (session 60): `tests/cpu_weights.py
--log CI_LOG` prints what the README quotes of the run whose log it reads (its tests, CPU
seconds and load, pytest's seconds and result) and says whether that run was green, since
session 59's figures had been taken from a run that was not."""

from __future__ import annotations

import json
from pathlib import Path

import cpu_weights
import pytest

SUMMARY = """\
================== CPU seconds of the 15 costliest test files ==================
  607.10 s   160 tests  tests/test_house_engines.py
 1590.40 s  6612 tests  in all (load average at the end 2.01 1.98 1.81; --cpu-table=PATH lists all)
====================== over the time budget (CPU seconds) ======================
   3.18 s > 2 s  tests/test_docs.py::test_pages (wall 3.35 s)
"""


def figures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
            capsys: pytest.CaptureFixture[str], result: str) -> str:
    weights = tmp_path / "cpu_weights.json"
    weights.write_text(json.dumps({"files": {}, "tests": {}}), encoding="utf-8")
    monkeypatch.setattr(cpu_weights, "WEIGHTS", weights)
    log = tmp_path / "ci.log"
    log.write_text(SUMMARY + result, encoding="utf-8")
    assert cpu_weights.main(["--log", str(log)]) == 0
    return capsys.readouterr().out.splitlines()[-1]


def test_the_log_command_prints_a_green_runs_figures(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    line = figures(tmp_path, monkeypatch, capsys,
                   "=== 6611 passed, 1 skipped, 4 warnings in 882.12s (0:14:42) ===\n")
    assert line == ("the run: 6,612 tests, 1,590 CPU s (load at the end 2.01 1.98 1.81), "
                    "882 s of pytest (6,611 passed, 1 skipped); green")


def test_a_red_runs_figures_are_said_not_to_be_quoted(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    line = figures(tmp_path, monkeypatch, capsys,
                   "2 failed, 6609 passed, 1 skipped, 1 error in 901.50s (0:15:01)\n")
    assert line.startswith("the run: 6,612 tests, 1,590 CPU s")
    assert line.endswith("(2 failed, 6,609 passed, 1 skipped, 1 error); NOT green (3 failed "
                         "or in error): not the figures to quote")


def test_a_log_cut_before_pytests_result_says_so(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    line = figures(tmp_path, monkeypatch, capsys, "")
    assert line.endswith("ci.log: no line \"in all\" or no pytest result line: the run's "
                         "figures unread")
