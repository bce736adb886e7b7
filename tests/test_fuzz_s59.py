"""Session 59 (fuzz59): fuzz on house engines, finding sooner and judging more.

- Under a follow-up (or whether one's own train comes first) of one's own, conform runs
  an entry both ends of the known values' bracket give (bracket_alone.py); fuzz set every
  answer reading such a rule aside. It now asks the same code of the answer
  (own_release.legal_cut, refusal_cut): a draw left out after a double laid where nothing
  fits any train (DBL-5, whatever the follow-up) is found.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.reference import codec, engine

OWN_FOLLOW = """name: own-follow
base: pagat
options:
  tile_set: double-6
  hand_sizes: {2: 7, 3: 6, 4: 5}
  first_turn: single
  follow_up: other
"""
DRAW, PASS = {"type": "draw"}, {"type": "pass"}


class PassesAfterDouble(ReferenceImplementation):
    """The reference as its rules are sent (a follow-up it may call its own), with a
    planted bug: after a double laid this turn, where nothing in hand fits and the
    player must draw (DBL-5), it lists a pass in place of the draw, and plays that pass
    as any other (its marker up, the turn handed on)."""

    def _skips_draw(self, ruleset: JSON, state: JSON) -> bool:
        return bool(state.get("turn_doubles")) and super().legal(ruleset, state) == [DRAW]

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        return [PASS] if self._skips_draw(ruleset, state) else super().legal(ruleset, state)

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if action != PASS or not self._skips_draw(ruleset, state):
            return super().apply(ruleset, state, action)
        st = self.state(ruleset, state).copy()
        engine.perform(st, engine.PASS)
        return codec.state_to_json(st)


def _own_follow(tmp_path: Path) -> Path:
    rules = tmp_path / "own-follow.yaml"
    rules.write_text(OWN_FOLLOW, encoding="utf-8")
    return rules


@pytest.mark.parametrize(("adapter", "found"), [("PassesAfterDouble", True),
                                                ("ReferenceImplementation", False)])
def test_fuzz_judges_an_answer_the_known_follow_ups_bracket(
        adapter: str, found: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two games under `follow_up: other`: the pass listed in place of the draw after a
    double is found, charged DBL-5, and nothing else; the reference shows nothing.
    Before, the legal answer there read the follow-up and was set aside: nothing found."""
    main(["fuzz", "--adapter", f"{__file__}:{adapter}", "--rules", str(_own_follow(tmp_path)),
          "--games", "2", "--seed", "1", "--json", "--out", str(tmp_path / "out"),
          "--shrink-seconds", "10"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert report["answered"] > 0
    if not found:
        assert report["findings"] == [], report["findings"]
        return
    assert [f["signature"] for f in report["findings"]] == [
        "allows pass (DBL-5) instead of draw"], report["findings"]
    (f,) = report["findings"]
    # conform charges the reproducer as the reference refuses the pass: draw (TURN-2)
    assert f["charged"] == ["TURN-2"] and f["reproducer"] and f["problems"] == [], f
