"""Answers and inputs the earlier robustness work let through (robust-s36): each is
charged or refused by name, never read past."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from procwatch import alive, hung, recorded, survivors

from mtrain.cli import main
from mtrain.conformance.protocol import ProtocolError, check_answer

HERE = Path(__file__).resolve().parent
BROKEN = HERE / "broken_impls"
FIXTURES = HERE / "data" / "fixtures"
TOTAL = 12  # results of tests/data/fixtures (test_conform.py)
MTRAIN = str(Path(sys.executable).with_name("mtrain"))


def conform(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    rc = main(["conform", "--fixtures", str(FIXTURES), "--format", "json", *args])
    return rc, json.loads(capsys.readouterr().out)


def test_an_answer_with_a_field_the_protocol_has_not_is_charged(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Every *_answer of protocol.schema.json is closed (additionalProperties: false); a
    # field beside id and ok was read past, and the run passed.
    impl = f"{sys.executable} {BROKEN / 'misc_faults.py'} extra-field 2"
    rc, report = conform(capsys, "--impl", impl, "--timeout", "60")
    assert rc == 1
    results = report["results"]
    assert results and all(r["status"] == "error" for r in results), \
        {r["status"] for r in results}
    assert any("has no field 'note' in protocol v1" in json.dumps(r) for r in results)


@pytest.mark.parametrize("kind, answer, shown", [
    ("legal", {"id": 2, "ok": True, "actions": [], "state": {}},
     "a legal answer has no field 'state'"),
    ("apply", {"id": 2, "ok": True, "refused": {"reason": "no", "clause": None, "why": 1}},
     "apply.refused has no field 'why'"),
    ("score", {"id": 2, "ok": False, "error": {"kind": "internal", "message": "x"},
               "trace": "..."}, "an error answer to score has no field 'trace'"),
    ("winners", {"id": 2, "ok": True, "winners": [], "\ud800": 1}, "has no field '\\ud800'"),
])
def test_every_answer_is_closed_to_other_fields(kind: str, answer: dict[str, Any],
                                                shown: str) -> None:
    with pytest.raises(ProtocolError) as info:
        check_answer(kind, 2, answer)
    assert shown in str(info.value), str(info.value)


@pytest.mark.parametrize("argv, shown", [
    (["conform", "--output", "a.txt", "--output", "b.txt"], "--output a.txt, then --output b.txt"),
    (["identify", "--adapter", "x:y", "-o", "a.yaml", "--output", "b.yaml"],
     "-o a.yaml, then --output b.yaml"),
    (["fuzz", "--mutant", "x", "--timeout", "1", "--timeout", "9"], "--timeout 1.0, then"),
    (["conform", "--format", "json", "--format", "text"], "--format json, then --format text"),
    (["simulate", "--variant", "pagat", "--players", "2", "--players", "3"], "--players 2,"),
])
def test_an_option_of_one_value_given_two_values_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        argv: list[str], shown: str) -> None:
    # argparse kept the last silently: --output a.txt --output b.txt wrote b.txt alone
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert f"given twice ({shown}" in err, err
    assert "which is meant? give it once" in err
    assert not list(tmp_path.iterdir())


def test_an_option_given_twice_with_one_value_is_taken(
        capsys: pytest.CaptureFixture[str]) -> None:
    # parsed as one: the run goes on to its own error, about the mutant
    assert main(["fuzz", "--mutant", "no-such", "--games", "3", "--games", "3"]) == 2
    err = capsys.readouterr().err
    assert "no-such" in err and "given twice" not in err, err
    assert main(["explain", "DBL-1", "--json", "--json"]) == 0  # a flag twice is one flag


def test_simulate_refuses_rounds_it_would_never_finish(
        capsys: pytest.CaptureFixture[str]) -> None:
    # 99,999,999,999 rounds ran on for years (about 0.5 ms a round)
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--variant", "pagat", "--rounds", "99999999999"])
    assert info.value.code == 2
    assert "--rounds: must be at most 1,000,000" in capsys.readouterr().err


SEATS = """\
- id: mine-001
  description: A fixture of my own, with one seat written as text
  clauses: [TRAIN-2]
  source: [pagat]
  table:
    hands:
      HAND0: [5-3, 9-1]
      1: [11-11, 10-0]
    trains:
      TRAIN0: [12-5]
      1: [12-3]
  expect:
    - variants: [pagat]
      legal: [play 5-3 on 0]
