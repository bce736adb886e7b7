"""A program under test as an operating-system process: its pipes, read and written
without threads of their own, its stderr ring, and the registry through which the harness
kills every process group it started (at exit, on an interrupt, after a fork).

process.py speaks protocol v1 over these pipes; this module knows nothing of the
protocol beyond reading one line of JSON."""

from __future__ import annotations

import atexit
import contextlib
import functools
import math
import os
import queue
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from mtrain.conformance import watchdog
from mtrain.conformance.adopted import adopt_orphans as adopt_orphans
from mtrain.conformance.adopted import reap_adopted as reap_adopted
from mtrain.conformance.adopted import sweep_adopted
from mtrain.conformance.stderr_ring import StderrRing

POLL = 0.05
"""While waiting for an answer, how often to look whether the program is still alive
(a program that exits may leave a child holding its stdout, so no end of file comes)."""
KILL_WAIT = 5.0
"""Seconds a killed program has to exit before it is left unreaped (one stuck in the
kernel, uninterruptible); a kill is woken by the exit itself, never by this bound."""


class Interrupted(KeyboardInterrupt):
    """SIGTERM (or SIGHUP) while `stop_on_signals` is in force; `signum` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


REAPER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reaper.py")
REAPS = sys.platform.startswith("linux") and bool(sys.executable) \
    and hasattr(os, "pidfd_open") and os.path.isfile(REAPER)
"""Whether programs are started under a reaper (reaper.py), which needs Linux's
subreapers and pidfds; elsewhere a descendant that leaves the program's group and
environment may outlive the run (docs/protocol.md)."""


# --- every process the harness started ------------------------------------------------


_LIVE: set[ChildProcess] = set()
_LIVE_LOCK = threading.Lock()
_RUNNING = 0
"""Commands under stop_on_signals now: a caller may run several at once, on threads, and
the processes one of them started are the others' to close while they run."""
STOPPING = threading.Event()
"""Set by an interrupt under stop_on_signals: closing then kills at once, not politely."""
_HOLDING = False
"""The main thread is starting a process and has not yet registered it: an interrupt
then waits (in _HELD) until it is, or the process would outlive the harness unseen."""
_HELD: list[int] = []


def kill_all() -> None:
    """Kill every process group the harness started and has not yet killed."""
    with _LIVE_LOCK:
        procs = list(_LIVE)
    for proc in procs:
        proc.kill()


def kill_all_at_once() -> None:
    """From a signal handler about to end the process: SIGKILL every group started,
    taking no lock and waiting for nothing. The handler runs in the main thread, which
    may hold any lock here when the signal comes (a stderr ring's while it reads a tail,
    _LIVE_LOCK while it starts a program): kill_all, which reaps and collects, then
    waited for that lock for ever, and so did the pool that terminated the process."""
    try:
        procs = tuple(_LIVE)
    except RuntimeError:  # changed by another thread while copied: copy once more
        procs = tuple(_LIVE)
    for proc in procs:
        if proc.reaped_by_parent():  # its reaper kills the group and what left it
            proc.forget_control()
            continue
        with contextlib.suppress(OSError):
            os.killpg(proc.popen.pid, signal.SIGKILL)


def _forget_after_fork() -> None:
    """A forked worker does not own its parent's processes (nor hold its lock), nor take
    an interrupt as the harness does: until a pool's initializer set its own handlers, a
    SIGTERM from the pool's terminate raised Interrupted in a worker still starting (a
    traceback, or a worker killed 5 s later); a Ctrl-C is its parent's (quiet_worker)."""
    global _LIVE_LOCK, _RUNNING, _HOLDING
    _LIVE_LOCK = threading.Lock()
    for proc in _LIVE:  # its reaper still sees the parent's end of `control` close
        proc.forget_control()
    _LIVE.clear()
    _RUNNING = 0
    _HOLDING = False
    _HELD.clear()
    watchdog.forget_after_fork()
    for sig, plain in ((signal.SIGINT, signal.SIG_IGN), (signal.SIGTERM, signal.SIG_DFL),
                       (getattr(signal, "SIGHUP", None), signal.SIG_DFL)):
        if sig is not None and signal.getsignal(sig) is _raise_interrupted:
            signal.signal(sig, plain)


