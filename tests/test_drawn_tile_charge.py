"""A draw or a pass offered beside a playable drawn tile: fuzz charges it where conform does.

TURN-1 says that a player who can play must; TURN-3 says what happens after a draw: the
tile drawn, if it can be played, must be. Both refuse the pass, and the reference cites
TURN-1 first (refusals.REFUSAL_PRECEDENCE); but the moment is TURN-3's, the narrower clause
written for it, and an engine that keeps a playable drawn tile (yardmaster's bug 3, the
mutant drawn-tile-optional) breaks that clause, not the turn's general duty. Conform charged
TURN-3 and fuzz TURN-1; one function (move_charges.drawn_refusal) now decides for both.
"""

from __future__ import annotations

from pathlib import Path

from mtrain.conformance import fuzz as F
from mtrain.conformance.fuzz.judge import compare_legal
from mtrain.conformance.move_charges import drawn_refusal
from mtrain.reference import codec
from mtrain.reference.deal import deal
from mtrain.reference.engine import OVER, Action, State, legal_actions, perform
from mtrain.spec.notation import action_text


def after_a_playable_draw(variant: str, seed: int) -> State:
    """The first state of a game (always the first legal action) where the tile just
    drawn can be played."""
    st = deal(F.context(variant).rules, 3, 1, seed=seed)
    while st.phase != OVER:
        actions = legal_actions(st)
        if st.drawn >= 0 and any(a.kind == "play" for a in actions):
            return st
        perform(st, actions[0])
    raise AssertionError(f"no playable draw in the game of seed {seed}")


def test_a_pass_beside_the_drawn_tile_is_charged_to_turn_3_by_fuzz() -> None:
    ctx = F.context("puremco")
    st = after_a_playable_draw("puremco", 1)
    legal = legal_actions(st)
    texts = [action_text(codec.action_to_json(st, a)) for a in legal]
    found = compare_legal(ctx, st, legal, [*map(_json, [st] * len(legal), legal),
                                           {"type": "pass"}], None)
    assert [d.signature for d in found] == ["allows pass (TURN-3)"], (texts, found)
    assert drawn_refusal(st, Action("pass")) == "TURN-3"
    assert drawn_refusal(st, Action("draw")) == "TURN-3"


def test_before_any_draw_a_pass_beside_a_play_stays_turn_1() -> None:
    ctx = F.context("puremco")
    st = deal(ctx.rules, 3, 1, seed=1)
    while not (st.drawn < 0 and any(a.kind == "play" for a in legal_actions(st))):
        perform(st, legal_actions(st)[0])
    legal = legal_actions(st)
    found = compare_legal(ctx, st, legal, [*map(_json, [st] * len(legal), legal),
                                           {"type": "pass"}], None)
    assert [d.signature for d in found] == ["allows pass (TURN-1)"]
    assert drawn_refusal(st, Action("pass")) is None


def test_fuzz_charges_the_mutant_drawn_tile_optional_to_the_clause_it_lists(
        tmp_path: Path) -> None:
    """The mutant lists TURN-3 (the catalogue); fuzz names it, as conform does."""
    name = "drawn-tile-optional"
    report = F.fuzz(F.Target("mutant", name, name), ["puremco"], 3, 0, out=tmp_path,
                    shrink_seconds=None, shrink_tries=50)
    assert [g.signature for g in report.new] == ["allows pass (TURN-3)"]


def _json(st: State, a: Action) -> dict[str, object]:
    got: dict[str, object] = codec.action_to_json(st, a)
    return got
