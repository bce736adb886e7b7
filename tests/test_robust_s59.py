"""Bad inputs and misbehaving processes, round 32 (robust-s59): a pool worker that died
(SIGKILL, the OOM killer, a default SIGTERM) left fuzz and mutants waiting for its lost
task for ever, past --max-seconds and at 0 CPU, the pool starting worker after worker in
its place (forking.imap: WorkerDied, a failure of the harness reported as such); fuzz's
reproducer check counted an exception of the harness itself as the implementation's crash."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from procwatch import BOUND, recorded

from mtrain.conformance import forking, runner
from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.fuzz import reproducer

posix = pytest.mark.skipif(not Path("/proc/self/environ").exists(),
                           reason="process groups and /proc are Linux's")


# --- 1. a pool worker killed outright ----------------------------------------------------

# The engine the run's own process starts serves as the reference does; one a worker
# starts records that worker and waits, and the test kills the worker outright (as the
# OOM killer would), the worker's task with it. (The engine cannot kill it itself: its
# parent's parent is the harness, which no engine may signal, reaper.py.)
KILLER = textwrap.dedent("""
    import os, sys, time

    def parent_of(pid):
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])

    parent = os.getppid()
    with open(f"/proc/{parent}/cmdline", "rb") as f:
        if b"reaper.py" in f.read():  # started under a reaper (child.py): the one above it
            parent = parent_of(parent)
    grandparent = parent_of(parent)
    if str(grandparent) != os.environ["SPARE_UNDER"]:  # a pool's worker
        with open(os.environ["PIDS"], "a") as f:
            f.write(f"{parent}\\n")
        time.sleep(600)  # killed with the worker
    os.execv(sys.executable, [sys.executable, "-m", "mtrain", "serve"])
""")


def _kill_recorded(proc: subprocess.Popen[str], pids: Path) -> tuple[str, str]:
    """Until `proc` ends: SIGKILL each worker its engines record (once), then its output."""
    killed: set[int] = set()
    deadline = time.monotonic() + BOUND
    while proc.poll() is None and time.monotonic() < deadline:
        for pid in set(recorded(pids)) - killed:
            killed.add(pid)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.02)
    out, err = proc.communicate(timeout=BOUND)
    assert killed, "no worker was recorded"
    return out, err


@posix
def test_fuzz_whose_worker_is_killed_ends_and_says_the_harness_failed(
        tmp_path: Path, pids: Path) -> None:
    engine = tmp_path / "killer.py"
    engine.write_text(KILLER)
    env = {**os.environ, "SPARE_UNDER": str(os.getpid()), "PIDS": str(pids)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mtrain", "fuzz", "--impl", f"{sys.executable} {engine}",
         "--variant", "pagat", "--games", "2", "--jobs", "2", "--players", "2",
         "--out", str(tmp_path / "found")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        stdout, stderr = _kill_recorded(proc, pids)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 1, stderr
    assert "Traceback" not in stderr
    assert "a worker process of the harness" in stderr
    assert "killed by SIGKILL" in stderr
    assert "stopped: a worker process of the harness died" in stdout


def _die_on(item: int) -> int:
    if item == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    return item * 2


@posix
def test_imap_raises_when_a_worker_dies_and_passes_results_otherwise() -> None:
    ctx = multiprocessing.get_context("fork")
    with forking.new_pool(ctx, 2) as pool:
        assert list(forking.imap(pool, abs, [-1, 2, -3])) == [1, 2, 3]
        with pytest.raises(forking.WorkerDied, match="killed by SIGKILL"):
            list(forking.imap(pool, _die_on, [0, 1, 2, 3]))
        pool.terminate()


# --- 2. fuzz's reproducer check: which side raised -----------------------------------------

DEAL = Path(__file__).resolve().parents[1] / "conformance" / "fixtures" / "deal" / "double-15.yaml"


class _DealRaises(ReferenceImplementation):
    """An in-process implementation that crashes on every deal."""

    def deal(self, *args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("its own bug")


_run_fixture = runner.run_fixture


def _harness_fails(fx: Any, impl: Any) -> Any:
    """run_fixture, failing in the harness itself before it asks the implementation."""
    if isinstance(impl, _DealRaises):
        raise KeyError("the harness's bug")
    return _run_fixture(fx, impl)


def test_reproducer_check_tells_a_harness_error_from_the_implementations_crash(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(DEAL.read_text())
    crashed = reproducer.check(path, DEAL.read_text(), _DealRaises(), "crasher")
    # its crash, raised within its own deal: reproduced (it does not pass), no harness error
    assert not any("harness" in p or "passes against" in p for p in crashed.problems), \
        crashed.problems
    monkeypatch.setattr(reproducer, "run_fixture", _harness_fails)
    failed = reproducer.check(path, DEAL.read_text(), _DealRaises(), "crasher")
    assert any("the harness itself failed (KeyError" in p for p in failed.problems), \
        failed.problems