"""


@pytest.mark.parametrize("hand, train, line, fault", [
    ("'0'", "0", 7, "hands: '0' is not a seat: seats are numbers 0, 1, ... (unquoted)"),
    ("0", "'0'", 10, "'0' is not a train (a seat 0..1 (unquoted) or 'mexican')"),
])
def test_a_seat_quoted_as_text_is_named_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, hand: str, train: str, line: int,
        fault: str) -> None:
    # a hand's seat written '0' beside 1 was a TypeError (sorting text with numbers) out of
    # lint, conform, state and render
    path = tmp_path / "mine.yaml"
    path.write_text(SEATS.replace("HAND0", hand).replace("TRAIN0", train))
    assert main(["lint", str(path), "--no-scopes"]) == 1
    out = capsys.readouterr().out
    assert f"error: {path}:{line}: mine-001 [pagat]: {fault}" in out, out
    assert main(["conform", "--fixtures", str(path), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)  # the file's fault, no engine's (9d82953)
    assert report["results"] == [], report["results"]
    assert report["load_errors"] == [f"{path}:{line}: mine-001 [pagat]: {fault}"], report
    assert main(["state", "mine-001", "--fixtures", str(path)]) == 2
    assert fault in capsys.readouterr().err


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupted_conform_reports_what_ran(tmp_path: Path, signum: int,
                                                 code: int) -> None:
    # It printed "interrupted" alone: the results that had finished were lost. Now they
    # are the report, marked interrupted and failed, with the signal's exit code; a
    # request cut short by the stop is no verdict on the implementation (with -j 2 the
    # other worker's was charged as a crash), and no process is left.
    pids = tmp_path / "pids"
    impl = shlex.join([sys.executable, str(BROKEN / "fork_child.py"), "hang", "6", str(pids)])
    argv = [MTRAIN, "conform", "--fixtures", str(FIXTURES), "--jobs", "2", "--timeout", "60",
            "--format", "json", "--impl", impl]
    harness = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while len(recorded(pids)) < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(recorded(pids)) == 4, "the implementations did not start"
        hung(pids, 2)  # both hang at their sixth request, results finished before it
        harness.send_signal(signum)
        out, err = harness.communicate(timeout=120)  # a bound on a hang
    finally:
        if harness.poll() is None:
            harness.kill()
            harness.communicate()
        for pid in recorded(pids):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
    name = signal.Signals(signum).name
    assert harness.returncode == code, err
    assert err.strip() == f"mtrain conform: interrupted ({name})"
    report = json.loads(out)
    assert report["ok"] is False
    ran = report["summary"]["pass"]
    assert ran >= 1 and sum(report["summary"].values()) == ran, report["summary"]
    assert report["warnings"] == [f"interrupted ({name}) after {ran} of {TOTAL} results: "
                                  "the report holds only those"]
    assert survivors(pids) == []


def test_a_loop_of_links_or_a_dangling_link_is_named_as_such(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # both were "no such file or folder", which sends one looking for a typo
    loop, dangling = tmp_path / "loop.yaml", tmp_path / "gone.yaml"
    loop.symlink_to(loop)
    dangling.symlink_to(tmp_path / "nowhere.yaml")
    assert main(["lint", "--no-scopes", str(loop), str(dangling)]) == 2
    err = capsys.readouterr().err
    assert f"{loop}: Too many levels of symbolic links" in err, err
    assert f"{dangling}: a symbolic link to nothing ({tmp_path / 'nowhere.yaml'})" in err
    assert main(["conform", "--fixtures", str(loop)]) == 2
    assert "--fixtures: " + f"{loop}: Too many levels" in capsys.readouterr().err
    assert main(["state", "x-001", "--fixtures", str(dangling)]) == 2
    assert "a symbolic link to nothing" in capsys.readouterr().err


def identify_until(signum: int, impl: str, pids: Path, *more: str
                   ) -> subprocess.CompletedProcess[str]:
    """`mtrain identify --impl impl`, sent `signum` once its engine has hung."""
    argv = [MTRAIN, "identify", "--impl", impl, *more]
    harness = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        hung_file = pids.with_name(f"{pids.name}.hung")
        deadline = time.monotonic() + 60
        while not hung_file.exists() and time.monotonic() < deadline and harness.poll() is None:
            time.sleep(0.05)
        assert hung_file.exists(), "the implementation did not reach the request it hangs at"
        harness.send_signal(signum)
        out, err = harness.communicate(timeout=120)  # a bound on a hang
    finally:
        if harness.poll() is None:
            harness.kill()
            harness.communicate()
        for pid in recorded(pids):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
    return subprocess.CompletedProcess(argv, harness.returncode, out, err)


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupted_identify_reports_what_it_measured(tmp_path: Path, signum: int,
                                                          code: int) -> None:
    # It printed "interrupted" alone (and SIGTERM killed it outright, its engine left to
    # run): what the deals had measured was lost. Now it is printed, marked interrupted,
    # with the signal's exit code; no rule-set file is written (it would pass for an
    # answer), and no process is left.
    pids, found = tmp_path / "pids", tmp_path / "found.yaml"
    impl = shlex.join([sys.executable, str(BROKEN / "fork_child.py"), "hang", "8", str(pids)])
    proc = identify_until(signum, impl, pids, "--timeout", "60", "--output", str(found))
    name = signal.Signals(signum).name
    assert proc.returncode == code, proc.stderr
    assert proc.stderr == f"mtrain identify: interrupted ({name})\n"
    head, *lines = proc.stdout.splitlines()
    assert head == (f"mtrain identify: interrupted ({name}) while measuring the deals: what "
                    "the deals measured before it; no fixture weighed yet")
    # the first deal shows the set (the base rule set's, double-12: tiles 0 to 12); the
    # table was being dealt, a row per request, when the engine stopped answering
    assert lines[0].split()[:3] == ["tile_set", "double-12", "measured,"], lines
    assert lines[1].split()[:5] == ["hand_sizes", "?", "measured", "in", "part,"], lines
    assert lines[1].endswith(", before the stop")
    assert lines[2:] == [f"{found} not written: the run did not finish"]
    assert not found.exists()
    assert survivors(pids) == []


def test_identify_stops_at_once_on_an_engine_that_keeps_exiting(tmp_path: Path) -> None:
    # An engine that exited every 7 requests cost 190 s (72 CPU s) before identify gave
    # up, in the fixtures, after the scope partition was read. Its failures come and go:
    # the same request asked again is answered. The second such failure, in the deals,
    # stops it: three processes started (the first, and one per failure), each reaped with
    # the child it left holding its output.
    pids = tmp_path / "pids"
    impl = shlex.join([sys.executable, str(BROKEN / "fork_child.py"), "exit", "7", str(pids)])
    # no request is let run to its timeout: both bounds only end a hang, far above the need
    proc = subprocess.run([MTRAIN, "identify", "--impl", impl, "--timeout", "60"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 2 and proc.stdout == "", proc.stdout + proc.stderr
    assert proc.stderr.startswith("mtrain identify: 2 of the implementation's first ")
    assert ("requests failed and were answered when asked again (the last: crash: the "
            "implementation exited with code 5, ") in proc.stderr
    assert proc.stderr.endswith("identify stopped before playing the fixtures\n")
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert len(pids.read_text().splitlines()) == 3
    assert survivors(pids) == []


class Crashing:
    """An engine whose deals crash: each one numbered in `calls`, and every deal for
    `players` seats (a bug on that table)."""

    def __init__(self, calls: set[int], players: int = 0) -> None:
        self.calls, self.players, self.n = calls, players, 0

    def deal(self, ruleset: Any, players: int, round: int, order: list[str]) -> Any:
        from mtrain.conformance.process import ImplementationCrashed

        self.n += 1
        if self.n in self.calls or players == self.players:
            raise ImplementationCrashed(f"exited at call {self.n}")
        return {"call": self.n}


def test_a_failure_asked_again_stops_identify_only_when_it_comes_and_goes() -> None:
    from mtrain.conformance.identify import EngineFailed, Watched
    from mtrain.conformance.process import ImplementationCrashed

    # a deal that fails every time it is asked: one failure, counted once, no stop
    engine = Crashing(set(), players=8)
    table = Watched(engine)  # type: ignore[arg-type]
    table.measuring = True
    for _ in range(3):
        with pytest.raises(ImplementationCrashed):
            table.deal(None, 8, 1, [])
        assert table.deal(None, 4, 1, []) is not None
    assert len(table.failed) == 3 and table.flakes == [] and engine.n == 9
    # failures the same deal, asked again, does not repeat: the first is asked past, the
    # second stops it
    flaky = Watched(Crashing({1, 3}))  # type: ignore[arg-type]
    flaky.measuring = True
    assert flaky.deal(None, 4, 1, []) == {"call": 2}
    with pytest.raises(EngineFailed, match=r"^2 of the implementation's first 4 requests "
                       r"failed and were answered when asked again \(the last: crash: "
                       r"exited at call 3\)"):
        flaky.deal(None, 4, 1, [])
    # after the deals (the fixtures), a failure is not asked again
    engine = Crashing({1})
    later = Watched(engine)  # type: ignore[arg-type]
    with pytest.raises(ImplementationCrashed):
        later.deal(None, 4, 1, [])
    assert engine.n == 1
