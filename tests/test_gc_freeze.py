"""The collector's settings for long commands (conformance/gc_freeze.py): what a paused
block leaves alive goes to the oldest generation, still collectable; a process that
exits takes its heap out of the collector's sight."""

from __future__ import annotations

import gc
import io
import sys
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance import gc_freeze, serve
from mtrain.conformance.gc_freeze import exiting, paused, settled

pytestmark = pytest.mark.default_gc  # about the collector as a user's process has it


class _Box:
    """A container the collector tracks, findable among its objects by identity."""


def _generation_of(obj: object) -> int | None:
    """Which generation holds `obj` (None: frozen, or untracked). The young ones are
    searched; the oldest, in a test process most of the heap, only while something is
    frozen (then it is small): otherwise a tracked object found in neither young one is
    in it (walking it cost seconds in the worker of a whole run)."""
    for generation in range(2):
        if any(o is obj for o in gc.get_objects(generation)):
            return generation
    if gc.get_freeze_count():
        return 2 if any(o is obj for o in gc.get_objects(2)) else None
    return 2 if gc.is_tracked(obj) else None


@pytest.mark.slow  # a whole collection of a worker's heap, ~1.5 CPU s (paused() runs in the
# fast loop's commands and the tests below; where it hands its objects: the whole suite)
def test_a_paused_block_hands_what_it_made_to_the_oldest_generation() -> None:
    gc.unfreeze()  # (a command run in this process before may have settled its heap)
    with paused():
        assert not gc.isenabled()
        made = _Box()
        assert _generation_of(made) == 0
    assert gc.isenabled() and gc.get_freeze_count() == 0  # nothing left frozen
    assert _generation_of(made) == 2
    cycle = _Box()
    with paused():
        cycle.me = cycle  # type: ignore[attr-defined]
    del cycle
    assert gc.collect() >= 1  # still the collector's to free


def test_a_paused_block_leaves_a_frozen_heap_frozen() -> None:
    kept = _Box()
    # no other thread runs between freezing and counting: one that frees what was frozen
    # (under xdist, the worker's thread reading the next tests it is sent) lowers the count
    interval = sys.getswitchinterval()
    sys.setswitchinterval(60.0)
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with paused():
            made = _Box()
        count = gc.get_freeze_count()
        sys.setswitchinterval(interval)
        assert count == frozen  # not handed back by an unfreeze
        assert _generation_of(kept) is None and _generation_of(made) == 0
    finally:
        sys.setswitchinterval(interval)
        gc.unfreeze()


def test_an_exiting_process_leaves_its_heap_out_of_sight(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gc_freeze, "_holds", gc_freeze._holds)  # this process goes on
    monkeypatch.setattr(gc_freeze, "_for_good", gc_freeze._for_good)
    was = gc.isenabled()
    try:
        exiting()
        assert not gc.isenabled() and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        if was:
            gc.enable()


def test_a_paused_block_inside_a_settled_one_does_not_walk_the_frozen_heap(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # gc.get_freeze_count() walks every frozen object: once per paused block, in a
    # process whose heap was settled, it cost a test worker two minutes of identify
    counted = []
    count = gc.get_freeze_count

    def counting() -> int:
        counted.append(1)
        return count()

    monkeypatch.setattr(gc, "get_freeze_count", counting)
    with settled():
        for _ in range(3):
            with paused():
                pass
    assert counted == []


def test_a_command_run_inside_a_process_leaves_its_heap_to_the_collector(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # fuzz and serve settled their heap for good, in a caller's process too (a test's,
    # a user's program): every object alive then was never collected again, and every
    # later paused block walked them all
    before = gc.get_freeze_count()
    assert main(["fuzz", "--adapter", "mtrain.conformance.adapter:ReferenceImplementation",
                 "--games", "1", "--seed", "3", "--out", str(tmp_path / "out"),
                 "--json"]) == 0
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert serve.main() == 0
    capsys.readouterr()
    assert gc.get_freeze_count() <= before
