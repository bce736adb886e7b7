"""Which of the processes a test recorded are still running (tests/test_process_groups.py,
tests/test_inprocess.py, tests/test_robust_s57b.py, tests/test_robust_s58.py), whether they
have started or reached the request they hang at, and the `pids` fixture that ends whatever
a failing test left behind (conftest.py offers it to every test)."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

BOUND = 120.0
"""Seconds a test waits for what it waits for: a bound on a hang, far above the need."""


@pytest.fixture
def pids(tmp_path: Path) -> Iterator[Path]:
    """A file the test's processes record their pids in; those still running at the end
    are ours to end."""
    path = tmp_path / "pids"
    yield path
    for pid in recorded(path):
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def started(pids: Path, count: int) -> None:
    """Until `count` processes have recorded themselves in `pids` (bounded by BOUND)."""
    deadline = time.monotonic() + BOUND
    while len(recorded(pids)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(recorded(pids)) == count, "the processes did not start"


def recorded(pids: Path) -> list[int]:
    if not pids.exists():
        return []
    return [int(p) for line in pids.read_text().splitlines() for p in line.split()]


def alive(pid: int) -> bool:
    """Running (a zombie waiting for a parent that does not reap it counts as dead)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:  # pragma: no cover - no /proc
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def survivors(pids: Path, wait: float = 60.0) -> list[int]:
    """The recorded processes still running after `wait` seconds (a SIGKILLed process
    can take a moment to go: on a loaded machine, more than the 2 s this once waited).
    The wait is a bound, far above the need: it ends as soon as none is left."""
    deadline = time.monotonic() + wait
    while True:
        left = [p for p in recorded(pids) if alive(p)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def hung(pids: Path, count: int, wait: float = 60.0) -> None:
    """Until `count` of the implementations that record to `pids` (broken_impls/
    fork_child.py) have reached the request they hang at: a test waits for that, not
    for a time that a busy machine may need more of."""
    path = pids.with_name(f"{pids.name}.hung")
    deadline = time.monotonic() + wait
    while len(recorded(path)) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(recorded(path)) >= count, "the implementations did not reach their hang"
