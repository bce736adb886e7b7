"""The test loop's own tools, session 51 (issue 20): the mtrain cache the tests share is
kept from one run to the next in pytest's cache (tests/conftest.py, _tests_cache), or a
fresh empty folder of the run's own under `--fresh-cache`.

That a kept entry gives what a cold run computes is spec/cache.py's promise (an entry is
found by a digest of all its value depends on), tested kind by kind where it is made:
test_situations.py (situations read back), test_cache.py (a kept lint), test_document_cache.py,
test_identify_cells_cache.py; the whole fast loop passed cold and then warm on one kept
folder (docs/performance.md, session 51)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import KEPT_CACHE, _tests_cache


class _Cache:
    """pytest's cache plugin as _tests_cache reads it: mkdir(name) makes and names a
    folder under .pytest_cache/d/."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def mkdir(self, name: str) -> Path:
        path = self.root / "d" / name
        path.mkdir(parents=True, exist_ok=True)
        return path


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
                   _Config(None, fresh=False)):  # -p no:cacheprovider: nowhere to keep it
        run = tmp_path / f"run-{id(config)}"
        run.mkdir()
        fresh = _tests_cache(config, run)  # type: ignore[arg-type]
        assert fresh == run / KEPT_CACHE and fresh.is_dir()
        assert list(fresh.iterdir()) == []
