"""Two bad inputs left open (robust-s51b): `mtrain serve` refused, citing a rule (SET-1,
TRAIN-1), a play whose tile or train had the wrong JSON type, where such a request is no
action at all (a `bad-request`); `mtrain situations --out FILE` wrote over an existing
file without being asked to."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.adapter import ruleset_json
from mtrain.conformance.serve import Server
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import table_state

RS = catalog().ruleset("puremco-d9")
RJ = ruleset_json(RS)
# seat 0 to act, holding [4-0] on a double-9 set, two seats: seat 1's train ends in 5
STATE = table_state({"engine": 0, "hands": {0: ["0-4"], 1: ["3-3", "2-1"]},
                     "trains": {1: ["0-5"]}, "scores": [30, 12], "outs": [4, 5]}, RS)


def answers(action: Any) -> list[dict[str, Any]]:
    """The server's answers to one apply of `action`, asked twice as bytes (the second
    time answered from the lines it knows, `Server.recorded`) and once as text (`handle`
    alone): all three paths must agree."""
    server = Server()
    line = json.dumps({"id": 1, "type": "apply", "ruleset": RJ, "state": STATE,
                       "action": action}).encode()
    out = [json.loads(server.respond(line)[0]) for _ in range(2)]
    return [*out, Server().handle(line.decode())[0]]


@pytest.mark.parametrize("action", [
    {"type": "play", "tile": 40, "train": 0},
    {"type": "play", "tile": ["4", "0"], "train": 0},
    {"type": "play", "tile": None, "train": 0},
    {"type": "play", "tile": "four-nothing", "train": 0},
    {"type": "play", "train": 0},
    {"type": "play", "tile": "4-0", "train": "0"},
    {"type": "play", "tile": "4-0", "train": [0]},
    {"type": "play", "tile": "4-0", "train": None},
    {"type": "play", "tile": "4-0", "train": True},
    {"type": "play", "tile": "4-0", "train": -1},
    {"type": "play", "tile": "4-0", "train": "Mexican"},
    {"type": "play", "tile": "4-0"},
])
def test_a_play_written_with_wrong_types_is_a_bad_request(action: dict[str, Any]) -> None:
    for answer in answers(action):
        assert answer["ok"] is False and answer["error"]["kind"] == "bad-request", answer
        field = "tile" if "tile" not in action or not isinstance(action["tile"], str) \
            or action["tile"] != "4-0" else "train"
        assert field in answer["error"]["message"], answer


@pytest.mark.parametrize(("action", "clause"), [
    ({"type": "play", "tile": "13-1", "train": 0}, "SET-1"),  # a tile of no double-9 set
    ({"type": "play", "tile": "4-0", "train": 2}, "TRAIN-1"),  # two seats: no train 2
    ({"type": "play", "tile": "4-0", "train": 1}, "TRAIN-2"),  # seat 1's train ends in 5
])
def test_a_well_formed_play_the_rules_forbid_is_refused_with_its_clause(
        action: dict[str, Any], clause: str) -> None:
    for answer in answers(action):
        assert answer["ok"] is True and answer["refused"]["clause"] == clause, answer


def test_a_well_formed_legal_play_is_played() -> None:
    for answer in answers({"type": "play", "tile": "0-4", "train": 0}):
        assert answer["ok"] is True and answer["state"]["trains"][0]["tiles"] == ["0-4"]


def test_situations_out_refuses_an_existing_file_unless_forced(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mine.yaml"
    out.write_text("hand-worked fixtures\n", encoding="utf-8")
    args = ["situations", "puremco-d9", "-n", "1", "--out", str(out)]
    assert main(args) == 2
    printed, err = capsys.readouterr()
    assert printed == "" and "--force" in err and "Traceback" not in err, err
    assert out.read_text(encoding="utf-8") == "hand-worked fixtures\n"  # untouched
    assert main([*args, "--force"]) == 0
    assert out.read_text(encoding="utf-8").startswith(("#", "-", "fixtures", "id")), \
        out.read_text(encoding="utf-8")[:200]


def test_situations_force_without_out_is_a_usage_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["situations", "puremco-d9", "--force"]) == 2
    printed, err = capsys.readouterr()
    assert printed == "" and "--force goes with --out" in err, err
