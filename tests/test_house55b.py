"""The suite's faults yardmaster (tests/examples/yardmaster_engine.py, a double-9 engine
for 2 to 5 players with a table of its own and two house rules on the Mexican Train and
the first turn) showed, each fixed with a test that failed before the fix. Each is played
in process over the reference."""

from __future__ import annotations

import json
from pathlib import Path

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation, Refused, ruleset_json
from mtrain.conformance.match_over import holds_match_over
from mtrain.reference import codec
from mtrain.reference.engine import legal_actions
from mtrain.reference.refusals import refusals
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import deal_order


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


class _Dealt(ReferenceImplementation):
    """The reference, keeping the pool of each deal it makes (an engine that checks the
    pool it is sent, as yardmaster does: the reference's deal raises on a wrong one)."""

    def __init__(self) -> None:
        super().__init__()
        self.pools: list[list[str]] = []

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        self.pools.append(order)
        dealt: JSON = super().deal(ruleset, players, round, order, draw)
        return dealt


def test_the_round_after_a_round_is_asked_from_that_rounds_pool() -> None:
    """yardmaster's identify, bugs off: 3 requests answered with errors, each the deal of
    round 2 after a finished round 1 where a candidate rule set ended the match
    (match_over.holds_match_over): its pool was round 1's, [9-9] set aside and [8-8] in
    it, which an engine checking its pool cannot deal, so the answer told nothing. The
    deal of round r + 1 now comes from that round's pool; after the set's last round,
    which no round follows, from the last round's as before."""
    rs = catalog().ruleset("puremco-d9")
    rj = ruleset_json(rs)
    impl = _Dealt()
    first = ReferenceImplementation().deal(rj, 2, 1, deal_order(rs, 9, "sorted"))
    assert holds_match_over(impl, rj, rs, {**first, "phase": "over"}) is False
    assert impl.pools == [deal_order(rs, 8, "sorted")]  # dealt: [8-8] set aside
    assert "8-8" not in impl.pools[0] and "9-9" in impl.pools[0]
    # after the last round (engine [0-0]) no round follows: asked from its pool
    last = ReferenceImplementation().deal(rj, 2, 10, deal_order(rs, 0, "sorted"))
    holds_match_over(impl, rj, rs, {**last, "phase": "over"})
    assert impl.pools[1] == deal_order(rs, 0, "sorted")
