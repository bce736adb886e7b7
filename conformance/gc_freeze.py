"""One call for long runs: keep the garbage collector off what start-up loaded."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

_holds = 0
"""The freezes of this module in force: the `settled` blocks open, plus one once the heap
is settled for good. While any is, the permanent generation is known not to be empty
without asking `gc.get_freeze_count()`, which walks it, every object in it: 30 ms a call
for three million objects. A test process whose heap a command had settled spent two
minutes in that count, once per fixture that identify read from its cache."""
_for_good = False


def _anything_frozen() -> bool:
    """Whether the permanent generation holds anything: counted (a walk) only when this
    module froze nothing, where it is empty unless the caller froze it themselves."""
    return _holds > 0 or gc.get_freeze_count() > 0


def _hold_for_good() -> None:
    global _holds, _for_good
    if not _for_good:
        _for_good = True
        _holds += 1


def settle_heap() -> None:
    """Move every object alive now (the catalogue, the tile tables, the modules) out of
    the collector's sight. A server or a fuzz run then allocates many short-lived lists
    and dicts, and each full collection would walk that start-up heap again: a fifth of
    what `mtrain serve` spends on a request. For a process of its own (a pool's worker):
    anything frozen here is never collected, so a command, which may run inside a
    caller's process, settles its heap for its run only (`settled`)."""
    gc.freeze()
    _hold_for_good()


@contextlib.contextmanager
def settled() -> Iterator[None]:
    """The heap settled (as `settle_heap`) for the block, and given back to the collector
    after it: for a long stretch of work inside a process that goes on (`mtrain conform`
    run from a test, say), so that nothing is kept past it."""
    global _holds
    gc.freeze()
    _holds += 1
    try:
        yield
    finally:
        _holds -= 1
        if not _for_good:  # (settled for good inside the block: it stays so)
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
    frozen = _anything_frozen()
    gc.disable()
    try:
        yield
    finally:
        if not frozen and not _anything_frozen():
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
    _hold_for_good()
