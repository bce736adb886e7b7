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
it too. The engine starts under a seccomp filter (x86_64, aarch64) that refuses it a
signal to the harness (by its id or a thread's, a pidfd, a file's owner), its group or
every process at once: once the engine has killed this reaper, its parent is the harness.

Run as a script, it imports nothing of the project (like watchdog.py), and as little of
Python's own as it can: it starts with every engine."""

from __future__ import annotations

# CPython's C module: `signal` adds its enums, which cost each engine's start 6 ms of CPU
# (and no contextlib, for 5 ms more)
import _signal as signal  # type: ignore[import-not-found]
import os
import select
import sys

PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
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


# Each architecture's audit id and its calls, by what the filter looks at in them:
# `named`, the calls that signal the process named by their first argument (kill, tgkill,
# rt_sigqueueinfo, rt_tgsigqueueinfo) and pidfd_open; `refused`, those refused whatever
# they name: tkill (a thread by its id alone: the harness's threads started after the
# engine are in no list made before it) and pidfd_send_signal (its pidfd may be opened
# from /proc/PID, which no filter sees); then fcntl and ioctl, whose F_SETOWN and
# FIOSETOWN make a process the target of a file's SIGIO (or of any signal F_SETSIG
# names): set on the engine's end of a pipe, the harness's reads and writes signal it
_CALLS = {  # audit id: (by pid, named, refused, fcntl, ioctl)
    0xC000003E: ((62, 129), (234, 297, 434), (200, 424), 72, 16),  # x86_64
    0xC00000B7: ((129, 138), (131, 240, 434), (130, 424), 25, 29),  # aarch64
}
"""`by pid`: kill and rt_sigqueueinfo, which take a thread's id for its process's: with
`notify`, one naming a process this filter does not is asked of the reaper (_answer)."""
_SECCOMP = {"x86_64": 317, "aarch64": 277}
SECCOMP_FILTER_FLAG_NEW_LISTENER = 8
PIDFD_GETFD = 438
NOTIF_RECV, NOTIF_SEND = 0xC0502100, 0xC0182101  # SECCOMP_IOCTL_NOTIF_RECV and _SEND
RET_USER_NOTIF = 0x7FC00000
_X32 = 0x40000000
"""x86_64's x32 calls: its own numbers with this bit set (rt_sigqueueinfo,
rt_tgsigqueueinfo and ioctl have numbers of their own there)."""
_X32_OWN = {129: 524, 297: 536, 16: 514}
F_SETOWN, F_SETOWN_EX = 8, 15
FIOSETOWN, SIOCSPGRP = 0x8901, 0x8902
THREADS = 80
"""The harness's threads named at most (a conditional jump goes 255 instructions on)."""


def _filter(harness: int, group: int, threads: tuple[int, ...] = (),
            notify: bool = False) -> bytes:
    """A seccomp program (classic BPF) refusing (EPERM) a signal to `harness`, to one of
    its `threads` (a kill of a thread's id signals its process), to its group and to
    every process at once (-1): once the engine has killed its reaper, its parent is the
    harness (a subreaper), which `kill(getppid())` killed next, and the report with it.
    What it signals otherwise, its reaper included, is left as it was; with `notify`, a
    kill of another process (by a thread's id: the harness's threads started after the
    engine are in no list) is the reaper's to allow (RET_USER_NOTIF)."""
    import struct

    allow, deny = 0x7FFF0000, 0x00050000 | 1  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO|EPERM
    targets = [harness & 0xFFFFFFFF, -group & 0xFFFFFFFF, 0xFFFFFFFF]
    targets += [t & 0xFFFFFFFF for t in threads if t != harness][:THREADS]
    # BPF_LD|W|ABS, BPF_JMP|JEQ|K, BPF_JMP|JA, BPF_RET|K
    ld, jeq, jge, ja, ret = 0x20, 0x15, 0x35, 0x05, 0x06
    # (op, jump if true, jump if false, k), a jump (and ja's k) given as its label
    code: list[tuple[int, int | str, int | str, int | str]] = []
    labels: dict[str, int] = {}

    def label(name: str) -> None:
        labels[name] = len(code)

    def pid_check(name: str, arg: int, asked: bool = False) -> None:
        code.append((ld, 0, 0, 16 + 8 * arg))  # the low 32 bits of an argument (a pid_t)
        code.extend((jeq, name, 0, target) for target in targets)
        if asked:  # a process, not a group (negative) nor its own (0): the reaper's say
            code.extend([(jge, 2, 0, 0x80000000), (jeq, 1, 0, 0), (ret, 0, 0, RET_USER_NOTIF)])
        code.append((ret, 0, 0, allow))
        label(name)
        code.append((ret, 0, 0, deny))

    for arch, (by_pid, named, refused, fcntl, ioctl) in _CALLS.items():
        a = f"{arch:x}"

        def both(numbers: tuple[int, ...], x32: bool = arch == 0xC000003E) -> list[int]:
            return [*numbers, *(_X32 | _X32_OWN.get(n, n) for n in numbers)] if x32 \
                else list(numbers)

        code += [(ld, 0, 0, 4), (jeq, 1, 0, arch), (ja, 0, 0, f"not {a}"), (ld, 0, 0, 0)]
        code.extend((jeq, f"deny {a}", 0, n) for n in both(refused))
        code.extend((jeq, f"ioctl {a}", 0, n) for n in both((ioctl,)))
        code.extend((jeq, f"fcntl {a}", 0, n) for n in both((fcntl,)))
        code.extend((jeq, f"named {a}", 0, n) for n in both(named))
        code.extend((jeq, f"by pid {a}", 0, n) for n in both(by_pid))
        code.append((ret, 0, 0, allow))
        label(f"ioctl {a}")
        code += [(ld, 0, 0, 24), (jeq, f"deny {a}", 0, FIOSETOWN),
                 (jeq, f"deny {a}", 0, SIOCSPGRP), (ret, 0, 0, allow)]
        label(f"fcntl {a}")
        code += [(ld, 0, 0, 24), (jeq, f"deny {a}", 0, F_SETOWN_EX),
                 (jeq, f"owner {a}", 0, F_SETOWN), (ret, 0, 0, allow)]
        label(f"deny {a}")
        code.append((ret, 0, 0, deny))
        label(f"owner {a}")
        pid_check(f"owned {a}", 2)
        label(f"named {a}")
        pid_check(f"signalled {a}", 0)
        label(f"by pid {a}")
        pid_check(f"killed {a}", 0, notify)
        label(f"not {a}")
    code.append((ret, 0, 0, allow))  # another architecture: as before

    def offset(at: int, jump: int | str, most: int = 255) -> int:
        if isinstance(jump, int):
            return jump
        assert 0 <= labels[jump] - at - 1 <= most, jump
        return labels[jump] - at - 1

    return b"".join(struct.pack("=HBBI", op, offset(i, jt), offset(i, jf),
                                offset(i, k, 0xFFFFFFFF) if op == ja else k)
                    for i, (op, jt, jf, k) in enumerate(code))