atexit.register(watchdog.stop)  # after kill_all (the handlers run last first)
atexit.register(kill_all)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP raise Interrupted (as SIGINT raises KeyboardInterrupt), so
    that cleanup runs; whatever the way out, every process started is killed."""
    global _RUNNING
    previous: dict[int, Any] = {}
    STOPPING.clear()
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)):
            # a SIGHUP or SIGINT ignored when the command started was ignored on purpose
            # (nohup, so that the run outlives its terminal; a shell's `&`, so that a
            # Ctrl-C at the terminal is not the background job's): it stays ignored. A
            # SIGINT was ignored only until this point, 0.5 s in, and obeyed after it.
            # SIGTERM is never ignored here: it still stops the run and kills its engines
            if sig is not None and not (sig != signal.SIGTERM
                                        and signal.getsignal(sig) is signal.SIG_IGN):
                previous[sig] = signal.signal(sig, _raise_interrupted)
    with _LIVE_LOCK:
        _RUNNING += 1
    try:
        yield
    finally:
        with _LIVE_LOCK:
            _RUNNING -= 1
            last = _RUNNING == 0
        try:
            if last:  # another command of this process (a caller's thread) still runs
                kill_all()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def _raise_interrupted(signum: int, frame: object) -> None:
    STOPPING.set()
    if _HOLDING:
        _HELD.append(signum)
        return
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Interrupted(signum)


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """An interrupt that comes in the block is raised at its end: a process started in it
    is registered first (the handlers run in the main thread only; another thread's start
    is covered by holding _LIVE_LOCK, which kill_all waits for)."""
    global _HOLDING
    if threading.current_thread() is not threading.main_thread() or _HOLDING:
        yield
        return
    _HOLDING = True
    try:
        yield
    finally:
        _HOLDING = False
        if _HELD:
            signum = _HELD[0]
            _HELD.clear()
            _raise_interrupted(signum, None)


def stoppable(command: Callable[[Any], int], name: str) -> Callable[[Any], int]:
    """`command` under stop_on_signals; an interrupt is one line and exit code 128 + the
    signal's number (130 for SIGINT, 143 for SIGTERM), never a traceback."""

    @functools.wraps(command)
    def run(args: Any) -> int:
        try:
            with stop_on_signals():
                return command(args)
        except KeyboardInterrupt as e:
            print(f"mtrain {name}: interrupted", file=sys.stderr)
            return exit_code_of(e)

    return run


