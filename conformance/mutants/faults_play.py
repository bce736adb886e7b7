"""The faulty engine functions of the mutants that change play: the deal and the seats,
the first turn, turns and drawing, markers, doubles.

Each wraps the reference function it replaces (bound once in originals.py) or stands
in for it; catalogue.py names the engine function each one is swapped for.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from mtrain.conformance.adapter import JSON
from mtrain.conformance.mutants import originals as ref
from mtrain.reference import codec, engine
from mtrain.reference.engine import (
    CHAIN,
    DRAW,
    END_CHAIN,
    ENGINE,
    FOLLOW,
    OVER,
    PASS,
    START,
    Action,
    State,
)
from mtrain.reference.rules import FOLLOW_RESTRICTED, Rules
from mtrain.spec import tiles as T

# --- deal and seats ----------------------------------------------------------------------


def engine_always_top(rules: Rules, round_no: int) -> int:
    return rules.max_pip


def pagat_five_takes_fifteen(rules: Rules) -> Rules:
    if rules.ruleset["hand_sizes"] != "pagat":
        return rules
    table = {**dict(rules.ruleset.hand_table), 5: 15}
    ruleset = dataclasses.replace(rules.ruleset, hand_table=tuple(sorted(table.items())))
    return dataclasses.replace(rules, ruleset=ruleset, hand_table=table)


def engine_searched_for(state: JSON, rules: Rules) -> JSON:
    if rules.holder_lays or state["phase"] != "start":
        return state
    first = (state["round"] - 1) % len(state["hands"])
    return {**state, "phase": "engine", "engine_placed": False, "seat": first,
            "starter": first}


def place_engine_seat_zero(state: State, holder: int) -> None:
    ref.place_engine(state, holder)
    if not state.rules.engine_holder_starts:
        state.seat = state.starter = 0


def rotate_off_by_one(state: State, holder: int) -> None:
    ref.place_engine(state, holder)
    if not state.rules.engine_holder_starts:
        state.seat = state.starter = state.round % state.players


def search_from_seat_zero(state: JSON, rules: Rules) -> JSON:
    if state["phase"] != "engine":
        return state
    return {**state, "seat": 0, "starter": 0}


def draw_finder_moves_on(state: State) -> None:
    searching = state.phase == ENGINE
    ref.draw(state)
    if searching and state.phase == START and state.rules.engine_holder_starts:
        state.seat = state.starter = (state.seat + 1) % state.players


def search_drops_tiles(state: State) -> None:
    if state.phase != ENGINE or state.boneyard[0] == T.DOUBLE[state.engine]:
        ref.draw(state)
        return
    state.boneyard.pop(0)  # the drawn tile is laid aside instead of kept
    state.seat = (state.seat + 1) % state.players


def lap_closer_places_engine(state: State, seat: int, tile: int) -> None:
    ref.draw_in_lap(state, seat, tile)
    if state.phase == START:  # placed at the lap's end: as if its last drawer held it
        ref.place_engine(state, seat)


def lowest_double_is_engine(st: State) -> None:
    """ENG-7 misread: the lowest double held is taken for the engine, not the highest."""
    for n in range(st.rules.max_pip + 1):
        bit = T.BIT[T.DOUBLE[n]]
        holder = next((s for s in range(st.players) if st.hands[s] & bit), -1)
        if holder >= 0:
            st.hands[holder] ^= bit
            st.engine = n
            st.ends = [n] * (st.players + 1)
            ref.place_engine(st, holder)
            return
    ref.engine_from_deal(st)  # nobody holds a double: the search as written


def designation_passes_without_drawing(st: State) -> None:
    """ENG-8 misread: a designated player with no double passes the designation on without
    drawing, so the first hand holding a double opens."""
    if not st.rules.designated_opens:
        ref.engine_from_deal(st)
        return
    seat = st.seat
    while True:
        hand = st.hands[seat]
        held = [n for n in range(st.rules.max_pip, -1, -1) if hand & T.BIT[T.DOUBLE[n]]]
        if held:
            break
        seat = (seat + 1) % st.players
        if seat == st.seat:  # nobody holds a double: the search as written
            ref.engine_from_deal(st)
            return
    st.hands[seat] ^= T.BIT[T.DOUBLE[held[0]]]
    st.engine = held[0]
    st.ends = [held[0]] * (st.players + 1)
    ref.place_engine(st, seat)


def draw_ties_to_lowest_seat(rules: Rules, players: int,
                             draw: Sequence[Sequence[int]]) -> int:
    """SEAT-5 misread: no run-off; of the seats tied on the first drawing's highest total
    the lowest wins (a draw the rule refuses is still refused)."""
    ref.draw_winner(rules, players, draw)
    totals = [T.HIGH[d[0]] + T.LOW[d[0]] for d in draw]
    return totals.index(max(totals))


def draw_winner_starts_every_round(state: JSON, rules: Rules) -> JSON:
    """SEAT-5 misread: the draw's winner starts every round; the start does not move."""
    if not rules.highest_draw_starts or state["phase"] != "start":
        return state
    first = (state["starter"] - (state["round"] - 1)) % len(state["hands"])
    return {**state, "seat": first, "starter": first}


