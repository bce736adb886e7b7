"""Answers and inputs the earlier robustness work let through (robust-s36): each is
charged or refused by name, never read past."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.protocol import ProtocolError, check_answer

HERE = Path(__file__).resolve().parent
BROKEN = HERE / "broken_impls"
FIXTURES = HERE / "data" / "fixtures"


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
