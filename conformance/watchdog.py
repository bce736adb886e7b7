"""A process that outlives the harness only to kill the engines it left: the harness tells
it each process group it starts (and each one it has killed), over a pipe whose writing
end the harness alone holds. When the harness is gone, however it ended (a SIGKILL, an
out-of-memory kill, which run no cleanup), the pipe reaches its end and the watchdog
kills every group still told, then exits.

Why not PR_SET_PDEATHSIG: the kernel ties that signal to the *thread* that started the
child, and engines are started from worker threads (a pool's), whose end would kill
engines still in use; it also reaches the engine alone, not what the engine started in
its group (a shell script's program). A pipe's end belongs to the process, and a group
kill reaches the whole group.

What left its group (a child of the engine that called setsid or setpgid, a daemon that
forked twice and is now init's) is found by its environment: each engine is started
with `MTRAIN_HARNESS=<token>` (`tagged`), a token of this watchdog's own, which every
process it starts inherits; at its end the watchdog kills, in rounds until none is left,
each process whose environment holds the token (as /proc/PID/environ shows it: the one
it was started with). Why not its parent chain: an engine that exits on its stdin's end
leaves its children to init before they can be found through it. What drops the token
(`env -i`) is its reaper's (reaper.py, on Linux: a subreaper that is the engine's parent
and ends with the harness): the watchdog gives the reapers their time before it kills
their groups. Out of reach still, where there are no subreapers: a process started with
an environment of its own making; anywhere: another user's.

Run as a script (`python -I -S watchdog.py`), it is the watchdog: it imports nothing of
the project. Where the system cannot start it (no posix_spawn), engines are killed as
before, by the harness alone, and a harness killed outright may leave them running."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import threading
import time

_lock = threading.Lock()
_pid = 0  # the watchdog's, in this process (0: none started here)
_fd = -1  # the writing end of its pipe
_failed = False  # it could not be started here, or was killed: not tried again
_token = ""  # what the engines' environments carry (ENV), for the watchdog to find them

ENV = "MTRAIN_HARNESS"
SWEEPS = 20
"""Rounds of the final sweep at most: one kills what it finds, the next finds what they
started meanwhile; a round that finds nothing ends it."""


def running() -> int:
    """The watchdog's pid, in this process (0: none started here)."""
    return _pid


def tagged(env: dict[str, str] | None) -> dict[str, str] | None:
    """The environment to start an engine with (`env`, or the harness's own if None): with
    this watchdog's token, which the engine's descendants keep; `env` as it is where no
    watchdog can start."""
    with _lock:
        if _fd < 0 and not _start():
            return env
        return {**(os.environ if env is None else env), ENV: _token}


def guard(group: int, reaper: bool = False) -> None:
    """Have the watchdog kill `group` if the harness dies before it says `release`; with
    `reaper`, the group's leader is a reaper (reaper.py), which kills what the program
    left when the harness is gone: the watchdog waits for it to end first."""
    with _lock:
        if _fd < 0 and not _start():
            return
        _tell(b"%s%d\n" % (b"~" if reaper else b"+", group))


def release(group: int) -> None:
    """`group` is killed (its leader not reaped yet, so that its id is not anyone else's
    when this is read): the watchdog forgets it."""
    with _lock:
        if _fd >= 0:
            _tell(b"-%d\n" % group)


def _tell(line: bytes) -> None:
    """One line, whole (a pipe writes less than PIPE_BUF bytes in one piece). A watchdog
    that is gone, or stopped with its pipe full, is not waited for: the harness runs on
    as it would without one."""
    global _failed
    try:
        os.write(_fd, line)
    except BlockingIOError:
        pass
    except OSError:  # it was killed: the harness kills its engines alone from now on
        _failed = True
        _close()


def _start() -> bool:
    global _pid, _fd, _failed, _token
    if _failed or not hasattr(os, "posix_spawn") or not sys.executable:
        return False
    read, write = os.pipe()  # neither end inherited by what the harness starts later
    token = f"{os.getpid()}-{os.urandom(8).hex()}"
    try:
        _pid = _spawn(read, token)
        _token = token
    except OSError:
        os.close(read)
        os.close(write)
        _failed = True
        return False
    os.close(read)
    os.set_blocking(write, False)
    _fd = write
    _stop_with_worker()
    return True


def _stop_with_worker() -> None:
    """In a multiprocessing worker, which ends by os._exit after the finalizers (no exit
    handler runs): stop the watchdog among them, after those that close the engines."""
    if "multiprocessing" not in sys.modules:
        return
    import multiprocessing.util

    if multiprocessing.parent_process() is not None:
        multiprocessing.util.Finalize(None, stop, exitpriority=0)


def _spawn(read: int, token: str) -> int:
    """Start the watchdog reading `read`, in a session of its own where the system can:
    a Ctrl-C at the terminal, or a kill of the harness's group, is not for it (it ignores
    SIGINT anyway, and ends when the harness has)."""
    null = os.open(os.devnull, os.O_RDWR)
    try:
        argv = [sys.executable, "-I", "-S", os.path.abspath(__file__), token]
        actions = [(os.POSIX_SPAWN_DUP2, read, 0), (os.POSIX_SPAWN_DUP2, null, 1),
                   (os.POSIX_SPAWN_DUP2, null, 2)]
        try:
            return os.posix_spawn(argv[0], argv, os.environ, file_actions=actions,
                                  setsid=True)
        except NotImplementedError:  # no POSIX_SPAWN_SETSID (macOS)
            return os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
    finally:
        os.close(null)


