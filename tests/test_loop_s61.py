"""The test loop's own tools, session 61 (issue 20): every run's summary lists its costliest
tests too, and `tests/cpu_weights.py --log` reads their figures back, so that a CI log (CI
writes no table) says which tests a file's growth is in, not only which files grew."""

from __future__ import annotations

from pathlib import Path

from cpu_weights import COSTLIEST_TESTS, costliest_tests, from_log, read_log

SECONDS = {"tests/test_a.py::test_one[x y]": 12.5, "tests/test_a.py::test_two": 0.25,
           "tests/test_b.py::test_three": 40.0, "tests/test_b.py::test_four": 12.5}
WALL = {"tests/test_a.py::test_one[x y]": 30.0, "tests/test_b.py::test_three": 41.5}


def test_the_costliest_tests_are_listed_costliest_first_ties_by_name() -> None:
    lines = costliest_tests(SECONDS, WALL, count=3)
    assert [line.split("  ", 2)[-1] for line in lines] == [
        "tests/test_b.py::test_three (wall 41.50 s)",
        "tests/test_a.py::test_one[x y] (wall 30.00 s)",
        "tests/test_b.py::test_four (wall 0.00 s)"]
    assert len(costliest_tests({f"t.py::t{i}": float(i) for i in range(99)}, {})) \
        == COSTLIEST_TESTS


def test_a_log_gives_back_the_figures_of_the_tests_it_lists(tmp_path: Path) -> None:
    log = tmp_path / "ci.log"
    log.write_text("\n".join([
        "6713 passed",
        f"===== CPU seconds of the {COSTLIEST_TESTS} costliest tests =====",
        *costliest_tests(SECONDS, WALL),
        "===== CPU seconds of the 15 costliest test files =====",
        "   52.75 s     2 tests  tests/test_b.py",
        "   12.75 s     2 tests  tests/test_a.py",
        "   65.50 s     4 tests  in all (load average at the end 2.50 2.40 2.00; ...)",
        "===== over the time budget (CPU seconds) =====",
        "   40.00 s > 2 s  tests/test_b.py::test_three (wall 41.50 s)", ""]),
        encoding="utf-8")
    files, tests = read_log(log)
    assert files == {"tests/test_b.py": 52.75, "tests/test_a.py": 12.75}
    assert tests == SECONDS  # every test listed, by its own figure (the line "in all" none)
    # a listed test takes its own figure, not its file's growth: test_four's 12.5 stays
    # though its file's 10 grew to 52.75
    weights = {"files": {"tests/test_b.py": 10.0, "tests/test_a.py": 12.75},
               "tests": {"tests/test_b.py::test_four": 5.0}}
    got = from_log(weights, files, tests)
    assert got["tests"]["tests/test_b.py::test_four"] == 12.5
    assert got["files"]["tests/test_b.py"] == 52.75
