"""Inputs the earlier robustness rounds let through (robust-s51): a hello answered twice,
the process then asked nothing (every task it took not applicable), wrote a line no result
could hold: the line was read at the shutdown and dropped, said nowhere."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.report import Report, Result

FAR = 120
"""A bound on a wait for an event (a process's answer), far above the need: it only keeps
a broken run from hanging the suite."""


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def one_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one line a command that stops at once writes (exit 2, nothing on stdout)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 2 and out == "", (code, out[-800:], err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


# --- 1. a hello answered twice, nothing asked after it ------------------------------------------

# the reference server declaring pagat alone, which writes its hello answer twice: the
# second line waits unread until the shutdown (nothing else is asked of the process)
HELLO_TWICE = """\
import json, sys
from mtrain.conformance.serve import Server
server = Server()
for line in sys.stdin:
    answer, stop = server.handle(line)
    if "variants" in answer:
        answer["variants"] = ["pagat"]
    text = json.dumps(answer) + "\\n"
    sys.stdout.write(text + text if "protocol" in answer else text)
    sys.stdout.flush()
    if stop:
        break
"""

# a fixture for pagat and puremco; run under puremco alone, which the program above does
# not play, it is not applicable and asks nothing
PLAYS = """\
- id: ends-001
  description: After an ordinary play the turn passes to the next seat
  clauses: [TURN-6]
  source: [pagat]
  note: Seat 0 lays [5-3] on its own train (ends 5 -> 3); not a double, so the turn ends.
  table:
    hands:
      0: [5-3, 9-1]
      1: [11-11, 10-0]
    trains:
      0: [12-5]
      1: [12-3]
  steps:
    - play 5-3 on 0
  expect:
    - variants: [pagat, puremco]
      state:
        seat: 1
"""


@pytest.mark.slow  # starts a program per job
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_hello_answered_twice_with_nothing_asked_after_is_a_problem_of_the_run(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, jobs: int) -> None:
    # the line came after the last answer read (the hello's), and no task asked the
    # process anything: no result to charge it to, and it was said nowhere
    program = shlex.join([sys.executable, write(tmp_path / "twice.py", HELLO_TWICE)])
    fixtures = write(tmp_path / "ends.yaml", PLAYS)
    code = main(["conform", "--impl", program, "--fixtures", fixtures, "--variant",
                 "puremco", "--jobs", str(jobs), "--timeout", str(FAR), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and not report["ok"], report
    assert [r["status"] for r in report["results"]] == ["not-applicable"]
    [problem] = report["problems"]
    assert problem.startswith(
        "after its answer to the last request the implementation wrote another line, read "
        "only at the shutdown: '{\"id\": 1, \"ok\": true, \"protocol\": 1,"), problem
    assert "the last request sent: '{\"id\":1,\"type\":\"hello\"" in problem, problem
    assert problem.endswith("no task asked this process anything after its hello (every "
                            "task it took was not applicable): no result holds the line")


def test_a_problem_of_the_run_fails_a_run_whose_results_pass() -> None:
    # under --jobs, the process greeted first may take only tasks not applicable while
    # another's pass: the problem alone must fail the run, in every format
    from io import StringIO

    from mtrain.conformance.report_formats import render_junit, render_markdown
    from mtrain.conformance.report_text import render_text

    passed = Result("ends-001", "pagat", "pass", [], path="ends.yaml", line=1)
    assert not Report([passed]).failed
    report = Report([passed], problems=["the hello answered twice"])
    assert report.failed and report.exit_code == 1
    assert report.to_json()["problems"] == ["the hello answered twice"]
    assert report.headline().startswith(
        "FAILED: 1 results ran (1 pass), 1 problem of the run (no result holds it); ")
    text = StringIO()
    render_text(report, text)
    assert "\nPROBLEM the hello answered twice\n" in text.getvalue()
    assert ('<testcase classname="run-problems" name="the hello answered twice">'
            in render_junit(report))
    assert "## Problems of the run\n\n- the hello answered twice\n" in render_markdown(report)
