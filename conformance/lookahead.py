"""The first requests of the tasks to come, written before they run (pool.run_tasks).

Through the protocol, each request the harness waits on costs both processes a wake-up;
a task's first requests (a deal, the first step, or a check's questions about its table)
depend on no answer, so those of the next tasks are written in one go and their answers
read as the tasks ask them (process.ProcessImplementation.send_ahead, ahead.py). What a
task asks first is found by running it against a recorder that stops it at its first
call: the same code path as the real run, so nothing here knows what a task asks. A
request a task turns out not to ask is read and dropped; a dependent one (a step after
the first, the check after the steps) is written as ever, one round trip each.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from mtrain.conformance.adapter import JSON
from mtrain.conformance.process import ProcessImplementation

if TYPE_CHECKING:
    from mtrain.conformance.selection import Task

TASKS_AHEAD = 32
"""Tasks whose first requests go out in one write (about 60 requests, 100 KB: beyond a
pipe's buffer the writer reads answers as it writes, child.ChildProcess.send)."""

Call = tuple[str, dict[str, bytes]]


class _Asked(BaseException):
    """The recorded task's first answer is needed: it stops there (a BaseException, so
    that no handler for the implementation's errors takes it for one)."""


class _Recorder(ProcessImplementation):
    """The requests a task would write before its first answer, written nowhere."""

    def __init__(self, real: ProcessImplementation) -> None:  # no process of its own
        self._real = real
        self.calls: list[Call] = []

    def info(self) -> JSON:
        return self._real.info()

    def send_ahead(self, calls: Sequence[Call], owners: Sequence[Hashable] | None = None
                   ) -> None:
        self.calls.extend(calls)

    def call_encoded(self, kind: str, expect: bytes | None = None, **fields: bytes) -> JSON:
        if not self.calls:
            self.calls.append((kind, fields))
        raise _Asked

    def close(self) -> None:
        pass


class Lookahead:
    """Writes the first requests of tasks to come to one implementation behind the
    protocol, and tells it whose task runs (`ProcessImplementation.own`)."""

    def __init__(self, impl: ProcessImplementation) -> None:
        self.impl = impl
        self._recorder = _Recorder(impl)

    @staticmethod
    def of(impl: Any) -> Lookahead | None:
        """A lookahead for `impl` if it is a process behind the protocol, else None."""
        return Lookahead(impl) if type(impl) is ProcessImplementation else None

    def write(self, run: Callable[[Task, Any], Any], tasks: Sequence[Task],
              owners: Sequence[Hashable]) -> None:
        """The first requests of `tasks` (each owned by its entry of `owners`), at once;
        `run(task, impl)` runs a task (pool.Runner.run)."""
        if not self.impl.running:
            return  # the first task starts it: its answers would have nowhere to go
        calls: list[Call] = []
        whose: list[Hashable] = []
        recorder = self._recorder
        for task, owner in zip(tasks, owners, strict=True):
            recorder.calls = []
            with contextlib.suppress(_Asked):
                run(task, recorder)
            calls += recorder.calls
            whose += [owner] * len(recorder.calls)
        self.impl.send_ahead(calls, whose)

    def begin(self, owner: Hashable) -> None:
        self.impl.own(owner)
