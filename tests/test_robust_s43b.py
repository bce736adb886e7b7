"""Inputs the earlier robustness rounds let through (robust-s43b): a table's `drawn`,
`marked`, `open_doubles` or `turn_doubles` naming what the set or the table has not is
the fixture's fault at its own line (it was named at the fixture's first line, or at
none at all); a YAML merge key (`<<: *anchor`), which YAML 1.1 and 1.2 read apart, is
refused at its line in a fixture or rule-set file; a child an in-process adapter forks on
the thread path exits at once rather than wait in the harness's loop for ever."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.fixture import load_file
from mtrain.conformance.runner import Outcome, play
from mtrain.spec.catalog import catalog

CHAIN = Path(__file__).parent.parent / "conformance" / "fixtures" / "chain-doubles" / "chain.yaml"


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- a table's other fields, at their lines --------------------------------------------------


@pytest.mark.parametrize("written, said", [
    ("drawn: 13-2", "tile '13-2' is not in a double-12 set"),
    ("marked: [0, 7]", "7 is not a train (a seat 0..2 or 'mexican')"),
    ("marked: [mexican]", "`marked: [mexican]`: the Mexican Train never carries a marker"),
    ("open_doubles: [7]", "7 is not a train (a seat 0..2 or 'mexican')"),
    ("turn_doubles: [mexican, 3]", "3 is not a train (a seat 0..2 or 'mexican')")])
def test_a_tables_other_fields_are_named_at_their_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, written: str, said: str) -> None:
    # lint named the fixture's first line (`- id:`); the runner, which sets up a shipped
    # fixture's table without lint before it, named no place at all
    one = CHAIN.read_text(encoding="utf-8").split("\n- id: chaindbl-002")[0]
    path = tmp_path / "f.yaml"
    write(path, one.replace("    first_turns: all\n", f"    first_turns: all\n    {written}\n"))
    line = 1 + path.read_text(encoding="utf-8").splitlines().index(f"    {written}")
    assert main(["lint", str(path), "--no-scopes"]) == 1
    out = capsys.readouterr().out
    assert f"error: {path}:{line}: chaindbl-001 [pagat]: {said}" in out, out
    (fx,) = load_file(path)
    outcome = play(fx, catalog().ruleset("pagat"), ReferenceImplementation())
    assert isinstance(outcome, Outcome) and outcome.status == "error"
    (message,) = outcome.messages
    assert message.startswith(f"cannot set up the fixture: {said}"), message
    assert message.endswith(f" (at {path}:{line})"), message


def test_a_table_fault_of_the_whole_table_names_the_fixtures_line(tmp_path: Path) -> None:
    # no node of the table is at fault (no `rest`, tiles nowhere): its fixture's line,
    # where the runner named no place
    one = CHAIN.read_text(encoding="utf-8").split("\n- id: chaindbl-002")[0]
    path = tmp_path / "f.yaml"
    write(path, "\n" * 3 + one.replace("    first_turns: all\n",
                                       "    first_turns: all\n    boneyard: []\n"))
    (fx,) = load_file(path)
    outcome = play(fx, catalog().ruleset("pagat"), ReferenceImplementation())
    assert isinstance(outcome, Outcome) and outcome.status == "error"
    (message,) = outcome.messages
    # the double-12 set's 91 tiles, less the 9 in hands and the engine in the centre
    assert message.startswith("cannot set up the fixture: 81 tiles of the set are nowhere")
    assert message.endswith(f" (at {path}:8)"), message


# --- YAML merge keys -------------------------------------------------------------------------

MERGE = "'<<' is a merge key to YAML 1.1 (PyYAML: the keys of the mapping it names are copied in)"


def test_a_merge_key_in_a_fixture_is_refused_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # PyYAML (YAML 1.1) copied the first fixture's hands into the second, which passed
    # lint; YAML 1.2 reads a key named '<<', a table with no hands
    two = CHAIN.read_text(encoding="utf-8").split("\n- id: chaindbl-003")[0]
    hands = "    hands:\n      0: [12-5, 5-5, 5-3, 3-1, 7-2]\n      1: [12-6, 4-4]\n" \
        "      2: [12-8, 1-1]\n"
    assert two.count(hands) == 2
    path = tmp_path / "f.yaml"
    write(path, two.replace(hands, "    hands: &hands\n" + hands[11:], 1).replace(
        hands, "    hands:\n      <<: *hands\n"))
    line = 1 + path.read_text(encoding="utf-8").splitlines().index("      <<: *hands")
    assert main(["lint", str(path), "--no-scopes"]) == 1
    out = capsys.readouterr().out
    assert f"{path}:{line}: {MERGE}" in out, out


def test_a_merge_key_in_a_rule_set_file_is_refused_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path / "mine.yaml", "name: mine\nbase: pagat\noptions:\n"
                 "  tile_set: double-12\n  <<: {scoring: penalty}\n")
    assert main(["conform", "--rules", path, "-k", "chaindbl-001"]) == 2
    assert f"{path}:5: {MERGE}" in capsys.readouterr().err


# --- an in-process adapter on a thread that forks ---------------------------------------------


def test_a_child_an_adapter_forks_on_the_thread_path_exits_at_once(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    # without a worker process (an object handed in by code, or no fork), the calls run
    # on a thread of the harness: the child came back from legal() into the thread's loop
    # and waited there for calls for ever, a process nobody ends (the worker path's
    # child exits: test_robust_s43.py)
    from mtrain.conformance import inprocess
    if not hasattr(os, "fork"):
        pytest.skip("the adapter needs fork")
    monkeypatch.setattr(inprocess, "CAN_FORK", False)
    children = tmp_path / "children.txt"
    adapter = write(tmp_path / "forks.py", f"""
import os
from mtrain.conformance.adapter import ReferenceImplementation

class Engine(ReferenceImplementation):
    def legal(self, ruleset, state):
        pid = os.fork()  # both come back
        if pid:
            with open({str(children)!r}, "a") as f:
                f.write(f"{{pid}}\\n")
        return super().legal(ruleset, state)
""")
    try:
        assert main(["conform", "--adapter", f"{adapter}:Engine", "--variant", "pagat",
                     "--fixtures", str(CHAIN), "-k", "chaindbl-00", "--format",
                     "json"]) == 0
        results = json.loads(capsys.readouterr().out)["results"]
        assert len(results) > 1 and {r["status"] for r in results} == {"pass"}, results
    finally:
        pids = [int(p) for p in children.read_text().split()] if children.exists() else []
        stuck = _reap(pids)
    assert pids and stuck == [], f"{len(stuck)} of {len(pids)} children never exited"


def _reap(pids: list[int]) -> list[int]:
    """Each child waited for, and those still running after a minute (a guard against a
    hang, not a measure: one that exits does so in milliseconds) killed: the stuck."""
    stuck, until = [], time.monotonic() + 60
    for pid in pids:
        while os.waitpid(pid, os.WNOHANG) == (0, 0):
            if time.monotonic() > until:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                stuck.append(pid)
                break
            time.sleep(0.05)
    return stuck
