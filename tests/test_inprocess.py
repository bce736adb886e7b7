"""In-process adapters (conformance/inprocess.py): a call that overruns cannot starve the
run, an adapter works on copies and is told when it changes them, and whatever it
raises (KeyboardInterrupt, SystemExit, dying) is that call's result (issue 13)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from procwatch import alive

from mtrain.cli import main
from mtrain.conformance import inprocess
from mtrain.conformance.adapter import ReferenceImplementation, ruleset_json
from mtrain.conformance.adapter_loading import load_adapter
from mtrain.conformance.inprocess import AdapterError, TimedImplementation
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import table_state

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "data" / "fixtures"
ADAPTERS = HERE / "broken_impls" / "adapters.py"

RS = catalog().ruleset("pagat")
RJ = ruleset_json(RS)
TABLE = {"hands": {0: ["5-3", "9-1"], 1: ["11-11", "10-0"]},
         "trains": {0: ["12-5"], 1: ["12-3"]}}
STATE = table_state(TABLE, RS)

posix = pytest.mark.skipif(not hasattr(os, "fork"), reason="worker processes need fork")


def conform(capsys: pytest.CaptureFixture[str], *args: str,
            fixtures: Path = FIXTURES) -> tuple[int, dict[str, Any]]:
    rc = main(["conform", "--fixtures", str(fixtures), "--format", "json", *args])
    return rc, json.loads(capsys.readouterr().out)


def started_since(before: set[threading.Thread]) -> list[threading.Thread]:
    """The threads alive now that were not in `before`: those the step under test
    started. Counting all of them would count, too, threads of earlier tests that end
    meanwhile (under xdist they do, at any moment)."""
    return [t for t in threading.enumerate() if t not in before]


def not_passing(report: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(r["fixture"], r["status"], r["message"]) for r in report["results"]
            if r["status"] != "pass"]


def fixture(fid: str, scores: list[int]) -> str:
    return f"""- id: {fid}
  description: Seat 0 plays its 5-3 on its own train, totals {scores}
  clauses: [TRAIN-2]
  source: pagat
  table:
    hands: {{0: [5-3, 9-1], 1: [11-11, 10-0]}}
    trains: {{0: [12-5], 1: [12-3]}}
    scores: {scores}
  expect:
    - variants: [pagat]
      legal: [play 5-3 on 0]
