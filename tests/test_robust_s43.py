"""Inputs the earlier robustness rounds let through (robust-s43): an in-process adapter's
NaN is shown as it sent it, not as the null it became on the way; `serve` refuses a state
with a field the protocol has not (or without one the codec would take a default for);
an interrupted fuzz reports the steps it ran; two threads writing one cache entry write
two files."""

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

from mtrain.cli import main

CHAIN = Path(__file__).parent.parent / "conformance" / "fixtures" / "chain-doubles" / "chain.yaml"


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- an in-process adapter's NaN ------------------------------------------------------------


@pytest.mark.parametrize("fork", [True, False])
def test_an_adapters_nan_is_shown_as_it_sent_it(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path, fork: bool) -> None:
    # a worker carries answers as JSON, where orjson writes NaN as null: the answer was
    # refused as "None is not of type 'integer'", a value the engine never sent (and a
    # NaN where null is allowed, as `drawn`, passed)
    from mtrain.conformance import inprocess
    if fork and not inprocess.CAN_FORK:
        pytest.skip("worker processes need fork")
    monkeypatch.setattr(inprocess, "CAN_FORK", fork)
    adapter = write(tmp_path / "nan_engine.py", """
from mtrain.conformance.adapter import ReferenceImplementation

class Scores(ReferenceImplementation):
    def apply(self, ruleset, state, action):
        st = super().apply(ruleset, state, action)
        return {**st, "scores": [float("nan"), *st["scores"][1:]]}

class Drawn(ReferenceImplementation):
    def apply(self, ruleset, state, action):
        return {**super().apply(ruleset, state, action), "drawn": float("-inf")}

class Tile(ReferenceImplementation):
    def legal(self, ruleset, state):
        return [{"type": "play", "tile": [float("inf"), 2], "train": 0}]
""")
    for name, said in [
            ("Scores", "the adapter's apply() returned something that is not JSON: NaN is "
             "not a JSON number (at scores[0])"),
            ("Drawn", "the adapter's apply() returned something that is not JSON: -Infinity "
             "is not a JSON number (at drawn)"),
            ("Tile", "the adapter's legal() returned something that is not JSON: Infinity "
             "is not a JSON number (at [0].tile[0])")]:
        assert main(["conform", "--adapter", f"{adapter}:{name}", "--variant", "pagat",
                     "--fixtures", str(CHAIN), "-k", "chaindbl-001", "--format", "json"]) == 1
        results = json.loads(capsys.readouterr().out)["results"]
        assert [(r["status"], r["message"]) for r in results] == [("error", said)], results


# --- serve: a state's fields -----------------------------------------------------------------


def _request(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["state", "chaindbl-001", "--variant", "pagat"]) == 0
    request: dict[str, Any] = json.loads(capsys.readouterr().out)
    return request


def test_serve_refuses_a_state_with_a_field_the_protocol_has_not(
        capsys: pytest.CaptureFixture[str]) -> None:
    # the codec reads the fields it knows: `"bogus": 1` beside them, or a train's `owner`,
    # was read past, and a state without `drawn` (or a train without `marker`) was read
    # as if it said null (or false); the rule set's fields were refused already (s42)
    from mtrain.conformance.serve import Server

    request = _request(capsys)
    state = request["state"]
    server = Server()
    trains = state["trains"]
    for kind in ("legal", "apply", "winners"):
        asked = {**request, "type": kind,
                 **({"action": {"type": "end-chain"}} if kind == "apply" else {})}
        answer, _ = server.handle(json.dumps(asked))
        assert answer["ok"] is True, answer  # as written, answered
        for given, said in [
                ({**state, "bogus": 1}, "state has no field 'bogus' (its fields: "),
                ({**state, "trains": [{**trains[0], "owner": 1}, *trains[1:]]},
                 "state.trains[0] has no field 'owner' (its fields: end, marker, tiles)"),
                ({**state, "mexican": {**state["mexican"], "marker": False}},
                 "state.mexican has no field 'marker': the Mexican Train never carries a "
                 "marker [MARK-2]"),
                ({k: v for k, v in state.items() if k != "drawn"}, "state.drawn is missing"),
                ({**state, "trains": [{"tiles": trains[0]["tiles"], "end": trains[0]["end"]},
                                      *trains[1:]]}, "state.trains[0].marker is missing")]:
            answer, stop = server.handle(json.dumps({**asked, "state": given}))
            assert not stop and answer["ok"] is False, (kind, answer)
            assert answer["error"]["kind"] == "bad-request"
            assert answer["error"]["message"].startswith(f"{kind}: {said}"), answer
    # a field the codec names itself keeps its words
    answer, _ = server.handle(json.dumps({**request, "state": {}}))
    assert answer["error"]["message"] == "legal: state.hands is missing", answer


# --- an interrupted fuzz --------------------------------------------------------------------


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_interrupted_fuzz_reports_the_steps_it_ran(tmp_path: Path, jobs: int) -> None:
    # the game under way when Ctrl-C came was dropped whole: "0 games, 0 rounds completed,
    # 0 steps" after minutes of play; with workers, theirs were dropped alike
    engine = write(tmp_path / "slow.py", """
import os, time
from mtrain.conformance.adapter import ReferenceImplementation

class Engine(ReferenceImplementation):
    def legal(self, ruleset, state):
        with open(os.environ["STEPS_SEEN"], "a") as f:
            f.write("x")
        time.sleep(0.01)
        return super().legal(ruleset, state)
""")
    seen = tmp_path / "seen.txt"
    seen.touch()
    proc = subprocess.Popen(
        [sys.executable, "-m", "mtrain", "fuzz", "--adapter", f"{engine}:Engine",
         "--games", str(jobs), "--jobs", str(jobs), "--variant", "pagat",
         "--out", str(tmp_path / "out"), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={**os.environ, "STEPS_SEEN": str(seen)})
    try:
        while seen.stat().st_size < 30 * jobs:  # some steps played (in each worker)
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    report = json.loads(out)
    assert report["stopped"] == "interrupted (SIGINT)"
    assert report["steps"] >= 15 * jobs, report  # each step asks legal() at least twice
    assert report["ended_early"] == {"the run was interrupted (SIGINT)": jobs}, report
    assert report["games"] == jobs and report["answered"] > report["steps"], report


# --- the cache -------------------------------------------------------------------------------


def test_two_threads_writing_one_cache_entry_write_two_files(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # the temporary file was named after the process alone: the second thread wrote into
    # the first one's file, and the first to move it in place could move half of it
    from mtrain.spec import cache
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    both = threading.Barrier(2, timeout=30)
    moved: list[str] = []
    replace = os.replace

    def meeting(src: Any, dst: Any) -> None:
        moved.append(Path(src).name)
        both.wait()  # each has written its file before either moves one
        replace(src, dst)

    monkeypatch.setattr(os, "replace", meeting)
    values = [{"by": "first", "pad": "a" * 50_000}, {"by": "second", "pad": "b" * 70}]
    threads = [threading.Thread(target=cache.write, args=("kind", "entry", v))
               for v in values]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(moved)) == 2, moved
    assert cache.read("kind", "entry") in values
    assert sorted(os.listdir(tmp_path / "kind")) == ["entry"]  # no file left behind
