"""Small whole games explored exhaustively with the engine (reference/explore.py)."""

from __future__ import annotations

from typing import Any

import pytest

from mtrain.reference import engine as E
from mtrain.reference import explore as X
from mtrain.reference import refusals
from mtrain.reference.codec import state_from_json, state_to_json
from mtrain.reference.deal import deal
from mtrain.reference.explore import Size, explore, explore_size, small_rules
from mtrain.spec import tiles as T
from mtrain.spec.catalog import catalog

CAT = catalog()
SHIPPED = list(CAT.variants)


def tiles(*names: str) -> list[int]:
    return [T.parse(n) for n in names]


def test_small_rules_play_a_double_2_set() -> None:
    rules = small_rules(CAT.ruleset("puremco"), 2, {2: 2})
    assert rules.max_pip == 2 and rules.rounds == 3
    assert T.tiles_of(rules.set_mask) == tiles("0-0", "1-0", "1-1", "2-0", "2-1", "2-2")
    st = deal(rules, 2, order=tiles("2-1", "1-1", "2-0", "0-0", "1-0"))
    assert st.engine == 2 and [h.bit_count() for h in st.hands] == [2, 2]
    assert st.boneyard == tiles("1-0")
    # the canonical JSON form reads back under the small set
    assert state_from_json(rules, state_to_json(st)) == st


def test_tiny_deal_counted_by_hand() -> None:
    """puremco on a double-2 set, 2 players x 2 tiles, engine [2-2] set aside.

    Seat 0 holds [2-1, 1-1], seat 1 [2-0, 0-0]; the boneyard is [1-0]. Every train ends 2.
    Worked out on paper:
      root: seat 0 can lay [2-1] on its own train or open the Mexican (FIRST-8): 2 moves.
      A (own train ends 1): seat 1 lays [2-0] on its own train or on the Mexican (2 moves);
        either way seat 0 then holds only [1-1], which fits its own train (1): out (END-1).
      B (Mexican ends 1): seat 1 can only lay [2-0] on its own train (the Mexican ends 1,
        seat 0's train is unmarked); seat 0 lays [1-1] on the Mexican and goes out.
    States: root, A, A1, A1-out, A2, A2-out, B, B1, B1-out = 9; transitions 8; three
    final states, all won by seat 0; the longest round is 3 actions; nothing is drawn.
    """
    rules = small_rules(CAT.ruleset("puremco"), 2, {2: 2})
    rep = explore(rules, 2, [tiles("2-1", "1-1", "2-0", "0-0", "1-0")])
    assert (rep.states, rep.transitions, rep.final_states, rep.longest) == (9, 8, 3, 3)
    assert dict(rep.endings) == {"domino": 3}
    assert rep.findings == []
    assert rep.longest_trace == ("play 2-1 on 0", "play 2-0 on 1", "play 1-1 on 0")


def test_deal_enumeration() -> None:
    rules = small_rules(CAT.ruleset("puremco"), 2, {2: 2})
    deals = list(X.all_deals(rules, 2))
    assert len(deals) == X.deal_count(5, 2, 2) == 30
    assert len({tuple(d) for d in deals}) == 30
    sample = X.sample_deals(rules, 2, 10, seed=3)
    assert sample == X.sample_deals(rules, 2, 10, seed=3) and len(sample) == 10


@pytest.mark.parametrize("variant", SHIPPED)
def test_every_deal_of_a_double_2_game(variant: str) -> None:
    rep = explore_size(CAT.ruleset(variant), Size(2, 2, 2))
    assert rep.exhaustive and rep.findings == []
    assert rep.final_states > 0 and rep.longest > 0


@pytest.mark.parametrize("variant", SHIPPED)
@pytest.mark.parametrize("size", [Size(3, 2, 3, 12), Size(3, 3, 2, 12)],
                         ids=lambda s: s.label.replace(" ", "-"))
def test_double_3_games_have_no_deadlock_cycle_or_violation(variant: str, size: Size) -> None:
    rep = explore_size(CAT.ruleset(variant), size)
    assert rep.findings == []
    assert rep.states > 100 and rep.deals == 12
    assert sum(rep.endings.values()) == rep.final_states


def test_a_deadlock_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that offers nothing after a draw is caught, with the line of play."""
    real = E.legal_actions

    def broken(state: E.State) -> list[E.Action]:
        return [] if state.drawn >= 0 else real(state)

    monkeypatch.setattr(X, "legal_actions", broken)
    rep = explore_size(CAT.ruleset("puremco"), Size(2, 2, 2))
    assert any(f.kind == "deadlock" for f in rep.findings)
    assert any(f.trace and f.trace[-1] == "draw" for f in rep.findings)


def test_a_cycle_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine whose pass changes nothing loops: a back edge to a state on the stack."""
    real = E.perform

    def broken(state: E.State, action: E.Action) -> None:
        if action.kind != "pass":
            real(state, action)

    monkeypatch.setattr(X, "perform", broken)
    rep = explore_size(CAT.ruleset("pagat"), Size(3, 2, 3, 5))
    assert any(f.kind == "cycle" for f in rep.findings)


def test_an_invariant_violation_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    real = E.perform

    def broken(state: E.State, action: E.Action) -> None:
        real(state, action)
        if action.kind == "draw" and state.phase != E.OVER:
            state.markers |= 1 << state.players  # a marker on the Mexican Train

    monkeypatch.setattr(X, "perform", broken)
    rep = explore_size(CAT.ruleset("puremco"), Size(2, 2, 2))
    assert any(f.kind == "invariant" and "INV-MARKERS" in f.message for f in rep.findings)


def test_shortest_witness_and_longest_round() -> None:
    """The target search returns the fewest actions to a transition, replayable."""
    rules = small_rules(CAT.ruleset("puremco"), 2, {2: 2})
    order = tiles("2-1", "1-1", "2-0", "0-0", "1-0")

    def out(s: E.State, a: E.Action, t: E.State) -> bool:
        return t.result is not None

    rep = explore(rules, 2, [order], target=out)
    assert rep.witness_depth == 3
    st = deal(rules, 2, order=order)
    for text in rep.witness_trace:
        legal = {X.action_text(st, a): a for a in E.legal_actions(st)}
        st = refusals.apply(st, legal[text])
    assert st.result is not None and st.result.end == "domino"


def test_explore_all_reports_each_distinct_game_once() -> None:
    games = X.explore_all(names=["puremco", "puremco-d9", "puremco+blanks-25"])
    by: dict[str, Any] = {g.name: g for g in games}
    assert by["puremco-d9"].same_as == "puremco"
    assert [(r.max_pip, r.players, r.hand) for r in by["puremco+blanks-25"].sizes] == [
        (s.max_pip, s.players, s.hand) for s in X.SCORING_SIZES]
    assert all(g.ok for g in games)
