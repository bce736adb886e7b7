"""The harness owns every process it starts and everything they start: killed as a group
on a timeout, a crash, at the end of the run, on SIGINT and SIGTERM, with --jobs N;
and a child that holds the pipes open never makes the harness wait (issue 13)."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from procwatch import hung, recorded, survivors

from mtrain.cli import main
from mtrain.conformance.process import HarnessError, ProcessImplementation

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "data" / "fixtures"
BROKEN = HERE / "broken_impls"
MTRAIN = str(Path(sys.executable).with_name("mtrain"))

pytestmark = pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX")


def fork_child(mode: str, k: int, pids: Path) -> str:
    return shlex.join([sys.executable, str(BROKEN / "fork_child.py"), mode, str(k), str(pids)])


def conform(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    rc = main(["conform", "--fixtures", str(FIXTURES), "--format", "json", *args])
    return rc, json.loads(capsys.readouterr().out)


def bad(report: dict[str, Any]) -> list[tuple[str, str]]:
    return [(r["status"], r["message"]) for r in report["results"] if r["status"] != "pass"]


def test_a_crash_is_seen_at_once_though_a_child_holds_stdout(
        capsys: pytest.CaptureFixture[str], pids: Path) -> None:
    start = time.monotonic()
    rc, report = conform(capsys, "--impl", fork_child("exit", 3, pids), "--timeout", "300",
                         "-k", "basic-001", "--variant", "pagat")
    # far below the 300 s timeout and the child's ten minutes, whatever the machine's load
    # (30 s under a 60 s timeout left a loaded machine too little room)
    assert time.monotonic() - start < 120
    assert rc == 1
    [(status, message)] = bad(report)
    assert status == "crash" and "exited with code 5, before answering" in message
    assert len(recorded(pids)) == 2  # the implementation and its child
    assert survivors(pids) == []


def test_a_timeout_kills_the_whole_group(capsys: pytest.CaptureFixture[str],
                                         pids: Path) -> None:
    rc, report = conform(capsys, "--impl", fork_child("hang", 3, pids), "--timeout", "0.5",
                         "-k", "basic-001", "--variant", "pagat")
    assert rc == 1
    [(status, message)] = bad(report)
    assert status == "timeout" and "within 0.5 s" in message
    assert survivors(pids) == []


def test_the_end_of_the_run_kills_what_the_implementation_left(
        capsys: pytest.CaptureFixture[str], pids: Path) -> None:
    start = time.monotonic()
    rc, report = conform(capsys, "--impl", fork_child("none", 0, pids), "--jobs", "2")
    assert time.monotonic() - start < 120  # the children would hold the pipes ten minutes
    assert rc == 0 and report["summary"]["pass"] == 12
    assert len(recorded(pids)) == 4  # two workers, each with a child
    assert survivors(pids) == []


def test_close_from_another_thread_kills_the_call_and_starts_nothing(pids: Path) -> None:
    impl = ProcessImplementation(fork_child("hang", 2, pids), timeout=600)
    impl.start()
    failed: list[BaseException] = []

    def call() -> None:
        try:
            impl.call("hello", protocol=1)
        except HarnessError as e:
            failed.append(e)

    worker = threading.Thread(target=call)
    worker.start()
    hung(pids, 1)  # the call is under way
    impl.close()
    # the call's own timeout is 600 s: a worker ended within the bound was stopped by
    # close() (10 s, with 30 for the call, was not far above a loaded machine's need)
    worker.join(120)
    assert not worker.is_alive()
    assert [type(e).__name__ for e in failed] == ["ImplementationCrashed"]
    with pytest.raises(HarnessError, match="the harness is stopping"):
        impl.call("hello", protocol=1)
    assert len(recorded(pids)) == 2 and survivors(pids) == []


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupt_with_jobs_leaves_no_process(tmp_path: Path, pids: Path, signum: int,
                                                  code: int) -> None:
    # Every implementation hangs on its second request, so both workers are mid-request.
    argv = [MTRAIN, "conform", "--fixtures", str(FIXTURES), "--jobs", "2", "--timeout", "30",
            "--impl", fork_child("hang", 2, pids)]
    harness = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120  # a bound on a hang, far above the need
        while len(recorded(pids)) < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(recorded(pids)) == 4, "the implementations did not start"
        hung(pids, 2)  # both hang on their request
        harness.send_signal(signum)
        _, err = harness.communicate(timeout=120)  # a bound on a hang
    finally:
        if harness.poll() is None:
            harness.kill()
            harness.communicate()
    assert harness.returncode == code, err
    assert err.strip() == f"mtrain conform: interrupted ({signal.Signals(signum).name})"
    assert survivors(pids) == []


def test_sigterm_to_fuzz_with_jobs_leaves_no_process(tmp_path: Path, pids: Path) -> None:
    # The implementations hang on the deal: the harness's own (it only says hello) and
    # one in each of the two worker processes.
    argv = [MTRAIN, "fuzz", "--jobs", "2", "--games", "4", "--timeout", "30",
            "--variant", "puremco-d9", "--out", str(tmp_path / "out"),
            "--impl", fork_child("hang", 2, pids)]
    harness = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120  # a bound on a hang, far above the need
        while len(recorded(pids)) < 6 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(recorded(pids)) == 6, "the implementations did not start"
        hung(pids, 2)  # the two workers' on their deal
        harness.send_signal(signal.SIGTERM)
        _, err = harness.communicate(timeout=120)  # a bound on a hang
    finally:
        if harness.poll() is None:
            harness.kill()
            harness.communicate()
    assert harness.returncode == 143, err
    assert err.strip() == "mtrain fuzz: interrupted"
    assert survivors(pids) == []


def test_a_child_in_a_session_of_its_own_holding_the_pipes_is_killed_too(
        capsys: pytest.CaptureFixture[str], pids: Path) -> None:
    # out of the group, so the group's kill missed it: it outlived the run before
    rc, report = conform(capsys, "--impl", fork_child("exit", 3, pids) + " setsid",
                         "--timeout", "60", "-k", "basic-001", "--variant", "pagat")
    assert rc == 1 and [s for s, _ in bad(report)] == ["crash"], bad(report)
    assert len(recorded(pids)) >= 2
    assert survivors(pids) == []
