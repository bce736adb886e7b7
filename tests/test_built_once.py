"""The compiled example engines are built once per run (tests/test_house_engines.py,
_built): a second ask, in any process of the run, finds the first build; a source
changed is built anew."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import test_house_engines as house


def _never(done: subprocess.CompletedProcess[str]) -> None:
    raise AssertionError(done.stderr)


def test_an_engine_is_built_once_per_run_and_again_when_its_source_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(house, "_run_folder", [tmp_path])
    source, builds = tmp_path / "engine.src", tmp_path / "builds"
    source.write_text("one", encoding="utf-8")

    def argv(out: Path) -> list[str]:  # a compiler: the program is its source, counted
        return [sys.executable, "-c",
                f"import shutil; shutil.copy({str(source)!r}, {str(out / 'engine')!r}); "
                f"open({str(builds)!r}, 'a').write('.')"]

    first = house._built("engine", argv, [source], _never)
    assert (first / "engine").read_text(encoding="utf-8") == "one"
    assert house._built("engine", argv, [source], _never) == first
    assert builds.read_text(encoding="utf-8") == "."  # asked twice, built once
    source.write_text("two", encoding="utf-8")
    second = house._built("engine", argv, [source], _never)
    assert second != first and (second / "engine").read_text(encoding="utf-8") == "two"
    assert builds.read_text(encoding="utf-8") == ".."


def test_a_build_that_fails_is_told_and_leaves_no_program(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(house, "_run_folder", [tmp_path])
    told: list[int] = []

    def argv(out: Path) -> list[str]:
        return [sys.executable, "-c", "import sys; sys.exit('no such header')"]

    def failed(done: subprocess.CompletedProcess[str]) -> None:
        told.append(done.returncode)
        _never(done)

    with pytest.raises(AssertionError, match="no such header"):
        house._built("broken", argv, [], failed)
    assert told == [1]
    assert not any(p.is_dir() and ".part-" not in p.name
                   for p in (tmp_path / house.BUILT).iterdir())
