"""Races in the harness, each shown with the scheduling that exposes it held still: a
thread kept waiting by an event the test controls, a pipe written and read with no wait
between. None of these tests waits on a sleep or asserts on wall time; each gives the same
result on a quiet machine and at any load (session 47: the last session's CI failed on a
report read before a reader thread had run)."""

from __future__ import annotations

import os
import select
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mtrain.conformance import stderr_ring
from mtrain.conformance.process import ImplementationError, ProcessImplementation
from mtrain.conformance.stderr_ring import StderrRing


class _HeldPoll:
    """`select` as the stderr ring's reader thread sees it: its `poll` waits until the
    test releases it, as a thread the scheduler has not run yet would (at load 20, it
    may not run for a second)."""

    POLLIN = select.POLLIN

    def __init__(self) -> None:
        self.release = threading.Event()

    def poll(self) -> Any:
        real, release = select.poll(), self.release

        class Poller:
            def register(self, fd: int, events: int) -> None:
                real.register(fd, events)

            def poll(self, *timeout: float) -> list[tuple[int, int]]:
                release.wait()
                return real.poll(*timeout)

        return Poller()


@pytest.fixture
def held_reader(monkeypatch: pytest.MonkeyPatch) -> Iterator[_HeldPoll]:
    """Every stderr ring made in the test has a reader thread that never runs until the
    test ends (then it is let go, to read to the pipe's end and close it)."""
    held = _HeldPoll()
    monkeypatch.setattr(stderr_ring, "select", held)
    try:
        yield held
    finally:
        held.release.set()


def test_a_mark_counts_what_the_pipe_held_before_it_however_late_the_reader(
        held_reader: _HeldPoll) -> None:
    # mark() read the ring's count without reading the pipe: with the thread not yet run,
    # what was written before the mark counted as after it
    read, write = os.pipe()
    with os.fdopen(read, "rb", buffering=0) as stream:
        ring = StderrRing(stream)
        os.write(write, b"before the request\n")
        mark = ring.mark()
        assert ring.text(since=mark) == ""
        os.write(write, b"during the request\n")
        assert ring.text(since=mark) == "during the request\n"
        assert ring.text() == "before the request\nduring the request\n"
        os.close(write)
        held_reader.release.set()  # let go before the stream closes: it reads to the end
        assert ring.thread is not None
        ring.thread.join(120)  # a bound on a hang, far above the need
        assert not ring.thread.is_alive()


ENGINE = r"""
import json, sys
for n, line in enumerate(sys.stdin, 1):
    request = json.loads(line)
    answer = {"id": request["id"], "ok": True}
    if request["type"] == "hello":
        answer.update(protocol=1, name="says-a-lot", version="1", variants=["*"])
    elif n == 2:  # chatter on stderr, then a good answer
        sys.stderr.write("chatter of the second request\n")
        sys.stderr.flush()
        answer["winners"] = [0]
    else:  # an error answer, with nothing on stderr
        answer = {"id": request["id"], "ok": False,
                  "error": {"kind": "internal", "message": "cannot say"}}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
"""


def test_a_failing_request_quotes_none_of_the_stderr_of_the_request_before_it(
        held_reader: _HeldPoll, tmp_path: Path) -> None:
    # the third request's error quoted the second's chatter when the reader thread had not
    # yet read it by the time the third request was sent
    engine = tmp_path / "engine.py"
    engine.write_text(ENGINE)
    # the timeout bounds a hang far above the need (the program answers at once)
    with ProcessImplementation([sys.executable, str(engine)], timeout=120) as impl:
        assert impl.winners({}, {}) == [0]
        with pytest.raises(ImplementationError) as info:
            impl.winners({}, {})
        assert "cannot say" in info.value.message
        assert info.value.stderr == ""
        assert "chatter of the second request" in impl.stderr_tail  # kept, just not his


def test_an_adapter_answer_waiting_at_the_deadline_is_read_not_called_late() -> None:
    # the adapter host's reader gave up once the deadline had passed without a last look:
    # a harness kept off the processor past the deadline (a loaded machine) called an
    # answer already in the pipe a timeout. Held still here: the line is in the pipe
    # before the read, and the deadline already past.
    from mtrain.conformance.child import ChildProcess
    from mtrain.conformance.inprocess import _Host

    # one write of the whole line (atomic: under PIPE_BUF), so the pipe's waking means the
    # line is there: print() wrote 'answered' and its newline apart, and at load the read
    # between the two found no line yet (29 in 30 at load 11: the test was a flake itself)
    program = ChildProcess([sys.executable, "-c", "import os, sys\n"
                            "os.write(1, b'answered\\n')\nsys.stdin.read()"], 1 << 20, None, None)
    try:
        waiting = select.poll()
        waiting.register(program.popen.stdout.fileno(), select.POLLIN)  # type: ignore[union-attr]
        assert waiting.poll(120_000), "the program did not write"  # a bound on a hang
        assert _Host._line(program, time.monotonic() - 1.0) == b"answered\n"
    finally:
        program.kill()


# --- the fuzz shrinker's budget ------------------------------------------------------------


