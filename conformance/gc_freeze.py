"""One call for long runs: keep the garbage collector off what start-up loaded."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


def settle_heap() -> None:
    """Move every object alive now (the catalogue, the tile tables, the modules) out of
    the collector's sight. A server or a fuzz run then allocates many short-lived lists
    and dicts, and each full collection would walk that start-up heap again: a fifth of
    what `mtrain serve` spends on a request. For a command's process only: anything
    frozen here is never collected."""
    gc.freeze()


@contextlib.contextmanager
def settled() -> Iterator[None]:
    """The heap settled (as `settle_heap`) for the block, and given back to the collector
    after it: for a long stretch of work inside a process that goes on (`mtrain conform`
    run from a test, say), so that nothing is kept past it."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """The collector off for the block (as it was before, after it): a command that
    loads and builds tens of thousands of containers (`mtrain conform`: the fixtures,
    the situations, the tasks, the results) makes few cycles, and the collections its
    allocations would trigger walk everything it holds, again and again (reading the
    situations' cache took five times as long with the collector on)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
