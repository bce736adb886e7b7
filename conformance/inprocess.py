"""In-process adapters (`--adapter MODULE:OBJECT`), run so that no call can harm the run.

A Python thread cannot be stopped: an adapter call that overruns its time limit would
spin on, holding the interpreter, and starve every later call. So, where the adapter can
be named (MODULE:OBJECT) and the system can fork, `TimedImplementation` runs the calls
in a worker process:

    harness --stdin/stdout--> host (python -m mtrain.conformance.inprocess SPEC)
                                 loads the adapter once, then forks a worker, which
                                 answers the calls; when a worker dies, forks the next

A call that overruns gets its worker killed; the next call gets a fresh worker, forked in
milliseconds from the loaded host. The host runs in a session of its own, like any
implementation (process.py), and exits on its own if the harness disappears. States
cross as JSON, so the adapter always works on its own copy; the worker also compares its
arguments after each call and reports an adapter that changed them (its result would be
judged on data the harness never sent). Whatever the adapter raises is that call's
result, never the end of the run: an exception or KeyboardInterrupt is an error,
SystemExit (or the worker dying) a crash. Printing goes to stderr, collected with the
failures.

Without a name (an object handed in by code) or without fork, the calls run on a worker
thread here, with deep copies checked and answers bounded the same way, but a call that
overruns can only be abandoned.
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
import os
import queue
import select
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mtrain.conformance.adapter import JSON, Refused, RefusedSetup, Unsupported
from mtrain.conformance.child import STOPPING, TOO_LONG, ChildProcess, describe_exit
from mtrain.conformance.process import (
    FAILURES,
    HarnessError,
    ImplementationCrashed,
    ImplementationTimeout,
    NotApplicable,
    ProtocolViolation,
    given_up,
)
from mtrain.conformance.protocol import (
    MAX_DIGITS,
    MAX_LINE,
    ProtocolError,
    check_refusal,
    check_result,
    decode,
    encode,
)

PARAMS: dict[str, tuple[str, ...]] = {
    "info": (),
    "deal": ("ruleset", "players", "round", "order"),
    "legal": ("ruleset", "state"),
    "apply": ("ruleset", "state", "action"),
    "winners": ("ruleset", "state"),
}
START_SECONDS = 30.0
"""How long the host may take to import and build the adapter (or a worker to fork)."""
START_ATTEMPTS = 3
CAN_FORK = hasattr(os, "fork")
PATH_VARIABLE = "MTRAIN_ADAPTER_PATH"
"""The harness's sys.path, for the host to find the adapter module the same way."""


class AdapterError(HarnessError):
    """The adapter raised (status error), or changed an argument it was handed."""


def raised(name: str, e: BaseException) -> str:
    """What a call that raised `e` reports: the exception and where it came from."""
    frames = traceback.extract_tb(e.__traceback__)
    at = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    try:
        text = f": {e}" if str(e) else ""
    except Exception as inner:  # its __str__ raises: the worker would die of telling it
        text = f" (its message cannot be shown: {type(inner).__name__})"
    return f"the adapter's {name}() raised {type(e).__name__}{text}{at}"


def exit_code(e: SystemExit) -> str:
    """The code an adapter's exit() was given, as reports write it."""
    try:
        return repr(e.code)
    except Exception as inner:  # as in raised(): its __repr__ raises
        return f"<a {type(e.code).__name__} whose repr raises {type(inner).__name__}>"


def mutated(name: str, before: list[Any], after: list[Any]) -> str | None:
    """How a call changed its arguments, or None if it did not."""
    for param, was, now in zip(PARAMS.get(name, ()), before, after, strict=False):
        where = difference(was, now, param)
        if where is not None:
            return (f"the adapter's {name}() changed the {param} it was given ({where}); "
                    "an implementation must not modify its arguments")
    return None


