"""Worker pools made while the caller has other threads (forking.py): a lock such a
thread holds at the fork must not leave a worker, and the run, waiting for ever."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from procwatch import alive

from mtrain.conformance.forking import finish, pool_context

HANG = 300.0
"""Past this a run is taken to hang (a deadlocked worker waits for ever; the run below
takes a few CPU seconds): not a measure of speed."""

HELD = textwrap.dedent("""
    import os
    if os.environ.get("HOLDER") == str(os.getpid()):  # only in the caller's thread:
        os.read(int(os.environ["NEVER"]), 1)  # its import never ends
    VALUE = 7
""")
TASK = textwrap.dedent("""
    def task(n):
        import held  # a module the worker needs, being imported by a caller's thread
        return n * held.VALUE
""")
SCRIPT = textwrap.dedent("""
    import os, sys, threading, time
    from mtrain.conformance.forking import pool_context
    import task

    never, _ = os.pipe()
    os.environ.update(HOLDER=str(os.getpid()), NEVER=str(never))
    threading.Thread(target=__import__, args=("held",), daemon=True).start()
    while "held" not in sys.modules:  # the thread holds the module's import lock
        time.sleep(0.01)
    with pool_context().Pool(2) as pool:
        print(pool.map(task.task, [1, 2, 3]), flush=True)
""")


def test_a_thread_holding_a_lock_at_the_fork_hangs_no_worker(tmp_path: Path) -> None:
    (tmp_path / "held.py").write_text(HELD, encoding="utf-8")
    (tmp_path / "task.py").write_text(TASK, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tmp_path), *filter(None, [os.environ.get("PYTHONPATH")])])}
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE,
                            cwd=tmp_path, env=env, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        out = b"hung"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
    assert out.decode().strip() == "[7, 14, 21]", "a worker forked with a caller's " \
        "thread inside an import waits for ever for that import"


ALONE = textwrap.dedent("""
    import sys, threading
    from mtrain.conformance.child import ChildProcess
    from mtrain.conformance.forking import other_threads, pool_context

    def method():
        return pool_context().get_start_method()

    print(other_threads(), method())
    proc = ChildProcess([sys.executable, "-c", "import sys; sys.stdin.read()"], 1000,
                        None, None)
    try:
        assert proc.stderr.thread is not None and proc.stderr.thread.is_alive()
        print(other_threads(), method())
        # a thread of another's, started last: one ended and joined before a count may
        # still be in /proc/self/task (join returns before the system thread exits: a
        # third of the time in a loop of them), so the counts never follow an ended one
        stop = threading.Event()
        thread = threading.Thread(target=stop.wait)
        thread.start()
        print(other_threads(), method())
        stop.set()
        thread.join()
    finally:
        proc.kill()
""")


def test_fork_only_when_alone_and_the_harness_reading_stderr_still_forks() -> None:
    # In a fresh interpreter: in this one, threads of earlier tests may end at any moment.
    out = subprocess.run([sys.executable, "-c", ALONE], capture_output=True, text=True,
                         timeout=HANG, check=True).stdout.split("\n")
    assert out[:3] == ["0 fork", "0 fork", "1 forkserver"], out


def _stuck_at_exit() -> None:
    """A worker that, once told to stop, waits for ever (as on a lock held at its fork)."""
    import multiprocessing.util
    multiprocessing.util.Finalize(None, threading.Event().wait, exitpriority=10)


def _square(n: int) -> int:
    return n * n


def test_a_worker_that_will_not_exit_is_killed_not_waited_for() -> None:
    with pool_context().Pool(2, initializer=_stuck_at_exit) as pool:
        assert pool.map(_square, [1, 2, 3]) == [1, 4, 9]
        workers = list(pool._pool)  # type: ignore[attr-defined]
        assert finish(pool, seconds=0.5) == 2  # both stuck, whatever the machine's load
    assert all(w.exitcode == -signal.SIGKILL for w in workers)


def test_workers_that_exit_are_not_killed() -> None:
    with pool_context().Pool(2) as pool:
        assert pool.map(_square, [1, 2, 3]) == [1, 4, 9]
        workers = list(pool._pool)  # type: ignore[attr-defined]
        assert finish(pool) == 0
    assert all(w.exitcode == 0 for w in workers)


def _stuck_check_job(folder: str) -> dict[str, object]:
    """A check job that leaves its worker stuck at exit, once both workers have one (each
    is then stuck: neither takes the other's)."""
    _stuck_at_exit()
    Path(folder, str(os.getpid())).touch()
    deadline = time.monotonic() + HANG
    while len(list(Path(folder).iterdir())) < 2:
        assert time.monotonic() < deadline, "the other worker never took its job"
        time.sleep(0.01)
    return {"checks": []}


def _check_job(folder: str) -> dict[str, object]:
    Path(folder, str(os.getpid())).touch()
    return {"checks": []}


@pytest.mark.parametrize("stuck", [True, False], ids=["stuck", "exiting"])
def test_a_check_worker_that_will_not_exit_is_killed_not_waited_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stuck: bool) -> None:
    # `mtrain check` shut its pool down waiting for every worker to exit: one stuck there
    # (on a lock held at its fork, say) held the command for ever
    from mtrain.conformance import forking
    from mtrain.conformance.speccheck import run as check

    job = _stuck_check_job if stuck else _check_job
    monkeypatch.setattr(check, "plan_jobs",
                        lambda *a, **k: ([(job, (str(tmp_path),))] * 2, [0, 1]))
    if stuck:  # a worker that exits is given the default 30 s, whatever the machine's load
        monkeypatch.setattr(forking, "EXIT_SECONDS", 0.5)
    result = check.run(jobs=2)
    workers = [int(p.name) for p in tmp_path.iterdir()]
    assert result["warnings"] == (["2 worker process(es) did not exit within 0.5 s of "
                                   "their last job: killed"] if stuck else [])
    assert len(workers) == 2 if stuck else len(workers) >= 1
    assert not any(map(alive, workers))  # each exited, or was killed, and reaped


CALLER = textwrap.dedent("""
    import sys, threading
    from pathlib import Path

    with Path(sys.argv[2]).open("a") as imports:  # each import of this file, by name
        imports.write(__name__ + "\\n")

    if __name__ == "__main__":  # (what a pool of the caller's own would need)
        from mtrain.cli import main
        from mtrain.conformance.mutants.catalogue import MUTANTS

        stop = threading.Event()
        threading.Thread(target=stop.wait, daemon=True).start()  # the caller's own
        two = [arg for name in list(MUTANTS)[:2] for arg in ("-m", name)]
        sys.exit(main(["mutants", sys.argv[1], "--jobs", "2", "--json", *two]))
""")


def test_a_threaded_callers_script_is_not_imported_again_by_the_workers(
        tmp_path: Path) -> None:
    # docs/implementers-guide.md: a program that runs the harness from a threaded process
    # gets forkserver workers, which would import its main script again (as spawn's do);
    # the harness's own workers leave it alone
    script, imports = tmp_path / "caller.py", tmp_path / "imports"
    script.write_text(CALLER, encoding="utf-8")
    fixtures = Path(__file__).parent / "data" / "fixtures" / "basic"
    proc = subprocess.run([sys.executable, str(script), str(fixtures), str(imports)],
                          capture_output=True, text=True, timeout=HANG)
    assert proc.returncode in (0, 1), proc.stderr  # a verdict (mutants survive here)
    assert json.loads(proc.stdout)["mutants"]["count"] == 2
    assert imports.read_text().split() == ["__main__"]
