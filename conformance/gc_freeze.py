"""One call for long runs: keep the garbage collector off what start-up loaded."""

from __future__ import annotations

import gc


def settle_heap() -> None:
    """Move every object alive now (the catalogue, the tile tables, the modules) out of
    the collector's sight. A server or a fuzz run then allocates many short-lived lists
    and dicts, and each full collection would walk that start-up heap again: a fifth of
    what `mtrain serve` spends on a request. For a command's process only: anything
    frozen here is never collected."""
    gc.freeze()