def search_ignores_draw(state: JSON, rules: Rules) -> JSON:
    """SEAT-5 half done: the search for a missing engine begins at the rotating seat
    (round - 1) mod n, not the round's first seat from the draw (the starter is kept)."""
    if not rules.highest_draw_starts or state["phase"] != "engine":
        return state
    return {**state, "seat": (state["round"] - 1) % len(state["hands"])}


def designation_ignores_draw(st: State) -> None:
    """SEAT-5 half done: the designation (ENG-8) or the search of ENG-7 begins at the
    rotating seat (round - 1) mod n, not the draw's; the starter is kept."""
    if st.rules.highest_draw_starts:
        st.seat = (st.round - 1) % st.players
    ref.engine_from_deal(st)


def _heaviest_misread(state: JSON, rules: Rules, key: Callable[[int], Any]) -> JSON:
    """The deal's start moved to the seat holding the tile highest by `key` (SEAT-6
    misread), under heaviest-in-hand only."""
    if not rules.heaviest_tile_starts or state["phase"] != "start":
        return state
    held = [(key(T.parse(x)), s) for s, hand in enumerate(state["hands"]) for x in hand]
    if not held:
        return state
    seat = max(held)[1]
    return {**state, "seat": seat, "starter": seat}


def heaviest_by_high_end(state: JSON, rules: Rules) -> JSON:
    """SEAT-6 misread: the heaviest tile is the one with the highest end, then the other
    end ([9-0] before [8-7]), not the highest total."""
    return _heaviest_misread(state, rules, lambda t: (T.HIGH[t], T.LOW[t]))


def heaviest_tie_to_double(state: JSON, rules: Rules) -> JSON:
    """SEAT-6 misread: of two tiles on the same total the double is the heavier ([6-6]
    before [8-4]), not the one with the higher end."""
    return _heaviest_misread(state, rules,
                             lambda t: (T.HIGH[t] + T.LOW[t], T.IS_DOUBLE[t], T.HIGH[t]))


def holder_keeps_engine(state: JSON, rules: Rules) -> JSON:
    if not (rules.holder_lays and rules.engine_holder_starts) or state["phase"] != "start":
        return state
    hands = [list(h) for h in state["hands"]]
    engine_tile = T.DOUBLE[state["engine"]]
    seat = state["starter"]
    ids = sorted([T.parse(x) for x in hands[seat]] + [engine_tile], key=codec.hand_order)
    hands[seat] = [T.name(t) for t in ids]
    return {**state, "hands": hands}


# --- first turn --------------------------------------------------------------------------


def open_mexican_on_first_turn(state: State, seat: int, all_marked: bool = False,
                                first_turns_over: bool = False) -> list[int]:
    out = ref.open_trains(state, seat, all_marked, first_turns_over)
    if (state.rules.chain_first_turn and ref.in_first_turn(state, seat) and not first_turns_over
            and state.players not in out):
        out.append(state.players)
    return out


def chain_goes_anywhere(state: State) -> list[int]:
    if state.phase != CHAIN:
        return ref.playable_trains(state)
    seat = state.seat
    return [seat, state.players, *(o for o in range(state.players)
                                   if o != seat and state.marked(o))]


def end_chain_always(state: State) -> list[Action]:
    out = ref.legal_actions(state)
    if state.phase == CHAIN and END_CHAIN not in out:
        out.append(END_CHAIN)
    return out


def end_chain_beside_a_double(state: State) -> list[Action]:
    """Under chain-anywhere, FIRST-4 read on the own train only: the chain may end beside a
    coverable double it laid on another train."""
    out = ref.legal_actions(state)
    if (state.phase == CHAIN and state.rules.chain_anywhere and END_CHAIN not in out
            and state.seat not in state.turn_doubles):
        out.append(END_CHAIN)
    return out


def first_turn_draws(state: State) -> list[Action]:
    out = ref.legal_actions(state)
    if out == [PASS] and ref.chain_start(state) and state.drawn < 0 and state.boneyard:
        return [DRAW]
    return out


def first_turn_pass_unmarked(state: State, action: Action) -> None:
    seat, was, first = state.seat, state.marked(state.seat), ref.chain_start(state)
    ref.perform(state, action)
    if first and action.kind == "pass":
        state.set_marker(seat, was)


