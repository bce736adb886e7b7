"""Bad inputs and misbehaving engines, round 33 (robust-s60): what an engine's descendants
start under `env -i` and out of its session, which no token nor group finds, outlived the
run (now each engine's parent is a reaper, a subreaper that kills them with it)."""

from __future__ import annotations

import json
import shlex
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from procwatch import BOUND, hung, recorded, survivors

from mtrain.cli import main
from mtrain.conformance import fuzz as F
from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.fuzz.judge import compare_legal
from mtrain.conformance.identify import Watched
from mtrain.conformance.process import ProtocolViolation
from mtrain.reference import codec
from mtrain.reference.deal import deal
from mtrain.reference.engine import legal_actions
from mtrain.spec.catalog import catalog

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "data" / "fixtures"
BROKEN = HERE / "broken_impls"
MTRAIN = str(Path(sys.executable).with_name("mtrain"))

linux = pytest.mark.skipif(not sys.platform.startswith("linux"),
                           reason="subreapers are Linux's")


# --- 1. an engine whose descendants drop the harness's environment and leave its session -


# At its start the engine leaves two processes that only a subreaper finds: a `sleep`
# under `env -i setsid sh -c '... &'` and a daemon that forked twice under `env -i`, each
# with its pipes to /dev/null (no look at who holds the engine's pipes finds them). Then
# it answers as the reference does, until request K where, with "exit", it exits (code 5),
# and with "hang", it records itself in PIDS.hung and hangs.
DAEMON = textwrap.dedent("""
    import os, sys, time
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            for fd in (0, 1, 2):
                os.close(fd)
            with open(sys.argv[1], "a") as f:
                f.write(f"{os.getpid()}\\n")
            time.sleep(300)
        os._exit(0)
    os.wait()
""")

ENGINE = textwrap.dedent("""
    import os, subprocess, sys, time
    sys.path.insert(0, {broken!r})
    from _base import run

    pids, mode, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
    quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL)
    subprocess.run(["env", "-i", "setsid", "sh", "-c",
                    f"sleep 300 & echo $! >> {{pids}}"], check=True, **quiet)
    subprocess.run(["env", "-i", sys.executable, "-c", {daemon!r}, pids], check=True,
                   **quiet)
    with open(pids, "a") as f:
        f.write(f"{{os.getpid()}}\\n")

    def hook(n, request, answer):
        if n == k and mode == "exit":
            os._exit(5)
        if n == k and mode == "hang":
            with open(pids + ".hung", "a") as f:
                f.write(f"{{os.getpid()}}\\n")
            time.sleep(300)
        return answer

    run(hook)
""")


def escaper(tmp_path: Path, pids: Path, mode: str = "none", k: int = 0) -> str:
    script = tmp_path / "escaper.py"
    script.write_text(ENGINE.format(broken=str(BROKEN), daemon=DAEMON))
    return shlex.join([sys.executable, str(script), str(pids), mode, str(k)])


