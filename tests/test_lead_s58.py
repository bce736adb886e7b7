"""Session 58's merge: a reproducer whose check raises is said, never passed silently."""

from __future__ import annotations

from pathlib import Path

import yaml

from mtrain.conformance.fuzz.reproducer import check
from mtrain.conformance.reference_adapter import ReferenceImplementation


class Raises(ReferenceImplementation):
    """Fails inside the harness's own call (an in-process engine's exception)."""

    def apply(self, ruleset, state, action):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")


def test_a_reproducer_whose_check_raises_says_so(tmp_path: Path) -> None:
    fixture = {
        "id": "lead-raise-001", "description": "the engine laid on its own train",
        "clauses": ["TURN-1"],
        "source": ["computation"],
        "table": {"engine": 12, "seat": 0, "hands": {0: ["12-5", "3-4"], 1: ["6-6"],
                                                     2: ["1-2"]},
                  "boneyard": ["rest"]},
        "steps": ["play 12-5 on 0"],
        "expect": [{"variants": ["pagat"], "state": {"seat": 1}}]}
    text = yaml.safe_dump([fixture], sort_keys=False)
    path = tmp_path / "lead-raise-001.yaml"
    path.write_text(text)
    checked = check(path, text, Raises(), "raises")
    assert any("raised RuntimeError: boom" in p for p in checked.problems), checked
