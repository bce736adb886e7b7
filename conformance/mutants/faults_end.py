"""The faulty engine functions of the mutants that change how a round ends and scores,
and who wins the match.

Each wraps the reference function it replaces (bound once in originals.py) or stands
in for it; catalogue.py names the hook each one is used for.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import swapped
from mtrain.reference import engine
from mtrain.reference.deal import match_winners
from mtrain.reference.engine import (
    BLOCKED,
    CHAIN,
    FOLLOW,
    Action,
    State,
)
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T

# --- round end ---------------------------------------------------------------------------


def no_block_check(state: State) -> None:
    return None


def blocked_by_current_markers(state: State, seat: int) -> bool:
    trains = engine.duties(state, first_turns_over=True) or engine.open_trains(
        state, seat, first_turns_over=True)
    hand = state.hands[seat]
    return any(hand & state.rules.number_mask[state.ends[t]] for t in trains)


def blocked_on_the_last_table(state: State) -> bool:
    """END-2 as it was: only the table after every first turn and with every marker up."""
    return not any(ref.can_ever_play(state, s) for s in range(state.players))


def never_blocked_during_first_turns(state: State) -> bool:
    return False if state.first_pending else ref.nobody_can_ever_play(state)


def blocked_without_own_train_first(state: State, seat: int) -> bool:
    st = state.copy()
    st.rules = dataclasses.replace(state.rules, own_train_first=False)
    return ref.can_ever_play(st, seat)


def double_out_goes_on(state: State, tile: int, train: int) -> None:
    seat = state.seat
    if not (T.IS_DOUBLE[tile] and state.hands[seat] == T.BIT[tile]):
        ref.play(state, tile, train)
        return
    chain = state.phase == CHAIN or ref.chain_start(state)
    with swapped({"_finish": _no_finish}):
        ref.play(state, tile, train)
    state.phase = CHAIN if chain else FOLLOW


def _no_finish(state: State, end: str, winner: int) -> None:
    return None


def play_passes_kept(state: State, tile: int, train: int) -> None:
    passes = state.passes
    ref.play(state, tile, train)
    state.passes = passes


def last_draw_pass_uncounted(state: State, action: Action) -> None:
    """A pass is counted only if the boneyard was empty when the turn began."""
    if action.kind == "pass" and state.drawn >= 0 and not state.boneyard:
        state.set_marker(state.seat, True)
        engine._end_turn(state)
        return
    ref.perform(state, action)


def pass_counted_with_tiles_left(state: State, action: Action) -> None:
    if action.kind == "pass" and state.boneyard:
        state.passes += 1
    ref.perform(state, action)


# --- scoring -----------------------------------------------------------------------------


def hand_counted_twice(state: State, seat: int) -> int:
    return 2 * ref.hand_value(state, seat)


def last_tile_scored(state: State, tile: int, train: int) -> None:
    seat = state.seat
    if state.hands[seat] != T.BIT[tile]:
        ref.play(state, tile, train)
        return
    extra = state.rules.value[tile]

    def value(st: State, s: int) -> int:
        return ref.hand_value(st, s) + (extra if s == seat else 0)

    with swapped({"hand_value": value}):
        ref.play(state, tile, train)


def positive_blocked_as_penalty(state: State, end: str, winner: int) -> None:
    rules = state.rules
    if not (rules.positive_scoring and winner < 0):
        ref.finish(state, end, winner)
        return
    state.rules = dataclasses.replace(rules, positive_scoring=False)
    try:
        ref.finish(state, end, winner)
    finally:
        state.rules = rules


def lowest_by_value_alone(state: State, values: Sequence[int]) -> list[int]:
    """SCORE-7 read without the tile count: the lightest hands of a blocked round win."""
    least = min(values)
    return [s for s in range(state.players) if values[s] == least]


def lowest_hand_counts_an_out(state: State, end: str, winner: int) -> None:
    """SCORE-7's lowest hand counted as a player who went out (MATCH-5's outs)."""
    ref.finish(state, end, winner)
    if end == BLOCKED and state.rules.blocked_low_wins:
        assert state.result is not None
        for s, score in enumerate(state.result.scores):
            if score == 0:
                state.outs[s] += 1


def blocked_lightest_wins(state: State, end: str, winner: int) -> None:
    if end == BLOCKED:
        left = [engine.hand_value(state, s) for s in range(state.players)]
        winner = left.index(min(left))
    ref.finish(state, end, winner)


def blank_counted_once(rules: Rules) -> Rules:
    if rules.ruleset["blank_values"] != "blank-25":
        return rules
    value = tuple(T.PIPS[t] + (25 if T.LOW[t] == 0 else 0) for t in range(T.TILE_COUNT))
    return dataclasses.replace(rules, value=value)


def double_blank_at_face(rules: Rules) -> Rules:
    if rules.ruleset["blank_values"] not in ("double-blank-50", "double-blank-25"):
        return rules
    return dataclasses.replace(rules, value=tuple(T.PIPS))


def totals_overwritten(state: State, end: str, winner: int) -> None:
    ref.finish(state, end, winner)
    assert state.result is not None
    state.scores[:] = state.result.scores


def outs_not_counted(state: State, end: str, winner: int) -> None:
    ref.finish(state, end, winner)
    if winner >= 0:
        state.outs[winner] -= 1


# --- the match ---------------------------------------------------------------------------


def winners_first_seat(state: State) -> list[int]:
    return match_winners(state)[:1]


def winners_lowest_always(state: State) -> list[int]:
    st = state.copy()
    st.rules = dataclasses.replace(state.rules, positive_scoring=False)
    return match_winners(st)


def winners_highest_always(state: State) -> list[int]:
    st = state.copy()
    st.rules = dataclasses.replace(state.rules, positive_scoring=True)
    return match_winners(st)


def tie_to_most_outs_overall(state: State) -> list[int]:
    """Under tie-most-outs, a tie goes to whoever went out most, tied or not."""
    rules = state.rules
    best = max(state.scores) if rules.positive_scoring else min(state.scores)
    top = [s for s, v in enumerate(state.scores) if v == best]
    if len(top) > 1 and rules.tie_most_outs:
        most = max(state.outs)
        return [s for s in range(state.players) if state.outs[s] == most]
    return top


def tie_to_fewest_outs(state: State) -> list[int]:
    rules = state.rules
    best = max(state.scores) if rules.positive_scoring else min(state.scores)
    top = [s for s, v in enumerate(state.scores) if v == best]
    if len(top) > 1 and rules.tie_most_outs:
        fewest = min(state.outs[s] for s in top)
        return [s for s in top if state.outs[s] == fewest]
    return top


def tie_to_highest_seat(state: State) -> list[int]:
    """Under tie-lowest-seat, a tie goes to the highest of the tied seats."""
    rules = state.rules
    best = max(state.scores) if rules.positive_scoring else min(state.scores)
    top = [s for s, v in enumerate(state.scores) if v == best]
    return top[-1:] if rules.tie_lowest_seat else match_winners(state)


def every_round_exists(rules: Rules, round_no: int) -> bool:
    """MATCH-7 forgotten where a round is dealt or read: no round is refused."""
    return False
