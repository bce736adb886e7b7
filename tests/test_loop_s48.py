"""The test loop's own order (issue 20): under xdist, tests/conftest.py's scheduler hands
out the heaviest files first. A clean clone, as CI's, has no pytest cache: the committed
weights (tests/cpu_weights.py, cpu_weights.json) stand in for the cache's figures."""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any

import cpu_weights
import pytest
from conftest import pytest_xdist_make_scheduler
from cpu_weights import UNMEASURED, estimates, read_table, weights_of

TESTS = Path(__file__).parent


def test_the_cache_figure_wins_then_the_committed_one_then_the_files_share() -> None:
    collection = ["a.py::t1", "a.py::t2", "a.py::t3", "a.py::heavy", "b.py::t"]
    weights = {"files": {"a.py": 20.0}, "tests": {"a.py::heavy": 14.0}}
    found = estimates(collection, {"a.py::t1": 0.5}, weights)
    # t1 measured; heavy committed; t2 and t3 share what a.py's 20 s leaves them (6 s over
    # the three tests not listed); b.py has no figure at all
    assert found == {"a.py::t1": 0.5, "a.py::t2": 2.0, "a.py::t3": 2.0, "a.py::heavy": 14.0,
                     "b.py::t": UNMEASURED}


def test_with_no_weights_every_test_counts_alike() -> None:
    found = estimates(["a.py::x", "b.py::y"], {}, {"files": {}, "tests": {}})
    assert found == {"a.py::x": UNMEASURED, "b.py::y": UNMEASURED}


def test_weights_are_read_from_a_cpu_table_and_from_a_durations_list(tmp_path: Path) -> None:
    table = tmp_path / "table.tsv"
    table.write_text("cpu_s\twall_s\tslow\tnodeid\tchildren_cpu_s\n"
                     "3.000\t4.000\t1\ttests/test_a.py::slow\t0.000\n"
                     "0.250\t0.300\t0\ttests/test_a.py::quick\t0.000\n", encoding="utf-8")
    durations = tmp_path / "durations.log"
    durations.write_text("====== slowest durations ======\n"
                         "12.50s call     tests/test_b.py::test_x[a b]\n"
                         "0.50s setup    tests/test_b.py::test_x[a b]\n"
                         "0.20s call     tests/test_b.py::test_y\n"
                         "5059 passed in 642.91s\n", encoding="utf-8")
    assert read_table(table) == {"tests/test_a.py::slow": 3.0, "tests/test_a.py::quick": 0.25}
    assert read_table(durations) == {"tests/test_b.py::test_x[a b]": 13.0,
                                     "tests/test_b.py::test_y": 0.2}
    assert weights_of(read_table(durations)) == {
        "files": {"tests/test_b.py": 13.2}, "tests": {"tests/test_b.py::test_x[a b]": 13.0}}


def test_a_spoiled_table_is_named_at_its_line(tmp_path: Path) -> None:
    table = tmp_path / "table.tsv"
    table.write_text("cpu_s\twall_s\tslow\tnodeid\n1.0\t1.0\t0\ttests/a.py::t\nx\ty\n",
                     encoding="utf-8")
    with pytest.raises(ValueError, match=r"table\.tsv:3: not a --cpu-table row"):
        read_table(table)
    other = tmp_path / "other.txt"
    other.write_text("nothing here\n", encoding="utf-8")
    with pytest.raises(ValueError, match="neither a --cpu-table nor a --durations list"):
        read_table(other)


def test_a_missing_or_spoiled_weights_file_is_no_weights(tmp_path: Path) -> None:
    assert cpu_weights.load(tmp_path / "missing.json") == {"files": {}, "tests": {}}
    spoiled = tmp_path / "spoiled.json"
    spoiled.write_text('{"files": [1, 2]}', encoding="utf-8")
    assert cpu_weights.load(spoiled) == {"files": {}, "tests": {}}


def test_the_committed_weights_name_files_of_this_suite() -> None:
    """A test file renamed or removed would leave its weight behind and its new name
    unweighed: write the weights again (tests/cpu_weights.py)."""
    weights = cpu_weights.load()
    assert len(weights["files"]) > 50 and weights["tests"]
    root = TESTS.parent
    gone = sorted(f for f in weights["files"] if not (root / f).is_file())
    assert gone == []
    assert all(n.split("::", 1)[0] in weights["files"] for n in weights["tests"])


