"""Faults of the suite that marshal (tests/examples/marshal_engine.py, a bot-tournament
server's rules module: double-6 for 2 to 4 bots, a hand table of its own, three house
rules its hello declares under known names that sounded close, and one game object kept
from request to request) showed, each pinned in process."""

from __future__ import annotations

from pathlib import Path

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fuzz.judge import Probe
from mtrain.conformance.fuzz.rejudge import Judge
from mtrain.conformance.fuzz.rulesets import declared_context
from mtrain.spec.catalog import catalog


def rules_file(tmp_path: Path, name: str, **options: object) -> str:
    """A rule-set file on puremco with these options, and the name fuzz plays it by."""
    lines = [f"name: {name}", "base: puremco", "options:", *(f"  {o}: {v}"
                                                            for o, v in options.items())]
    path = tmp_path / f"{name}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return declared_context(catalog().rules_file(str(path))).name


class DoubleOutHandsOn(ReferenceImplementation):
    """A double laid as the last tile opens and hands the turn on: the round goes on with
    an empty hand at the table (marshal's bug 2, END-1)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = super().apply(ruleset, state, action)
        tile = str(action.get("tile", ""))
        high, _, low = tile.partition("-")
        if after["phase"] != "over" or high != low or after["result"]["winner"] is None:
            return after
        seat = state["seat"]
        n = len(state["hands"])
        return {**after, "phase": "start", "seat": (seat + 1) % n, "result": None,
                "scores": state["scores"], "outs": state["outs"], "turn_doubles": [],
                "first_turns": [s for s in state["first_turns"] if s != seat]}


# seat 0 holds [5-5] alone, its own train ends in 5: laying it goes out (END-1)
OUT_ON_A_DOUBLE = {"engine": 12, "seat": 0, "hands": {0: ["5-5"], 1: ["3-4", "6-1"]},
                   "trains": {0: ["12-5"], 1: ["12-10"]}, "boneyard": ["rest"]}


def _going_out(impl: ReferenceImplementation, name: str) -> list[str]:
    probe = Probe("apply", name, table=OUT_ON_A_DOUBLE, action="play 5-5 on 0")
    found = Judge(impl).judge(probe)
    return [d.signature for d in found or []]


def test_going_out_on_a_double_is_judged_under_a_doubles_rule_of_ones_own(
        tmp_path: Path) -> None:
    """Laying a double reads the doubles rule, so under `doubles: other` fuzz judged no
    step that laid one, the last tile included: marshal's double laid as its last tile,
    which handed the turn on instead of ending the round, was never a finding. That the
    round ends is END-1's, a clause of every rule set; the doubles rule decides only
    whether the double is listed open (out_alone), and the rest is judged."""
    name = rules_file(tmp_path, "doubles-own", doubles="other")
    assert _going_out(DoubleOutHandsOn(), name) == ["round end: result"]
    # the round ended as END-1 says, whichever doubles it lists open: nothing to find
    assert _going_out(ReferenceImplementation(), name) == []


def test_going_out_on_a_double_with_scoring_of_ones_own_too(tmp_path: Path) -> None:
    """With the round's worth of one's own besides (marshal's blocked-round scoring), the
    step is still judged, its scores and totals set aside (worth_aside)."""
    name = rules_file(tmp_path, "doubles-scoring-own", doubles="other", scoring="other")
    assert _going_out(DoubleOutHandsOn(), name) == ["round end: result"]
    assert _going_out(ReferenceImplementation(), name) == []