def _close() -> None:
    global _fd
    if _fd >= 0:
        with contextlib.suppress(OSError):
            os.close(_fd)
        _fd = -1


def stop() -> None:
    """At the harness's normal exit (its engines killed already): the watchdog, told
    nothing more, ends, and is reaped."""
    global _pid
    with _lock:
        _close()
        if _pid:
            pid, _pid = _pid, 0
            _reap(pid, STOP_WAIT)


def stop_at_once() -> None:
    """stop, taking no lock: from a signal handler, or a thread, of a worker about to end
    by os._exit or a signal of its own (no exit handler runs then, and its watchdog, a
    child of the worker, was left to whoever adopted it: a zombie where that is a process
    that reaps nothing). The process ends just after: no guard can follow."""
    global _pid
    _close()
    pid, _pid = _pid, 0
    if pid:
        _reap(pid, STOP_WAIT)


STOP_WAIT = 2.0
"""Seconds the watchdog has to exit, its pipe at an end, before it is left unreaped (a
forked child that still holds the pipe keeps it going: it ends with that child)."""


def _reap(pid: int, wait: float) -> None:
    """Reap `pid` once it exits, waking at its exit (a pidfd) or after `wait` seconds."""
    with contextlib.suppress(OSError):
        if os.waitpid(pid, os.WNOHANG)[0]:
            return
        opener = getattr(os, "pidfd_open", None)
        if opener is None:  # pragma: no cover  (before Linux 5.3, or not Linux)
            return
        fd = opener(pid)
        try:
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            poller.poll(int(wait * 1000))
        finally:
            os.close(fd)
        os.waitpid(pid, os.WNOHANG)


def forget_after_fork() -> None:
    """A forked child holds its parent's end of the pipe: closed, so that the watchdog
    still sees its harness's death; the child's own engines get a watchdog of their own."""
    global _lock, _pid, _failed, _token
    _lock = threading.Lock()
    _close()
    _pid = 0
    _failed = False
    _token = ""


def watch(token: str = "") -> None:
    """The watchdog itself: `+GROUP` and `-GROUP` lines until the end of stdin, then a
    SIGKILL to each group still told, then to each process that carries `token`."""
    for sig in (signal.SIGINT, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            signal.signal(sig, signal.SIG_IGN)
    groups: set[int] = set()
    reapers: set[int] = set()
    for line in sys.stdin.buffer:
        with contextlib.suppress(ValueError):
            group = int(line[1:])
            if line.startswith((b"+", b"~")):
                groups.add(group)
                if line.startswith(b"~"):
                    reapers.add(group)
            elif line.startswith(b"-"):
                groups.discard(group)
                reapers.discard(group)
    _await(reapers, REAPER_WAIT)  # each told by a SIGTERM to kill all now
    for group in groups:
        with contextlib.suppress(OSError):
            os.killpg(group, signal.SIGKILL)
    killed: set[int] = set()
    for _ in range(SWEEPS if token else 0):
        if not _kill_carrying(token, killed):
            break


REAPER_WAIT = 5.0
"""Seconds the reapers have, all together, to kill what their programs left before the
groups are killed (a reaper killed first hands its adopted processes on to init). A
harness still alive (a pool worker that ended with its engines running) waits for this
watchdog: each reaper is told at once (SIGTERM), not left to find its harness gone."""


def _await(leaders: set[int], wait: float) -> None:
    """SIGTERM each of `leaders` (reapers), then wait until each has ended (a pidfd wakes
    at its exit), `wait` seconds at most in all; at once where there are no pidfds."""
    opener = getattr(os, "pidfd_open", None)
    if opener is None or not leaders:
        return
    poller = select.poll()
    fds = []
    for pid in leaders:
        with contextlib.suppress(OSError):
            fd = opener(pid)
            fds.append(fd)
            poller.register(fd, select.POLLIN)
            signal.pidfd_send_signal(fd, signal.SIGTERM)  # (a pidfd: never another's)
    deadline = time.monotonic() + wait
    try:
        left = len(fds)
        while left and time.monotonic() < deadline:
            for fd, _ in poller.poll(max(1, int((deadline - time.monotonic()) * 1000))):
                poller.unregister(fd)
                left -= 1
    finally:
        for fd in fds:
            os.close(fd)


def _kill_carrying(token: str, killed: set[int]) -> int:
    """SIGKILL each process whose environment holds ENV=`token` and is not in `killed`
    (one dying may show its environment a moment longer); how many were new."""
    needle = f"{ENV}={token}".encode()
    try:
        names = os.listdir("/proc")
    except OSError:  # no /proc: the groups' kill is all there is
        return 0
    found = 0
    for name in names:
        if not name.isdigit() or int(name) in killed:
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                env = f.read()
        except OSError:  # gone, or another user's
            continue
        if needle in env.split(b"\0"):
            found += 1
            killed.add(int(name))
            with contextlib.suppress(OSError):
                os.kill(int(name), signal.SIGKILL)
    return found


if __name__ == "__main__":
    watch(sys.argv[1] if len(sys.argv) > 1 else "")