@linux
def test_conform_leaves_nothing_an_engine_started_under_env_i(
        tmp_path: Path, pids: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the first engine exits at its third request and is started again: two engines
    impl = escaper(tmp_path, pids, "exit", 3)
    rc = main(["conform", "--fixtures", str(FIXTURES), "--format", "json", "--impl", impl,
               "-k", "basic-001", "--variant", "pagat"])
    capsys.readouterr()
    assert rc == 1
    assert len(recorded(pids)) >= 3
    assert survivors(pids) == []


@linux
def test_fuzz_leaves_nothing_an_engine_started_under_env_i(
        tmp_path: Path, pids: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["fuzz", "--games", "1", "--variant", "puremco-d9", "--seed", "1",
               "--out", str(tmp_path / "out"), "--impl", escaper(tmp_path, pids)])
    capsys.readouterr()
    assert rc == 0
    assert len(recorded(pids)) >= 3
    assert survivors(pids) == []


@linux
@pytest.mark.slow  # identify's plan, and an engine started again and again: ~13 s of wall
def test_identify_leaves_nothing_an_engine_started_under_env_i(
        tmp_path: Path, pids: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # each engine exits at its second request: identify gives up after a few starts
    rc = main(["identify", "--impl", escaper(tmp_path, pids, "exit", 2)])
    capsys.readouterr()
    assert rc != 0
    assert len(recorded(pids)) >= 3
    assert survivors(pids) == []


@linux
@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupt_leaves_nothing_an_engine_started_under_env_i(
        tmp_path: Path, pids: Path, signum: int, code: int) -> None:
    argv = [MTRAIN, "conform", "--fixtures", str(FIXTURES), "--timeout", "60",
            "--impl", escaper(tmp_path, pids, "hang", 2)]
    harness = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        hung(pids, 1, BOUND)
        harness.send_signal(signum)
        _, err = harness.communicate(timeout=BOUND)  # a bound on a hang
    finally:
        if harness.poll() is None:
            harness.kill()
            harness.communicate()
    assert harness.returncode == code, err
    assert len(recorded(pids)) >= 3
    assert survivors(pids) == []


@linux
def test_a_harness_killed_outright_leaves_nothing_an_engine_started_under_env_i(
        tmp_path: Path, pids: Path) -> None:
    argv = [MTRAIN, "conform", "--fixtures", str(FIXTURES), "--timeout", "60",
            "--impl", escaper(tmp_path, pids, "hang", 2)]
    harness = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        hung(pids, 1, BOUND)
        harness.kill()  # no handler, no exit handler: the reaper and the watchdog are left
        harness.wait(BOUND)
    finally:
        if harness.poll() is None:
            harness.kill()
            harness.wait()
    assert len(recorded(pids)) >= 3
    assert survivors(pids) == []


# --- 2. a legal answer naming a train the table has not ---------------------------------


# Answers as the reference does, but lists one play more at every legal request: the
# first tile of the hand on the train argv[1] names (a seat number, or "mexican").
OFF_TABLE = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {broken!r})
    from _base import run

    train = json.loads(sys.argv[1])

    def hook(n, request, answer):
        if request["type"] != "legal":
            return answer
        reply = json.loads(answer)
        state = request["state"]
        tile = state["hands"][state["seat"]][0]
        reply["actions"].append({{"type": "play", "tile": tile, "train": train}})
        return (json.dumps(reply) + "\\n").encode()

    run(hook)
""")


@pytest.mark.parametrize("train", ["7", "2"])
def test_a_legal_answer_naming_a_train_the_table_has_not_is_a_broken_answer(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], train: str) -> None:
    script = tmp_path / "off_table.py"
    script.write_text(OFF_TABLE.format(broken=str(BROKEN)))
    impl = shlex.join([sys.executable, str(script), train])
    rc = main(["conform", "--fixtures", str(FIXTURES), "--format", "json", "--impl", impl,
               "-k", "basic-001", "--variant", "pagat"])
    report = json.loads(capsys.readouterr().out)
    assert rc == 1
    [result] = report["results"]
    # a table of two (the fixture's): the protocol's error, no rule charged
    assert result["status"] == "error", result
    assert result["message"].startswith("legal: the answer breaks the schema: actions/"), \
        result["message"]
    assert result["message"].endswith(
        f'names train {train}, which the table has not: its trains are 0 to 1 and '
        '"mexican"'), result["message"]


def test_fuzz_judges_a_play_on_a_train_the_table_has_not_a_broken_answer() -> None:
    ctx = F.context("pagat")
    st = deal(ctx.rules, 4, 1, seed=1)  # four seats: trains 0 to 3 and the Mexican Train
    legal = legal_actions(st)
    got = [codec.action_to_json(st, a) for a in legal]
    tile = got[0].get("tile", "0-0")
    found = compare_legal(ctx, st, legal, [*got, {"type": "play", "tile": tile, "train": 7}],
                          None)
    assert [d.signature for d in found] == [
        "legal answer: protocol.schema.json#/$defs/legal_answer"], found
    assert "names train 7, which the table has not: its trains are 0 to 3 and " \
        '"mexican"' in found[0].messages[0], found[0].messages


class OffTable(ReferenceImplementation):
    def legal(self, ruleset: Any, state: Any) -> list[Any]:
        tile = state["hands"][state["seat"]][0]
        return [*super().legal(ruleset, state), {"type": "play", "tile": tile, "train": 9}]


def test_identify_reads_no_rule_in_a_play_on_a_train_the_table_has_not() -> None:
    rj = {"name": "pagat", "options": dict(catalog().ruleset("pagat").choices)}
    order = [f"{a}-{b}" for a in range(12, -1, -1) for b in range(a, -1, -1)]
    state = ReferenceImplementation().deal(rj, 4, 1, order)
    watched = Watched(OffTable())
    with pytest.raises(ProtocolViolation, match="names train 9, which the table has not"):
        watched.legal(rj, state)
    assert watched.failed  # counted as a request that failed, not read as evidence


# --- 3. bad inputs of one's own --------------------------------------------------------


def test_a_rule_set_file_of_thousands_of_rows_is_refused_at_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a hand-size table of 10,999 rows: each row past 20 players was told on its own
    # line, by each of the several loads of the file (200,000 rows took minutes)
    rows = "".join(f"    {n}: 1\n" for n in range(2, 11001))
    path = tmp_path / "rows.yaml"
    path.write_text(f"name: rows\nbase: pagat\noptions:\n  hand_sizes:\n{rows}")
    assert main(["rules", str(path)]) == 2
    err = capsys.readouterr().err
    # 11,004 values: the file's mapping, name, base, options, hand_sizes, 10,999 rows;
    # the first 10,000 end with row 9,995 (line 4 + 9,995): the next is on line 10,000
    assert err.strip() == (
        f"mtrain rules: {path}:10000: a rule-set file holds at most 10,000 values (a rule "
        "set needs some forty); this one holds 11,004: the first past that is here"), err