def difference(was: Any, now: Any, where: str) -> str | None:
    """The first place where two JSON values differ, as `state.seat: 0 -> 99`."""
    if type(was) is not type(now):
        return f"{where}: {_short(was)} -> {_short(now)}"
    if isinstance(was, dict):
        for key in sorted({*was, *now}, key=str):
            if key not in was or key not in now:
                return f"{where}.{key}: {'added' if key not in was else 'removed'}"
            found = difference(was[key], now[key], f"{where}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(was, list):
        for i, (a, b) in enumerate(zip(was, now, strict=False)):
            found = difference(a, b, f"{where}[{i}]")
            if found is not None:
                return found
        return None if len(was) == len(now) else f"{where}: {len(was)} -> {len(now)} items"
    return None if was == now else f"{where}: {_short(was)} -> {_short(now)}"


def _short(value: Any) -> str:
    text = json.dumps(value, default=repr)
    return text if len(text) <= 60 else text[:57] + "..."


class TimedImplementation:
    """An adapter whose every call must return within `timeout` seconds; with `spec`
    (MODULE:OBJECT) its calls run in a worker process (see the module doc)."""

    def __init__(self, inner: Any, timeout: float, spec: str | None = None,
                 start_timeout: float | None = None,
                 start_flag: str = "--start-timeout") -> None:
        self.inner = inner
        self.timeout = timeout
        self._host = (_Host(spec, timeout, start_timeout, start_flag)
                      if spec is not None and CAN_FORK else None)
        self.isolated = self._host is not None
        self._threads = _Threads(inner, timeout) if self._host is None else None
        self.failures: list[str] = []  # as ProcessImplementation.failures
        self._info_fault: ProtocolViolation | None = None
        self._info_asked = False

    def _run(self, name: str, *args: Any) -> Any:
        if not self._info_asked and name != "info":
            with contextlib.suppress(HarnessError):  # each instance, as each process, greets
                self.info()
        if self._info_fault is not None and name != "info":
            # as a program whose hello cannot be read: no request of it is judged
            fault = self._info_fault
            raise given_up(ProtocolViolation(f"not run: {fault.message}", fault.stderr))
        try:
            try:
                try:
                    if self._host is not None:
                        value = self._host.call(name, list(args))
                    else:
                        assert self._threads is not None
                        value = self._threads.call(name, args)
                except (Refused, RefusedSetup) as e:
                    refusal: Exception | None = e
                else:
                    refusal = None
                    check_result(name, value)
                if refusal is not None:
                    check_refusal(refusal.reason, refusal.clause)  # type: ignore[attr-defined]
                    raise refusal
            except ProtocolError as e:  # the same checks as an answer over the protocol
                fault = ProtocolViolation(f"the adapter's {name}() returned the wrong shape: "
                                          f"{e}")
                if name == "info":
                    self._info_fault = fault
                raise fault from None
        except FAILURES as e:
            self.failures.append(f"{e.status}: {e.message}")
            raise
        return value

    def start(self) -> None:
        """Start the worker process now (with `spec`, where the system forks): the host
        imports the adapter and builds it under the start timeout. Raises
        ImplementationCrashed if it exits or hangs instead (an `os._exit` at import, a
        blocking call), which in the harness would have ended or stalled the run."""
        if self._host is not None:
            with self._host._lock:
                self._host._ready()

    def info(self) -> JSON:
        self._info_asked = True
        info: JSON = self._run("info")
        return info

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        extra = (draw,) if draw is not None else ()  # SEAT-5: only where a fixture has one
        state: JSON = self._run("deal", ruleset, players, round, order, *extra)
        return state

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        actions: list[JSON] = self._run("legal", ruleset, state)
        return actions

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        new: JSON = self._run("apply", ruleset, state, action)
        return new

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        seats: list[int] = self._run("winners", ruleset, state)
        return seats

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        """The adapter's `score`, if it has one (docs/implementers-guide.md)."""
        if not callable(getattr(self.inner, "score", None)):
            raise NotApplicable("the adapter has no score()")
        scores: list[int] = self._run("score", ruleset, state, winner)
        return scores

    def close(self) -> None:
        if self._host is not None:
            self._host.close()
            return
        if self._threads is not None:
            self._threads.close()
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()


# --- in a worker process --------------------------------------------------------------


_LATE = object()
_GONE = object()


class _Host:
    """The harness's side of the host process: one call at a time, each timed."""

    def __init__(self, spec: str, timeout: float, start_timeout: float | None = None,
                 start_flag: str = "--start-timeout") -> None:
        self.spec = spec
        self.timeout = timeout
        # the host imports the adapter: at least START_SECONDS, unless --start-timeout says
        self._start = (max(timeout, START_SECONDS) if start_timeout is None
                       else start_timeout)
        self._named = "" if start_timeout is None else f" ({start_flag})"
        self._proc: ChildProcess | None = None
        self._worker: int | None = None  # the pid of the worker ready for calls
        self._failed_starts = 0
        self._last_failure = ""
        self._lock = threading.Lock()
        self._closed = False

    def call(self, name: str, args: list[Any]) -> Any:
        with self._lock:
            proc = self._ready()
            mark = proc.stderr.mark()
            try:
                proc.send(encode({"call": name, "args": args}))
            except (OSError, ValueError):
                raise self._lost(proc, name) from None
            line = self._line(proc, time.monotonic() + self.timeout)
            if line is _LATE:
                self._kill_worker()
                raise ImplementationTimeout(
                    f"the adapter's {name}() did not return within {self.timeout:g} s; "
                    "its worker process was killed", proc.stderr.tail(since=mark))
            if line is _GONE:
                raise self._lost(proc, name)
            if line is TOO_LONG:  # a worker bounds its answers: this one's line broke
                self._drop()  # nothing more is read from the host: a fresh one is started
                raise ProtocolViolation(f"the adapter's {name}() answered with more than "
                                        f"{MAX_LINE:,} bytes of JSON")
            assert isinstance(line, bytes)
            try:
                answer = decode(line)
            except ProtocolError as e:
                self._kill_worker()
                raise ProtocolViolation(f"the adapter's worker answered {name}() with {e}",
                                        proc.stderr.tail(since=mark)) from None
            return self._answer(name, answer, proc.stderr.tail(since=mark))

    def _answer(self, name: str, answer: JSON, stderr: str) -> Any:
        if "value" in answer:
            return answer["value"]
        if "refused" in answer:
            reason, clause = answer["refused"]
            raise Refused(reason, clause)
        if "refused_setup" in answer:
            reason, clause = answer["refused_setup"]
            raise RefusedSetup(reason, clause)
        if "unsupported" in answer:
            raise NotApplicable(str(answer["unsupported"]))
        if "too_long" in answer:
            raise past_the_bound(name, str(answer["too_long"]), stderr)
        if "died" in answer:  # os._exit, a signal, a crash in C code: the host forks anew
            self._worker = None
            raise ImplementationCrashed(
                f"the adapter's worker process {describe_exit(answer['died'])} during "
                f"{name}()", stderr)
        if "exit" in answer:
            raise ImplementationCrashed(f"the adapter called exit({answer['exit']})", stderr)
        raise AdapterError(str(answer.get("error")), stderr)

    def _ready(self) -> ChildProcess:
        """The host, with a worker waiting for a call (started as needed)."""
        if self._closed:
            raise given_up(HarnessError("not run: the harness is stopping"))
        if self._proc is not None and self._worker is not None:
            return self._proc
        if self._failed_starts >= START_ATTEMPTS:
            raise given_up(ImplementationCrashed(
                f"not run: the adapter's process failed to start {self._failed_starts} "
                f"times in a row (last time: {self._last_failure})"))
        if self._proc is None:
            env = {**os.environ, PATH_VARIABLE: json.dumps(sys.path)}
            # -P: the folder the harness runs in must not shadow the installed package
            argv = [sys.executable, "-P", "-m", "mtrain.conformance.inprocess", self.spec]
            self._proc = ChildProcess(argv, MAX_LINE, env, None)
        proc = self._proc
        deadline = time.monotonic() + self._start
        while True:  # skip what a killed worker left half-written, and its death notice
            line = self._line(proc, deadline)
            if isinstance(line, bytes):
                with contextlib.suppress(ProtocolError):
                    ready = decode(line).get("ready")
                    if isinstance(ready, int):
                        self._worker, self._failed_starts = ready, 0
                        return proc
                continue
            what = (f"did not start a worker within {self._start:g} s{self._named}"
                    if line is _LATE
                    else describe_exit(proc.end()) + " while starting")
            self._drop()
            self._failed_starts += 1
            self._last_failure = what
            raise ImplementationCrashed(f"the adapter's process {what}", proc.stderr.tail())

    @staticmethod
    def _line(proc: ChildProcess, deadline: float) -> Any:
        """The next line from the host, _LATE at the deadline, or _GONE if it died."""
        while True:
            left = deadline - time.monotonic()
            try:  # at the deadline, a last look: a harness kept off the processor past
                # it (a loaded machine) does not call an answer waiting in the pipe late
                line = proc.receive(min(max(left, 0.0), 0.05))
            except queue.Empty:
                if left <= 0:
                    return _LATE
                if proc.alive():
                    continue
                try:
                    line = proc.receive(0.05)
                except queue.Empty:
                    return _GONE
            return _GONE if line is None else line

    def _kill_worker(self) -> None:
        worker, self._worker = self._worker, None
        if worker is not None:
            with contextlib.suppress(OSError):
                os.kill(worker, signal.SIGKILL)

    def _lost(self, proc: ChildProcess, name: str) -> ImplementationCrashed:
        code = proc.end()
        self._drop()
        return ImplementationCrashed(
            f"the adapter's host process {describe_exit(code)} during {name}()",
            proc.stderr.tail())

    def _drop(self) -> None:
        proc, self._proc, self._worker = self._proc, None, None
        if proc is not None:
            proc.kill()

    def close(self) -> None:
        """End of input lets the worker call the adapter's close() and exit; then the
        host's group is killed. From another thread, mid-call: killed at once."""
        self._closed = True
        polite = not STOPPING.is_set() and self._lock.acquire(blocking=False)
        try:
            proc = self._proc
            if polite and proc is not None and proc.alive():
                stdin = proc.popen.stdin
                with contextlib.suppress(OSError, ValueError):
                    if stdin is not None:
                        stdin.close()
                proc.exit_code(2.0)
            self._drop()
        finally:
            if polite:
                self._lock.release()


# --- the host and its workers (in the child processes) ---------------------------------


def host_main(spec: str) -> int:
    """Load the adapter, then fork one worker at a time to answer the harness."""
    if PATH_VARIABLE in os.environ:
        sys.path[:] = json.loads(os.environ[PATH_VARIABLE])
    from mtrain.conformance.adapter_loading import load_adapter
    from mtrain.spec.errors import InputError

    # before the adapter's module is imported: one reading its input at import (a
    # protocol loop left unguarded) took the harness's calls, and a start that printed
    # wrote into the answers
    channel_in, channel_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)  # the adapter must not read the calls,
    os.dup2(2, 1)  # nor print into the answers
    try:
        instance = load_adapter(spec)[0]
    except InputError as e:
        print(f"mtrain: {e}", file=sys.stderr)
        return 2
    harness = os.getppid()
    while True:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                code = _serve(instance, channel_in, channel_out)
                _keep_what_was_learnt()
            finally:
                os._exit(code)
        status = _wait(pid, harness)
        if status is None:  # the harness is gone
            return 0
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
            return 0  # the end of the calls
        code = os.waitstatus_to_exitcode(status)
        os.write(channel_out, encode({"died": code}))


