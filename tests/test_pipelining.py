"""Requests written ahead across tasks (conformance/ahead.py, lookahead.py, speed-s58):
answers kept for the task that asks them, and every failure met reading ahead charged to
the request it happened on, the requests behind it asked again of a new process."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from command_errors import FAR

from mtrain.conformance.ahead import in_step
from mtrain.conformance.child import ChildProcess
from mtrain.conformance.process import (
    ImplementationCrashed,
    ImplementationTimeout,
    ProcessImplementation,
    ProtocolViolation,
)

# answers `winners` requests with [], the state's "n" in its seat list; "n" = CRASH exits,
# HANG sleeps, TWICE writes its answer twice
ENGINE = """\
import json, sys, time
for line in sys.stdin:
    req = json.loads(line)
    rid, kind = req["id"], req["type"]
    if kind == "hello":
        out = {"id": rid, "ok": True, "protocol": 1, "name": "n", "version": "1",
               "variants": ["*"]}
    elif kind == "shutdown":
        print(json.dumps({"id": rid, "ok": True}), flush=True)
        break
    else:
        n = req["state"]["n"]
        if n == CRASH:
            sys.exit(3)
        if n == HANG:
            time.sleep(600)
        out = {"id": rid, "ok": True, "winners": [n]}
    text = json.dumps(out) + "\\n"
    sys.stdout.write(text * (2 if kind != "hello" and req["state"]["n"] == TWICE else 1))
    sys.stdout.flush()
"""


def engine(tmp_path: Path, crash: int = -1, hang: int = -1, twice: int = -1,
           timeout: float = FAR) -> ProcessImplementation:
    path = tmp_path / "engine.py"
    path.write_text(ENGINE.replace("CRASH", str(crash)).replace("HANG", str(hang))
                    .replace("TWICE", str(twice)), encoding="utf-8")
    return ProcessImplementation([sys.executable, str(path)], timeout=timeout,
                                 start_timeout=FAR)


def ask(n: int) -> tuple[str, dict[str, bytes]]:
    return ("winners", {"ruleset": b"{}", "state": b'{"n":%d}' % n})


def call(impl: ProcessImplementation, n: int) -> Any:
    kind, fields = ask(n)
    return impl.call_encoded(kind, **fields)["winners"]


@pytest.fixture
def sends(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every write to a program's stdin."""
    written: list[bytes] = []
    send = ChildProcess.send

    def counted(self: ChildProcess, data: bytes) -> None:
        written.append(data)
        send(self, data)

    monkeypatch.setattr(ChildProcess, "send", counted)
    return written


def test_answers_written_ahead_wait_for_their_task_behind_a_call_of_another(
        tmp_path: Path, sends: list[bytes]) -> None:
    # before: send_ahead had no owners, and a call that was not the next written ahead
    # read and dropped every answer written ahead (each task asked again, a round trip)
    with engine(tmp_path) as impl:
        impl.start()
        impl.send_ahead([ask(1), ask(2), ask(3)], ["a", "b", "b"])
        impl.own("a")
        assert call(impl, 1) == [1]
        assert call(impl, 9) == [9]  # a's own next request: written behind b's
        impl.own("b")
        assert call(impl, 2) == [2] and call(impl, 3) == [3]
        assert impl.requests == 5 and impl.asked == 4 and impl.starts == 1
    assert len(sends) == 4  # the hello, the three ahead in one write, 9, the shutdown


def test_a_call_that_asks_otherwise_drops_its_tasks_answers_not_the_others(
        tmp_path: Path) -> None:
    with engine(tmp_path) as impl:
        impl.start()
        impl.send_ahead([ask(1), ask(2), ask(3)], ["a", "a", "b"])
        impl.own("a")
        assert call(impl, 2) == [2]  # not a's next (1): a's are dropped, 2 asked anew
        assert call(impl, 1) == [1]
        impl.own("b")
        assert call(impl, 3) == [3]
        assert impl.requests == 6  # the hello, three ahead, 2 and 1 again


