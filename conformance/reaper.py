"""The engine's parent on Linux: a subreaper (PR_SET_CHILD_SUBREAPER) that starts the engine,
adopts whatever the engine's descendants leave orphaned (a daemon that forked twice, a
`setsid` child, one started under `env -i`, which no token in its environment finds), and
kills and reaps every descendant when the engine ends, when the harness says so, or when
the harness is gone however it ended. Then it exits as the engine did (its code, or its
signal), so that the harness reads the engine's end from it.

The harness starts `python -I -S reaper.py FD ARGV...` with FD one end of a socket pair
(child.py): on it the reaper says `run` (it holds the engine, and kills its descendants on
the end of FD) or `errno N` (the engine could not be started: the error the harness
raises, as starting it directly would have); it says nothing, its end closed, where it
became the engine itself (no subreaper here: the engine runs as if started directly).
The harness closes its end to have everything killed; a harness killed outright closes
it too.

Run as a script, it imports nothing of the project (like watchdog.py)."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys

PR_SET_CHILD_SUBREAPER = 36
ROUNDS = 500
"""Rounds of the final sweep at most (each kills what it finds and waits 10 ms for what
they started meanwhile): a round that finds nothing ends it."""


def _subreaper() -> bool:
    """Become a subreaper; False where the system has none (not Linux, no ctypes)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        done: int = ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        return done == 0
    except (ImportError, OSError, AttributeError):
        return False


def _descendants() -> set[int]:
    """Every process below this one (from each process's parent in /proc/PID/stat)."""
    children: dict[int, list[int]] = {}
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    stat = f.read()
            except OSError:  # gone meanwhile
                continue
            fields = stat.rsplit(b")", 1)[-1].split()
            if len(fields) > 1 and fields[0] not in (b"Z", b"X"):
                children.setdefault(int(fields[1]), []).append(int(name))
    found: set[int] = set()
    todo = [os.getpid()]
    while todo:
        for pid in children.get(todo.pop(), ()):
            if pid not in found:
                found.add(pid)
                todo.append(pid)
    return found


def _reap_all() -> dict[int, int]:
    """Reap every child that has ended, without waiting: {pid: wait status}."""
    ended: dict[int, int] = {}
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return ended
        if pid == 0:
            return ended
        ended[pid] = status


def _sweep(statuses: dict[int, int]) -> None:
    """SIGKILL every descendant, in rounds until none is left (a process killed may have
    forked a moment before: its child is this one's next round)."""
    for _ in range(ROUNDS):
        found = _descendants()
        for pid in found:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        statuses.update(_reap_all())
        if not found:
            try:
                os.waitpid(-1, 0)  # a child that no scan saw (a zombie), or none left
            except ChildProcessError:
                return
            continue
        select.select([], [], [], 0.01)


def _exit_as(status: int) -> None:
    """End as the engine ended: its exit code, or the signal that killed it."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        with contextlib.suppress(OSError, ValueError):  # (SIGKILL's cannot be set)
            signal.signal(sig, signal.SIG_DFL)
        with contextlib.suppress(OSError):
            os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def _say(fd: int, text: str) -> None:
    with contextlib.suppress(OSError):
        os.write(fd, text.encode() + b"\n")


def main(argv: list[str]) -> None:
    control, argv = int(argv[0]), argv[1:]
    os.set_inheritable(control, False)  # the engine does not hold it
    opener = getattr(os, "pidfd_open", None)
    if opener is None or not _subreaper():
        _exec(argv, control)  # its end, closed by the exec, says so
    for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_IGN)  # the harness's to send, through `control`
    failed, told = os.pipe()  # an exec's failure, said by the child; closed by its exec
    engine = os.fork()
    if engine == 0:
        os.close(failed)
        for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM, signal.SIGPIPE):
            signal.signal(sig, signal.SIG_DFL)
        _exec(argv, told)
    os.close(told)
    error = b""
    while chunk := os.read(failed, 64):
        error += chunk
    os.close(failed)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # the pipes are the engine's alone: their ends say its end
        os.dup2(null, fd)
    os.close(null)
    if error:
        _say(control, error.decode())
        os.waitpid(engine, 0)
        _sweep({})
        os._exit(127)
    _say(control, "run")
    _hold(engine, os.pidfd_open(engine), control)


def _hold(engine: int, exited: int, control: int) -> None:
    """Until the engine ends or the harness's end of `control` closes; then the sweep."""
    poller = select.poll()
    poller.register(exited, select.POLLIN)
    poller.register(control, select.POLLIN)
    statuses: dict[int, int] = {}
    while engine not in statuses:
        events = dict(poller.poll())
        if control in events:
            with contextlib.suppress(OSError):
                os.kill(engine, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                statuses[engine] = os.waitpid(engine, 0)[1]
        statuses.update(_reap_all())
    _sweep(statuses)
    _exit_as(statuses[engine])


def _exec(argv: list[str], told: int) -> None:
    try:
        os.execvp(argv[0], argv)
    except OSError as e:
        _say(told, f"errno {e.errno}")
    os._exit(127)


if __name__ == "__main__":
    main(sys.argv[1:])