def _keep_what_was_learnt() -> None:
    """What the project's cache keeps when a process ends (spec/yamlschema.py: the spec
    documents found valid, written at exit) kept by a worker at the end of the calls too:
    a worker ends by os._exit, which runs no exit handler (the adapter's must run once,
    in the host), so every host checked the spec data against its schemas anew."""
    schemas = sys.modules.get("mtrain.spec.yamlschema")
    if schemas is not None:
        schemas.save_valid()


HARNESS_CHECK = 0.1
"""How often the host looks whether the harness is still there, while its worker runs."""


def _wait(pid: int, harness: int) -> int | None:
    """The worker's wait status; None (the worker killed) if the harness went away.
    Woken the moment the worker exits (a process descriptor, where there is one): the
    next worker, or the host's own exit at the end of the calls, does not wait out a
    poll."""
    exited = _descriptor(pid)
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
            if os.getppid() != harness:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                return None
            if exited is None:
                time.sleep(HARNESS_CHECK)
            else:  # readable once the worker has exited
                select.select([exited], [], [], HARNESS_CHECK)
    finally:
        if exited is not None:
            os.close(exited)


def _descriptor(pid: int) -> int | None:
    """A descriptor that becomes readable when process `pid` exits (Linux), or None."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):  # not Linux, or a kernel before 5.3
        return None


def _serve(impl: Any, fd_in: int, fd_out: int) -> int:
    calls = os.fdopen(fd_in, "rb", closefd=False)
    out = os.fdopen(fd_out, "wb", closefd=False)
    # a newline first ends whatever a killed worker left half-written
    me = os.getpid()
    out.write(b"\n" + encode({"ready": me}))
    out.flush()
    while line := calls.readline(MAX_LINE + 1):
        answer = _answer(impl, line)
        if os.getpid() != me:  # a child the adapter forked, back here: its answer would
            os._exit(0)  # be read as the next call's, and it would read calls meant for us
        out.write(answer)
        out.flush()
    close = getattr(impl, "close", None)
    if callable(close):
        close()
    return 0


def _answer(impl: Any, line: bytes) -> bytes:
    try:
        message = decode(line)
        name, args, before = message["call"], message["args"], decode(line)["args"]
    except (ProtocolError, KeyError) as e:
        return encode({"error": f"the harness sent a call the worker cannot read: {e}"})
    answer: JSON
    try:
        answer = {"value": getattr(impl, name)(*args)}
    except Refused as e:
        answer = {"refused": [e.reason, e.clause]}
    except RefusedSetup as e:
        answer = {"refused_setup": [e.reason, e.clause]}
    except Unsupported as e:
        answer = {"unsupported": e.reason}
    except SystemExit as e:
        answer = {"exit": exit_code(e)}
    except BaseException as e:  # KeyboardInterrupt too: the adapter's, not the user's
        answer = {"error": raised(name, e)}
    changed = mutated(name, before, args)
    if changed is not None:
        answer = {"error": changed}
    try:
        carried = bounded(answer)
    except (TypeError, ValueError, RecursionError) as e:
        return encode({"error": not_json(name, e)})
    # a line past the bound would be cut off unread, the host with it (a crash each time)
    return carried if isinstance(carried, bytes) else encode({"too_long": carried})


def bounded(answer: JSON) -> bytes | str:
    """`answer` as the line that carries it; past the bound (MAX_LINE bytes of JSON, as
    over the protocol), what it holds instead, in words. Raises what encoding raises
    for a value that is not JSON."""
    value = answer.get("value")
    if isinstance(value, list | dict) and len(value) > MAX_LINE // 2:
        # each entry takes two bytes at least ("0,"): told without writing it out
        kind = "a list" if isinstance(value, list) else "a mapping"
        return f"{kind} of {len(value):,} entries"
    try:
        line = encode(answer)
    except ValueError:  # Python's own limit, in Python's words ("use sys.set_int_max_...")
        huge = _huge_int(value, "")
        if huge is None:
            raise
        raise ValueError(f"an integer of more than {MAX_DIGITS:,} digits, past the "
                         f"{MAX_DIGITS:,} a message may hold (at {huge or 'its top'})"
                         ) from None
    if len(line) - 1 > MAX_LINE:  # the newline aside
        return f"a value that makes an answer of {len(line) - 1:,} bytes of JSON"
    if b"null" in line and _has_float(answer.values()):  # orjson writes NaN as null
        where = _non_finite(value, "")
        if where is not None:  # as a program's NaN is refused by `decode`
            raise ValueError(f"{where[1]} is not a JSON number (at {where[0] or 'its top'})")
    return line


def _has_float(items: Any) -> bool:
    """Whether the values `items` hold a float at any depth (a set of types per list
    or mapping: half the time of a call for each value)."""
    kinds = set(map(type, items))
    if float in kinds:
        return True
    if dict in kinds or list in kinds:
        for v in items:
            if (type(v) is dict and _has_float(v.values())) or (
                    type(v) is list and _has_float(v)):
                return True
    return False


def _non_finite(value: Any, where: str) -> tuple[str, str] | None:
    """(place, spelling) of the first NaN or infinity in `value`, as a program would
    have written it in JSON."""
    if type(value) is float and not math.isfinite(value):
        return where, "NaN" if value != value else "-Infinity" if value < 0 else "Infinity"
    pairs = value.items() if type(value) is dict else enumerate(value) \
        if type(value) is list else ()
    for key, v in pairs:
        place = f"{where}[{key}]" if type(value) is list else f"{where}.{key}" if where \
            else str(key)
        found = _non_finite(v, place)
        if found is not None:
            return found
    return None


_DIGITS_BOUND = 10 ** MAX_DIGITS


def _huge_int(value: Any, where: str) -> str | None:
    """The place of the first integer in `value` of more than MAX_DIGITS digits, which
    no message may hold (protocol.MAX_DIGITS), or None."""
    if type(value) is int:
        return where if abs(value) >= _DIGITS_BOUND else None
    pairs = value.items() if type(value) is dict else enumerate(value) \
        if type(value) is list else ()
    for key, v in pairs:
        place = f"{where}[{key}]" if type(value) is list else f"{where}.{key}" if where \
            else str(key)
        found = _huge_int(v, place)
        if found is not None:
            return found
    return None


def past_the_bound(name: str, what: str, stderr: str = "") -> ProtocolViolation:
    """The failure of a call whose answer `bounded` found past the bound."""
    return ProtocolViolation(
        f"the adapter's {name}() returned {what}: an answer holds at most {MAX_LINE:,} "
        "bytes of JSON (as over the protocol); refused unread", stderr)


def not_json(name: str, e: BaseException) -> str:
    return f"the adapter's {name}() returned something that is not JSON: {e}"


# --- on a thread (no fork, or no name to load the adapter by) ---------------------------


class _Call:
    __slots__ = ("args", "done", "error", "func", "value")

    def __init__(self, func: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.func, self.args = func, args
        self.done = threading.Event()
        self.value: Any = None
        self.error: BaseException | None = None


class _Threads:
    """Calls on a daemon worker thread; one that overruns is abandoned (a thread cannot
    be killed) and later calls get a fresh worker."""

    def __init__(self, inner: Any, timeout: float) -> None:
        self.inner = inner
        self.timeout = timeout
        self._calls: queue.SimpleQueue[_Call | None] | None = None

    def _worker(self) -> queue.SimpleQueue[_Call | None]:
        calls: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        me = os.getpid()

        def loop() -> None:
            while True:
                call = calls.get()
                if call is None:  # closed: the thread ends rather than wait for ever
                    return
                try:
                    call.value = call.func(*call.args)
                except BaseException as e:
                    call.error = e
                if os.getpid() != me:  # a child the adapter forked, back here: no one
                    os._exit(0)  # waits for its answer, and it would wait for calls for ever
                call.done.set()

        threading.Thread(target=loop, daemon=True, name="mtrain-adapter").start()
        return calls

    def close(self) -> None:
        """The worker thread told to end (an abandoned one ends, if ever, once its call
        returns)."""
        if self._calls is not None:
            self._calls.put(None)
            self._calls = None

    def call(self, name: str, args: tuple[Any, ...]) -> Any:
        if self._calls is None:
            self._calls = self._worker()
        given = copy.deepcopy(args)  # the adapter's own copy; `args` stays as sent
        call = _Call(getattr(self.inner, name), given)
        self._calls.put(call)
        if not call.done.wait(self.timeout):
            self._calls = None
            raise ImplementationTimeout(
                f"the adapter's {name}() did not return within {self.timeout:g} s")
        changed = mutated(name, list(args), list(given))
        if changed is not None:
            raise AdapterError(changed)
        error = call.error
        if error is None:  # bounded as a worker's answer is: the same run judges either
            try:
                line = bounded({"value": call.value})
            except (TypeError, ValueError, RecursionError) as e:
                raise AdapterError(not_json(name, e)) from None
            if isinstance(line, str):
                raise past_the_bound(name, line)
            return call.value
        if isinstance(error, (Refused, RefusedSetup)):
            raise error
        if isinstance(error, Unsupported):
            raise NotApplicable(str(error)) from None
        if isinstance(error, SystemExit):
            raise ImplementationCrashed(f"the adapter called exit({exit_code(error)})")
        raise AdapterError(raised(name, error)) from error


if __name__ == "__main__":
    sys.exit(host_main(sys.argv[1]))
