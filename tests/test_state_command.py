"""`mtrain state ID`: a fixture's small table written as the full protocol request, which
`mtrain serve` answers as the fixture expects (the guide's hand-driven example)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.fixture import load_corpus

FIXTURE = Path(__file__).parents[1] / "conformance" / "fixtures" / "markers" / "placement.yaml"


def state_line(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["state", *args]) == 0
    out = capsys.readouterr().out
    assert out.endswith("\n") and out.count("\n") == 1  # one line, as the protocol takes it
    return out


def serve(*lines: str) -> list[dict[str, Any]]:
    """`mtrain serve`'s answers to the lines, as a user pasting them would get them."""
    done = subprocess.run([sys.executable, "-m", "mtrain", "serve"], input="".join(lines),
                          capture_output=True, text=True, timeout=120, check=True)
    return [json.loads(x) for x in done.stdout.splitlines()]


def test_a_fixture_table_is_a_request_serve_answers_as_the_fixture_expects(
        capsys: pytest.CaptureFixture[str]) -> None:
    (fx,) = [f for f in load_corpus(FIXTURE)[0] if f.id == "marker-001"]
    (exp,) = fx.expect  # legal: [play 4-2 on 0]; refused: play 4-2 on 2 by TRAIN-4
    legal = state_line(capsys, "marker-001", "--fixtures", str(FIXTURE))
    request = json.loads(legal)
    assert request["type"] == "legal" and request["ruleset"]["name"] == "pagat"
    state = request["state"]
    placed = [t for h in state["hands"] for t in h] + state["boneyard"] + [
        t for train in [*state["trains"], state["mexican"]] for t in train["tiles"]]
    assert len(placed) == len(set(placed)) == 91 - 1  # the set, less the engine at the hub
    apply = state_line(capsys, "marker-001", "--as", "apply", "--action", "play 4-2 on 2")
    answers = serve(legal, apply)
    offered = [f"play {a['tile']} on {a['train']}" for a in answers[0]["actions"]]
    assert offered == list(exp.legal or ())
    assert answers[1]["refused"]["clause"] in exp.refused["play 4-2 on 2"]


def test_the_table_before_the_steps_and_the_state_alone(
        capsys: pytest.CaptureFixture[str]) -> None:
    before = json.loads(state_line(capsys, "marker-001", "--steps", "0"))["state"]
    assert before["seat"] == 0 and before["hands"][0] == ["8-3", "5-1"]  # the table
    assert main(["state", "marker-001", "--as", "state", "--variant", "puremco"]) == 0
    after = json.loads(capsys.readouterr().out)
    assert after["seat"] == 1 and after["trains"][0]["marker"] is True  # after draw, pass


@pytest.mark.parametrize(("args", "says"), [
    (["no-such-001"], "no fixture 'no-such-001' under the shipped corpus"),
    (["marker-00"], "ids containing it: marker-001"),
    (["marker-001", "--steps", "3"], "--steps 3: marker-001 has 2 steps"),
    (["marker-001", "--action", "draw"], "--action goes with --as apply"),
    (["marker-001", "--as", "apply", "--action", "play 4 on 2"], "--action 'play 4 on 2'"),
    (["marker-001", "--variant", "nope"], "--variant nope"),
])
def test_bad_input_is_named(capsys: pytest.CaptureFixture[str], args: list[str],
                            says: str) -> None:
    assert main(["state", *args]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


GUIDE = Path(__file__).parents[1] / "docs" / "implementers-guide.md"


def test_the_guides_hand_driven_example_works_as_written(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Each `mtrain state ... | mtrain serve` line of the guide, with the answer written
    under it as a comment, gives that answer."""
    import re
    import shlex

    pairs = re.findall(r"^(mtrain state [^\n|]+)\| mtrain serve\n# (\{.*\})$",
                       GUIDE.read_text(encoding="utf-8"), re.M)
    assert len(pairs) == 2
    for command, written in pairs:
        line = state_line(capsys, *shlex.split(command)[2:])
        assert serve(line) == [json.loads(written)], command
