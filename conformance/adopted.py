"""What the harness adopts as a subreaper (Linux): the processes an engine's descendants
leave orphaned when the engine killed its own reaper (reaper.py), the reapers and
watchdog of a harness killed outright, and that harness's pool workers; swept (killed
and reaped) or reaped once ended, never a child another part of the process waits for.

child.py calls it as engines start and end; it knows nothing of engines beyond that."""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import subprocess
import sys
import time

from mtrain.conformance import watchdog

_ADOPTING = 0
"""The process that made itself a subreaper (adopt_orphans): a forked worker is not one."""
PR_SET_CHILD_SUBREAPER = 36
SWEEP_ROUNDS = 500
"""Rounds of sweep_adopted at most (as the reaper's: each kills what it finds, and waits
10 ms for what they started meanwhile); a round that finds nothing ends it."""


def adopt_orphans() -> None:
    """Make this process a subreaper (Linux), once: what an engine's descendants leave
    when the engine has killed its own reaper, even under `env -i` and out of its
    session, is then this process's child, where sweep_adopted finds it, not init's."""
    global _ADOPTING
    if os.getpid() == _ADOPTING:
        return
    _ADOPTING = os.getpid()
    with contextlib.suppress(ImportError, OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _processes() -> dict[int, tuple[int, int, bytes]]:
    """Every process: {pid: (parent, session, state)}, from /proc/PID/stat."""
    out: dict[int, tuple[int, int, bytes]] = {}
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[-1].split()
                out[int(name)] = (int(fields[1]), int(fields[3]), fields[0])
            except (OSError, IndexError, ValueError):  # gone meanwhile
                continue
    return out


def sweep_adopted(spared: set[int]) -> list[int]:
    """Kill and reap what this process adopted as a subreaper, and all below it: each
    child out of this process's session but the reapers in `spared` (other engines') and
    the watchdog. Its own children are in its session (workers) or are those (reapers,
    the watchdog). In rounds, as a killed process's children are adopted once it ends."""
    if os.getpid() != _ADOPTING:
        return []
    own, me = os.getsid(0), os.getpid()
    spared = spared | {watchdog.running()}
    killed: list[int] = []
    for _ in range(SWEEP_ROUNDS):
        table = _processes()
        adopted = [pid for pid, (parent, sid, _) in table.items()
                   if parent == me and sid != own and pid not in spared]
        if not adopted:
            return killed
        below: dict[int, list[int]] = {}
        for pid, (parent, _, _) in table.items():
            below.setdefault(parent, []).append(pid)
        todo = list(adopted)
        while todo:
            pid = todo.pop()
            if table[pid][2] not in (b"Z", b"X"):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
            todo += below.get(pid, ())
        time.sleep(0.01)  # (a bound on nothing: each round looks again)
        for pid in adopted:  # reaped: a zombie of ours holds its id
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
    return killed


WORKER_NAME = b"mtrain-worker"
"""The name (comm) a pool's worker takes (name_worker): in the harness's session, so that
only by it can a subreaper tell the workers of a harness killed outright, which it adopted
(each ended as it found its harness gone: forking.die_with), from its own children."""
PR_SET_NAME = 15


def name_worker() -> None:
    """Name this process WORKER_NAME, as `ps` and /proc show it (Linux; elsewhere a no-op)."""
    with contextlib.suppress(ImportError, OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_NAME, ctypes.c_char_p(WORKER_NAME),
                                                0, 0, 0)


def _name(pid: int) -> bytes:
    """Process `pid`'s name (comm), a zombie's too; b"" if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return b""
    return stat[stat.find(b"(") + 1:stat.rfind(b")")]


def _popens() -> tuple[type, ...]:
    """The classes whose objects wait for a child of their own: subprocess's Popen and,
    where it is loaded, multiprocessing's (a pool's workers, this process's own)."""
    kinds: list[type] = [subprocess.Popen]
    fork = sys.modules.get("multiprocessing.popen_fork")
    if fork is not None:
        kinds.append(fork.Popen)  # forkserver's and spawn's are its subclasses
    return tuple(kinds)


_HELD_ZOMBIES: set[int] = set()
"""Zombies reap_adopted found a Popen holding (to be waited by its owner): not looked for
again while they stay zombies, which they do until that owner waits."""


def reap_adopted() -> list[int]:
    """Reap the zombies this subreaper adopted: processes it never started (the reaper and
    watchdog of a harness killed outright, a daemon's parent gone) that ended, which
    nobody else will wait for; until sweep_adopted ran (only where an engine killed its
    reaper) some 30 piled up in a pytest run; and in its own session, the pool workers
    (named WORKER_NAME) of a harness of that session killed outright. Cheap where there
    are none: one waitid, which looks without reaping. Never one another part of the
    process waits for: its own session's other children (forks), the watchdog, any pid a
    live subprocess.Popen or multiprocessing Popen holds (reapers, its own pool workers, a
    caller's own processes), nor any while a Popen is starting (_popen_starting). Called
    as engines start and end. (A child a caller forked with os.fork in another session,
    and waits for by its pid alone, is beyond what it can tell from an orphan's.)"""
    if os.getpid() != _ADOPTING or not hasattr(os, "waitid"):
        return []
    try:
        if os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
            return []  # no child has ended
    except ChildProcessError:
        return []
    own, me = os.getsid(0), os.getpid()
    ended = {pid for pid, (parent, sid, state) in _processes().items()
             if parent == me and state == b"Z"
             and (sid != own or _name(pid) == WORKER_NAME)} - {watchdog.running()}
    _HELD_ZOMBIES.intersection_update(ended)
    ended -= _HELD_ZOMBIES
    if ended and _popen_starting():  # its child may be among them, its pid not yet set
        return []
    if ended:  # a Popen of any part of the process (not only ChildProcess) waits for its own
        held = {getattr(obj, "pid", None) for obj in gc.get_objects()
                if isinstance(obj, _popens()) and getattr(obj, "returncode", 0) is None}
        _HELD_ZOMBIES.update(ended & held)
        ended -= held
    reaped = []
    for pid in sorted(ended):
        with contextlib.suppress(ChildProcessError):
            if os.waitpid(pid, os.WNOHANG)[0]:
                reaped.append(pid)
    return reaped


def _popen_starting() -> bool:
    """Whether a thread of this process (this one too) is inside a Popen's start, between
    the fork and the pid it sets on the Popen: a child that ended meanwhile is a zombie
    no Popen holds yet, and reaping it left the Popen's wait reading 0 for its code.
    (Looked at after the zombies were listed: a Popen that has left its start since has
    its pid set, which the next look at the Popens finds.)"""
    start = getattr(subprocess.Popen, "_execute_child").__code__  # noqa: B009 (private)
    for frame in sys._current_frames().values():
        while frame is not None:
            if frame.f_code is start:
                return True
            frame = frame.f_back  # type: ignore[assignment]
    return False
