"""The fast loop's list of tests moved to the whole suite (tests/fast_loop_moved.txt): each
name is a test its file has, and each file keeps a test in the fast loop, so that every
family keeps a cheap test there. (That the fast loop still runs every module of the
product is measured by benchmarks/fast_loop_coverage.py, which runs the loop itself.)"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest
from conftest import FAST_CASES, MOVED_FILE, read_moved
from fast_loop_drift import KEPT_FILE, drift, function_of, report_lines

TESTS = Path(__file__).parent


def _marked_slow(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any("mark.slow" in ast.unparse(d) for d in node.decorator_list)


def _test_functions(path: Path) -> dict[str, bool]:
    """Every test function of a file (top level or in a class), and whether a decorator
    marks it slow; {} when the whole module is marked slow (`pytestmark`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in tree.body:
        if (isinstance(node, ast.Assign) and "pytestmark" in ast.unparse(node.targets[0])
                and "mark.slow" in ast.unparse(node.value)):
            return {}
    found: dict[str, bool] = {}
    todo: list[ast.AST] = list(tree.body)
    while todo:  # the statements alone (a def is one): not every expression's node
        each = todo.pop()
        if isinstance(each, ast.FunctionDef | ast.AsyncFunctionDef) and \
                each.name.startswith("test"):
            found[each.name] = _marked_slow(each)
        for field in each._fields:
            value = getattr(each, field, None)
            if isinstance(value, list) and value and isinstance(
                    value[0], ast.stmt | ast.excepthandler | ast.match_case):
                todo += value
    return found


def test_every_test_moved_is_one_its_file_has_and_every_file_keeps_a_fast_one() -> None:
    moved = read_moved()
    assert moved, f"{MOVED_FILE} names no test"
    by_file: defaultdict[str, set[str]] = defaultdict(set)
    for name in moved:
        file, _, function = name.partition("::")
        by_file[file].add(function)
    missing, emptied = [], []
    for file, functions in sorted(by_file.items()):
        path = TESTS / file
        have = _test_functions(path) if path.is_file() else {}
        missing += [f"{MOVED_FILE.name}:{moved[f'{file}::{f}']}: {file}::{f}"
                    for f in sorted(functions - set(have))]
        # a function FAST_CASES samples keeps its sampled cases in the fast loop
        fast = [f for f, slow in have.items()
                if f not in functions and (not slow or f"{file}::{f}" in FAST_CASES)]
        if not fast:
            emptied.append(file)
    assert missing == [], "tests named that their files do not have"
    assert emptied == [], "files left with no test in the fast loop"


def test_a_line_of_another_shape_is_named_at_its_line(tmp_path: Path) -> None:
    listed = tmp_path / "moved.txt"
    listed.write_text("# a comment\n\ntest_a.py::test_b  # 0.3\ntest_a.py test_c\n",
                      encoding="utf-8")
    with pytest.raises(pytest.UsageError, match=r"moved.txt:4: expected FILE.py::FUNCTION "
                                                r"once, got 'test_a.py test_c'"):
        read_moved(listed)
    listed.write_text("test_a.py::test_b\ntest_a.py::test_b  # again\n", encoding="utf-8")
    with pytest.raises(pytest.UsageError, match=r"moved.txt:2: "):
        read_moved(listed)
    listed.write_text("test_a.py::test_b  # 0.3\n", encoding="utf-8")
    assert read_moved(listed) == {"test_a.py::test_b": 1}


def test_every_test_kept_is_one_its_file_has_and_in_the_fast_loop() -> None:
    kept = read_moved(KEPT_FILE)
    moved = read_moved()
    wrong = []
    for name, line in kept.items():
        file, _, function = name.partition("::")
        path = TESTS / file
        have = _test_functions(path) if path.is_file() else {}
        if function not in have or have[function] or name in moved:
            wrong.append(f"{KEPT_FILE.name}:{line}: {name}")
    assert wrong == [], "kept tests that are not fast tests of their files"


def test_the_drift_report_names_the_costly_fast_tests_and_the_cheap_moved_ones() -> None:
    cpu = {
        # costly, in no list: reported (0.5 + 0.3) / 2 = 0.4 a case
        "tests/test_a.py::test_costly[1]": 0.5, "tests/test_a.py::test_costly[2]": 0.3,
        # costly but kept, sampled or moved: not reported
        "tests/test_a.py::test_kept": 0.9, "tests/test_a.py::test_sampled[x]": 0.9,
        "tests/test_a.py::Class::test_in_a_class": 0.25,
        # cheap: not reported (0.19 < MOVE_AT)
        "tests/test_a.py::test_cheap": 0.19,
        # the last fast test of its file: not reported, whatever its cost
        "tests/sub/test_b.py::test_alone": 3.0,
        # moved and run: cheap now (0.01 + 0.03) / 2 = 0.02 a case, reported; and not
        "tests/test_b.py::test_moved_cheap[1]": 0.01,
        "tests/test_b.py::test_moved_cheap[2]": 0.03,
        "tests/test_b.py::test_moved_costly": 0.05,
    }
    slow = {"tests/test_b.py::test_moved_cheap[1]", "tests/test_b.py::test_moved_cheap[2]",
            "tests/test_b.py::test_moved_costly"}
    found = drift(cpu, slow, moved={"test_b.py::test_moved_cheap", "test_b.py::test_moved_costly",
                                    "test_a.py::test_in_a_class"},
                  kept={"test_a.py::test_kept"}, sampled={"test_a.py::test_sampled"})
    assert [(round(c, 6), n, f) for c, n, f in found.costly] == [
        (0.4, 2, "test_a.py::test_costly")]
    assert [(round(c, 6), n, f) for c, n, f in found.cheap] == [
        (0.02, 2, "test_b.py::test_moved_cheap")]
    lines = report_lines(found)
    assert lines[0].startswith("fast tests of 0.2 CPU s a case or more in neither")
    assert lines[1] == "    0.40 s x    2  test_a.py::test_costly"
    assert lines[2].startswith("moved tests now under 0.05 CPU s a case")
    assert lines[3] == "    0.02 s x    2  test_b.py::test_moved_cheap"
    assert report_lines(drift({}, set(), set(), set(), set())) == []
    assert function_of("tests/x/test_c.py::K::test_d[a::b]") == "test_c.py::test_d"
