"""The client side of protocol v1: an implementation under test in another process.

`ProcessImplementation(["./my-engine", "--serve"])` starts the program once, greets it
(hello) and then sends one request per line, each answered within `timeout` seconds.
It implements the Implementation interface (adapter.py), so `runner.run_one` drives it
unchanged. Whatever the program does, the harness neither hangs nor loses a result:

- it exits or closes its stdout: ImplementationCrashed (status crash);
- it does not answer in time: ImplementationTimeout (status timeout), and it is killed;
- it writes a line that is not JSON, longer than `max_line`, or an answer to another
  request: ProtocolViolation (status error), and it is killed, since the stream can no
  longer be trusted; an answer of the wrong shape is a ProtocolViolation too, but the
  stream is still in step and the process lives on;
- it answers with an error: ImplementationError (status error); kind "unsupported":
  NotApplicable (status not-applicable).

A killed or dead process is started again for the next request. Its stderr is drained
all along into a bounded ring buffer, whose tail goes with every failure. A program
that fails to start `start_attempts` times in a row is not started again: later
requests fail at once with the last start's status; so do the requests after
`failure_limit` in a row that each killed it (a crash, a timeout, a broken stream), with
no answer between. A program that cannot be run at
all, or speaks another protocol version, is a ConfigurationError (exit code 2).

The harness owns what it starts: each program runs in a session (and process group) of
its own, and the whole group is killed whenever the program is done with, however that
happens: a timeout, a crash (its children may outlive it), the end of the run, or an
interrupt (`stop_on_signals`, and `kill_all` at exit). Pipes are never waited on:
stdout is read in the calling thread, in `poll` with a deadline (a reader thread handing
each line over cost more than the read), and stderr by a thread of its own that closes
it at end of file, so a child that escaped the group and still holds them costs a
thread, not the run. Only a program that starts a new session of its own (setsid) can
leave a process behind.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import itertools
import math
import os
import queue
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from mtrain import __version__
from mtrain.conformance.adapter import JSON, Refused, RefusedSetup, Unsupported
from mtrain.conformance.protocol import (
    MAX_LINE,
    PROTOCOL_VERSION,
    ErrorAnswer,
    ProtocolError,
    check_answer,
    decode,
    encode,
    encode_request,
    encode_value,
    hello,
    request,
)
from mtrain.conformance.stderr_ring import StderrRing
from mtrain.conformance.wording import json_text, why_not_run

POLL = 0.05
"""While waiting for an answer, how often to look whether the program is still alive
(a program that exits may leave a child holding its stdout, so no end of file comes)."""


class HarnessError(Exception):
    """A request that got no usable answer; `status` is the result it stands for."""

    status = "error"
    given_up = False
    """Set on a request not even tried: the program failed to start too often in a row
    (or the harness is stopping), so every later request fails the same way."""

    def __init__(self, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.stderr = stderr


def given_up(error: HarnessError) -> HarnessError:
    """`error`, marked as standing for every request from now on (HarnessError.given_up)."""
    error.given_up = True
    return error


class ImplementationCrashed(HarnessError):
    status = "crash"


class ImplementationTimeout(HarnessError):
    status = "timeout"


class ProtocolViolation(HarnessError):
    status = "error"


class ImplementationError(HarnessError):
    """The implementation answered {"ok": false}: it could not handle the request."""

    status = "error"


class NotApplicable(HarnessError, Unsupported):
    """The implementation does not support this request (an `unsupported` answer)."""

    status = "not-applicable"


FAILURES = (ImplementationCrashed, ImplementationTimeout, ProtocolViolation)

FAILURE_LIMIT = 10
"""Requests in a row whose failure killed the program (a crash, a timeout, a broken
stream) before it is not started again: one that fails every request would otherwise
cost a start, or a timeout, per request for the whole run."""
"""What no later answer can make up for: a crash, a hang, a broken stream. Each one is
logged in the implementation's `failures`, so that fuzz, which asks again, still sees it."""


class ConfigurationError(Exception):
    """The implementation cannot be used at all: not runnable, or another protocol."""


