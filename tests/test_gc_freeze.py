"""The collector's settings for long commands (conformance/gc_freeze.py): what a paused
block leaves alive goes to the oldest generation, still collectable; a process that
exits takes its heap out of the collector's sight."""

from __future__ import annotations

import gc
import sys

import pytest

from mtrain.conformance.gc_freeze import exiting, paused

pytestmark = pytest.mark.default_gc  # about the collector as a user's process has it


class _Box:
    """A container the collector tracks, findable among its objects by identity."""


def _generation_of(obj: object) -> int | None:
    for generation in range(3):
        if any(o is obj for o in gc.get_objects(generation)):
            return generation
    return None


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


def test_an_exiting_process_leaves_its_heap_out_of_sight() -> None:
    was = gc.isenabled()
    try:
        exiting()
        assert not gc.isenabled() and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        if was:
            gc.enable()
