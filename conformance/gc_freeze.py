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
    situations' cache took five times as long with the collector on).

    What the block left alive is handed to the oldest generation as it ends (freeze and
    unfreeze: two list splices), not left in the youngest, whose first collection once
    the collector is back would walk all of it (a sixth of a CPU second after conform).
    Not where something was frozen already: unfreezing would hand that back too."""
    was = gc.isenabled()
    frozen = gc.get_freeze_count()
    gc.disable()
    try:
        yield
    finally:
        if not frozen and not gc.get_freeze_count():
            gc.freeze()
            gc.unfreeze()
        if was:
            gc.enable()


def exiting() -> None:
    """For a process whose command is done and which now exits: the collector off and the
    heap out of its sight. The interpreter's exit collects once more, walking every object
    still alive (`mtrain conform`: the fixtures, situations, results and memos, 0.4 CPU s
    of its 5) to free what the exit frees anyway; objects are still freed as their last
    reference goes, and files are closed by the code that opened them."""
    gc.disable()
    gc.freeze()
