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
        with open(os.path.join(os.environ["STEPS_SEEN"], str(os.getpid())), "a") as f:
            f.write("x")
        time.sleep(0.01)
        return super().legal(ruleset, state)
""")
    seen = tmp_path / "seen"  # a file per process playing (each fuzz worker's adapter's)
    seen.mkdir()

    def playing() -> int:
        """The processes that have played some steps: the interrupt must find a game
        under way in each worker (counting the steps of all together let one worker play
        them all while the other, slow to start on a loaded machine, had no game yet)."""
        return sum(p.stat().st_size >= 30 for p in seen.iterdir())

    proc = subprocess.Popen(
        [sys.executable, "-m", "mtrain", "fuzz", "--adapter", f"{engine}:Engine",
         "--games", str(jobs), "--jobs", str(jobs), "--variant", "pagat",
         "--out", str(tmp_path / "out"), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={**os.environ, "STEPS_SEEN": str(seen)})
    try:
        deadline = time.monotonic() + 300  # a bound on a hang, far above the need
        while playing() < jobs:  # some steps played in each worker
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the workers did not play"
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


# --- the hunt: engines over the protocol ------------------------------------------------------


def _engine(tmp_path: Path, name: str, hook: str) -> str:
    """A program answering as `mtrain serve` does, its answer line `o` to the n-th request
    (from 1, the hello) passed through `hook` first."""
    return write(tmp_path / f"{name}.py", f"""
import os, sys
from mtrain.conformance.serve import Server

server = Server()
for n, line in enumerate(sys.stdin.buffer, 1):
    o, stop = server.respond(line)
    sys.stdout.buffer.write({hook})
    sys.stdout.buffer.flush()
    if stop:
        break
""")


def test_an_engine_answering_in_utf16_is_refused_as_not_utf8(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # json.loads guesses the encoding of bytes: a program writing UTF-16-BE (its newline
    # `\0\n`) passed every fixture; one writing bytes that are no text was told of the
    # wrong byte ("not UTF-8: byte 0x0a at byte 12", read as UTF-16 from its first NUL)
    from mtrain.conformance.protocol import ProtocolError, decode
    for line, said in [
            (b"\x00\xff\xfe garbage\x80\n", "not JSON (not UTF-8: byte 0xff at byte 1)"),
            (b'{"id":1}\x00\n', "not JSON (Extra data at character 8)"),
            ("{}\n".encode("utf-16"), "not JSON (not UTF-8: byte 0xff at byte 0; its NUL bytes "
             "look like UTF-16 or UTF-32)"),
            ('{"id":1}\n'.encode("utf-16-be"), "not JSON (Expecting value at character 0; "
             "its NUL bytes look like UTF-16 or UTF-32)"),
            (b'{"a":"\xe9"}\n', "not JSON (not UTF-8: byte 0xe9 at byte 6)")]:
        with pytest.raises(ProtocolError) as info:
            decode(line)
        assert str(info.value).startswith(said + ": "), info.value
    assert decode(b'\xef\xbb\xbf{"id":1}\n') == {"id": 1}  # a byte order mark is ignored
    engine = _engine(tmp_path, "utf16", 'o.decode().encode("utf-16-be")')
    # (robust-s49: its hello, so answered, stops the run at once, exit 2)
    assert main(["conform", "--impl", f"{sys.executable} {engine}", "--variant", "pagat",
                 "--fixtures", str(CHAIN), "-k", "chaindbl-001", "--format", "json"]) == 2
    assert "its NUL bytes look like UTF-16 or UTF-32" in capsys.readouterr().err


def test_an_engine_exiting_in_the_middle_of_an_answer_is_said_to_have(
        tmp_path: Path) -> None:
    # the half line was read as a whole one: "the answer to the hello request is not JSON
    # (Expecting ',' delimiter at character 9)", a fault of JSON that was not the one
    from mtrain.conformance.process import ImplementationCrashed, ProcessImplementation
    engine = write(tmp_path / "half.py", """
import os, sys
sys.stdin.readline()
sys.stdout.write('{"id":1,"ok":')
sys.stdout.flush()
os._exit(0)
""")
    with ProcessImplementation([sys.executable, engine], timeout=60) as impl, \
            pytest.raises(ImplementationCrashed) as info:
        impl.call("hello", protocol=1)
    assert info.value.message == (
        "while starting: the implementation exited with code 0 in the middle of its answer "
        "to the hello request (a line with no newline: '{\"id\":1,\"ok\":')"), info.value.message


# --- the hunt: in-process adapters ------------------------------------------------------------


def test_a_child_an_adapter_forks_answers_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the worker's child came back from legal() too and wrote its answer: read as the
    # answer to the next call ("apply() returned the wrong shape: apply.state must be a
    # state object, got [...]"), and it went on reading the calls meant for the worker
    from mtrain.conformance import inprocess
    if not inprocess.CAN_FORK:
        pytest.skip("worker processes need fork")
    adapter = write(tmp_path / "forks.py", """
import os
from mtrain.conformance.adapter import ReferenceImplementation

class Engine(ReferenceImplementation):
    def legal(self, ruleset, state):
        os.fork()  # both come back
        return super().legal(ruleset, state)
""")
    assert main(["conform", "--adapter", f"{adapter}:Engine", "--variant", "pagat",
                 "--fixtures", str(CHAIN), "-k", "chaindbl-00", "--format", "json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert len(results) > 1 and {r["status"] for r in results} == {"pass"}, results


# --- the hunt: commands -----------------------------------------------------------------------


def test_render_says_why_a_fixture_does_not_set_up(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # said "chaindbl-001 cannot be set up under pagat" and no more (`state` said why)
    one = CHAIN.read_text(encoding="utf-8").split("\n- id: chaindbl-002")[0]
    path = write(tmp_path / "f.yaml", one.replace("3-1, 7-2]", "3-1, 13-2]"))
    assert main(["render", "chaindbl-001", "--fixtures", path, "--variant", "pagat"]) == 2
    assert capsys.readouterr().err == (  # at the hand's line (robust-s43b; was the id's, 5)
        f"mtrain render: chaindbl-001 ({path}:18) under pagat: the table does not set up: "
        "tile '13-2' is not in a double-12 set\n")


# --- the hunt: fixtures ------------------------------------------------------------------------


def test_a_refused_play_of_a_tile_the_set_has_not_is_put_to_the_implementation(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # `refused: {play 13-3 on 0: SET-1}` on double-12 (SET-1 refuses such a tile, as the
    # protocol's TRAIN-1 a train the table has not): the harness could not write the
    # action ("the implementation's answer could not be used: FixtureError: tile '13-3'
    # is not in a double-12 set (at notation.py:120)"), an error charged to the engine
    one = CHAIN.read_text(encoding="utf-8").split("\n- id: chaindbl-002")[0]
    path = write(tmp_path / "f.yaml", one.replace("end-chain: FIRST-4", "play 13-3 on 0: SET-1"))
    assert main(["conform", "--fixtures", path, "--variant", "pagat", "--format", "json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert [r["status"] for r in results] == ["pass"], results  # refused by SET-1
