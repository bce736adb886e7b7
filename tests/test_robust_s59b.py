"""Bad inputs and misbehaving processes, round 33 (robust-s59b): a pool worker that died
idle, before the run asked its pool for anything (or between two of its runs), left the
run waiting for ever: the idle worker waiting for a task holds the task queue's read lock,
which died held with it, and forking.imap, which counted only the deaths it saw happen,
knew nothing of one the pool had already replaced."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path
from types import FrameType

import pytest

from mtrain.conformance import forking

posix = pytest.mark.skipif(not Path("/proc/self/environ").exists(),
                           reason="process groups and /proc are Linux's")


class _Hung(Exception):
    pass


def _hung(signum: int, frame: FrameType | None) -> None:
    raise _Hung("imap waited past its bound: the run would wait for ever")


@posix
def test_imap_raises_for_workers_that_died_idle_before_it_was_called() -> None:
    ctx = multiprocessing.get_context("fork")
    with forking.new_pool(ctx, 2) as pool:
        assert list(forking.imap(pool, abs, [-1, 2])) == [1, 2]
        first = list(pool._pool)  # type: ignore[attr-defined]
        for worker in first:  # both idle; one of them holds the task queue's read lock
            os.kill(worker.pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        def replaced() -> bool:
            return not any(w in pool._pool for w in first)  # type: ignore[attr-defined]
        while not replaced() and time.monotonic() < deadline:
            time.sleep(0.05)  # the pool puts new workers in their place
        previous = signal.signal(signal.SIGALRM, _hung)
        signal.alarm(20)
        try:
            with pytest.raises(forking.WorkerDied, match="killed by SIGKILL"):
                list(forking.imap(pool, abs, [-3, 4, -5]))
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
        pool.terminate()


# --- 2. a hello whose variants name one twice ---------------------------------------------

def test_a_variant_the_hello_names_twice_is_listed_once() -> None:
    from mtrain.conformance.declaration import unsupported
    why = unsupported({"variants": ["pagat", "pagat", "puremco-d9"]}, "puremco", None)
    assert why == "the implementation supports pagat, puremco-d9"