@pytest.mark.parametrize("exited", [False, True])
def test_a_crash_ahead_is_charged_to_the_request_it_died_on(tmp_path: Path,
                                                            exited: bool) -> None:
    with engine(tmp_path, crash=2) as impl:
        impl.start()
        impl.send_ahead([ask(1), ask(2), ask(3)], ["a", "b", "c"])
        impl.own("a")
        assert call(impl, 1) == [1]
        if exited:  # gone before 9 is written: the write fails (it was charged to 9)
            proc = impl._proc
            assert proc is not None
            proc.popen.wait(FAR)
        # written behind 2 and 3: the program died on 2, so 9 is asked of a new one
        assert call(impl, 9) == [9]
        assert impl.starts == 2 and impl.failures == []
        impl.own("b")
        with pytest.raises(ImplementationCrashed, match="before answering the winners"):
            call(impl, 2)
        impl.own("c")
        assert call(impl, 3) == [3]  # never read by the program that died: asked again
        assert impl.starts == 2 and len(impl.failures) == 1


def test_a_hang_ahead_is_charged_to_the_request_it_hangs_on(tmp_path: Path) -> None:
    with engine(tmp_path, hang=2, timeout=0.5) as impl:
        impl.start()
        impl.send_ahead([ask(1), ask(2), ask(3)], ["a", "b", "c"])
        impl.own("a")
        assert call(impl, 1) == [1]
        assert call(impl, 9) == [9]
        impl.own("b")
        with pytest.raises(ImplementationTimeout) as timed_out:
            call(impl, 2)
        assert timed_out.value.message.startswith(
            "no answer to the winners request within 0.5 s"), timed_out.value.message
        impl.own("c")
        assert call(impl, 3) == [3]
        assert impl.starts == 2


def test_an_answer_written_twice_is_reported_on_the_request_whose_place_it_took(
        tmp_path: Path) -> None:
    with engine(tmp_path, twice=1) as impl:
        impl.start()
        impl.send_ahead([ask(1), ask(2), ask(3)], ["a", "b", "c"])
        impl.own("a")
        assert call(impl, 1) == [1]
        assert call(impl, 9) == [9]  # out of step behind it: asked of a new program
        impl.own("b")
        with pytest.raises(ProtocolViolation, match=r"\(id 3\) carries id 2, an earlier "
                           "request's: it answered that request twice"):
            call(impl, 2)
        impl.own("c")
        assert call(impl, 3) == [3]
        assert impl.starts == 2


@pytest.mark.parametrize("line, rid, said", [
    (b'{"id":7,"ok":true}\n', 7, True),
    (b'{"id": 7, "ok": true}\n', 7, True),
    (b' { "id" : 7 }\n', 7, True),
    (b'{"id":70,"ok":true}\n', 7, False),
    (b'{"id":7.0,"ok":true}\n', 7, False),
    (b'{"id":"7","ok":true}\n', 7, False),
    (b'{"ok":true,"id":7}\n', 7, False),  # read in full by its call, which finds it in step
    (b"hello\n", 7, False),
])
def test_a_line_read_ahead_is_in_step_by_its_id(line: bytes, rid: int, said: bool) -> None:
    assert in_step(line, rid) is said


def test_conform_writes_the_first_requests_of_the_next_tasks_at_once(
        tmp_path: Path, sends: list[bytes]) -> None:
    # before: one write (and one wake-up of each side) per task at least
    from mtrain.cli import main

    fixtures = Path(__file__).parents[1] / "conformance" / "fixtures" / "doubles"
    report = tmp_path / "report.json"
    assert main(["conform", "--impl", shlex.join([sys.executable, "-m", "mtrain", "serve"]),
                 "--fixtures", str(fixtures), "--variant", "pagat", "--situations", "0",
                 "--format", "json", "--output", str(report)]) == 0
    results = json.loads(report.read_text(encoding="utf-8"))["results"]
    ran = [r for r in results if r["status"] == "pass"]
    assert len(ran) > 40, len(results)
    # each result that ran asked at least one request: before, each was at least a write
    assert len(sends) < len(ran), (len(sends), len(ran))
