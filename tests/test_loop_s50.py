"""The test loop's own tools, session 50 (issue 20): every run ends with the CPU of its
costliest files (tests/conftest.py, from cpu_weights.costliest_files), so that a CI log
says where the time went."""

from __future__ import annotations

from cpu_weights import COSTLIEST, costliest_files


def test_the_costliest_files_are_summed_over_their_tests_the_costliest_first() -> None:
    seconds = {"tests/test_a.py::test_one": 1.5, "tests/test_a.py::test_two[x]": 2.0,
               "tests/test_b.py::test_one": 4.0, "tests/test_c.py::test_one": 0.25}
    # a: 1.5 + 2.0 = 3.5 over two tests, below b's one test of 4.0
    assert costliest_files(seconds) == [("tests/test_b.py", 4.0, 1),
                                        ("tests/test_a.py", 3.5, 2),
                                        ("tests/test_c.py", 0.25, 1)]


def test_only_the_costliest_are_listed_and_ties_go_by_name() -> None:
    seconds = {f"tests/test_{i:02d}.py::test_it": float(i % 3) for i in range(40)}
    listed = costliest_files(seconds)
    assert len(listed) == COSTLIEST == 15
    # 13 files of 2.0 (i = 2, 5, ..., 38), then the first two of 1.0 by name (01, 04)
    assert [f for f, _, _ in listed[:13]] == [f"tests/test_{i:02d}.py" for i in range(2, 40, 3)]
    assert listed[13:] == [("tests/test_01.py", 1.0, 1), ("tests/test_04.py", 1.0, 1)]
    assert costliest_files(seconds, count=2) == listed[:2]
    assert costliest_files({}) == []
