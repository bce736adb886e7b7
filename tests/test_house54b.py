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


def _conform(tmp_path: Path, adapter: str, *fixtures: str) -> dict[str, JSON]:
    """conform's results of `fixtures` under pagat with a draw rule of one's own."""
    rules = tmp_path / "draw-other.yaml"
    rules.write_text("name: draw-other\nbase: pagat\noptions:\n  first_turn: single\n"
                     "  draw_rule: other\n", encoding="utf-8")
    out = tmp_path / "report.json"
    main(["conform", "--adapter", f"{__file__}:{adapter}", "--rules", str(rules),
          *[a for f in fixtures for a in ("-k", f)], "--format", "json", "--output", str(out)])
    report = json.loads(out.read_text(encoding="utf-8"))
    return {r["fixture"]: r for r in report["results"]}


def test_a_draw_rule_of_its_own_that_draws_nothing_at_a_table_fails_no_fixture(
        tmp_path: Path) -> None:
    """trolley's variation (--duty-pass) draws no tile when bound to a double it cannot
    cover, and declares its draw rule `other`: 67 fixtures failed under its file, 65
    charged TURN-2 "a clause of the reference's stand-in for draw_rule ... judged as
    TURN-2" (2 DBL-10), since the reference answers a first draw without reading the draw
    rule (reference/engine.py legal_actions reads `rules.draw_until_playable` only once a
    tile is drawn), so such a table was judged as written though the draw rule decides
    whether its player draws or passes.

    Reading the flag before every draw (tried, backed out) set aside the plays of such a
    table too, which no draw rule decides: coupling's bug 2 (DBL-10, a play offered where
    the rules say draw) went unseen. So conform cuts finer (conformance/draw_alone.py):
    there the legal set is judged by its plays, its draw or pass is the house rule's, and
    a `draw` step refused there is not applicable."""
    results = _conform(tmp_path, "DutyPass", "doubles-037", "doubles-009", "doubles-031")
    status = {f: r["status"] for f, r in results.items()}
    # doubles-037: a seat bound to cover draws (its own rule refuses that step);
    # doubles-009: the duty passed on, no play, draw expected: passes offered [pass], no
    # play offered, 2-4 on 1 refused (DBL-6), the state as written; doubles-031: its tile
    # covers (runs as written)
    assert status == {"doubles-037": "not-applicable", "doubles-009": "pass",
                      "doubles-031": "pass"}, results
    assert "draw_rule" in results["doubles-037"]["message"], results["doubles-037"]


class PlayOnDuty(DutyPass):
    """DutyPass, and a play besides wherever it passes bound to a double: an extra play
    (DBL-6 closes the layer's other trains while a double is open), no draw rule's."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        found = super().legal(ruleset, state)
        if found == [{"type": "pass"}] and _bound(state) and state["hands"][state["seat"]]:
            tile = state["hands"][state["seat"]][0]
            return [*found, {"type": "play", "tile": tile, "train": state["seat"]}]
        return found


def test_under_a_draw_rule_of_its_own_the_plays_of_a_table_without_one_are_judged(
        tmp_path: Path) -> None:
    """The finer cut leaves only draw-or-pass to the house rule: a play offered at a table
    where the rules have none is still a failure (doubles-009: seat 1 holds [2-4], which
    fits its own train but DBL-6 closes it while the Mexican [7-7] is open)."""
    results = _conform(tmp_path, "PlayOnDuty", "doubles-009")
    assert results["doubles-009"]["status"] == "fail", results
    found = results["doubles-009"]
    assert found["message"] == "legal actions not allowed by the rules: play 4-2 on 1", found
    assert found["charged"] == ["DBL-6"], found


class LastBone(ReferenceImplementation):
    """A bug, not a draw rule (dandy's bug 3, tests/examples/perl/dandy_engine.pl): the
    last tile of the boneyard is never drawn; the player passes instead."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        found = super().legal(ruleset, state)
        if found == [{"type": "draw"}] and state["phase"] == "start" and len(
                state["boneyard"]) == 1:
            return [{"type": "pass"}]
        return found


def test_under_a_draw_rule_of_its_own_a_pass_on_the_last_bone_still_fails(
        tmp_path: Path) -> None:
    """A pass that turns on how many tiles are left is asked again with one tile more in
    the boneyard (runner.counts_bones): LastBone then draws, so its pass is judged as
    written (end-018: after seat 0's draw and pass, seat 1 holds no play and [6-2] is the
    boneyard's last tile: TURN-2, draw)."""
    found = _conform(tmp_path, "LastBone", "end-018")["end-018"]
    assert found["status"] == "fail", found
    assert "legal actions not allowed by the rules: pass" in found["message"], found


def _probed(state: JSON) -> bool:
    """Whether `state` is last_bone.py's probe of end-018: seat 1 with no play, not having
    drawn, and two tiles in the boneyard where the fixture's table holds one."""
    return (state["phase"] == "start" and state["drawn"] is None and state["seat"] == 1
            and len(state["boneyard"]) == 2)


class CrashOnProbe(LastBone):
    """LastBone, which exits (a crash) when asked again with one tile more."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        if _probed(state) and super().legal(ruleset, state) == [{"type": "draw"}]:
            raise SystemExit(3)
        return super().legal(ruleset, state)


class BrokenOnProbe(LastBone):
    """LastBone, which answers the probe with an action no protocol knows."""

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        if _probed(state) and super().legal(ruleset, state) == [{"type": "draw"}]:
            return [{"type": "fly"}]
        return super().legal(ruleset, state)


def test_a_crash_or_a_broken_answer_to_the_last_bone_probe_is_reported_as_it_is(
        tmp_path: Path) -> None:
    """counts_bones took every failure of its probe for "says nothing": a crash or a
    broken answer there let LastBone's pass through as a draw rule of its own (end-018
    passed). Each is now the result's status, its message naming the probe."""
    found = _conform(tmp_path, "CrashOnProbe", "end-018")["end-018"]
    assert found["status"] == "crash", found
    assert "asked again with one tile more in the boneyard" in found["message"], found
    found = _conform(tmp_path, "BrokenOnProbe", "end-018")["end-018"]
    assert found["status"] == "error", found  # the schema's: an error, not a rule broken
    assert "asked again with one tile more in the boneyard" in found["message"], found
