"""Bad inputs and misbehaving processes, round 32 (robust-s59): a pool worker that died
(SIGKILL, the OOM killer, a default SIGTERM) left fuzz and mutants waiting for its lost
task for ever, past --max-seconds and at 0 CPU, the pool starting worker after worker in
its place (forking.imap: WorkerDied, a failure of the harness reported as such)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from procwatch import BOUND

from mtrain.conformance import forking

posix = pytest.mark.skipif(not Path("/proc/self/environ").exists(),
                           reason="process groups and /proc are Linux's")


# --- 1. a pool worker killed outright ----------------------------------------------------

# The engine the run's own process starts serves as the reference does; one a worker
# starts kills that worker outright (as the OOM killer would), the worker's task with it.
KILLER = textwrap.dedent("""
    import os, signal, sys
    parent = os.getppid()
    with open(f"/proc/{parent}/stat") as f:
        grandparent = int(f.read().rsplit(")", 1)[1].split()[1])
    if str(grandparent) != os.environ["SPARE_UNDER"]:  # a pool's worker
        with open(os.environ["PIDS"], "a") as f:
            f.write(f"{parent}\\n")
        os.kill(parent, signal.SIGKILL)
    os.execv(sys.executable, [sys.executable, "-m", "mtrain", "serve"])
""")


@posix
def test_fuzz_whose_worker_is_killed_ends_and_says_the_harness_failed(
        tmp_path: Path, pids: Path) -> None:
    engine = tmp_path / "killer.py"
    engine.write_text(KILLER)
    env = {**os.environ, "SPARE_UNDER": str(os.getpid()), "PIDS": str(pids)}
    out = subprocess.run(
        [sys.executable, "-m", "mtrain", "fuzz", "--impl", f"{sys.executable} {engine}",
         "--variant", "pagat", "--games", "2", "--jobs", "2", "--players", "2",
         "--out", str(tmp_path / "found")],
        capture_output=True, text=True, timeout=BOUND, env=env)
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr
    assert "a worker process of the harness" in out.stderr
    assert "killed by SIGKILL" in out.stderr
    assert "stopped: a worker process of the harness died" in out.stdout


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