class _LoadedClock:
    """`time` as the shrinker sees it on a machine so loaded that every look at the clock
    finds 100 s gone (each candidate's judging kept off the processor)."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 100.0
        return self.now


def _shrink_local_bug(tmp_path: Path, **budget: Any) -> Any:
    from test_fuzz import DrawsWhilePlayable

    from mtrain.conformance import fuzz as F

    report = F.fuzz(F.Target.of(DrawsWhilePlayable(), "draws-while-playable"), ["pagat"], 10,
                    1, out=tmp_path, **budget)
    [group] = report.new
    return group


@pytest.mark.slow  # five fuzz runs of ten games, ~2 CPU s
def test_a_shrink_budget_in_tries_cuts_the_same_at_any_load(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shrinker stopped after wall-clock seconds only, so a test's shrunk table (test_fuzz's
    "shrunk to two players") depended on the machine's load; counted in tries it does not.
    The loaded clock, patched into the shrinker alone, shows both: a budget in seconds is
    spent before the first candidate, one in tries gives the quiet machine's table."""
    from mtrain.conformance.fuzz import shrink

    quiet = _shrink_local_bug(tmp_path / "quiet", shrink_seconds=None, shrink_tries=400)
    cut = _shrink_local_bug(tmp_path / "cut", shrink_seconds=None, shrink_tries=5)
    monkeypatch.setattr(shrink, "time", _LoadedClock())
    loaded = _shrink_local_bug(tmp_path / "loaded", shrink_seconds=None, shrink_tries=400)
    cut_loaded = _shrink_local_bug(tmp_path / "cut-loaded", shrink_seconds=None, shrink_tries=5)
    by_seconds = _shrink_local_bug(tmp_path / "seconds", shrink_seconds=10)
    # the whole shrink needs fewer than 400 tries (50 when written): the bound never bites
    assert quiet.shrink_tries < 400 and len(quiet.shrunk.table["hands"]) == 2
    assert (loaded.shrunk, loaded.shrink_tries) == (quiet.shrunk, quiet.shrink_tries)
    # a budget that bites stops at its count, loaded or not, on the same table
    assert cut.shrink_tries == cut_loaded.shrink_tries == 5
    assert cut_loaded.shrunk == cut.shrunk != quiet.shrunk
    # the control: seconds on the loaded clock are gone before the first try
    assert by_seconds.shrink_tries == 0 and by_seconds.shrunk != quiet.shrunk


def test_fuzz_refuses_a_negative_shrink_budget(capsys: pytest.CaptureFixture[str]) -> None:
    from mtrain.cli import main

    assert main(["fuzz", "--mutant", "pass-no-marker", "--shrink-tries", "-1"]) == 2
    assert "--shrink-tries must be at least 0" in capsys.readouterr().err


# --- a program writing on stderr faster than it is read ------------------------------------


class _EndlessWriter:
    """`os` as the stderr ring sees it when the program writes faster than it is read: each
    time the pipe would be empty, more has come. After 10,000 such reads a reader that
    reads until the pipe is empty is stopped with an error (it would read on forever)."""

    def __init__(self) -> None:
        self.refills = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)

    def read(self, fd: int, n: int) -> bytes:
        try:
            return os.read(fd, n)
        except BlockingIOError:
            self.refills += 1
            if self.refills > 10_000:
                raise AssertionError("read on and on: the pipe never emptied") from None
            return b"z" * n


def test_a_program_writing_stderr_faster_than_it_is_read_does_not_hold_text(
        held_reader: _HeldPoll, monkeypatch: pytest.MonkeyPatch) -> None:
    # text() and mark() read until the pipe was empty: a program that kept it full kept
    # them reading. They read what the pipe held when asked (all that was written before
    # the answer they quote) and stop.
    writer = _EndlessWriter()
    monkeypatch.setattr(stderr_ring, "os", writer)
    read, write = os.pipe()
    with os.fdopen(read, "rb", buffering=0) as stream:
        ring = StderrRing(stream, limit=1024)
        os.write(write, b"before the answer\n")
        assert ring.text() == "before the answer\n"
        mark = ring.mark()
        os.write(write, b"x" * 3000 + b"\nlast words\n")  # more than the ring keeps
        assert ring.text(since=mark).endswith("x\nlast words\n")
        assert len(ring.text(since=mark)) == 1024
        assert writer.refills == 0  # not one read past what the pipe held
        os.close(write)
        monkeypatch.setattr(stderr_ring, "os", os)  # the end read as it comes
        held_reader.release.set()
        assert ring.thread is not None
        ring.thread.join(120)  # a bound on a hang, far above the need
        assert not ring.thread.is_alive()


# --- an interrupt as a process starts ------------------------------------------------------


def test_an_interrupt_between_a_start_and_its_registration_still_kills_the_process(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # SIGTERM handled after Popen returned and before the process was registered raised
    # out of the start: the process, in a group of its own, was left running (waiting on
    # its stdin for ever). Here the signal comes in that window, every time: raised to
    # the main thread itself, its handler runs before Popen's stand-in returns.
    import signal
    import subprocess

    from mtrain.conformance import child

    started: list[subprocess.Popen[bytes]] = []
    real = subprocess.Popen

    def popen_then_interrupt(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        started.append(real(*args, **kwargs))
        signal.raise_signal(signal.SIGTERM)
        return started[-1]

    monkeypatch.setattr(subprocess, "Popen", popen_then_interrupt)
    try:
        with pytest.raises(child.Interrupted), child.stop_on_signals():
            child.ChildProcess([sys.executable, "-c", "import sys; sys.stdin.read()"],
                               1 << 20, None, None)
        [proc] = started
        # killed as the command ended (a bound far above the need: it is killed at once)
        assert proc.wait(timeout=120) == -signal.SIGKILL
    finally:
        child.STOPPING.clear()  # as the next command's start would: later closes are polite
        for p in started:
            if p.poll() is None:
                p.kill()
                p.wait()
            for f in (p.stdin, p.stdout, p.stderr):
                if f is not None:
                    f.close()