class _Node:
    """A worker as the scheduler sees it: what it was sent."""

    def __init__(self, name: str) -> None:
        self.gateway = types.SimpleNamespace(id=name)
        self.shutting_down = False
        self.sent: list[list[int]] = []

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.sent.append(indexes)

    def shutdown(self) -> None:
        self.shutting_down = True


class _Config:
    """What the scheduler reads of pytest's config: two workers, an empty cache."""

    option = types.SimpleNamespace(loadscopereorder=True)
    cache = types.SimpleNamespace(get=lambda key, default: {})

    def getoption(self, name: str) -> Any:
        assert name == "dist"
        return "load"

    def getvalue(self, name: str) -> Any:
        assert name == "tx"
        return ["2*popen"]


def test_with_an_empty_cache_the_heaviest_file_by_the_weights_goes_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A clean clone: the file of many quick tests would go first if every test counted
    alike (UNMEASURED each); the committed weights send the file of one long test first,
    and the next heaviest to the other worker."""
    many = [f"tests/test_many.py::t{i}" for i in range(40)]
    collection = [*many, "tests/test_long.py::identify", "tests/test_mid.py::a",
                  "tests/test_mid.py::b"]
    weights = {"files": {"tests/test_many.py": 2.0, "tests/test_long.py": 60.0,
                         "tests/test_mid.py": 8.0},
               "tests": {"tests/test_long.py::identify": 60.0}}
    monkeypatch.setattr(cpu_weights, "load", lambda path=None: weights)
    sched = pytest_xdist_make_scheduler(_Config(), None)  # type: ignore[arg-type]
    nodes = [_Node("gw0"), _Node("gw1")]
    for node in nodes:
        sched.add_node(node)
    for node in nodes:
        sched.add_node_collection(node, collection)
    sched.schedule()
    first = [[collection[i].split("::")[0] for i in node.sent[0]] for node in nodes]
    assert first == [["tests/test_long.py"], ["tests/test_mid.py"] * 2]
    # with every figure in the cache, the committed ones do not count: the cache's order
    config = _Config()
    measured = {n: 0.01 for n in collection} | {"tests/test_mid.py::a": 30.0}
    config.cache = types.SimpleNamespace(get=lambda key, default: measured)
    sched = pytest_xdist_make_scheduler(config, None)  # type: ignore[arg-type]
    nodes = [_Node("gw0"), _Node("gw1")]
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, collection)
    sched.schedule()
    # (a file past half a worker's part goes test by test: test_mid.py's a by itself)
    assert [collection[i] for i in nodes[0].sent[0]] == ["tests/test_mid.py::a"]


def test_the_weights_file_is_json_written_sorted(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    table = tmp_path / "t.tsv"
    table.write_text("cpu_s\twall_s\tslow\tnodeid\tchildren_cpu_s\n"
                     "2.0\t2.0\t0\ttests/test_z.py::a\t0\n"
                     "0.1\t0.1\t0\ttests/test_a.py::b\t0\n", encoding="utf-8")
    out = tmp_path / "w.json"
    monkeypatch.setattr(cpu_weights, "WEIGHTS", out)
    assert cpu_weights.main([str(table)]) == 0
    assert json.loads(out.read_text(encoding="utf-8")) == {
        "files": {"tests/test_a.py": 0.1, "tests/test_z.py": 2.0},
        "tests": {"tests/test_z.py::a": 2.0}}
    assert cpu_weights.main([str(tmp_path / "none.tsv")]) == 2


def test_a_file_read_again_after_its_examples_were_forgotten_names_its_rule_set_again(
        tmp_path: Path) -> None:
    """A fixture file read before is not parsed again (fixture.py `_LOADED`), but the rule
    set it names by `rules:` must be in the catalogue again: conftest forgets the examples
    after each test, and a reproducer that fuzz wrote in one test (a run shared by several,
    shared_runs.py) and conform read in the next gave "nothing ran: no fixture speaks
    about the rule sets run", its variant `ballast` unknown."""
    from test_house46a import GOING_OUT_AFTER_A_DOUBLE, RULES

    from mtrain.conformance.fixture import load_file
    from mtrain.spec.catalog import catalog

    (tmp_path / "rules.yaml").write_text(RULES, encoding="utf-8")
    path = tmp_path / "fx.yaml"
    path.write_text(GOING_OUT_AFTER_A_DOUBLE, encoding="utf-8")
    first = load_file(path)
    assert "ballast" in catalog().examples
    catalog().forget_added_examples()
    assert "ballast" not in catalog().examples
    assert load_file(path) == first  # the same fixtures, not parsed again ...
    assert "ballast" in catalog().examples  # ... and their rule set named again