def duties_during_first_turns(state: State, first_turns_over: bool = False) -> list[int]:
    pending = state.first_pending
    state.first_pending = 0
    try:
        return ref.duties(state)
    finally:
        state.first_pending = pending


def single_start_chains(state: State, tile: int, train: int) -> None:
    rules = state.rules
    if (state.phase == START and not rules.chain_first_turn and train == state.seat
            and ref.in_first_turn(state, state.seat)):
        state.rules = dataclasses.replace(rules, chain_first_turn=True)
        try:
            ref.play(state, tile, train)
        finally:
            state.rules = rules
    else:
        ref.play(state, tile, train)


def end_turn_keeps_first(state: State) -> None:
    # engine._end_turn without its FIRST-6 line
    state.turn_doubles.clear()
    state.drawn = -1
    state.seat = (state.seat + 1) % state.players
    state.phase = START
    engine._check_blocked(state)


def starter_only_mexican_forever(state: State, seat: int, all_marked: bool = False,
                                  first_turns_over: bool = False) -> list[int]:
    out = ref.open_trains(state, seat, all_marked, first_turns_over)
    if (state.rules.starter_only_mexican and seat != state.starter
            and not state.trains[state.players]):
        out = [t for t in out if t != state.players]
    return out


def own_train_before_any_train(state: State, seat: int, all_marked: bool = False,
                               first_turns_over: bool = False) -> list[int]:
    """Under own-train-opens-mexican an empty own train closes every other train, marked
    ones and an open Mexican Train too, not only the opening of the Mexican Train."""
    out = ref.open_trains(state, seat, all_marked, first_turns_over)
    if state.rules.own_train_mexican and not state.trains[seat]:
        out = [t for t in out if t == seat]
    return out


def own_train_before_duty(state: State) -> list[int]:
    if (state.rules.own_train_first and state.phase == START
            and not state.trains[state.seat]):
        return [state.seat]
    return ref.playable_trains(state)


# --- turns and drawing -------------------------------------------------------------------


def _can_play(out: list[Action]) -> bool:
    return bool(out) and out[0].kind == "play"


def draw_while_playable(state: State) -> list[Action]:
    out = ref.legal_actions(state)
    if state.phase in (START, FOLLOW) and state.drawn < 0 and state.boneyard and _can_play(out):
        out.append(DRAW)
    return out


def pass_while_playable(state: State) -> list[Action]:
    out = ref.legal_actions(state)
    if state.phase in (START, FOLLOW) and state.drawn < 0 and _can_play(out):
        out.append(PASS)
    return out


def draw_two(state: State) -> None:
    if state.phase != ENGINE and len(state.boneyard) > 1:
        state.hands[state.seat] |= T.BIT[state.boneyard.pop(0)]
    ref.draw(state)


def drawn_tile_optional(state: State) -> list[Action]:
    out = ref.legal_actions(state)
    if state.drawn >= 0 and _can_play(out):
        out.append(PASS)
    return out


def drawn_tile_anywhere(state: State) -> list[int]:
    if state.drawn >= 0 and state.phase != CHAIN:
        return list(range(state.players + 1))
    return ref.playable_trains(state)


def pass_keeps_marker_down(state: State, action: Action) -> None:
    seat, was = state.seat, state.marked(state.seat)
    ref.perform(state, action)
    if action.kind == "pass":
        state.set_marker(seat, was)


def open_all_trains(state: State, seat: int, all_marked: bool = False,
                     first_turns_over: bool = False) -> list[int]:
    return ref.open_trains(state, seat, True, first_turns_over)


def mexican_needs_marker(state: State, seat: int, all_marked: bool = False,
                          first_turns_over: bool = False) -> list[int]:
    out = ref.open_trains(state, seat, all_marked, first_turns_over)
    mexican = state.players
    if mexican in out and not state.marked(mexican):
        out.remove(mexican)
    return out


def end_turn_backwards(state: State) -> None:
    seat = state.seat
    ref.end_turn(state)
    if state.phase != OVER:
        state.seat = (seat - 1) % state.players


def draw_marks(state: State) -> None:
    searching, seat = state.phase == ENGINE, state.seat
    ref.draw(state)
    if not searching:
        state.set_marker(seat, True)


# --- markers -----------------------------------------------------------------------------


def play_keeps_markers(state: State, tile: int, train: int) -> None:
    before = state.markers
    ref.play(state, tile, train)
    state.markers = before


def cover_keeps_marker(state: State, tile: int, train: int) -> None:
    covering = train == state.seat and train in state.open_doubles
    was = state.marked(train)
    ref.play(state, tile, train)
    if covering:
        state.set_marker(train, was)


