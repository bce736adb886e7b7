"""Implementations that misbehave in ways a demanding user meets (tests/broken_impls/):
each is charged at once with what it did wrong, and a run against one that never
recovers finishes, rather than starting it again for every request."""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.process import (
    ImplementationCrashed,
    ImplementationTimeout,
    ProcessImplementation,
    ProtocolViolation,
)

HERE = Path(__file__).resolve().parent
BROKEN = HERE / "broken_impls"
FIXTURES = HERE / "data" / "fixtures"
TOTAL = 12  # results of tests/data/fixtures (test_conform.py)


def broken(script: str, *args: object) -> list[str]:
    return [sys.executable, str(BROKEN / script), *map(str, args)]


def conform(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    rc = main(["conform", "--fixtures", str(FIXTURES), "--format", "json", *args])
    return rc, json.loads(capsys.readouterr().out)


def ask(impl: ProcessImplementation) -> None:
    """One request after the hello (any will do: the broken scripts spoil the answer)."""
    impl.call("hello", protocol=1)


@pytest.mark.parametrize("offset, shown", [("1", "carries id 3"), ("-1", "carries id 1"),
                                           ("null", "carries id null"),
                                           ("str", 'carries id "2"')])
def test_a_wrong_request_id_is_a_protocol_error_at_once(offset: str, shown: str) -> None:
    # A long timeout: waiting for the right id instead would show as a timeout.
    with ProcessImplementation(broken("wrong_id.py", 2, offset), timeout=120) as impl, \
            pytest.raises(ProtocolViolation) as info:
        ask(impl)
    assert shown in info.value.message, info.value.message
    assert "(id 2)" in info.value.message and "was killed" in info.value.message


LIMIT = 3
"""A failure limit below the default (10, which conform's run below meets): the same
counting with 3 program starts, not 10, each about 0.15 CPU s."""


def test_an_implementation_that_never_recovers_is_given_up(tmp_path: Path) -> None:
    impl = ProcessImplementation(broken("wrong_id.py"), timeout=120, failure_limit=LIMIT)
    messages = []
    with impl:
        for _ in range(impl.failure_limit + 5):
            with pytest.raises(ProtocolViolation) as info:
                ask(impl)
            messages.append(info.value)
    assert impl.starts == impl.failure_limit  # not one start per request
    assert not any(e.given_up for e in messages[:impl.failure_limit])
    last = messages[-1]
    assert last.given_up and last.message.startswith("not run: ")
    assert f"failed {impl.failure_limit} requests in a row" in last.message
    assert "carries id" in last.message  # the last real failure, quoted


def test_a_good_answer_between_failures_keeps_it_running() -> None:
    # exits at its second request after the hello: one good answer, then a crash, again
    impl = ProcessImplementation(broken("crash_every.py", 2), timeout=120,
                                 failure_limit=LIMIT)
    outcomes = []
    with impl:
        for _ in range(2 * impl.failure_limit + 2):
            try:
                ask(impl)
                outcomes.append("ok")
            except ImplementationCrashed as e:
                assert not e.given_up
                outcomes.append("crash")
    assert outcomes == ["ok", "crash"] * (impl.failure_limit + 1)


# slow: a whole conform run against wrong ids; a wrong id charged at once is
# test_a_wrong_request_id_is_a_protocol_error_at_once's, in the fast loop
@pytest.mark.slow
def test_conform_against_wrong_ids_finishes_and_charges_each(
        capsys: pytest.CaptureFixture[str]) -> None:
    rc, report = conform(capsys, "--impl", shlex.join(broken("wrong_id.py")),
                         "--timeout", "120")
    assert rc == 1
    results = report["results"]
    assert len(results) == TOTAL and report["summary"]["error"] == TOTAL
    assert "carries id" in results[0]["message"]
    assert "in a row" in results[-1]["message"]  # given up, not started a 12th time


def faulty(fault: str, k: int = 2) -> list[str]:
    return broken("misc_faults.py", fault, k)


@pytest.mark.parametrize("fault, shown", [
    ("float-id", "(id 2) carries id 2.0: the id sent, written as a decimal"),
    ("empty-object", "(id 2) carries no id: one answer per request"),
    ("latin1", "is not JSON (not UTF-8: byte 0xe9 at byte "),
])
def test_answers_that_break_the_protocol(fault: str, shown: str) -> None:
    with ProcessImplementation(faulty(fault), timeout=120) as impl, \
            pytest.raises(ProtocolViolation) as info:
        ask(impl)
    assert shown in info.value.message, info.value.message


def test_an_answer_nobody_asked_for_is_caught_at_the_next_request() -> None:
    with ProcessImplementation(faulty("extra-line"), timeout=120) as impl:
        ask(impl)
        with pytest.raises(ProtocolViolation) as info:
            ask(impl)
    assert "(id 3) carries id 2" in info.value.message


def late(fault: str, sign: str) -> str:
    """The timeout message of the second request to `faulty(fault)`, which writes `sign`
    to stderr once it has written all it will: the request is written ahead, and the
    timeout (0.2 s) starts once the sign is there, so what the program wrote is there
    when the time is up however busy the machine (and no test waits seconds for it)."""
    with ProcessImplementation(faulty(fault), timeout=120) as impl:
        impl.start()
        impl.send_ahead([("hello", {"protocol": b"1"})])
        deadline = time.monotonic() + 60
        while sign not in impl.stderr_tail and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sign in impl.stderr_tail, impl.stderr_tail
        impl.timeout = 0.2
        with pytest.raises(ImplementationTimeout) as info:
            ask(impl)  # the request written ahead: its answer is waited for
        assert impl.requests == 2  # the hello at the start and this one
    return info.value.message


def test_a_line_never_ended_is_quoted_in_the_timeout() -> None:
    message = late("no-newline", "wrote half a line")
    assert message.startswith("no answer to the hello request within 0.2 s (it wrote a line "
                              "it never ended with a newline: '{\"id\":2,\"ok\":true"), message
    assert message.endswith("; the implementation was killed")


def test_an_answer_kept_in_a_buffer_is_hinted_at_in_the_timeout() -> None:
    # a node engine that collected its answers to write them at the end (found writing
    # tests/examples/js) got "no answer to the hello request within 3 s" and nothing more,
    # though its stderr showed it had read the request
    message = late("buffered", "got request 2")
    assert ("(it wrote to stderr after the request, nothing to stdout: if it answered, flush "
            "stdout after every answer") in message, message
    assert message.endswith("; the implementation was killed")


def test_a_flood_on_stderr_does_not_stop_the_answers() -> None:
    with ProcessImplementation(faulty("stderr-flood"), timeout=120) as impl:
        for _ in range(20):
            ask(impl)
        assert impl.starts == 1
        # the flood comes from the program's own thread: on a busy machine it may not have
        # reached the pipe yet after 20 answers, so its arrival is waited for (a bound on
        # the wait, not on the answers' speed)
        deadline = time.monotonic() + 60
        while "warning: zzz" not in impl.stderr_tail and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(impl.stderr_tail) <= 4096 and "warning: zzz" in impl.stderr_tail


def test_a_program_that_never_starts_is_one_block_per_failure_not_one_per_result(
        capsys: pytest.CaptureFixture[str]) -> None:
    # `--impl 'python -c'` over the corpus wrote 50,020 identical ten-line blocks (44 MB);
    # robust-s49: its hello failing stops the run, one line said once (exit 2)
    rc = main(["conform", "--fixtures", str(FIXTURES), "--impl",
               shlex.join(broken("crash_at_start.py"))])
    out, err = capsys.readouterr()
    assert rc == 2 and out == "", out
    assert err.count("\n") == 1 and "did not answer the hello (crash)" in err, err


def test_alike_failures_are_counted_and_listed_with_v() -> None:
    import io

    from mtrain.conformance.report import ALIKE_SHOWN, Report, Result
    from mtrain.conformance.report_text import render_text

    same = {"status": "crash", "messages": ["exited with code 3"], "stderr": "boom"}
    results = [Result(f"fx-{i:03}", "pagat", **same) for i in range(10)]  # type: ignore[arg-type]
    results += [Result(f"fail-{i}", "pagat", "fail", ["missing: draw"]) for i in range(5)]
    for verbose in (False, True):
        out = io.StringIO()
        render_text(Report(results), out, verbose=verbose)
        text = out.getvalue()
        assert text.count("\nCRASH fx-") == ALIKE_SHOWN
        assert text.count("\nFAIL fail-") == 5  # a rule failure is always written out
        assert f"... and {10 - ALIKE_SHOWN} more results ({10 - ALIKE_SHOWN} CRASH)" in text
        assert ("  CRASH fx-009 [pagat]" in text) is verbose
