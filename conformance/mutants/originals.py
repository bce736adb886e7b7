"""The reference engine's functions, bound once at import: a faulty version calls these,
never a swapped one (a swap replaces the engine module's attribute, not these names).
Also two readings of the state that several faults share."""

from __future__ import annotations

from mtrain.reference import deal as deal_module
from mtrain.reference import engine
from mtrain.reference.engine import START, State

duties = engine.duties
open_trains = engine.open_trains
playable_trains = engine.playable_trains
plays = engine.plays
legal_actions = engine.legal_actions
perform = engine.perform
play = engine._play
draw = engine._draw
draw_in_lap = engine._draw_in_lap
place_engine = engine._place_engine
end_turn = engine._end_turn
check_blocked = engine._check_blocked
finish = engine._finish
hand_value = engine.hand_value
lowest_hands = engine.lowest_hands
can_ever_play = engine.can_ever_play
nobody_can_ever_play = engine.nobody_can_ever_play
engine_from_deal = engine._engine_from_deal
draw_winner = deal_module.draw_winner


def in_first_turn(state: State, seat: int) -> bool:
    return bool(state.first_pending >> seat & 1)


def chain_start(state: State) -> bool:
    """The play about to be made opens a first-turn chain (FIRST-1)."""
    return (state.phase == START and state.rules.chain_first_turn
            and in_first_turn(state, state.seat))