# --- doubles -----------------------------------------------------------------------------


def cover_leaves_double_open(state: State, tile: int, train: int) -> None:
    before = state.open_doubles[:]
    ref.play(state, tile, train)
    if train in before and train not in state.open_doubles and state.phase != OVER:
        state.open_doubles.insert(before.index(train), train)


def double_ends_turn(state: State, tile: int, train: int) -> None:
    ref.play(state, tile, train)
    if state.phase == FOLLOW:
        engine._end_turn(state)


def ordinary_double_left_open(state: State, tile: int, train: int) -> None:
    """DBL-11 read halfway: under ordinary doubles a double ends the turn, but it is still
    listed open, so the next player must cover it (DBL-6)."""
    chain = state.phase == CHAIN or ref.chain_start(state)
    ref.play(state, tile, train)
    if (T.IS_DOUBLE[tile] and state.rules.ordinary_doubles and not chain
            and state.phase != OVER):
        state.open_doubles.append(train)


def no_duties(state: State, first_turns_over: bool = False) -> list[int]:
    return []


def duties_newest_first(state: State, first_turns_over: bool = False) -> list[int]:
    rules = state.rules
    if not rules.oldest_first:
        return ref.duties(state, first_turns_over)
    # engine.duties with the last element taken instead of the first
    if not state.open_doubles or (rules.chain_first_turn and state.first_pending
                                  and not first_turns_over):
        return []
    if (not state.boneyard and rules.release_when_empty) or rules.release_after_turn:
        return []  # DBL-12, DBL-13, as the reference
    out = [t for t in state.open_doubles if t not in state.turn_doubles]
    if rules.release_uncoverable:
        out = [t for t in out if engine.live(state, t)]
    return out[-1:]


def released_double_open_to_all(state: State) -> list[int]:
    """A double that binds nobody (DBL-12, DBL-13) may still be covered by anyone,
    wherever it lies."""
    out = ref.playable_trains(state)
    if (state.phase == START and state.drawn < 0 and (
            (not state.boneyard and state.rules.release_when_empty)
            or state.rules.release_after_turn)):
        out = out + [t for t in state.open_doubles if t not in out]
    return out


def live_if_mover_can_cover(state: State, train: int) -> bool:
    return bool(state.rules.number_mask[state.ends[train]] & state.hands[state.seat])


def live_while_two_left(state: State, train: int) -> bool:
    left = state.rules.number_mask[state.ends[train]] & ~state.table_mask
    return bool(left & (left - 1))


def follow_fail_no_draw(state: State) -> list[Action]:
    out = ref.legal_actions(state)
    if state.phase == FOLLOW and out == [DRAW]:
        return [PASS]
    return out


def pass_ends_duty(state: State, action: Action) -> None:
    if action.kind == "pass" and state.phase != CHAIN:
        for train in engine.duties(state):
            state.open_doubles.remove(train)
    ref.perform(state, action)


def follow_pass_unmarked(state: State, action: Action) -> None:
    seat, was, follow = state.seat, state.marked(state.seat), state.phase == FOLLOW
    ref.perform(state, action)
    if follow and action.kind == "pass":
        state.set_marker(seat, was)


def cover_only_where_open(state: State) -> list[int]:
    if state.phase != CHAIN:
        due = engine.duties(state)
        if due:
            allowed = engine.open_trains(state, state.seat)
            return [t for t in due if t in allowed]
    return ref.playable_trains(state)


def restricted_to_last_double(state: State) -> list[int]:
    rules, laid = state.rules, state.turn_doubles
    if (state.phase != FOLLOW or rules.follow != FOLLOW_RESTRICTED or len(laid) < 2
            or engine.duties(state)):
        return ref.playable_trains(state)
    base = engine.open_trains(state, state.seat)
    return [laid[-1], *(t for t in base if t != laid[-1]
                        and (t == state.players or t not in state.open_doubles))]


def restricted_mexican_double_closed(state: State) -> list[int]:
    out = ref.playable_trains(state)
    if (state.phase == FOLLOW and state.rules.follow == FOLLOW_RESTRICTED
            and not engine.duties(state) and state.turn_doubles):
        first = state.turn_doubles[0]
        out = [t for t in out if t == first or t not in state.open_doubles]
    return out


def stranded_even_last(state: State, tile: int) -> bool:
    """FIRST-12 read without its last tile: a double that is the last tile is refused too."""
    rest = state.hands[state.seat] & ~T.BIT[tile]
    return T.IS_DOUBLE[tile] and not rest & state.rules.number_mask[T.HIGH[tile]]
