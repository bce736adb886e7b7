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
thread, not the run. A process started in a new session of its own (setsid) is killed
too while it holds the program's stdin or stdout (child.kill_escaped); only one that
closed them as well can be left behind.
"""

from __future__ import annotations

import itertools
import queue
import re
import shlex
import threading
import time
from collections.abc import Hashable, Sequence
from typing import Any

import orjson

from mtrain import __version__
from mtrain.conformance.adapter import JSON, Refused, RefusedSetup
from mtrain.conformance.ahead import Ahead, AheadQueue, in_step
from mtrain.conformance.answer_faults import (
    crashed_before,
    hello_changed,
    not_json_hint,
    shutdown_note,
    spoken_versions,
    stray_line,
    stray_part,
    unknown_kind,
    why_silent,
    wrong_id,
)
from mtrain.conformance.child import (
    POLL,
    STOPPING,
    ChildProcess,
    Line,
    TooLong,
    describe_exit,
)
from mtrain.conformance.harness_errors import (
    FAILURES,
    ConfigurationError,
    HarnessError,
    ImplementationCrashed,
    ImplementationError,
    ImplementationTimeout,
    NotApplicable,
    ProtocolViolation,
    given_up,
)
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
    preview,
    request,
)
from mtrain.conformance.shell_syntax import shell_syntax
from mtrain.conformance.wording import json_text, why_not_run

__all__ = ["AS_EXPECTED", "FAILURES", "FAILURE_LIMIT", "KEPT_ANSWERS", "KEPT_BYTES",
           "ConfigurationError", "HarnessError", "ImplementationCrashed", "ImplementationError",
           "ImplementationTimeout", "NotApplicable", "ProcessImplementation",
           "ProtocolViolation", "command_argv", "given_up", "spoken_versions", "unknown_kind"]
"""The client, and the errors a request may end in (harness_errors.py), found here too."""

KEPT_ANSWERS = 8192
"""Answer texts known to pass `check_answer` (ProcessImplementation._passed)."""
KEPT_BYTES = 64 * 1024 * 1024
"""...and their bytes in all: lines of up to MAX_LINE each would otherwise keep gigabytes
(legal lists listed thousands of times over grew identify to 890 MB)."""

FAILURE_LIMIT = 10
"""Requests in a row whose failure killed the program (a crash, a timeout, a broken
stream) before it is not started again: one that fails every request would otherwise
cost a start, or a timeout, per request for the whole run."""


_LEADING_ID = re.compile(rb'\A\s*\{\s*"id"\s*:\s*(\d{1,18})\s*[,}]')
"""The id a line opens with, as an answer writes it, read from a line that is not JSON
(nested past the bound, a NaN further on) when only its id is asked for."""


class _Lost(Exception):
    """A request written behind one whose failure killed the program: never read."""


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
                 failure_limit: int = FAILURE_LIMIT,
                 start_timeout: float | None = None,
                 flags: tuple[str, str] = ("--timeout", "--start-timeout"),
                 hellos: dict[str, JSON] | None = None) -> None:
        self.hellos: dict[str, JSON] = {} if hellos is None else hellos
        """The first hello answer of the run's program, shared by the instances of one run
        (one per job): every later start must answer as it did."""
        self.argv = shlex.split(argv) if isinstance(argv, str) else list(argv)
        if not self.argv:
            raise ConfigurationError("the implementation command is empty")
        self.command = shlex.join(self.argv)
        self.timeout = timeout
        self.start_timeout = start_timeout
        """Seconds for the hello that opens each process (its start-up); None: `timeout`."""
        self.flags = flags
        """The options that set `timeout` and `start_timeout`, as a message names them: the
        command line's, or the pytest plugin's (--mtrain-timeout, --mtrain-start-timeout)."""
        self.max_line = max_line
        self.env = env
        self.cwd = cwd
        self.start_attempts = start_attempts
        self.starts = 0
        self.requests = 0
        self._proc: ChildProcess | None = None
        self._info: JSON | None = None
        self._ids = itertools.count(1)
        self._first_id = 1  # the id of the running process's hello
        self._failed_starts = 0
        self._last_start_error: HarnessError | None = None
        self.failure_limit = failure_limit
        self._killed_in_a_row = 0  # requests whose failure killed the program, since an answer
        self._last_failure: HarnessError | None = None
        self._lock = threading.Lock()
        self._closed = False
        self.failures: list[str] = []
        self.strays: list[str] = []
        self.notes: list[str] = []
        """What the program did outside the protocol where no result depends on it (the
        shutdown unanswered): said in the report, each once, and failing nothing."""
        self._last_request = b""  # the last request line written: a stray names it
        """Lines the program wrote after the last answer read, found at its shutdown
        (close): each is a fault of the last request it was asked."""
        # the text after `{"id":N,` of answers that decoded as orjson reads them (no key
        # given twice, no integer beyond 64 bits) and passed check_answer, with the kind
        # of request each answered: the same text under another id is read by orjson
        # alone (a run gets the same answers under dozens of rule sets)
        self._passed: dict[bytes, str] = {}
        self._passed_bytes = 0
        self._ahead = AheadQueue()  # requests written ahead of their calls
        self._behind = 0  # bytes of a request written behind the unread ones, being read
        self.asked = 0
        """Calls made (a request claimed from those written ahead counts as its call)."""

    # -- the Implementation interface -------------------------------------------------

    def info(self) -> JSON:
        if self._info is None:
            self._ensure()
        assert self._info is not None
        return self._info

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        answer = self.call("deal", ruleset=ruleset, players=players, round=round, order=order,
                           **({"draw": draw} if draw is not None else {}))
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
        self._stop()

    def settle(self) -> list[str]:
        """Shut the running program down as `close` does, reading what it wrote after its
        last answer (`strays`), but leave this open: the next request starts it again. The
        lines found now: a run that goes on asking (fuzz's shrinking) would otherwise read
        them as an answer out of order, and the program's last request go uncharged."""
        seen = len(self.strays)
        self._stop()
        return self.strays[seen:]

    def _stop(self) -> None:
        polite = not STOPPING.is_set() and self._lock.acquire(blocking=False)
        try:
            proc, self._proc = self._proc, None
            if proc is None:
                return
            if polite and proc.alive():
                try:
                    rid = next(self._ids)
                    proc.send(encode(request(rid, "shutdown")))
                    self._read_to_shutdown(proc, rid)
                    stdin = proc.popen.stdin
                    if stdin is not None:
                        stdin.close()
                except (OSError, ValueError, queue.Empty):
                    pass
                proc.exit_code(2.0)
            proc.kill()
        finally:
            if polite:  # (else the call under way, which holds the lock, finds it dead)
                self._ahead.forget()
                self._lock.release()

    def _read_to_shutdown(self, proc: ChildProcess, rid: int) -> None:
        """Read up to the answer to the shutdown request `rid`. A line before it that
        answers no request still unread (one written ahead) came after the last answer
        read: that answer was written twice, or more than an answer was written, and
        nothing after it would read it (the run's last request, answered twice, passed).
        Kept in `strays` for the run to charge to its last request."""
        outstanding = {a.rid for a in self._ahead.unread if a.proc is proc}
        self._ahead.forget()
        deadline = time.monotonic() + min(self.timeout, 2.0)
        while True:
            try:
                line = proc.receive(max(0.0, deadline - time.monotonic()))
            except queue.Empty:  # the shutdown unanswered: part of a line is said too
                if proc.unfinished():
                    self.strays.append(stray_part(proc.unfinished(), self._last_request))
                else:
                    self._note(f"the implementation did not answer the shutdown request "
                               f"within {min(self.timeout, 2.0):g} s and was killed")
                raise
            if line is None:  # the end of its stdout: it exited, or closed it, unanswering
                self._note("the implementation ended its output at the shutdown request "
                           "without answering it")
                return
            if not isinstance(line, bytes):  # too long a line
                return
            if not line.strip():
                continue
            try:
                got = decode(line).get("id")
            except ProtocolError:  # a broken answer to a request written ahead is no stray
                peeked = _LEADING_ID.match(line)
                got = int(peeked[1]) if peeked else None
            if got == rid:
                return
            if type(got) is int and got in outstanding:
                outstanding.discard(got)
                continue
            self.strays.append(stray_line(line, self._last_request))
            return  # one says it: a program that keeps writing is not read for 2 s more

    def _note(self, what: str) -> None:
        note = shutdown_note(what)  # a note, not a failure; once per program
        if note not in self.notes:
            self.notes.append(note)

    def __enter__(self) -> ProcessImplementation:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def running(self) -> bool:  # (one that died is found so at its next call)
        return self._proc is not None

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
            self.asked += 1
            entry = self._ahead.claim(kind, fields)
            if entry is not None and not entry.read:
                try:
                    self._read_through(entry)
                except _Lost:  # a request before it killed the program: asked anew
                    entry = None
            if entry is not None:
                try:
                    if entry.line is None:  # the failure met reading it, now its call's
                        raise entry.error or AssertionError("neither line nor failure")
                    answer = self._use(entry.proc, kind, entry.rid, entry.mark, entry.line,
                                       expect, entry.first_id)
                except FAILURES as e:
                    self._failed(e, self._proc is None or entry.proc is not self._proc)
                    raise
                self._killed_in_a_row = 0
                return answer
            while True:
                try:
                    proc = self._ensure()
                    rid = next(self._ids)
                    answer = self._exchange(proc, kind, rid, encode_request(rid, kind, fields),
                                            expect)
                except _Lost:  # a request written ahead of it killed the program: again
                    continue
                except FAILURES as e:
                    self._failed(e, self._proc is None)
                    raise
                self._killed_in_a_row = 0
                return answer

    def _failed(self, error: HarnessError, killed: bool) -> None:
        """Count a failure that killed the program (a wrong shape leaves it running)."""
        self.failures.append(f"{error.status}: {error.message}")
        if killed and not error.given_up:
            self._killed_in_a_row += 1
            self._last_failure = error

    def send_ahead(self, calls: Sequence[tuple[str, dict[str, bytes]]],
                   owners: Sequence[Hashable] | None = None) -> None:
        """Write these requests (kind, encoded fields) at once, before they are asked: the
        calls that follow with the same kinds and fields, in this order, read their answers
        without a round trip each. `owners`: the task each is for (see `own`), else the
        current one (ahead.AheadQueue). Only to a program already running."""
        with self._lock:
            proc = self._proc
            calls, owners = self._ahead.to_write(calls, owners)
            if proc is None or not calls:
                return
            lines = []
            for (kind, fields), owner in zip(calls, owners, strict=True):
                rid = next(self._ids)
                lines.append(encode_request(rid, kind, fields))
                self._ahead.add(Ahead(proc, kind, fields, rid, proc.stderr.mark(),
                                      self._first_id, len(lines[-1]), owner))
            self._last_request = lines[-1]
            self.requests += len(lines)
            try:
                proc.send(b"".join(lines))
            except (OSError, ValueError):  # it has exited: the calls will say so
                self._ahead.lose(proc)

    def own(self, owner: Hashable) -> None:
        """The calls from now on are `owner`'s (a task): they claim its requests ahead."""
        with self._lock:
            self._ahead.own(owner)

    def _read_through(self, last: Ahead | None) -> None:
        """Read the answers written ahead, in order, up to `last` (None: all), each kept
        for its call; a failure that kills the program (a line out of step too) is its
        request's, and the requests after it are lost: _Lost if `last` is one of them."""
        unread = self._ahead.unread
        while unread:
            entry = unread.popleft()
            proc = entry.proc
            try:
                entry.line = self._line(proc, entry.kind, entry.rid, entry.mark)
            except FAILURES as e:
                entry.error = e
                self._ahead.lose(proc)
                if entry is last:
                    return
                raise _Lost from None
            if not in_step(entry.line, entry.rid):  # the stream is no longer in step: its
                self._drop(proc)  # call says how (as a call waiting on it would have)
                if entry is not last:
                    raise _Lost
            if entry is last:
                return

    def _ensure(self) -> ChildProcess:
        if self._proc is not None:
            return self._proc
        if self._closed:
            raise given_up(HarnessError("not run: the harness is stopping"))
        if self._failed_starts >= self.start_attempts and self._last_start_error is not None:
            last = self._last_start_error
            never = type(last)(
                f"not run: the implementation failed to start {self._failed_starts} times in "
                f"a row, so it is not started again (last time: {last.message})", last.stderr)
            never.starting = True
            raise given_up(never)
        failed = self._last_failure
        if self._killed_in_a_row >= self.failure_limit and failed is not None:
            raise given_up(type(failed)(
                f"not run: the implementation failed {self._killed_in_a_row} requests in a "
                "row, each time killed and started again, so it is not started again (last "
                f"time: {failed.message})", failed.stderr))
        try:
            proc = ChildProcess(self.argv, self.max_line, self.env, self.cwd)
        except OSError as e:
            raise ConfigurationError(
                f"cannot run {self.command}: {why_not_run(self.argv[0], e)}") from None
        self.starts += 1
        self._proc = proc
        try:
            rid = next(self._ids)
            self._first_id = rid
            answer = self._exchange(proc, "hello", rid,
                                    encode(hello(rid, f"mtrain {__version__}")),
                                    starting=True)
        except ErrorAnswer as e:
            self._drop(proc)
            if e.kind == "protocol-version":
                raise ConfigurationError(
                    f"{self.command} does not speak protocol {PROTOCOL_VERSION}"
                    f"{spoken_versions(e.detail)}: {e.message}") from None
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
        info = {k: v for k, v in answer.items() if k not in ("id", "ok")}
        first = self.hellos.setdefault("first", info)  # (one step: the first one wins)
        if info != first:
            # the run reads what the program plays from its first hello: a start that
            # says otherwise is another implementation than the one the run tests
            self._drop(proc)
            err = ProtocolViolation(hello_changed(first, info), proc.stderr.tail())
            self._start_failed(err)
            raise err
        self._failed_starts = 0
        self._info = info
        return proc

    def _start_failed(self, error: HarnessError) -> None:
        self._failed_starts += 1
        self._last_start_error = error
        error.starting = True
        error.message = f"while starting: {error.message}"
        error.args = (error.message,)

    def _drop(self, proc: ChildProcess) -> None:
        proc.kill()
        if self._proc is proc:
            self._proc = None
        if self._ahead.unread and self._ahead.unread[0].proc is proc:
            self._ahead.lose(proc)

    def _exchange(self, proc: ChildProcess, kind: str, rid: int, request_line: bytes,
                  expect: bytes | None = None, starting: bool = False) -> JSON:
        mark = proc.stderr.mark()
        self.requests += 1
        self._last_request = request_line
        try:
            proc.send(request_line)
        except (OSError, ValueError):
            if self._ahead.unread:  # it died on one written before: that one's failure
                self._read_through(None)
            raise self._crashed(proc, kind, stdin=True) from None
        if self._ahead.unread:  # the answers to requests written ahead of it come first
            self._behind = len(request_line)
            try:
                self._read_through(None)
            finally:
                self._behind = 0
        return self._answer(proc, kind, rid, mark, expect, starting)

    def _answer(self, proc: ChildProcess, kind: str, rid: int, mark: int,
                expect: bytes | None, starting: bool = False) -> JSON:
        """The checked answer to request `rid`, already sent (see _exchange); `starting`:
        the hello that opens the process, bounded by `start_timeout`."""
        line = self._line(proc, kind, rid, mark, starting)
        return self._use(proc, kind, rid, mark, line, expect, self._first_id)

    def _line(self, proc: ChildProcess, kind: str, rid: int, mark: int,
              starting: bool = False) -> bytes:
        """The line answering request `rid`, within its timeout counted from now (blank
        lines skipped); a crash, a timeout or a line too long raised as its failure."""
        start = self.start_timeout if starting and self.start_timeout is not None else None
        bound = self.timeout if start is None else start
        deadline = time.monotonic() + bound
        empty = 0  # lines of nothing but spaces, skipped: no answer, and no fault alone
        while True:
            line = self._next_line(proc, deadline)
            if line is _EXITED:
                raise self._crashed(proc, kind)
            if line is _LATE:
                unfinished = proc.unfinished()
                unread = proc.stdin_unread()
                pending = proc.stdin_pending()
                # the requests written after this one wait in its stdin too: only
                # bytes beyond theirs are this request's
                later = self._ahead.behind(proc) + self._behind
                self._drop(proc)
                wrote = why_silent(rid=rid, starting=starting, flags=self.flags,
                                   unfinished=unfinished, unread=unread, empty=empty,
                                   wrote_stderr=bool(proc.stderr.text(mark)),
                                   pending=pending, later=later)
                which = f" ({self.flags[1]})" if start is not None else ""
                raise ImplementationTimeout(
                    f"no answer to the {kind} request within {bound:g} s{which}{wrote}; "
                    "the implementation was killed", proc.stderr.tail())
            if line is None:
                raise self._crashed(proc, kind)
            if isinstance(line, TooLong):
                self._drop(proc)
                raise ProtocolViolation(
                    f"the answer to the {kind} request is a line longer than "
                    f"{self.max_line} bytes; the implementation was killed", proc.stderr.tail())
            assert isinstance(line, bytes)
            if line.strip():
                return line
            empty += 1

    def _use(self, proc: ChildProcess, kind: str, rid: int, mark: int, line: bytes,
             expect: bytes | None, first_id: int) -> JSON:
        """The checked answer `line` to request `rid` (`first_id`: its process's hello's)."""
        if expect is not None and line == b'{"id":%d,"ok":true,%s}\n' % (rid, expect):
            return AS_EXPECTED
        head = b'{"id":%d,' % rid
        rest = line[len(head):] if line.startswith(head) else None
        if rest is not None and self._passed.get(rest) == kind:
            passed: JSON = orjson.loads(line)
            return passed
        try:
            answer = decode(line)
        except ProtocolError as e:
            if not line.endswith(b"\n"):  # its output ended in the middle of a line
                code = proc.end()
                self._drop(proc)
                raise ImplementationCrashed(
                    f"the implementation {describe_exit(code)} in the middle of its answer "
                    f"to the {kind} request (a line with no newline: {preview(line, 120)})",
                    proc.stderr.tail()) from None
            self._drop(proc)
            hint = not_json_hint(line)
            raise ProtocolViolation(
                f"the answer to the {kind} request is {e}{hint}; the implementation was killed",
                proc.stderr.tail()) from None
        got = answer.get("id")
        if type(got) is not int or got != rid:  # 2.0 or true is not the id 2 or 1 sent
            self._drop(proc)
            raise ProtocolViolation(
                f"the answer to the {kind} request (id {rid}) "
                f"{wrong_id(answer, rid, first_id)}; the implementation was killed",
                proc.stderr.tail())
        try:
            checked = check_answer(kind, rid, answer)
            if rest is not None and _orjson_writes(checked, line):
                # passed: the same text under another id reads (orjson.loads gives back
                # what it wrote) and passes alike
                if len(self._passed) >= KEPT_ANSWERS or \
                        self._passed_bytes + len(rest) > KEPT_BYTES:
                    self._passed.clear()
                    self._passed_bytes = 0
                if len(rest) <= KEPT_BYTES:
                    self._passed[rest] = kind
                    self._passed_bytes += len(rest)
            return checked
        except ErrorAnswer as e:
            if kind == "hello":
                raise
            if e.kind == "unsupported":
                raise NotApplicable(e.message) from None
            if e.kind == "refused-setup":
                clause = e.detail.get("clause")
                if clause is not None and not isinstance(clause, str):  # as apply's refused
                    raise ProtocolViolation(
                        f"wrong answer shape to the {kind} request: error.clause must be a "
                        f"clause id or null, got {json_text(clause)}",
                        proc.stderr.tail(since=mark)) from None
                raise RefusedSetup(e.message, clause) from None
            raise ImplementationError(
                f"the implementation answered the {kind} request with an error "
                f"({e.kind}{unknown_kind(e.kind)}): {e.message}",
                proc.stderr.tail(since=mark)) from None
        except ProtocolError as e:
            raise ProtocolViolation(f"wrong answer shape to the {kind} request: {e}",
                                    proc.stderr.tail(since=mark)) from None

    @staticmethod
    def _next_line(proc: ChildProcess, deadline: float) -> Line | object:
        """The next line, or _LATE at the deadline, or _EXITED once the program has
        exited and said all it had to (a child of it may still hold the pipe open)."""
        try:
            while True:
                left = deadline - time.monotonic()
                try:  # at the deadline, a last look at what it has written
                    return proc.receive(min(max(left, 0.0), POLL))
                except queue.Empty:
                    if left <= 0:
                        return _LATE
                if not proc.alive():
                    try:
                        return proc.receive(POLL)  # its last words, if any
                    except queue.Empty:
                        return _EXITED
        except KeyboardInterrupt:  # stopping, with an answer still due: no polite close
            proc.kill()
            raise

    def _crashed(self, proc: ChildProcess, kind: str, stdin: bool = False
                 ) -> ImplementationCrashed:
        """The crash found where its stdout ended, or (`stdin`) where the request could
        not be written: a program still running had then closed its stdin, not its stdout."""
        code = proc.end()  # its stdout closed: nothing more comes of waiting (see end)
        self._drop(proc)
        return ImplementationCrashed(crashed_before(kind, code, stdin, proc.parent_killed),
                                     proc.stderr.tail())


def _orjson_writes(message: JSON, line: bytes) -> bool:
    """Whether `line` is `message` as orjson writes it, newline included (never for a
    value orjson cannot write: an integer beyond 64 bits, a lone surrogate)."""
    try:
        return orjson.dumps(message) + b"\n" == line
    except TypeError:  # orjson.JSONEncodeError is one
        return False


def command_argv(command: str) -> list[str]:
    """Split a command line as a POSIX shell would (no shell runs it)."""
    try:
        argv = shlex.split(command, posix=True)
    except ValueError as e:
        raise ConfigurationError(f"cannot split the command {command!r}: {e}") from None
    if not argv:
        raise ConfigurationError("the implementation command is empty")
    if "\0" in command:  # no program's arguments can hold one (Popen's ValueError)
        raise ConfigurationError(f"the command {command!r} holds a NUL character, which "
                                 "no program's name or arguments can")
    meant = shell_syntax(command)  # `2>log`, `| tee`, `$HOME`: an argument, unsaid
    if meant is not None:
        raise ConfigurationError(meant)
    return argv
