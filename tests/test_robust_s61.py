"""Bad inputs and misbehaving engines, round 34 (robust-s61): a state answer naming a
train the table has not is the protocol's error, not a broken TRAIN-1; an engine that
kills its own reaper leaves nothing behind; and a fresh round of hostile inputs."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from procwatch import BOUND, recorded, started, survivors

from mtrain.cli import main
from mtrain.conformance.answers import rules_of, state_problems
from mtrain.reference import codec
from mtrain.reference.deal import deal
from mtrain.spec.catalog import catalog

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "data" / "fixtures"
BROKEN = HERE / "broken_impls"

linux = pytest.mark.skipif(not sys.platform.startswith("linux"),
                           reason="subreapers are Linux's")


# --- 1a. a state answer naming a train the table has not -------------------------------


# The reference, but every state it answers names FIELD's train TRAIN (a table of two)
OFF_TABLE_STATE = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {broken!r})
    from _base import run

    field, train = sys.argv[1], json.loads(sys.argv[2])

    def hook(n, request, answer):
        reply = json.loads(answer)
        if not isinstance(reply.get("state"), dict):
            return answer
        reply["state"][field] = [train]
        return (json.dumps(reply) + "\\n").encode()

    run(hook)
""")


@pytest.mark.parametrize("field,train", [("open_doubles", 7), ("turn_doubles", 2)])
def test_a_state_answer_naming_a_train_the_table_has_not_is_a_broken_answer(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, train: int) -> None:
    script = tmp_path / "off_table_state.py"
    script.write_text(OFF_TABLE_STATE.format(broken=str(BROKEN)))
    impl = shlex.join([sys.executable, str(script), field, str(train)])
    rc = main(["conform", "--fixtures", str(FIXTURES), "--format", "json", "--impl", impl,
               "-k", "deal-001", "--variant", "pagat"])
    report = json.loads(capsys.readouterr().out)
    assert rc == 1
    [result] = report["results"]
    # a table of two: the protocol's error naming the field and the trains, no TRAIN-1
    assert result["status"] == "error", result
    assert result["message"] == (
        f"deal: the returned state breaks the schema: {field}/0 [state.schema.json#/$defs/"
        f"train_ref]: names train {train}, which the table has not: its trains are 0 to 1 "
        'and "mexican"'), result["message"]
    assert "TRAIN-1" not in json.dumps(result)


def test_a_state_naming_a_train_on_the_table_still_reads_as_a_table() -> None:
    # the check finds the train past the table only: "mexican" and seat 3 at four seats
    # are trains, and a state that breaks some other rule is still told by its clause
    rj = {"name": "pagat", "options": dict(catalog().ruleset("pagat").choices)}
    st = deal(rules_of(rj), 4, 1, seed=3)
    state = codec.state_to_json(st)
    state["open_doubles"] = ["mexican", 3]
    found = state_problems(rj, state)
    assert all(p.kind != "schema" for p in found), found
    state["open_doubles"] = [4]
    [p] = state_problems(rj, state)
    assert (p.kind, p.where) == ("schema", "open_doubles/0 [state.schema.json#/$defs/train_ref]")
    assert p.message.endswith('its trains are 0 to 3 and "mexican"'), p.message


# --- 1b. an engine that kills its own reaper ---------------------------------------------


# It leaves two processes only a subreaper finds (a `sleep` under `env -i setsid sh -c
# '... &'` and a daemon that forked twice under `env -i`, each with its pipes on
# /dev/null), and kills its parent, the reaper (reaper.py) that would have swept them:
# before its hello ("first"), or at request K ("later"). Then it answers as
# the reference does, until request K + 1 where it exits (code 5).
REAPER_KILLER = textwrap.dedent("""
    import os, signal, subprocess, sys
    sys.path.insert(0, {broken!r})
    from _base import run

    pids, when, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
    quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL)
    subprocess.run(["env", "-i", "setsid", "sh", "-c",
                    f"sleep 300 & echo $! >> {{pids}}"], check=True, **quiet)
    subprocess.run(["env", "-i", sys.executable, "-c", {daemon!r}, pids], check=True,
                   **quiet)
    with open(pids, "a") as f:
        f.write(f"{{os.getpid()}}\\n")
    if when == "first":
        os.kill(os.getppid(), signal.SIGKILL)
    if when == "stop":  # the reaper stopped, not killed: it can sweep nothing
        os.kill(os.getppid(), signal.SIGSTOP)

    def hook(n, request, answer):
        if n == k and when == "later":
            os.kill(os.getppid(), signal.SIGKILL)
        if n == k + 1:
            os._exit(5)
        return answer

    run(hook)
""")


def reaper_killer(tmp_path: Path, pids: Path, when: str, k: int) -> str:
    from test_robust_s60 import DAEMON

    script = tmp_path / "reaper_killer.py"
    script.write_text(REAPER_KILLER.format(broken=str(BROKEN), daemon=DAEMON))
    return shlex.join([sys.executable, str(script), str(pids), when, str(k)])


@linux
@pytest.mark.parametrize("when", ["first", "later"])
def test_conform_leaves_nothing_an_engine_that_killed_its_reaper_started(
        tmp_path: Path, pids: Path, capsys: pytest.CaptureFixture[str], when: str) -> None:
    rc = main(["conform", "--fixtures", str(FIXTURES), "--format", "json", "--impl",
               reaper_killer(tmp_path, pids, when, 2), "-k", "basic-001", "--variant",
               "pagat"])
    out, err = capsys.readouterr()
    said = ("the implementation killed its parent, the harness's reaper (reaper.py, which "
            "kills what the program leaves running when it ends), and was killed with what "
            "it started, before answering the ")
    # "first": the harness finds its reaper gone at the hello, or (the program, alive
    # still, answered it) at the next request: either way said so, not "killed by
    # SIGKILL" (the reaper's end)
    if rc == 2 and when == "first":  # no hello: nothing was run
        assert f"{said}hello request; nothing was run" in err, err
    else:  # its result a crash
        [result] = json.loads(out)["results"]
        assert rc == 1 and result["status"] == "crash", result
        assert result["message"].startswith(said), result["message"]
    assert len(recorded(pids)) >= 3  # the sleep, the daemon and the engine, each start
    assert survivors(pids) == []


