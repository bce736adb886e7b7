"""The test loop's own tools, session 49 (issue 20): identify's runs shared as conform's and
fuzz's are (tests/shared_runs.py), and the committed weights written again from a run
stopped early or from some files only (tests/cpu_weights.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cpu_weights
import pytest
import shared_runs
from cpu_weights import read_table, updated
from shared_runs import SharedRuns


def _memo() -> Callable[[str, Callable[[], Any]], Any]:
    """conftest's `once` in one process: each name computed once."""
    memo: dict[str, Any] = {}

    def once(name: str, compute: Callable[[], Any]) -> Any:
        if name not in memo:
            memo[name] = compute()
        return memo[name]
    return once


def test_an_identify_asked_alike_runs_once_and_an_engine_changed_runs_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = tmp_path / "engine.py"
    engine.write_text("# rules of its own\n", encoding="utf-8")
    ran: list[list[str]] = []

    def identify(argv: list[str]) -> int:  # stands in for `mtrain identify`
        ran.append(argv)
        out = Path(argv[argv.index("-o") + 1])
        out.write_text(f"name: found\n# run {len(ran)}\n", encoding="utf-8")
        return 0
    monkeypatch.setattr(shared_runs, "main", identify)
    runs = SharedRuns(_memo(), tmp_path)
    argv = ["--impl", f"python {engine}"]
    first = runs.identify(argv)
    assert first == (0, "name: found\n# run 1\n")
    assert runs.identify(list(argv)) == first and len(ran) == 1  # the same run, read again
    assert ran[0][:3] == ["identify", *argv]
    engine.write_text("# another rule\n", encoding="utf-8")  # what the command reads changed
    assert runs.identify(argv) == (0, "name: found\n# run 2\n")
    assert runs.identify([*argv, "--timeout", "5"])[1].endswith("# run 3\n")  # other flags


def test_an_identify_that_wrote_no_file_gives_its_code_and_no_text(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shared_runs, "main", lambda argv: 1)
    assert SharedRuns(_memo(), tmp_path).identify(["--impl", "nothing"]) == (1, "")


def test_a_table_cut_short_is_read_as_a_whole_one(tmp_path: Path) -> None:
    """The .partial rows conftest writes as each test ends have no header."""
    partial = tmp_path / "table.tsv.partial"
    partial.write_text("3.000\t4.000\t1\ttests/test_a.py::slow\t0.000\n"
                       "0.250\t0.300\t0\ttests/test_a.py::quick[x y]\t0.000\n", encoding="utf-8")
    assert read_table(partial) == {"tests/test_a.py::slow": 3.0,
                                   "tests/test_a.py::quick[x y]": 0.25}
    spoiled = tmp_path / "spoiled.partial"
    spoiled.write_text("1.0\t1.0\t0\ttests/a.py::t\t0\nhalf a li", encoding="utf-8")
    with pytest.raises(ValueError, match=r"spoiled\.partial:2: not a --cpu-table row"):
        read_table(spoiled)


def test_an_update_replaces_the_files_measured_and_keeps_the_others() -> None:
    committed = {"files": {"tests/test_a.py": 50.0, "tests/test_b.py": 7.0},
                 "tests": {"tests/test_a.py::gone": 40.0, "tests/test_b.py::heavy": 5.0}}
    measured = {"tests/test_a.py::t1": 2.5, "tests/test_a.py::t2": 0.5,
                "tests/test_c.py::new": 1.0}
    assert updated(committed, measured) == {
        "files": {"tests/test_a.py": 3.0, "tests/test_b.py": 7.0, "tests/test_c.py": 1.0},
        "tests": {"tests/test_a.py::t1": 2.5, "tests/test_b.py::heavy": 5.0,
                  "tests/test_c.py::new": 1.0}}


def test_the_command_updates_the_weights_file(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "w.json"
    out.write_text(json.dumps({"files": {"tests/test_k.py": 9.0},
                               "tests": {"tests/test_k.py::x": 9.0}}), encoding="utf-8")
    table = tmp_path / "t.tsv.partial"
    table.write_text("2.0\t2.0\t0\ttests/test_z.py::a\t0\n", encoding="utf-8")
    monkeypatch.setattr(cpu_weights, "WEIGHTS", out)
    assert cpu_weights.main(["--update", str(table)]) == 0
    assert json.loads(out.read_text(encoding="utf-8")) == {
        "files": {"tests/test_k.py": 9.0, "tests/test_z.py": 2.0},
        "tests": {"tests/test_k.py::x": 9.0, "tests/test_z.py::a": 2.0}}
