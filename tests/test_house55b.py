"""The suite's faults yardmaster (tests/examples/yardmaster_engine.py, a double-9 engine
for 2 to 5 players with a table of its own and two house rules on the Mexican Train and
the first turn) showed, each fixed with a test that failed before the fix. Each is played
in process over the reference."""

from __future__ import annotations

import json
from pathlib import Path

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation, Refused
from mtrain.reference import codec
from mtrain.reference.engine import legal_actions
from mtrain.reference.refusals import refusals
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog


def _playable_draw(state: JSON) -> bool:
    """Whether the player to act holds a drawn tile they can play."""
    return state["drawn"] is not None and state["phase"] == "start"


class DrawnMustBePlayed(ReferenceImplementation):
    """The reference's rules, but a pass or a draw refused while the drawn tile can be
    played cites TURN-3 ("if it can be played, it must be"), as yardmaster does."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if action["type"] in ("pass", "draw") and _playable_draw(state) and any(
                a["type"] == "play" for a in super().legal(ruleset, state)):
            raise Refused("the drawn tile can be played, so it must be", "TURN-3")
        return super().apply(ruleset, state, action)


def test_a_pass_refused_after_a_playable_draw_may_cite_turn_3(tmp_path: Path) -> None:
    """yardmaster's first run, bugs off: turn-008, turn-010, turn-011 and s47-draw-001
    failed "`pass` refused by TURN-3, expected TURN-1". TURN-3 says of the drawn tile "if
    it can be played, it must be": it refuses the pass (and a second draw) as much as
    TURN-1 does, and a fixture lists every clause in force that refuses an action
    (docs/protocol.md). The reference's refusals now list TURN-3 after TURN-1 there, and
    the 14 fixtures lint then named list it."""
    out = tmp_path / "report.json"
    main(["conform", "--adapter", f"{__file__}:DrawnMustBePlayed", "--variant", "puremco",
          "--variant", "puremco-d9", "-k", "turn-008", "-k", "turn-010", "-k", "turn-011",
          "-k", "s47-draw-001", "--format", "json", "--output", str(out)])
    report = json.loads(out.read_text(encoding="utf-8"))
    status = {(r["fixture"], r["variant"]): r["status"] for r in report["results"]}
    assert {f for f, _ in status} == {"turn-008", "turn-010", "turn-011", "s47-draw-001"}
    assert set(status.values()) == {"pass"}, status


def test_the_reference_lists_turn_3_for_a_pass_after_a_playable_draw() -> None:
    rules = Rules.of(catalog().ruleset("puremco"))
    st = codec.state_from_json(rules, _drawn_table())
    for kind in ("pass", "draw"):
        clauses = [r.clause for r in refusals(st, codec.action_from_json(st, {"type": kind}))]
        assert clauses[0] == "TURN-1" and "TURN-3" in clauses, (kind, clauses)
    # an unplayable drawn tile is TURN-3's no more: the pass is the one legal action
    st = codec.state_from_json(rules, _drawn_table(drawn="8-3"))
    assert [a.kind for a in legal_actions(st)] == ["pass"]


def _drawn_table(drawn: str = "4-0") -> JSON:
    """Three seats, round 1 of double-12 (engine 12): seat 0 drew `drawn`; [4-0] fits its
    own train's 4, [8-3] fits nothing."""
    hand = ["8-3", "5-1", drawn] if drawn != "8-3" else ["8-3", "5-1"]
    hands = [sorted(hand, reverse=True), ["5-5", "3-1"], ["8-1", "2-2"]]
    used = {t for h in hands for t in h} | {"12-4", "12-6", "12-2", "12-7"}
    tiles = [f"{a}-{b}" for a in range(13) for b in range(a + 1) if f"{a}-{b}" != "12-12"]
    return {
        "round": 1, "engine": 12, "engine_placed": True, "phase": "start", "seat": 0,
        "starter": 0, "hands": hands, "boneyard": [t for t in tiles if t not in used],
        "trains": [{"tiles": ["12-4"], "end": 4, "marker": False},
                   {"tiles": ["12-6"], "end": 6, "marker": False},
                   {"tiles": ["12-2"], "end": 2, "marker": False}],
        "mexican": {"tiles": ["12-7"], "end": 7}, "open_doubles": [], "turn_doubles": [],
        "drawn": drawn, "first_turns": [], "passes": 0, "scores": [0, 0, 0],
        "outs": [0, 0, 0], "result": None}