@linux
def test_conform_leaves_nothing_an_engine_that_stopped_its_reaper_started(
        tmp_path: Path, pids: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a stopped reaper (SIGSTOP) is still running when the harness has waited for it
    # (KILL_WAIT): killed with the group, its adopted descendants were left running
    rc = main(["conform", "--fixtures", str(FIXTURES), "--format", "json", "--impl",
               reaper_killer(tmp_path, pids, "stop", 2), "-k", "basic-001", "--variant",
               "pagat"])
    [result] = json.loads(capsys.readouterr().out)["results"]
    assert rc == 1 and result["status"] == "crash", result  # it exits at request 3
    assert len(recorded(pids)) >= 3
    assert survivors(pids) == []


@linux
def test_fuzz_leaves_nothing_an_engine_that_killed_its_reaper_started(
        tmp_path: Path, pids: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # each engine kills its reaper at its third request and exits at its fourth: fuzz
    # starts it again a few times, then gives up on it
    rc = main(["fuzz", "--games", "1", "--variant", "puremco-d9", "--seed", "1", "--out",
               str(tmp_path / "out"), "--impl", reaper_killer(tmp_path, pids, "later", 3)])
    out = capsys.readouterr().out
    assert rc == 1
    assert "killed its parent, the harness's reaper" in out, out[-3000:]
    assert len(recorded(pids)) >= 3
    assert survivors(pids) == []


@linux
def test_the_sweep_after_a_killed_reaper_spares_the_other_engines_and_the_harness_own(
        tmp_path: Path, pids: Path) -> None:
    # two engines of one harness (as identify's threads run them): the first kills its
    # reaper and leaves its daemons; its kill sweeps them, and the second engine, its
    # reaper and a child of the harness's session are left running
    from mtrain.conformance.child import ChildProcess

    own = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    other = ChildProcess([sys.executable, "-c", "import time; time.sleep(300)"], 1 << 16,
                         None, None)
    killer = ChildProcess(shlex.split(reaper_killer(tmp_path, pids, "first", 1)), 1 << 16,
                          None, None)
    try:
        started(pids, 3)  # the sleep, the daemon and the engine
        assert killer.exit_code(BOUND) == -9  # its reaper, killed
        killer.kill()
        assert survivors(pids) == []
        assert other.alive() and own.poll() is None
    finally:
        other.kill()
        own.kill()
        own.wait()


# --- 2. a fresh round ----------------------------------------------------------------------


HUGE_TRAIN = """
from mtrain.conformance.adapter import ReferenceImplementation

class Engine(ReferenceImplementation):
    def legal(self, ruleset, state):
        return [{"type": "play", "tile": "5-3", "train": 10 ** 5000}]
"""


def test_an_adapter_answering_an_integer_of_5000_digits_is_told_in_the_protocols_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Python's own words ("use sys.set_int_max_str_digits() to increase the limit") were
    # the message: advice to the harness's author, where over the protocol the same
    # answer is told as a number past what a message may hold
    adapter = tmp_path / "huge_train.py"
    adapter.write_text(HUGE_TRAIN)
    rc = main(["conform", "--adapter", f"{adapter}:Engine", "--fixtures", str(FIXTURES),
               "--format", "json", "-k", "basic-001", "--variant", "pagat"])
    [result] = json.loads(capsys.readouterr().out)["results"]
    assert rc == 1 and result["status"] == "error", result
    assert result["message"] == (
        "the adapter's legal() returned something that is not JSON: an integer of more "
        "than 4,300 digits, past the 4,300 a message may hold (at [0].train)"), result


# The reference, but every `winners` answer is an object nested 5,000 deep (no JSON a
# reader takes), opened by its id as an answer is
DEEP_WINNERS = textwrap.dedent("""
    import sys
    sys.path.insert(0, {broken!r})
    from _base import run

    def hook(n, request, answer):
        if request["type"] != "winners":
            return answer
        return b'{{"id":%d,"winners":%s0%s}}\\n' % (request["id"], b"[" * 5000, b"]" * 5000)

    run(hook)
""")


def test_a_broken_answer_to_a_request_written_ahead_and_never_asked_is_no_stray(
        tmp_path: Path) -> None:
    # fuzz writes requests ahead; one never asked is read at the shutdown and set aside
    # by its id. One broken past reading (nested too deep) was charged to the run's last
    # request as a line written after its answer ("one answer per request: an answer
    # written twice?"), though that request was answered once, and well
    from mtrain.conformance.process import ProcessImplementation

    script = tmp_path / "deep_winners.py"
    script.write_text(DEEP_WINNERS.format(broken=str(BROKEN)))
    rj = {"name": "pagat", "options": dict(catalog().ruleset("pagat").choices)}
    state = codec.state_to_json(deal(rules_of(rj), 4, 1, seed=3))
    with ProcessImplementation([sys.executable, str(script)], timeout=BOUND) as impl:
        impl.start()
        impl.ask_ahead(rj, state, [("legal", {}), ("winners", {})])
        assert impl.legal(rj, state)  # answered; the winners request is never asked
    assert impl.strays == [], impl.strays