class Interrupted(KeyboardInterrupt):
    """SIGTERM (or SIGHUP) while `stop_on_signals` is in force; `signum` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


# --- every process the harness started ------------------------------------------------


_LIVE: set[_Process] = set()
_LIVE_LOCK = threading.Lock()
STOPPING = threading.Event()
"""Set by an interrupt under stop_on_signals: closing then kills at once, not politely."""


def kill_all() -> None:
    """Kill every process group the harness started and has not yet killed."""
    with _LIVE_LOCK:
        procs = list(_LIVE)
    for proc in procs:
        proc.kill()


def _forget_after_fork() -> None:
    """A forked worker does not own its parent's processes (nor hold its lock)."""
    global _LIVE_LOCK
    _LIVE_LOCK = threading.Lock()
    _LIVE.clear()


atexit.register(kill_all)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP raise Interrupted (as SIGINT raises KeyboardInterrupt), so
    that cleanup runs; whatever the way out, every process started is killed."""
    previous: dict[int, Any] = {}
    STOPPING.clear()
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)):
            if sig is not None:
                previous[sig] = signal.signal(sig, _raise_interrupted)
    try:
        yield
    finally:
        try:
            kill_all()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def _raise_interrupted(signum: int, frame: object) -> None:
    STOPPING.set()
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Interrupted(signum)


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


def exit_code_of(interrupt: KeyboardInterrupt) -> int:
    return 128 + getattr(interrupt, "signum", signal.SIGINT)


# --- one process ---------------------------------------------------------------------


class _TooLong:
    pass


TOO_LONG = _TooLong()
_NOTHING = object()
Line = bytes | None | _TooLong


class _Process:
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
        self.popen = subprocess.Popen(
            list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, env=env, cwd=cwd, **kwargs)
        self.killed = False
        with _LIVE_LOCK:
            _LIVE.add(self)
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
        self.stderr = StderrRing(self.popen.stderr)

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
                if left <= 0:
                    raise queue.Empty
                if self._poller.poll(math.ceil(left * 1000)):
                    self._fill()
        time.sleep(max(0.0, deadline - time.monotonic()))  # as a reader that stopped
        raise queue.Empty

    def unfinished(self) -> str:
        """What the program wrote of a line it has not ended, shown in a message."""
        buffer = self._buffer
        if not buffer:
            return ""
        shown = bytes(buffer[:120]).decode("utf-8", "replace")
        more = f" ... ({len(buffer)} bytes)" if len(buffer) > 120 else ""
        return f"{shown!r}{more}"

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
        deadline = time.monotonic() + wait
        while True:
            code = self._status()
            if code is not None or time.monotonic() >= deadline:
                return code
            time.sleep(0.01)

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
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(5)
            with _LIVE_LOCK:
                _LIVE.discard(self)
        self.close_pipes()

    def close_pipes(self) -> None:
        """Close stdin and stdout, each once no read or write is under way on it (a call
        from another thread waits at most a second for one); give the stderr reader a
        moment to collect the last words. It closes stderr itself, whenever the last
        holder lets go."""
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
        self.stderr.settle(0.5)


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


# --- the client ----------------------------------------------------------------------


_NO_WINNER = object()
_LATE = object()
_EXITED = object()

AS_EXPECTED: JSON = {}
"""What `call_encoded` returns when the answer is, byte for byte, the one expected."""


class ProcessImplementation:
    """An implementation under test behind protocol v1, in one long-lived process."""

    def __init__(self, argv: Sequence[str] | str, *, timeout: float = 10.0,
                 max_line: int = MAX_LINE, env: dict[str, str] | None = None,
                 cwd: str | None = None, start_attempts: int = 3,
                 failure_limit: int = FAILURE_LIMIT) -> None:
        self.argv = shlex.split(argv) if isinstance(argv, str) else list(argv)
        if not self.argv:
            raise ConfigurationError("the implementation command is empty")
        self.command = shlex.join(self.argv)
        self.timeout = timeout
        self.max_line = max_line
        self.env = env
        self.cwd = cwd
        self.start_attempts = start_attempts
        self.starts = 0
        self.requests = 0
        self._proc: _Process | None = None
        self._info: JSON | None = None
        self._ids = itertools.count(1)
        self._failed_starts = 0
        self._last_start_error: HarnessError | None = None
        self.failure_limit = failure_limit
        self._killed_in_a_row = 0  # requests whose failure killed the program, since an answer
        self._last_failure: HarnessError | None = None
        self._lock = threading.Lock()
        self._closed = False
        self.failures: list[str] = []
        # requests written ahead of their calls: (process, kind, fields, id, stderr mark)
        self._ahead: deque[tuple[_Process, str, dict[str, bytes], int, int]] = deque()

    # -- the Implementation interface -------------------------------------------------

    def info(self) -> JSON:
        if self._info is None:
            self._ensure()
        assert self._info is not None
        return self._info

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str]) -> JSON:
        answer = self.call("deal", ruleset=ruleset, players=players, round=round, order=order)
        state: JSON = answer["state"]
        return state

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        actions: list[JSON] = self.call("legal", ruleset=ruleset, state=state)["actions"]
        return actions

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        answer = self.call("apply", ruleset=ruleset, state=state, action=action)
        if "refused" in answer:
            refused = answer["refused"]
            raise Refused(refused["reason"], refused.get("clause"))
        new: JSON = answer["state"]
        return new

    def score(self, ruleset: JSON, state: JSON, winner: Any = _NO_WINNER) -> list[int]:
        fields: JSON = {"ruleset": ruleset, "state": state}
        if winner is not _NO_WINNER:
            fields["winner"] = winner
        scores: list[int] = self.call("score", **fields)["scores"]
        return scores

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        seats: list[int] = self.call("winners", ruleset=ruleset, state=state)["winners"]
        return seats

    # -- lifecycle --------------------------------------------------------------------

    def start(self) -> JSON:
        """Start the program and greet it, if it is not running; its hello answer."""
        self._ensure()
        assert self._info is not None
        return self._info

    def close(self) -> None:
        """Ask the program to shut down (it has a second or two), then kill its process
        group: whatever it started goes too. No process is started after this. Safe to
        call from another thread while a request is under way: that request's process is
        killed at once, and the request fails."""
        self._closed = True
        polite = not STOPPING.is_set() and self._lock.acquire(blocking=False)
        try:
            proc, self._proc = self._proc, None
            if proc is None:
                return
            if polite and proc.alive():
                try:
                    rid = next(self._ids)
                    proc.send(encode(request(rid, "shutdown")))
                    proc.receive(min(self.timeout, 2.0))
                    stdin = proc.popen.stdin
                    if stdin is not None:
                        stdin.close()
                except (OSError, ValueError, queue.Empty):
                    pass
                proc.exit_code(2.0)
            proc.kill()
        finally:
            if polite:
                self._lock.release()

    def __enter__(self) -> ProcessImplementation:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def stderr_tail(self) -> str:
        return "" if self._proc is None else self._proc.stderr.tail()

    # -- requests ---------------------------------------------------------------------

    def call(self, kind: str, **fields: Any) -> JSON:
        """Send one request and return the checked answer (see the module doc); one asked
        ahead (`ask_ahead`) is not sent again: its answer is read."""
        return self.call_encoded(kind, **{k: encode_value(v) for k, v in fields.items()})

    def ask_ahead(self, ruleset: JSON, state: JSON,
                  asks: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Write these requests about one state at once (kind, the fields beside the rule
        set and the state), before they are asked: the calls that follow, in this order,
        read their answers without a round trip each (see `send_ahead`)."""
        common = {"ruleset": encode_value(ruleset), "state": encode_value(state)}
        self.send_ahead([(kind, {**common, **{k: encode_value(v) for k, v in more.items()}})
                         for kind, more in asks])

    def call_encoded(self, kind: str, expect: bytes | None = None, **fields: bytes) -> JSON:
        """`call` with every field already encoded as JSON (see protocol.encode_request).

        `expect`: the answer's payload as the harness would write it (`"state":{...}`);
        an answer line that is exactly `{"id":ID,"ok":true,` + expect + `}` is not decoded
        or checked, and AS_EXPECTED is returned: the same JSON, known without reading it.
        A request written ahead (`send_ahead`) with this kind and these fields is not
        written again: its answer is read.
        """
        with self._lock:
            ahead = self._ahead
            if ahead and ahead[0][0] is self._proc and ahead[0][1] == kind \
                    and ahead[0][2] == fields:
                proc, _, _, rid, mark = ahead.popleft()
                try:
                    answer = self._answer(proc, kind, rid, mark, expect)
                except FAILURES as e:
                    self._failed(e)
                    raise
                self._killed_in_a_row = 0
                return answer
            self._drain()
            try:
                proc = self._ensure()
                rid = next(self._ids)
                answer = self._exchange(proc, kind, rid, encode_request(rid, kind, fields),
                                        expect)
            except FAILURES as e:
                self._failed(e)
                raise
            self._killed_in_a_row = 0
            return answer

    def _failed(self, error: HarnessError) -> None:
        """Count a failure that killed the program (a wrong shape leaves it running)."""
        self.failures.append(f"{error.status}: {error.message}")
        if self._proc is None and not error.given_up:
            self._killed_in_a_row += 1
            self._last_failure = error

    def send_ahead(self, calls: Sequence[tuple[str, dict[str, bytes]]]) -> None:
        """Write these requests (kind, encoded fields) at once, before they are asked: the
        calls that follow with the same kinds and fields, in this order, read their answers
        without a round trip each. Answers left unread are read and dropped before any other
        request. Only to a program already running: one that is not starts at its call."""
        with self._lock:
            self._drain()
            proc = self._proc
            if proc is None or not calls:
                return
            lines = []
            for kind, fields in calls:
                rid = next(self._ids)
                lines.append(encode_request(rid, kind, fields))
                self._ahead.append((proc, kind, fields, rid, proc.stderr.mark()))
            self.requests += len(calls)
            try:
                proc.send(b"".join(lines))
            except (OSError, ValueError):  # it has exited: the calls will say so
                self._ahead.clear()
                self.requests -= len(calls)

    def _drain(self) -> None:
        """Read and drop the answers to requests written ahead and never asked for."""
        while self._ahead:
            proc, kind, _, rid, mark = self._ahead.popleft()
            if proc is not self._proc:
                continue
            with contextlib.suppress(HarnessError, NotApplicable):
                self._answer(proc, kind, rid, mark, None)

    def _ensure(self) -> _Process:
        if self._proc is not None:
            return self._proc
        if self._closed:
            raise given_up(HarnessError("not run: the harness is stopping"))
        if self._failed_starts >= self.start_attempts and self._last_start_error is not None:
            last = self._last_start_error
            raise given_up(type(last)(
                f"not run: the implementation failed to start {self._failed_starts} times in "
                f"a row, so it is not started again (last time: {last.message})", last.stderr))
        failed = self._last_failure
        if self._killed_in_a_row >= self.failure_limit and failed is not None:
            raise given_up(type(failed)(
                f"not run: the implementation failed {self._killed_in_a_row} requests in a "
                "row, each time killed and started again, so it is not started again (last "
                f"time: {failed.message})", failed.stderr))
        try:
            proc = _Process(self.argv, self.max_line, self.env, self.cwd)
        except OSError as e:
            raise ConfigurationError(
                f"cannot run {self.command}: {why_not_run(self.argv[0], e)}") from None
        self.starts += 1
        self._proc = proc
        try:
            rid = next(self._ids)
            answer = self._exchange(proc, "hello", rid,
                                    encode(hello(rid, f"mtrain {__version__}")))
        except ErrorAnswer as e:
            self._drop(proc)
            if e.kind == "protocol-version":
                raise ConfigurationError(
                    f"{self.command} does not speak protocol {PROTOCOL_VERSION}: {e.message}"
                ) from None
            err: HarnessError = ImplementationError(
                f"the implementation refused the hello: {e.message}", proc.stderr.tail())
            self._start_failed(err)
            raise err from None
        except HarnessError as e:
            self._drop(proc)
            self._start_failed(e)
            raise
        if answer["protocol"] != PROTOCOL_VERSION:
            self._drop(proc)
            raise ConfigurationError(
                f"{self.command} speaks protocol version {answer['protocol']}; this harness "
                f"speaks version {PROTOCOL_VERSION}")
        self._failed_starts = 0
        self._info = {k: v for k, v in answer.items() if k not in ("id", "ok")}
        return proc

    def _start_failed(self, error: HarnessError) -> None:
        self._failed_starts += 1
        self._last_start_error = error
        error.message = f"while starting: {error.message}"
        error.args = (error.message,)

    def _drop(self, proc: _Process) -> None:
        proc.kill()
        if self._proc is proc:
            self._proc = None

    def _exchange(self, proc: _Process, kind: str, rid: int, request_line: bytes,
                  expect: bytes | None = None) -> JSON:
        mark = proc.stderr.mark()
        self.requests += 1
        try:
            proc.send(request_line)
        except (OSError, ValueError):
            raise self._crashed(proc, kind) from None
        return self._answer(proc, kind, rid, mark, expect)

    def _answer(self, proc: _Process, kind: str, rid: int, mark: int,
                expect: bytes | None) -> JSON:
        """The checked answer to request `rid`, already sent (see _exchange)."""
        deadline = time.monotonic() + self.timeout
        while True:
            line = self._next_line(proc, deadline)
            if line is _EXITED:
                raise self._crashed(proc, kind)
            if line is _LATE:
                unfinished = proc.unfinished()
                self._drop(proc)
                wrote = (f" (it wrote a line it never ended with a newline: {unfinished})"
                         if unfinished else "")
                raise ImplementationTimeout(
                    f"no answer to the {kind} request within {self.timeout:g} s{wrote}; "
                    "the implementation was killed", proc.stderr.tail())
            if line is None:
                raise self._crashed(proc, kind)
            if isinstance(line, _TooLong):
                self._drop(proc)
                raise ProtocolViolation(
                    f"the answer to the {kind} request is a line longer than "
                    f"{self.max_line} bytes; the implementation was killed", proc.stderr.tail())
            assert isinstance(line, bytes)
            if line.strip():
                break
        if expect is not None and line == b'{"id":%d,"ok":true,%s}\n' % (rid, expect):
            return AS_EXPECTED
        try:
            answer = decode(line)
        except ProtocolError as e:
            self._drop(proc)
            hint = "" if line.lstrip()[:1] in (b"{", b"[") else " (logs belong on stderr)"
            raise ProtocolViolation(
                f"the answer to the {kind} request is {e}{hint}; the implementation was killed",
                proc.stderr.tail()) from None
        got = answer.get("id")
        if type(got) is not int or got != rid:  # 2.0 or true is not the id 2 or 1 sent
            self._drop(proc)
            carries = f"carries id {json_text(got)}" if "id" in answer else "carries no id"
            raise ProtocolViolation(
                f"the answer to the {kind} request (id {rid}) {carries}: "
                "one answer per request, in order; the implementation was killed",
                proc.stderr.tail())
        try:
            return check_answer(kind, rid, answer)
        except ErrorAnswer as e:
            if kind == "hello":
                raise
            if e.kind == "unsupported":
                raise NotApplicable(e.message) from None
            if e.kind == "refused-setup":
                clause = e.detail.get("clause")
                raise RefusedSetup(e.message, clause if isinstance(clause, str) else None
                                   ) from None
            raise ImplementationError(
                f"the implementation answered the {kind} request with an error "
                f"({e.kind}): {e.message}", proc.stderr.tail(since=mark)) from None
        except ProtocolError as e:
            raise ProtocolViolation(f"wrong answer shape to the {kind} request: {e}",
                                    proc.stderr.tail(since=mark)) from None

    @staticmethod
    def _next_line(proc: _Process, deadline: float) -> Line | object:
        """The next line, or _LATE at the deadline, or _EXITED once the program has
        exited and said all it had to (a child of it may still hold the pipe open)."""
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    return _LATE
                try:
                    return proc.receive(min(left, POLL))
                except queue.Empty:
                    pass
                if not proc.alive():
                    try:
                        return proc.receive(POLL)  # its last words, if any
                    except queue.Empty:
                        return _EXITED
        except KeyboardInterrupt:  # stopping, with an answer still due: no polite close
            proc.kill()
            raise

    def _crashed(self, proc: _Process, kind: str) -> ImplementationCrashed:
        code = proc.exit_code(1.0)
        self._drop(proc)
        return ImplementationCrashed(
            f"the implementation {describe_exit(code)}, before answering the {kind} request",
            proc.stderr.tail())


def command_argv(command: str) -> list[str]:
    """Split a command line as a POSIX shell would (no shell runs it)."""
    try:
        argv = shlex.split(command, posix=True)
    except ValueError as e:
        raise ConfigurationError(f"cannot split the command {command!r}: {e}") from None
    if not argv:
        raise ConfigurationError("the implementation command is empty")
    return argv