def _guard_harness(harness: int, told: int, go: int) -> None:
    """In the engine's process before its exec: refuse it (and all it starts) a signal to
    the harness (_filter). Where the kernel has user notifications, a kill of another
    process is asked of the reaper: its listener's number is said on `told`, and the
    exec waits for a byte on `go` (the reaper has taken it: the exec closes it here).
    Where the system has no seccomp, it runs as before."""
    try:
        import ctypes

        group = os.getpgid(harness)
        try:  # its threads now: a kill of one's id kills the harness
            threads = tuple(int(t) for t in os.listdir(f"/proc/{harness}/task"))
        except (OSError, ValueError):
            threads = ()

        class Program(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

        def program(notify: bool) -> tuple[object, Program]:
            code = ctypes.create_string_buffer(_filter(harness, group, threads, notify))
            return code, Program(len(code.raw) // 8, ctypes.cast(code, ctypes.c_void_p))

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return
        number = _SECCOMP.get(os.uname().machine)
        if number is not None and go >= 0:
            _kept, prog = program(True)  # (its buffer lives until the call is done)
            listener = libc.syscall(number, 1, SECCOMP_FILTER_FLAG_NEW_LISTENER,
                                    ctypes.byref(prog))
            if listener >= 0:
                _say(told, f"listener {listener}")
                os.read(go, 1)  # taken (or not: then such a kill fails, ENOSYS)
                os.close(listener)
                return
        _kept, prog = program(False)
        libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0)
    except (ImportError, OSError, AttributeError, ValueError):
        pass


def _take_listener(engine: int, number: int) -> int:
    """The engine's seccomp listener (its descriptor `number`), as one of this process's
    (pidfd_getfd); -1 where it cannot be taken."""
    try:
        import ctypes

        taken: int = ctypes.CDLL(None, use_errno=True).syscall(PIDFD_GETFD, engine, number, 0)
        return taken
    except (ImportError, OSError, AttributeError):
        return -1


def _answer(listener: int, harness: int) -> None:
    """Answer one kill the filter asked about: refused (EPERM) where the process it names
    is a thread of the harness's (a thread's id signals its process), else done."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    notice = ctypes.create_string_buffer(80)  # struct seccomp_notif, zeroed as RECV asks
    if libc.ioctl(listener, ctypes.c_ulong(NOTIF_RECV), notice) != 0:
        return  # the caller is gone meanwhile
    order = sys.byteorder
    target = int.from_bytes(notice.raw[32:36], order, signed=True)  # args[0], a pid_t
    refused = _tgid(target) == harness
    reply = (notice.raw[:8] + bytes(8) + (-1 if refused else 0).to_bytes(4, order, signed=True)
             + (0 if refused else 1).to_bytes(4, order))  # error -EPERM, or flag CONTINUE
    libc.ioctl(listener, ctypes.c_ulong(NOTIF_SEND), ctypes.create_string_buffer(reply, 24))


def _tgid(pid: int) -> int | None:
    """The process of thread `pid` (its Tgid), None if it is gone."""
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"Tgid:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


def _descendants() -> set[int]:
    """Every process below this one (from each process's parent in /proc/PID/stat)."""
    children: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        names = []
    for name in names:
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


def _has_children() -> bool:
    """Whether any child is left, ended or not (looked at without reaping)."""
    try:
        os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return False
    return True


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
    """SIGKILL every descendant, in rounds until no child is left (a process killed may
    have forked a moment before: its child is the next round's), reaping them all."""
    for _ in range(ROUNDS):
        statuses.update(_reap_all())
        if not _has_children():  # every descendant has a child of this one above it
            return
        for pid in _descendants():
            _kill(pid)
        statuses.update(_reap_all())
        if _has_children():  # killed, not yet ended: a moment for them to end
            select.select([], [], [], 0.01)


def _kill(pid: int, sig: int = signal.SIGKILL) -> bool:
    try:
        os.kill(pid, sig)
    except OSError:  # gone already
        return False
    return True


def _exit_as(status: int) -> None:
    """End as the engine ended: its exit code, or the signal that killed it."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig not in (signal.SIGKILL, signal.SIGSTOP):  # (whose handler cannot be set)
            signal.signal(sig, signal.SIG_DFL)
        _kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def _say(fd: int, text: str) -> bool:
    try:
        os.write(fd, text.encode() + b"\n")
    except OSError:  # the harness is gone: its end says so too
        return False
    return True


def main(argv: list[str]) -> None:
    control, argv = int(argv[0]), argv[1:]
    os.set_inheritable(control, False)  # the engine does not hold it
    opener = getattr(os, "pidfd_open", None)
    if opener is None or not _subreaper():
        _exec(argv, control)  # its end, closed by the exec, says so
    for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_IGN)  # the harness's to send, through `control`
    # the wake pipe before the handler: a SIGTERM that came between the two (the watchdog's,
    # its worker gone at once) was noted and lost, and the reaper held the engine until
    # the watchdog gave up on it 5 s later and killed the groups
    woken, wake = os.pipe()
    os.set_blocking(wake, False)
    signal.set_wakeup_fd(wake)
    signal.signal(signal.SIGTERM, _noted)  # the watchdog's: kill all now (`_hold`)
    failed, told = os.pipe()  # an exec's failure, said by the child; closed by its exec
    wait, go = os.pipe()  # the child's listener taken (_guard_harness)
    harness = os.getppid()
    engine = os.fork()
    if engine == 0:
        os.close(failed)
        os.close(go)
        for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM, signal.SIGPIPE):
            signal.signal(sig, signal.SIG_DFL)
        _guard_harness(harness, told, wait)
        _exec(argv, told)
    os.close(told)
    os.close(wait)
    exited = os.pidfd_open(engine)
    error, listener = b"", -1
    while chunk := os.read(failed, 64):
        error += chunk
        if error.startswith(b"listener ") and b"\n" in error:
            line, error = error.split(b"\n", 1)
            listener = _take_listener(exited, int(line.split()[1]))
            os.write(go, b"x")
    os.close(failed)
    os.close(go)
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
    _hold(engine, exited, control, woken, listener, harness)


def _noted(signum: int, frame: object) -> None:
    """A SIGTERM's handler: it is read from the wakeup pipe (`_hold`)."""


def _hold(engine: int, exited: int, control: int, woken: int, listener: int = -1,
          harness: int = 0) -> None:
    """Until the engine ends, the harness's end of `control` closes, or a SIGTERM comes
    (the watchdog's, whose harness left its engines running: a worker that ended without
    closing them; `woken` is readable once one has); then the sweep. Meanwhile it answers
    the kills the engine's filter asks about (`listener`, _answer)."""
    poller = select.poll()
    for fd in (exited, control, woken):
        poller.register(fd, select.POLLIN)
    if listener >= 0:
        poller.register(listener, select.POLLIN)
    statuses: dict[int, int] = {}
    while engine not in statuses:
        events = dict(poller.poll())
        if listener in events:
            if events[listener] & select.POLLIN:
                _answer(listener, harness)
            else:  # (POLLHUP: nothing of the engine's left to ask)
                poller.unregister(listener)
                listener = -1
        told = control in events or woken in events
        if told and _kill(engine):  # (a zombie's kill succeeds too)
            statuses[engine] = os.waitpid(engine, 0)[1]
        statuses.update(_reap_all())
    _sweep(statuses)
    _say(control, "end")  # swept: a reaper that ends without this was killed (child.py)
    _exit_as(statuses[engine])


def _exec(argv: list[str], told: int) -> None:
    try:
        os.execvp(argv[0], argv)
    except OSError as e:
        _say(told, f"errno {e.errno}")
    os._exit(127)


if __name__ == "__main__":
    main(sys.argv[1:])
