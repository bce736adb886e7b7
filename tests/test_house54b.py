"""The suite's faults trolley (tests/examples/c/trolley_engine.c, a double-15 engine in C
for 2 to 10 players with a table of its own and house rules on the draw and the blocked
round) showed, each fixed with a test that failed before the fix. Each is played in
process over the reference, so that no test needs gcc."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation, Refused


def _bound(state: JSON) -> bool:
    """Whether the player to act is bound to cover a double of an earlier turn and has
    not drawn (the table of trolley's third house rule)."""
    return (state["phase"] == "start" and state["drawn"] is None
            and any(t not in state["turn_doubles"] for t in state["open_doubles"]))


class DutyPass(ReferenceImplementation):
    """trolley --duty-pass's house rule, a draw rule of its own (`draw_rule: other`): a
    player bound to cover an open double of an earlier turn who cannot cover it does not
    draw; their marker goes up and the turn passes. Elsewhere the reference's rules."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        found = super().legal(ruleset, state)
        if found == [{"type": "draw"}] and _bound(state):
            return [{"type": "pass"}]
        return found

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if not (super().legal(ruleset, state) == [{"type": "draw"}] and _bound(state)):
            return super().apply(ruleset, state, action)
        if action != {"type": "pass"}:
            raise Refused("bound to a double it cannot cover, the player passes (house "
                          "rule)", None)
        after = copy.deepcopy(state)  # TURN-4, MARK-1: the marker up, the next seat on
        seat = state["seat"]
        after["trains"][seat]["marker"] = True
        after["first_turns"] = [s for s in state["first_turns"] if s != seat]
        after["seat"] = (seat + 1) % len(state["hands"])
        return after


def test_a_draw_rule_of_its_own_that_draws_nothing_at_a_table_fails_no_fixture(
        tmp_path: Path) -> None:
    """trolley's variation drew no tile when bound to a double it could not cover, and
    declared its draw rule `other`: 67 fixtures failed, each charged TURN-2 "a clause of
    the reference's stand-in for draw_rule ... judged as TURN-2", since the reference
    answered a first draw without reading the draw rule, so the scope kept every table
    where a player who cannot play draws. Whether they draw is the draw rule's (TURN-2,
    TURN-5; DBL-5 draws as they do): now read at every draw, and those fixtures are not
    applicable under a draw rule of one's own."""
    rules = tmp_path / "draw-other.yaml"
    rules.write_text("name: draw-other\nbase: pagat\noptions:\n  first_turn: single\n"
                     "  draw_rule: other\n", encoding="utf-8")
    out = tmp_path / "report.json"
    # doubles-037: a seat bound to cover draws; doubles-009: the duty passed on after a
    # follow-up covers the first of two doubles; doubles-031 its tile covers (runs)
    main(["conform", "--adapter", f"{__file__}:DutyPass", "--rules", str(rules),
          "-k", "doubles-037", "-k", "doubles-009", "-k", "doubles-031",
          "--format", "json", "--output", str(out)])
    report = json.loads(out.read_text(encoding="utf-8"))
    status = {r["fixture"]: r["status"] for r in report["results"]}
    assert status == {"doubles-037": "not-applicable", "doubles-009": "not-applicable",
                      "doubles-031": "pass"}, report["results"]
    reasons = [r["message"] for r in report["results"] if r["status"] == "not-applicable"]
    assert all("draw_rule" in m for m in reasons), reasons
