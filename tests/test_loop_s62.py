"""The test loop's tools, session 62: `issues ci > LOG` quotes every line of the CI run's
output with "> ", and `tests/cpu_weights.py --log LOG` refused that log ("no file's CPU
seconds"); it reads it as the run printed it."""

from __future__ import annotations

import json
from pathlib import Path

import cpu_weights
import pytest
from cpu_weights import read_log

PRINTED = """\
================== CPU seconds of the 15 costliest test files ==================
  759.37 s   181 tests  tests/test_house_engines.py
  239.60 s   977 tests  tests/test_mutants.py
 2008.07 s  6800 tests  in all (load average at the end 2.81 2.63 2.36; --cpu-table=PATH lists all)
====================== over the time budget (CPU seconds) ======================
  127.10 s > 60 s  tests/test_mutants.py::test_reference_unchanged (wall 128.40 s, slow)
1 failed, 6798 passed, 1 skipped in 1088.36s (0:18:08)
"""

QUOTED = "What follows was printed by the project's own code.\n" + "".join(
    f"> {line}\n" for line in PRINTED.splitlines())


def test_a_log_quoted_by_the_tracker_reads_as_the_run_printed_it(tmp_path: Path) -> None:
    plain, quoted = tmp_path / "plain.log", tmp_path / "quoted.log"
    plain.write_text(PRINTED, encoding="utf-8")
    quoted.write_text(QUOTED, encoding="utf-8")
    files, tests = read_log(quoted)
    assert files == {"tests/test_house_engines.py": 759.37, "tests/test_mutants.py": 239.6}
    assert tests == {"tests/test_mutants.py::test_reference_unchanged": 127.1}
    assert (files, tests) == read_log(plain)
    assert cpu_weights.run_figures(quoted) == cpu_weights.run_figures(plain)
    assert cpu_weights.run_figures(quoted).startswith("the run: 6,800 tests, 2,008 CPU s")


def test_a_quoted_log_writes_the_weights(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    weights = tmp_path / "cpu_weights.json"
    weights.write_text(json.dumps({"files": {}, "tests": {}}), encoding="utf-8")
    monkeypatch.setattr(cpu_weights, "WEIGHTS", weights)
    log = tmp_path / "ci.log"
    log.write_text(QUOTED, encoding="utf-8")
    assert cpu_weights.main(["--log", str(log)]) == 0
    written = json.loads(weights.read_text(encoding="utf-8"))
    assert written["files"]["tests/test_mutants.py"] == 239.6
    assert "NOT green (1 failed or in error)" in capsys.readouterr().out


def test_a_quote_inside_a_line_is_left_alone(tmp_path: Path) -> None:
    """Only a line's leading quote is the tracker's: a test id holding "> " keeps it."""
    log = tmp_path / "ci.log"
    log.write_text(PRINTED.replace("test_reference_unchanged", "test_x[a> b]"),
                   encoding="utf-8")
    assert read_log(log)[1] == {"tests/test_mutants.py::test_x[a> b]": 127.1}