"""


@pytest.mark.slow  # the spinning calls burn up to 4 x the timeout (8 CPU s) in workers
@posix
def test_spinning_calls_leave_nothing_running_and_do_not_starve_the_others(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Fixtures whose legal() spins for ever, holding the interpreter, among some that make
    # no slow call. What starves the others is a spinning call left running once it has
    # timed out (an abandoned thread): that is checked as such, whatever the machine's
    # load, by the threads alive after the run; the calm ones passing follows (their
    # timeout gives a call of a few milliseconds 2 s: at load 22, half a second was too
    # little for a freshly forked worker's first call, and calm-000 timed out).
    before = set(threading.enumerate())
    root = tmp_path / "spin.yaml"
    root.write_text("".join(fixture(f"spin-{i:03}", [777, 0]) for i in range(4))
                    + "".join(fixture(f"calm-{i:03}", [i, 0]) for i in range(4)))
    rc, report = conform(capsys, "--adapter", f"{ADAPTERS}:Spins", "--timeout", "2",
                         "--jobs", "2", fixtures=root)
    assert started_since(before) == []  # no spinning call left behind
    assert rc == 1
    statuses = {r["fixture"]: r["status"] for r in report["results"]}
    assert {f for f, s in statuses.items() if s == "timeout"} == {
        f"spin-{i:03}" for i in range(4)}
    assert {f for f, s in statuses.items() if s == "pass"} == {
        f"calm-{i:03}" for i in range(4)}
    assert "its worker process was killed" in report["results"][0]["message"]


@posix
def test_an_adapter_that_writes_on_its_input_is_told(
        capsys: pytest.CaptureFixture[str]) -> None:
    rc, report = conform(capsys, "--adapter", f"{ADAPTERS}:Mutates", "-k", "basic-001")
    assert rc == 1
    assert {(f, s) for f, s, _ in not_passing(report)} == {("basic-001", "error")}
    assert not_passing(report)[0][2] == (
        "the adapter's legal() changed the state it was given (state.seat: 0 -> 99); "
        "an implementation must not modify its arguments")


def test_on_a_thread_too_the_adapter_gets_a_copy_and_is_told() -> None:
    impl = TimedImplementation(load_adapter(f"{ADAPTERS}:Mutates")[0], 5)
    assert not impl.isolated
    state = json.loads(json.dumps(STATE))
    with pytest.raises(AdapterError, match=r"changed the state it was given \(state.seat: "
                       r"0 -> 99\)"):
        impl.legal(RJ, state)
    assert state == STATE  # the harness's own copy is untouched


def test_a_closed_adapter_on_threads_leaves_no_thread_behind() -> None:
    # an adapter loaded from a file path (no MODULE:OBJECT name) runs its calls on a
    # thread: each implementation closed used to leave it blocked for good
    before = set(threading.enumerate())
    started: set[threading.Thread] = set()
    for _ in range(3):
        impl = TimedImplementation(load_adapter(f"{ADAPTERS}:Mutates")[0], 5)
        assert not impl.isolated
        with pytest.raises(AdapterError):
            impl.legal(RJ, json.loads(json.dumps(STATE)))
        started.update(started_since(before))
        impl.close()
    assert len(started) == 3  # a thread each: those are the ones that must end
    deadline = time.monotonic() + 30  # the threads end as they read the close
    while started_since(before) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert started_since(before) == []


@pytest.mark.parametrize("isolated", [
    pytest.param(True, marks=posix), False])
def test_keyboard_interrupt_and_exit_from_an_adapter_are_results(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        isolated: bool) -> None:
    monkeypatch.setattr(inprocess, "CAN_FORK", isolated and inprocess.CAN_FORK)
    rc, report = conform(capsys, "--adapter", f"{ADAPTERS}:Interrupts")
    assert rc == 1 and report["summary"]["pass"] == 10  # the run went on to the end
    bad = not_passing(report)
    assert [(f, s) for f, s, _ in bad] == [("scoring-002", "error")] * 2
    assert bad[0][2].startswith("the adapter's winners() raised KeyboardInterrupt (at ")
    rc, report = conform(capsys, "--adapter", f"{ADAPTERS}:Exits", "-k", "scoring-002")
    assert rc == 1
    assert [(s, m) for _, s, m in not_passing(report)] == [
        ("crash", "the adapter called exit(4)")] * 2


@posix
def test_a_worker_that_dies_is_a_crash_and_the_next_call_gets_a_new_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    rc, report = conform(capsys, "--adapter", f"{ADAPTERS}:Exits", "-k", "basic")
    assert rc == 1
    bad = not_passing(report)
    assert [(f, s) for f, s, _ in bad] == [("basic-001", "crash"), ("basic-001", "crash")]
    assert bad[0][2] == "the adapter's worker process exited with code 3 during legal()"
    assert report["summary"]["pass"] == 2  # basic-002 under both rule sets


@posix
def test_printing_does_not_corrupt_the_answers(capsys: pytest.CaptureFixture[str]) -> None:
    rc, report = conform(capsys, "--adapter", f"{ADAPTERS}:Chatty")
    assert rc == 0 and report["summary"]["pass"] == 12


@posix
def test_the_worker_goes_when_the_harness_is_killed(tmp_path: Path) -> None:
    script = f"""
import json, sys
sys.path.insert(0, {str(ADAPTERS.parent)!r})
from mtrain.conformance.inprocess import TimedImplementation
impl = TimedImplementation(None, 60, {f"{ADAPTERS}:Spins"!r})
impl.info()
print(impl._host._proc.popen.pid, impl._host._worker, flush=True)
impl.legal(json.loads({json.dumps(RJ)!r}),
           {{**json.loads({json.dumps(STATE)!r}), "scores": [777, 0]}})
"""
    spinning = tmp_path / "spinning"
    harness = subprocess.Popen([sys.executable, "-c", script], cwd=tmp_path,
                               stdout=subprocess.PIPE, text=True,
                               env={**os.environ, "MTRAIN_TEST_SPINNING": str(spinning)})
    pids: list[int] = []
    try:
        assert harness.stdout is not None
        pids = [int(p) for p in harness.stdout.readline().split()]
        assert len(pids) == 2 and all(map(alive, pids))
        deadline = time.monotonic() + 30
        while not spinning.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert spinning.exists(), "the worker never started spinning"
        harness.send_signal(signal.SIGKILL)
        harness.wait(5)
        deadline = time.monotonic() + 30
        while any(map(alive, pids)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(map(alive, pids))
    finally:
        if harness.poll() is None:
            harness.kill()
            harness.wait()
        for pid in pids:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_reference_results_are_the_same_through_a_worker() -> None:
    ref = ReferenceImplementation()
    impl = TimedImplementation(None, 10, f"{ADAPTERS}:Reference")
    try:
        assert impl.legal(RJ, STATE) == ref.legal(RJ, STATE)
        assert impl.info()["name"] == "mtrain-reference"
    finally:
        impl.close()
