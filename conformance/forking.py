"""Where worker pools come from: fork only from a process that has no other thread.

Forking copies the calling thread alone. Any lock another thread held at that moment
stays held in the child for ever: a module being imported, a stream being written (the
child flushes its std streams as it exits), a queue being fed. The child then waits at
0 CPU and so does the pool that joins it. The harness cannot know what a caller's
threads (a test runner's, a user's program's) are doing, so it forks only when the
kernel counts one thread in the process; otherwise its workers come from a forkserver,
a process started for the purpose that never has a second thread, with the harness
preloaded so that each worker still starts in milliseconds.

A forkserver's worker would, like a spawned one, first run the caller's main script
again (as `__mp_main__`): a program that imports mtrain and runs conform or fuzz from a
thread, without `if __name__ == "__main__"`, ran itself once more in every worker. The
workers need nothing of it (their work is mtrain's own functions), so ours skip it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.pool
import os
import pickle
import select
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import spawn
from multiprocessing.connection import wait
from multiprocessing.context import BaseContext, ForkServerContext, ForkServerProcess
from multiprocessing.pool import Pool
from multiprocessing.process import BaseProcess
from typing import Any

from mtrain.conformance import watchdog
from mtrain.conformance.adopted import name_worker
from mtrain.conformance.child import interrupts_held, kill_all_at_once

PRELOAD = ["mtrain.conformance.forking", "mtrain.conformance.fuzz.run",
           "mtrain.conformance.mutants.runs", "mtrain.conformance.speccheck.run"]
"""What the forkserver imports once, so that its workers start warm (this module first:
its workers leave the caller's main alone)."""


ORPHAN_WATCH = "mtrain-orphan-watch"
HARMLESS = frozenset({"mtrain-stderr", ORPHAN_WATCH})
"""The harness's own threads that a fork may leave behind: each reads one implementation's
stderr into its ring (stderr_ring.py), which a worker never touches, or waits, holding
no lock, for a worker's harness to die (die_with). Without them, `mtrain fuzz --impl ...
--jobs N` (its first implementation already running) forks."""


def other_threads() -> int:
    """The threads of this process besides the caller and the HARMLESS ones, as the
    kernel counts them: threads started outside `threading` (execnet's, a C library's)
    count too."""
    harmless = sum(t.name in HARMLESS for t in threading.enumerate())
    try:
        return len(os.listdir("/proc/self/task")) - 1 - harmless
    except OSError:  # no /proc: what Python knows of
        return threading.active_count() - 1 - harmless


WORKER = "mtrain-worker"
"""How the name of each of our forkserver's processes begins: what tells them apart from
those of a caller's own pools, which may share the forkserver and do need its main."""


class _Worker(ForkServerProcess):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.name = f"{WORKER}-{self.name}"


class _Forkserver(ForkServerContext):
    Process = _Worker


def _prepare_without_main(prepare: Any) -> Any:
    """`prepare`, which readies a new process from the data its parent sent, leaving
    out the caller's main module for our workers."""
    def ready(data: dict[str, Any]) -> None:
        if str(data.get("name", "")).startswith(WORKER):
            data = {k: v for k, v in data.items()
                    if k not in ("init_main_from_path", "init_main_from_name")}
        prepare(data)
    ready.mtrain_without_main = True  # type: ignore[attr-defined]
    return ready


if not getattr(spawn.prepare, "mtrain_without_main", False):  # imported in the forkserver
    spawn.prepare = _prepare_without_main(spawn.prepare)


def pool_context() -> BaseContext:
    """The start method for a pool of workers made now: fork when this process is single
    threaded, else forkserver (spawn where there is neither)."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and other_threads() == 0:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        ctx = _Forkserver()
        ctx.set_forkserver_preload(PRELOAD)
        return ctx
    return multiprocessing.get_context("spawn")


EXIT_SECONDS = 30.0
"""How long a pool's workers may take to exit once their work is done (closing their
implementation waits 2 s at most): past it, one is taken to be stuck."""


def finish(pool: Pool | ProcessPoolExecutor, seconds: float | None = None) -> int:
    """Close `pool` (fuzz's and mutants' Pool, or check's executor) and wait for its
    workers to exit, `seconds` at most (EXIT_SECONDS); any still there is killed (stuck
    on a lock, say): the run ends and reaps them whatever they do. Returns how many were
    killed."""
    manager: threading.Thread | None = None  # the executor's, which joins its workers
    if isinstance(pool, ProcessPoolExecutor):  # the pools name their workers no other way
        workers = list((pool._processes or {}).values())
        manager = pool._executor_manager_thread  # type: ignore[assignment]  # a Thread
        pool.shutdown(wait=False)  # tells the workers to stop; joins none of them
    else:
        pool.close()
        workers = list(pool._pool)  # type: ignore[attr-defined]
    killed = _reap(workers, EXIT_SECONDS if seconds is None else seconds)
    if manager is not None:
        manager.join()
    elif isinstance(pool, Pool):
        pool.join()
    return killed


HANDLER_SECONDS = 3.0
"""How long a terminated pool waits for each of its task and result threads to end once
its workers are gone and the threads have what ends them (they end in milliseconds)."""


class StoppablePool(Pool):
    """A Pool whose terminate ends whatever its workers were doing.

    Pool.terminate waits, without bound, on locks and messages its workers share: it
    takes the task queue's read lock, which an idle worker holds while it waits for a
    task, writes on the result queue under its write lock, and joins the thread that
    reads results. A worker that died in one of them (a SIGTERM sent to the whole process
    group, as `kill -TERM -PGID` or a CI runner's stop does, which fuzz's workers answer
    with os._exit; the OOM killer) holds the lock for good or leaves half a message, and
    terminate waited for ever. Here the workers are stopped first; then no lock of theirs
    is waited for, nor a pool thread a dead worker left waiting for the rest of a message."""

    @classmethod
    def _terminate_pool(cls, taskqueue: Any, inqueue: Any, outqueue: Any, pool: Any,
                        change_notifier: Any, worker_handler: Any, task_handler: Any,
                        result_handler: Any, cache: Any) -> None:
        # a second interrupt (Ctrl-C twice, a SIGTERM to the group after one to the
        # harness) is raised once the workers are gone, not between two of these steps
        with interrupts_held():
            cls._stop(inqueue, outqueue, pool, change_notifier, worker_handler,
                      task_handler, result_handler)

    @staticmethod
    def _stop(inqueue: Any, outqueue: Any, pool: Any, change_notifier: Any,
              worker_handler: Any, task_handler: Any, result_handler: Any) -> None:
        here = threading.current_thread()
        for handler in (worker_handler, task_handler, result_handler):
            handler._state = multiprocessing.pool.TERMINATE
        change_notifier.put(None)
        if here is not worker_handler:  # it starts no worker in place of one that ends
            worker_handler.join()
        workers = list(pool)
        for worker in workers:
            if worker.exitcode is None:
                worker.terminate()  # fuzz's count what their game had played
        _reap(workers, STOP_SECONDS)
        # No worker is left, and a lock one held died with it
        if not outqueue._wlock.acquire(False):
            # a dead worker left half a result in the queue, and the lock with it: the
            # result thread waits for the rest, the task thread to write its end, for
            # ever (daemon threads, which end with the process); or the task thread
            # writes that end this moment, which ends the result thread
            return
        try:
            outqueue._writer.send_bytes(pickle.dumps(None))  # the result thread's end
        finally:
            outqueue._wlock.release()
        if here is not result_handler:
            result_handler.join(HANDLER_SECONDS)  # it ends at once: a bound on a stuck one
        if here is not task_handler:
            _empty_while(task_handler, inqueue._reader.fileno())

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.started: list[BaseProcess] = list(self._pool)  # type: ignore[attr-defined]
        """Every worker the pool has started, the dead ones kept (imap's look at them)."""

    def join(self) -> None:
        """After terminate, nothing more: it reaped the workers, and a pool thread left
        waiting on a dead worker's half message would be joined for ever."""
        if self._state != multiprocessing.pool.TERMINATE:  # type: ignore[attr-defined]
            super().join()


STOP_SECONDS = 5.0
"""How long a terminated pool's workers have to exit after its SIGTERM (they exit in
milliseconds: fuzz's kill their engine, count the game under way and _exit); past it, one
is taken to be stuck (forked from a thread while another held a lock) and killed."""


def _reap(workers: Sequence[BaseProcess], seconds: float) -> int:
    """Wait for `workers` to exit, `seconds` at most in all; kill and reap any left.
    Returns how many were killed."""
    waiting: dict[int, BaseProcess] = {w.sentinel: w for w in workers}
    deadline = time.monotonic() + seconds
    while waiting and (left := deadline - time.monotonic()) > 0:
        for sentinel in wait(list(waiting), left):
            del waiting[sentinel]  # type: ignore[arg-type]  # one of those given: an int
    for worker in waiting.values():
        worker.kill()
    for worker in workers:
        worker.join()  # reaped (a killed one at once)
    return len(waiting)


def _empty_while(task_handler: threading.Thread, fd: int) -> None:
    """Empty the task queue, whose reader `fd` is, while the pool's task thread (its only
    writer now) runs: one waiting on a full pipe goes on to its end. Bytes, not messages:
    a worker killed while it read one left the rest of it."""
    os.set_blocking(fd, False)
    deadline = time.monotonic() + HANDLER_SECONDS  # it ends at once: a bound on a stuck one
    while task_handler.is_alive() and time.monotonic() < deadline:
        with contextlib.suppress(BlockingIOError):
            while os.read(fd, 1 << 16):
                pass
        task_handler.join(0.01)


class WorkerDied(RuntimeError):
    """A pool's worker ended while the run still needed it (killed by a signal of no
    handler: SIGKILL, the OOM killer, a SIGTERM before its handler was set): the harness's
    own process, not the implementation's. The task it held is lost to the pool, which
    waited for that result for ever."""


WATCH_SECONDS = 0.5
"""How often a run waiting for its workers' results looks whether one of them died."""


def imap(pool: Pool, func: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
    """`pool.imap(func, items)`, one item a task, the results in order; raises WorkerDied
    when a worker has ended before the last result (a Pool has no maxtasksperchild here:
    its workers end only when it is closed), instead of waiting for a lost task for ever.
    An idle worker's death ends the run too, even one before this call (the pool started
    another in its place): the idle worker that waits for the next task holds the task
    queue's read lock, which dies held with it, and no worker gets a task again."""
    started = getattr(pool, "started", None)
    seen = {id(w): w for w in (started if started is not None else pool._pool)}  # type: ignore[attr-defined]
    processes: int = pool._processes  # type: ignore[attr-defined]
    results = pool.imap(func, items)
    while True:
        try:
            yield results.next(WATCH_SECONDS)
        except StopIteration:
            return
        except multiprocessing.TimeoutError:
            for worker in list(pool._pool):  # type: ignore[attr-defined]
                if id(worker) not in seen:
                    seen[id(worker)] = worker  # a dead one the pool reaped stays here
                    if started is not None:
                        started.append(worker)
            dead = [w for w in seen.values() if w.exitcode is not None]
            if dead or len(seen) > processes:  # one more: the pool replaced a dead one
                raise WorkerDied(_died(dead[0] if dead else None)) from None


def _died(worker: BaseProcess | None) -> str:
    code = 0 if worker is None else worker.exitcode or 0
    how = f"exited with status {code}" if worker is not None else "ended"
    if code < 0:
        try:
            how = f"was killed by {signal.Signals(-code).name}"
        except ValueError:  # a signal Python has no name for
            how = f"was killed by signal {-code}"
    pid = "" if worker is None else f" (pid {worker.pid})"
    return (f"a worker process of the harness{pid} {how} before the run's "
            "end, with the task it held: the run is cut short (a failure of the harness's "
            "process, charged to no clause)")


def new_pool(ctx: BaseContext, processes: int, initializer: Any = None,
             initargs: tuple[Any, ...] = ()) -> Pool:
    """`ctx.Pool(processes, initializer, initargs)`, as a StoppablePool whose workers die
    with the harness (die_with)."""
    return StoppablePool(processes, start_worker, (os.getpid(), initializer, initargs),
                         context=ctx)


def start_worker(harness: int, initializer: Any, initargs: tuple[Any, ...]) -> None:
    """A pool's initializer: die with `harness` (the process that made the pool), then
    run the pool's own `initializer`."""
    name_worker()  # its zombie, a harness killed outright, is its adopter's to reap
    die_with(harness)
    if initializer is not None:
        initializer(*initargs)


ORPHAN_POLL = 0.5
"""Where the system has no pidfd: how often a worker looks whether its parent is gone."""


def die_with(harness: int) -> None:
    """End this worker, and the engines it started, when the process `harness` ends,
    however it ends. A harness killed outright (SIGKILL) runs no pool's terminate: its
    workers, waiting for tasks that never come, lived on for ever, and so did their
    engines (their watchdog waits for the worker). Woken by the harness's exit (a pidfd:
    no CPU while it runs), or where there is none by a look at the parent (a forked
    worker's) every ORPHAN_POLL seconds."""
    opener = getattr(os, "pidfd_open", None)
    try:
        fd = opener(harness) if opener is not None else -1
    except OSError:  # gone already (ESRCH), or pidfds refused: looked at as below
        fd = -1
        if not _alive(harness):
            _die()
    parent = os.getppid()

    def watch() -> None:
        if fd >= 0:
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            poller.poll()
        else:
            while os.getppid() == parent:
                time.sleep(ORPHAN_POLL)
        _die()

    threading.Thread(target=watch, name=ORPHAN_WATCH, daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's: alive
        pass
    return True


def _die() -> None:
    kill_all_at_once()  # its engines' groups (its watchdog would, a moment later)
    watchdog.stop_at_once()  # its own child: reaped, not left to whoever adopts it
    os.kill(os.getpid(), signal.SIGKILL)