def quiet_worker() -> None:
    """In a forked worker (a Pool's initializer): the signals as a plain process has them.
    It inherits stop_on_signals' handlers, so that Pool.terminate's SIGTERM raised
    Interrupted in it and printed a traceback; an interrupt is its parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            signal.signal(sig, signal.SIG_DFL)


def exit_code_of(interrupt: KeyboardInterrupt) -> int:
    return 128 + getattr(interrupt, "signum", signal.SIGINT)


# --- one process ---------------------------------------------------------------------


class TooLong:
    pass


TOO_LONG = TooLong()
_NOTHING = object()
Line = bytes | None | TooLong


class ChildProcess:
    """One run of the program: its pipes, read and written without a thread of their own
    (a line read is no hand-over between threads, which costs more than the read), and
    the stderr ring.

    Its stdout is read as the answers are asked for (`receive`, waiting in `poll` at
    most the time given); while a request is written to a full pipe, what the program
    answered meanwhile is read into the buffer, so that neither side waits on the other.
    The reading and the writing each hold a lock: `close_pipes`, from any thread, closes
    a pipe only between two reads or writes."""

    def __init__(self, argv: Sequence[str], max_line: int, env: dict[str, str] | None,
                 cwd: str | None) -> None:
        kwargs: dict[str, Any] = {}
        if os.name == "posix":
            kwargs["start_new_session"] = True  # its own group, killed as one
        self.killed = False
        self.parent_killed = False
        """Its reaper was killed (by the program: only it holds the reaper's id) before
        it swept: found by kill, which sweeps in its place."""
        # started, built and registered as one: an interrupt, or kill_all on another
        # thread, between the start and the registration left a process no one would kill
        # (and one while it is built would find it half made)
        with interrupts_held(), _LIVE_LOCK:
            if os.name == "posix":  # what it starts is found by this, whatever its group
                env = watchdog.tagged(env)
            self._control = -1  # the harness's end of its reaper's socket (none: -1)
            if REAPS:
                adopt_orphans()
                reap_adopted()
            self.popen = self._start(list(argv), env, cwd, kwargs)
            _LIVE.add(self)
            if os.name == "posix":  # killed by the watchdog if the harness is killed outright
                watchdog.guard(self.popen.pid, reaper=self._control >= 0)
            assert self.popen.stdout is not None and self.popen.stdin is not None
            self._out = self.popen.stdout.fileno()
            self._in = self.popen.stdin.fileno()
            os.set_blocking(self._in, False)
            self._max_line = max_line
            self._buffer = bytearray()
            self._ended = False  # stdout at its end, or closed here
            self._stopped = False  # a line too long was met: nothing more is read
            self._poller = select.poll()
            self._poller.register(self._out, select.POLLIN)
            self._reading = threading.Lock()
            self._writing = threading.Lock()
            self._pipes = _pipe_names(self._out, self._in, self.popen.stderr)
            self.stderr = StderrRing(self.popen.stderr)

    def _start(self, argv: list[str], env: dict[str, str] | None, cwd: str | None,
               kwargs: dict[str, Any]) -> subprocess.Popen[bytes]:
        """Start the program, under a reaper where the system has subreapers (reaper.py:
        what its descendants leave, even out of its group and under `env -i`, is killed
        with it); elsewhere directly, where such a descendant may outlive the run."""
        pipes = dict(stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     env=env, cwd=cwd, **kwargs)
        if not REAPS:
            return subprocess.Popen(argv, **pipes)
        ours, theirs = socket.socketpair()
        try:
            popen = subprocess.Popen([sys.executable, "-I", "-S", REAPER, str(theirs.fileno()),
                                      *argv], pass_fds=(theirs.fileno(),), **pipes)
        finally:
            theirs.close()
        said = b""
        try:
            while b"\n" not in said and (chunk := ours.recv(64)):
                said += chunk
        except OSError:
            said = b""
        if said.startswith(b"run"):
            self._control = ours.detach()
            return popen
        ours.close()
        if said.startswith(b"errno "):  # as starting it directly raises (Popen's error)
            popen.wait()
            code = int(said.split()[1])
            raise OSError(code, os.strerror(code), argv[0])
        return popen  # it is the program itself: no subreaper here

    def reaped_by_parent(self) -> bool:
        """Whether a reaper is the program's parent (closing `control` ends them all)."""
        return self._control >= 0

    def _reaper_swept(self) -> str:
        """Tell the reaper to kill all (the end of what it reads), wait for it, and say
        how it ended: "swept" (it says `end` once it has), "killed" (ended without
        saying it: the program killed it, its parent, which any program finds) or
        "stuck" (running still: stopped by the program, SIGSTOP, and killed here with
        the group). What a reaper that did not sweep held, the program and a daemon
        started under `env -i` and out of its session, is this process's (adopt_orphans),
        to sweep."""
        with contextlib.suppress(OSError):
            told = socket.socket(fileno=self._control)
            try:
                told.shutdown(socket.SHUT_WR)
            finally:
                told.detach()
        self.exit_code(KILL_WAIT)
        try:
            os.set_blocking(self._control, False)
            said = os.read(self._control, 64)
        except BlockingIOError:
            return "stuck"
        except OSError:
            said = b""
        return "swept" if said.startswith(b"end") else "killed"

    def forget_control(self) -> None:
        """Close this process's end of the reaper's socket: the reaper then kills the
        program and every descendant, and exits as the program did (in a forked child,
        the parent's end stays open)."""
        fd, self._control = self._control, -1
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)

    def send(self, data: bytes) -> None:
        """Write `data` whole; OSError (a broken pipe) or ValueError (closed here) if the
        program can no longer take it."""
        with self._writing:
            stdin = self.popen.stdin
            if stdin is None or stdin.closed:
                raise ValueError("the program's stdin is closed")
            view = memoryview(data)
            while view:
                try:
                    view = view[os.write(self._in, view):]
                except BlockingIOError:
                    self._wait_writable()

    def _wait_writable(self) -> None:
        """Until stdin takes more (at most POLL), reading the answers that keep the
        program from reading on."""
        poller = select.poll()
        poller.register(self._in, select.POLLOUT)
        with self._reading:
            if not self._ended:
                poller.register(self._out, select.POLLIN)
            for fd, _ in poller.poll(POLL * 1000):
                if fd == self._out:
                    self._fill()

    def receive(self, timeout: float) -> Line:
        """The next line (None at the end of stdout, TOO_LONG for a line over the limit,
        after which nothing more is read); queue.Empty after `timeout` seconds."""
        deadline = time.monotonic() + max(timeout, 0.0)
        with self._reading:
            while not self._stopped:
                line = self._take()
                if line is not _NOTHING:
                    return line  # type: ignore[return-value]
                left = deadline - time.monotonic()
                # what it wrote is read even once the time is up: a harness kept off the
                # processor past the deadline does not call an answer waiting here late
                if self._poller.poll(max(0, math.ceil(left * 1000))):
                    self._fill()
                elif left <= 0:
                    raise queue.Empty
        time.sleep(max(0.0, deadline - time.monotonic()))  # as a reader that stopped
        raise queue.Empty

    def unfinished(self) -> str:
        """What the program wrote of a line it has not ended, shown in a message."""
        buffer = self._buffer
        if not buffer:
            return ""
        shown = bytes(buffer[:120]).decode("utf-8", "replace")
        more = f" ... ({len(buffer)} bytes)" if len(buffer) > 120 else ""
        # lines ended the old Mac way (print with end="\r", a writer's CR line endings)
        cr = "; a carriage return (\\r) alone ends no line: end each with \\n" \
            if b"\r" in buffer else ""
        return f"{shown!r}{more}{cr}"

    def _take(self) -> Line | object:
        """A whole line from the buffer, TOO_LONG, None at the end, or _NOTHING yet."""
        buffer = self._buffer
        end = buffer.find(b"\n", 0, self._max_line + 1)
        if end >= 0:
            line = bytes(buffer[:end + 1])
            del buffer[:end + 1]
            return line
        if len(buffer) > self._max_line:
            self._stopped = True
            buffer.clear()
            self._end()
            return TOO_LONG
        if self._ended:
            line = bytes(buffer)  # the last line, with no newline
            buffer.clear()
            return line or None
        return _NOTHING

    def _fill(self) -> None:
        """Read what stdout holds (the reading lock held)."""
        if self._ended:
            return
        try:
            chunk = os.read(self._out, 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if chunk:
            self._buffer += chunk
        else:
            self._end()

    def _end(self) -> None:
        if not self._ended:
            self._ended = True
            with contextlib.suppress(KeyError, ValueError, OSError):
                self._poller.unregister(self._out)
            stdout = self.popen.stdout
            if stdout is not None:
                with contextlib.suppress(OSError, ValueError):
                    stdout.close()

    def exit_code(self, wait: float) -> int | None:
        """The program's exit code (negative: the signal), or None if it still runs after
        `wait` seconds. The program is not reaped here: see kill."""
        code = self._status()
        if code is not None or wait <= 0:
            return code
        deadline = time.monotonic() + wait
        exited = _exit_poller(self.popen.pid)
        try:
            while True:
                left = deadline - time.monotonic()
                if exited is not None:  # woken by the exit itself, not by a clock
                    exited.poll(max(0, math.ceil(left * 1000)))
                else:  # pragma: no cover  (no pidfd: before Linux 5.3)
                    time.sleep(min(0.01, max(left, 0.0)))
                code = self._status()
                if code is not None or time.monotonic() >= deadline:
                    return code
        finally:
            if exited is not None:
                exited.close()

    def end(self) -> int | None:
        """Kill the program and its group, reap it, and say how it had ended when the
        harness found it gone (its stdout at an end, its stdin broken): its exit code
        (negative: the signal), or None if it still ran, closed its stdout and ended by
        the kill. Nothing is waited for before the kill: a program still running with its
        stdout closed can answer nothing more (a one-second wait for it to exit cost each
        such process a second), and one already on its way out keeps its own code (the
        system drops a signal sent to a process that is exiting)."""
        if self.killed:
            return self.popen.returncode
        code = self._status()
        self.kill()
        if code is None:
            code = self.popen.returncode
            # ours, or sent by another at the same moment: either way it ran on with its
            # stdout closed until a kill
            if code == -signal.SIGKILL:
                return None
        return code

    def alive(self) -> bool:
        return self._status() is None

    def _status(self) -> int | None:
        if self.popen.returncode is not None or not hasattr(os, "waitid"):
            return self.popen.poll()
        try:  # WNOWAIT: look without reaping
            info = os.waitid(os.P_PID, self.popen.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:  # reaped elsewhere
            return self.popen.poll()
        if info is None:
            return None
        killed = info.si_code in (os.CLD_KILLED, os.CLD_DUMPED)
        return -info.si_status if killed else info.si_status

    def kill(self) -> None:
        """Kill the process and everything in its group (also once the program itself
        has exited: its children live on), reap it, and let go of the pipes."""
        if not self.killed:
            self.killed = True
            reaper = "swept"
            if self.reaped_by_parent():  # the reaper kills all, reaps them and exits
                reaper = self._reaper_swept()
                self.forget_control()
            try:
                if os.name == "posix":
                    # Until the leader is reaped (just below) its id, which is the group's,
                    # cannot be given to another process; ESRCH means nobody is left.
                    os.killpg(self.popen.pid, signal.SIGKILL)
                else:  # pragma: no cover
                    self.popen.kill()
            except (ProcessLookupError, PermissionError):
                with contextlib.suppress(OSError):
                    self.popen.kill()
            watchdog.release(self.popen.pid)  # before the reaping frees its id
            # woken by the exit (a pidfd), then reaped; Popen.wait(5) slept in steps of
            # up to 50 ms, which were most of a kill's cost
            self.exit_code(KILL_WAIT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(0)
            if self._held_elsewhere():
                kill_escaped(self._pipes)
            with _LIVE_LOCK:
                _LIVE.discard(self)
                spared = {proc.popen.pid for proc in _LIVE}
            if reaper != "swept":  # killed, or stopped: what it held is this process's
                self.parent_killed = reaper == "killed"
                sweep_adopted(spared)
            reap_adopted()
        self.close_pipes()

    def stdin_unread(self) -> bool:
        """Whether nothing reads the program's stdin any more (it closed it, and no child
        of it holds it): a request written now is lost (cheap: a poll, no wait)."""
        if self.killed:
            return False
        poller = select.poll()
        try:
            poller.register(self._in, select.POLLOUT)
        except (OSError, ValueError):
            return False
        return any(event & select.POLLERR for _, event in poller.poll(0))

    def stdin_pending(self) -> int | None:
        """The bytes written to the program's stdin that it has not read yet (FIONREAD,
        which a pipe answers at either end); None where that cannot be told."""
        try:
            import fcntl
            import termios

            with self._writing:
                count = fcntl.ioctl(self._in, termios.FIONREAD, b"\0\0\0\0")
        except (ImportError, OSError, ValueError):
            return None
        return int.from_bytes(count, sys.byteorder, signed=True)

    def _held_elsewhere(self) -> bool:
        """Whether a process may still hold the program's stdout, stdin or stderr: one it
        started in a session of its own, which the group's kill missed (cheap: a poll)."""
        if not self._pipes:
            return False
        poller = select.poll()
        with contextlib.suppress(OSError, ValueError):
            poller.register(self._out, select.POLLIN)
            poller.register(self._in, select.POLLOUT)
        events = dict(poller.poll(0))
        # a writer left on stdout: no hang-up; a reader left on stdin: no error; a writer
        # left on stderr alone (a daemon that closed its stdin and stdout but kept stderr
        # open) was left running. An end closed here already (POLLNVAL) tells nothing: for
        # stdout (closed after a line too long) nothing is read from it any more, but
        # stdin is closed at every shutdown, before this kill, and a helper holding it
        # alone lived on; so then the holders are looked for (kill_escaped)
        gone = select.POLLNVAL
        return not (events.get(self._out, 0) & (select.POLLHUP | gone)
                    and events.get(self._in, 0) & select.POLLERR) \
            or self.stderr.held_open()

    def close_pipes(self) -> None:
        """Close stdin and stdout, each once no read or write is under way on it (a call
        from another thread waits at most a second for one); give the stderr reader a
        what the stderr pipe holds (the reader thread closes stderr itself, whenever the last
        holder lets go)."""
        if self._writing.acquire(timeout=1.0):
            try:
                stdin = self.popen.stdin
                if stdin is not None:
                    with contextlib.suppress(OSError, ValueError):
                        stdin.close()
            finally:
                self._writing.release()
        if self._reading.acquire(timeout=1.0):
            try:
                self._end()
            finally:
                self._reading.release()
        # its last words are in the pipe, the program dead and reaped: read now, with no
        # wait on the reader thread (a fixed half second here made each kill cost 0.5 s
        # where a process that escaped the group held stderr)
        self.stderr.collect()


class _ExitPoller:
    """A poll on a process's pidfd, which becomes readable when the process exits."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._poller = select.poll()
        self._poller.register(fd, select.POLLIN)

    def poll(self, milliseconds: int) -> None:
        self._poller.poll(milliseconds)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._fd)


def _exit_poller(pid: int) -> _ExitPoller | None:
    """What to wait on for `pid`'s exit, or None where the system has no pidfd."""
    opener = getattr(os, "pidfd_open", None)
    if opener is None:  # pragma: no cover
        return None
    try:
        return _ExitPoller(opener(pid))
    except OSError:  # no such process (reaped already), or a kernel without pidfds
        return None


def _pipe_names(*ends: Any) -> frozenset[str]:
    """How /proc names the program's pipes (`pipe:[inode]`); none off Linux."""
    if not os.path.isdir("/proc/self/fd"):
        return frozenset()
    out = set()
    for end in ends:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            fd = end if isinstance(end, int) else end.fileno()
            out.add(f"pipe:[{os.fstat(fd).st_ino}]")
    return frozenset(out)


def kill_escaped(pipes: frozenset[str]) -> list[int]:
    """Kill every process outside the harness's session that holds one of `pipes`: what
    the program started in a session of its own (setsid), out of reach of the group's
    kill, still holding the pipes it inherited. The harness's own processes (forked
    workers, which may hold the pipes too) share its session and are left alone; a
    process that closed the pipes as well is beyond reach (docs/protocol.md)."""
    own_sid, own = os.getsid(0), os.getpid()
    killed = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == own:
            continue
        pid = int(name)
        try:
            if os.getsid(pid) == own_sid:
                continue
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:  # gone, or another user's
            continue
        for fd in fds:
            try:
                held = os.readlink(f"/proc/{pid}/fd/{fd}") in pipes
            except OSError:
                continue
            if held:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                break
    return killed


def describe_exit(code: int | None) -> str:
    if code is None:
        return "closed its stdout while still running"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name}"
    return f"exited with code {code}"
