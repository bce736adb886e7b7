"""Bad inputs and misbehaving engines, round 34 (robust-s61): a state answer naming a
train the table has not is the protocol's error, not a broken TRAIN-1; an engine that
kills its own reaper leaves nothing behind; and a fresh round of hostile inputs."""

from __future__ import annotations

import json
import shlex
import sys
import textwrap
from pathlib import Path

import pytest

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
