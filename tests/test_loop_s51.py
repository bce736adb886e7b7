"""The test loop's own tools, session 51 (issue 20): the mtrain cache the tests share is
kept from one run to the next in pytest's cache (tests/conftest.py, _tests_cache), or a
fresh empty folder of the run's own under `--fresh-cache`.

That a kept entry gives what a cold run computes is spec/cache.py's promise (an entry is
found by a digest of all its value depends on), tested kind by kind where it is made:
test_situations.py (situations read back), test_cache.py (a kept lint), test_document_cache.py,
test_identify_cells_cache.py; the whole fast loop passed cold and then warm on one kept
folder (docs/performance.md, session 51). corpus_explored explores only what that
cache lacks (conftest's explore_corpus_part): tested here cold, warm and with a fixture
changed."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    CORPUS_PARTS,
    KEPT_CACHE,
    CorpusEntries,
    _tests_cache,
    explore_corpus_part,
)

from mtrain.conformance.fixture import FIXTURE_ROOT, load_corpus
from mtrain.spec import cache


class _Cache:
    """pytest's cache plugin as _tests_cache reads it: mkdir(name) makes and names a
    folder under .pytest_cache/d/."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def mkdir(self, name: str) -> Path:
        path = self.root / "d" / name
        path.mkdir(parents=True, exist_ok=True)
        return path


class _Unwritable(_Cache):
    def mkdir(self, name: str) -> Path:
        raise PermissionError(13, "Permission denied", str(self.root / "d" / name))


class _Config:
    def __init__(self, cache: _Cache | None, fresh: bool) -> None:
        self.cache, self.fresh = cache, fresh

    def getoption(self, name: str) -> Any:
        assert name == "fresh_cache", name
        return self.fresh


def test_the_tests_cache_is_kept_in_pytests_cache_from_run_to_run(tmp_path: Path) -> None:
    cache = _Cache(tmp_path / ".pytest_cache")
    first = _tests_cache(_Config(cache, fresh=False), tmp_path / "run-1")  # type: ignore[arg-type]
    (first / "kind").mkdir()
    (first / "kind" / "entry").write_text("kept", encoding="utf-8")
    # the next run, in a temporary folder of its own, finds the entry the first wrote
    again = _tests_cache(_Config(cache, fresh=False), tmp_path / "run-2")  # type: ignore[arg-type]
    assert again == first == tmp_path / ".pytest_cache" / "d" / KEPT_CACHE
    assert (again / "kind" / "entry").read_text(encoding="utf-8") == "kept"


def test_a_fresh_cache_is_an_empty_folder_of_the_runs_own(tmp_path: Path) -> None:
    cache = _Cache(tmp_path / ".pytest_cache")
    kept = _tests_cache(_Config(cache, fresh=False), tmp_path / "run-1")  # type: ignore[arg-type]
    (kept / "entry").write_text("kept", encoding="utf-8")
    for config in (_Config(cache, fresh=True),  # --fresh-cache
                   _Config(None, fresh=False),  # -p no:cacheprovider: nowhere to keep it
                   _Config(_Unwritable(tmp_path / "ro"), fresh=False)):  # a read-only tree
        run = tmp_path / f"run-{id(config)}"
        run.mkdir()
        fresh = _tests_cache(config, run)  # type: ignore[arg-type]
        assert fresh == run / KEPT_CACHE and fresh.is_dir()
        assert list(fresh.iterdir()) == []


def test_the_corpus_explored_warm_explores_nothing_and_reads_what_it_explored_cold(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mtrain.conformance.identify import cells
    from mtrain.conformance.lint import scopes
    from mtrain.spec.scope import Space

    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))  # empty: not the run's
    # explored, not copied from the package's files (test_shipped_scopes.py tests that)
    monkeypatch.setenv("MTRAIN_TESTS_EXPLORE", "1")
    markers, errors = load_corpus(FIXTURE_ROOT / "markers")
    assert not errors
    few = markers[:3]  # the smallest corpus that shows it: three fixtures, two parts
    lock = tmp_path / "save.lock"
    assert explore_corpus_part(few, 0, 2, lock) == 2  # cold: fixtures 0 and 2
    space = Space()

    def kept() -> tuple[dict[str, Any], dict[str, Any]]:
        checks = scopes.ScopeCache(space).entries
        pieces = cache.read(cells.KIND, cells._entry_name(space))
        assert isinstance(pieces, dict)
        return checks, pieces

    cold = kept()
    assert {scopes.fixture_digest(fx) for fx in few[0::2]} <= set(cold[0]) & set(cold[1])
    # what the lint reads back is the check a cold one makes
    for fx in few[0::2]:
        found = scopes.ScopeCache(space).get(fx)
        assert found is not None
        assert found.to_json() == scopes.scope_fixture(fx, Space()).to_json()

    def unexplorable(fx: Any, space: Any, explored: Any = None) -> Any:
        raise AssertionError(f"{fx.id} explored again")

    with monkeypatch.context() as m:  # warm: the same part explores nothing
        m.setattr(scopes, "scope_fixture", unexplorable)
        assert explore_corpus_part(few, 0, 2, lock) == 0
    assert kept() == cold
    # the other part is not held yet; a fixture changed is explored again, alone
    changed = [dataclasses.replace(fx, description=f"{fx.description} (changed)")
               if k == 2 else fx for k, fx in enumerate(few)]
    assert explore_corpus_part(changed, 1, 2, lock) == 1
    assert explore_corpus_part(changed, 0, 2, lock) == 1
    assert scopes.fixture_digest(changed[2]) in set(kept()[0]) & set(kept()[1])


def test_the_corpus_explored_is_put_back_when_the_cache_pruned_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache keeps a few entries of identify's pieces (cells.py), and each test that
    identifies under rule-set files of its own writes one under a name of its own: the
    corpus's, written first, went (a later identify of the corpus in a new process then
    explored it all again: 190 CPU s at session 57's CI; since session 58 the least
    recently used go, not the least recently written). corpus_explored puts it back."""
    from mtrain.conformance.identify import cells

    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))  # empty: not the run's
    monkeypatch.setenv("MTRAIN_TESTS_EXPLORE", "1")
    markers, errors = load_corpus(FIXTURE_ROOT / "markers")
    assert not errors
    entries = CorpusEntries(tmp_path / "save.lock", lambda: markers[:2])
    for part in range(CORPUS_PARTS):
        entries.explore(part)
    kept = [tmp_path / "cache" / name for name in entries.names]

    def contents() -> list[bytes]:
        return [path.read_bytes() for path in kept]

    made = contents()
    assert entries.restore() == 0  # both there: nothing made
    for path in kept:  # written and read before the others below
        for mark in (path, path.parents[1] / cache.USED / path.parent.name / path.name):
            with contextlib.suppress(FileNotFoundError):
                os.utime(mark, (time.time() - 3600,) * 2)
    for k in range(4):  # as four identifies under rule-set files of their own write theirs
        cache.write(cells.KIND, f"rule-set-files-{k}.json", {}, keep=4)
    assert not kept[1].is_file() and kept[0].is_file()
    assert entries.restore() == CORPUS_PARTS
    assert contents() == made
