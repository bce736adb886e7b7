"""Rule bugs of a second outside reading: written from the clauses once the first reading
(conformance/mutants/outside.py) was measured, and down before the corpus was run on
these; the same rule holds, read from the clauses, never from the catalogue.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.conformance.mutants.outside import table_named, table_rows_changed
from mtrain.reference import deal as deal_module
from mtrain.reference import engine
from mtrain.reference.engine import (
    CHAIN,
    ENGINE,
    FOLLOW,
    START,
    State,
)
from mtrain.reference.rules import (
    FOLLOW_ANYWHERE,
    FOLLOW_COVER_OWN,
    FOLLOW_RESTRICTED,
    MARKER_ANYONE_ON,
    MARKER_OWNER_ANYWHERE,
    Rules,
)
from mtrain.spec import tiles as T


def _with_rules(state: State, changed: Rules, fn: Callable[[], list[int]]) -> list[int]:
    saved = state.rules
    state.rules = changed
    try:
        return fn()
    finally:
        state.rules = saved


def _own_first_until_first_turn_open(state: State, seat: int, all_marked: bool = False,
                                     first_turns_over: bool = False) -> list[int]:
    rules = state.rules
    first = not first_turns_over and state.first_pending >> seat & 1
    if rules.own_train_first and not first:
        return _with_rules(state, dataclasses.replace(rules, own_train_first=False),
                           lambda: ref.open_trains(state, seat, all_marked, first_turns_over))
    return ref.open_trains(state, seat, all_marked, first_turns_over)


def _own_first_until_first_turn_covers(state: State, base: list[int]) -> list[int]:
    rules = state.rules
    if rules.own_train_first and not state.first_pending >> state.seat & 1:
        return _with_rules(state, dataclasses.replace(rules, own_train_first=False),
                           lambda: _with_covers(state, base))
    return _with_covers(state, base)


_with_covers = engine.with_covers


def _nobody_opens_mexican_early(state: State, seat: int, all_marked: bool = False,
                                first_turns_over: bool = False) -> list[int]:
    out = ref.open_trains(state, seat, all_marked, first_turns_over)
    first = not first_turns_over and state.first_pending >> seat & 1
    mex = state.players
    if state.rules.starter_only_mexican and first and not state.trains[mex] and mex in out:
        out = [t for t in out if t != mex]
    return out


def _holder_loses_first_turn(state: State, holder: int) -> None:
    ref.place_engine(state, holder)
    if state.rules.after_engine_starts and holder >= 0:
        state.first_pending &= ~(1 << holder)


def _after_engine_finder_starts(state: State) -> None:
    searching, finder = state.phase == ENGINE, state.seat
    ref.draw(state)
    if searching and state.phase == START and state.rules.after_engine_starts:
        state.seat = state.starter = finder


def _can_play_ignoring_duties(state: State, seat: int) -> bool:
    trains = ref.open_trains(state, seat, True, True)
    hand = state.hands[seat]
    return any(hand & state.rules.number_mask[state.ends[t]] for t in trains)


def _blocked_scores_nothing(state: State, end: str, winner: int) -> None:
    rules = state.rules
    if winner >= 0 or rules.positive_scoring:
        ref.finish(state, end, winner)
        return
    before = state.scores[:]
    ref.finish(state, end, winner)
    state.scores[:] = before
    state.result = (state.result._replace(scores=(0,) * state.players)
                    if state.result is not None else None)


def _positive_blocked_lightest_collects(state: State, end: str, winner: int) -> None:
    if not (state.rules.positive_scoring and winner < 0):
        ref.finish(state, end, winner)
        return
    left = [ref.hand_value(state, s) for s in range(state.players)]
    ref.finish(state, end, winner)
    lightest = left.index(min(left))
    scores = [0] * state.players
    scores[lightest] = sum(left) - left[lightest]
    state.scores[lightest] += scores[lightest]
    assert state.result is not None
    state.result = state.result._replace(scores=tuple(scores))


def _lowest_seat_on_any_tie(state: State) -> list[int]:
    won = deal_module.match_winners(state)
    if not state.rules.tie_lowest_seat:
        return won
    seen: dict[int, int] = {}
    for s, v in enumerate(state.scores):
        if v in seen:
            return [seen[v]]
        seen[v] = s
    return won


def _cover_own_elsewhere_when_stuck(state: State) -> list[int]:
    rules = state.rules
    if (state.phase == FOLLOW and rules.follow == FOLLOW_COVER_OWN and state.drawn < 0
            and state.turn_doubles and not ref.duties(state)):
        laid = state.turn_doubles[-1]
        if not state.hands[state.seat] & rules.number_mask[state.ends[laid]]:
            return _with_rules(state, dataclasses.replace(rules, follow=FOLLOW_ANYWHERE),
                               lambda: ref.playable_trains(state))
    return ref.playable_trains(state)


def _restricted_without_mexican(state: State) -> list[int]:
    out = ref.playable_trains(state)
    if (state.phase == FOLLOW and state.rules.follow == FOLLOW_RESTRICTED
            and not ref.duties(state) and state.turn_doubles
            and state.turn_doubles[0] != state.players):
        out = [t for t in out if t != state.players]
    return out


def _draw_lowers_marker_anywhere(state: State) -> None:
    searching, seat = state.phase == ENGINE, state.seat
    ref.draw(state)
    if not searching and state.rules.marker_rule == MARKER_OWNER_ANYWHERE:
        state.set_marker(seat, False)


def _chain_double_asks_follow_up(state: State, tile: int, train: int) -> None:
    chain = state.phase == CHAIN or ref.chain_start(state)
    ref.play(state, tile, train)
    if (chain and T.IS_DOUBLE[tile] and state.phase == CHAIN
            and not state.rules.chain_anywhere):
        state.phase = FOLLOW


def _drawn_double_ends_turn(state: State, tile: int, train: int) -> None:
    drawn = state.drawn
    ref.play(state, tile, train)
    if drawn == tile and T.IS_DOUBLE[tile] and state.phase == FOLLOW:
        engine._end_turn(state)


def _doubles_count_twice(state: State, seat: int) -> int:
    hand = state.hands[seat]
    extra = sum(T.PIPS[t] for t in range(T.TILE_COUNT) if hand >> t & 1 and T.IS_DOUBLE[t])
    return ref.hand_value(state, seat) + extra


def _tie_outs_before_last_round(state: State) -> list[int]:
    if not state.rules.tie_most_outs or state.result is None or state.result.winner < 0:
        return deal_module.match_winners(state)
    st = state.copy()
    st.outs[state.result.winner] -= 1
    return deal_module.match_winners(st)


def _own_train_mexican_not_in_follow(state: State, seat: int, all_marked: bool = False,
                                     first_turns_over: bool = False) -> list[int]:
    rules = state.rules
    if state.phase == FOLLOW and rules.own_train_mexican:
        return _with_rules(state, dataclasses.replace(rules, own_train_mexican=False),
                           lambda: ref.open_trains(state, seat, all_marked, first_turns_over))
    return ref.open_trains(state, seat, all_marked, first_turns_over)


def _cover_keeps_marker_under_anyone(state: State, tile: int, train: int) -> None:
    covering = (train != state.seat and train < state.players
                and train in state.open_doubles)
    was = state.marked(train) if train < state.players else False
    ref.play(state, tile, train)
    if covering and state.rules.marker_rule == MARKER_ANYONE_ON:
        state.set_marker(train, was)


SECOND_READING: tuple[Mutant, ...] = (
    Mutant("own-train-first-only-first-turn",
           "Under own-train-first a player may play elsewhere once their first turn is over, "
           "own train started or not", ("TRAIN-7",),
           "open_trains and with_covers swapped: TRAIN-7 read during the first turn only",
           patches={"open_trains": _own_first_until_first_turn_open,
                    "with_covers": _own_first_until_first_turn_covers}),
    Mutant("starter-may-not-open-mexican-early",
           "Under starter-opens-mexican nobody, the starter included, opens the Mexican Train "
           "during the first turns", ("FIRST-9",),
           "open_trains swapped: the empty Mexican Train closed to every first turn",
           patches={"open_trains": _nobody_opens_mexican_early}),
    Mutant("after-engine-holder-loses-first-turn",
           "Under after-engine-start placing the engine uses up its holder's first turn",
           ("SEAT-4", "FIRST-6"), "_place_engine swapped: the holder's first turn cleared",
           patches={"_place_engine": _holder_loses_first_turn}),
    Mutant("after-engine-finder-starts",
           "Under after-engine-start the player who draws the engine in the search starts",
           ("SEAT-4",), "_draw swapped: the finder starts under after-engine",
           patches={"_draw": _after_engine_finder_starts}),
    Mutant("blocked-ignores-duties",
           "END-2 forgets the open doubles: a player bound to cover counts as able to play "
           "on any train", ("END-2",),
           "can_ever_play swapped: the open trains without the duty",
           patches={"can_ever_play": _can_play_ignoring_duties}),
    Mutant("blocked-round-scores-nothing",
           "Under penalty scoring a blocked round scores nothing: nobody went out",
           ("SCORE-5",), "_finish swapped: a blocked round scores zero under penalty",
           patches={"_finish": _blocked_scores_nothing}),
    Mutant("positive-blocked-lightest-collects",
           "Under positive scoring the lightest hand collects the others in a blocked round",
           ("SCORE-6",), "_finish swapped: the lightest hand collects when blocked",
           patches={"_finish": _positive_blocked_lightest_collects}),
    Mutant("lowest-seat-on-any-tie",
           "Under tie-lowest-seat any two equal totals hand the match to the lower of them",
           ("MATCH-6",), "winners: the first seat of any equal pair of totals",
           winners=_lowest_seat_on_any_tie),
    Mutant("cover-own-elsewhere-when-stuck",
           "Under the Wikipedia rule a player who cannot cover their double plays elsewhere "
           "instead of drawing", ("DBL-4", "DBL-5"),
           "playable_trains swapped: follow-up anywhere when no tile covers the double",
           patches={"playable_trains": _cover_own_elsewhere_when_stuck}),
    Mutant("restricted-follow-no-mexican",
           "Under the restricted follow-up the Mexican Train is closed unless the double is "
           "on it", ("DBL-3",), "playable_trains swapped: the Mexican Train dropped",
           patches={"playable_trains": _restricted_without_mexican}),
    Mutant("owner-anywhere-marker-off-on-draw",
           "Under owner-plays-anywhere a marker comes off when its owner draws",
           ("MARK-5",), "_draw swapped: the drawer's marker comes off under owner-plays-anywhere",
           patches={"_draw": _draw_lowers_marker_anywhere}),
    Mutant("chain-double-asks-follow-up",
           "A double laid in a first-turn chain asks for a follow-up as in an ordinary turn, "
           "which ends the chain", ("FIRST-4", "FIRST-1", "DBL-1"),
           "_play swapped: a chain double sets the follow phase",
           patches={"_play": _chain_double_asks_follow_up}),
    Mutant("drawn-double-ends-turn",
           "A drawn double, once played, ends the turn: no follow-up", ("TURN-3", "DBL-1"),
           "_play swapped: the turn ends after a drawn double",
           patches={"_play": _drawn_double_ends_turn}),
    Mutant("doubles-score-twice",
           "A double left in hand counts its pips twice", ("SCORE-1", "SCORE-5", "SCORE-6"),
           "hand_value swapped: each double's pips added again",
           patches={"hand_value": _doubles_count_twice}),
    Mutant("tie-outs-before-last-round",
           "Under tie-most-outs the tie is broken on the outs before the last round's",
           ("MATCH-5",), "winners: the last round's out taken away before the tie-break",
           winners=_tie_outs_before_last_round),
    Mutant("own-train-mexican-not-in-follow-up",
           "Under own-train-opens-mexican the condition is not applied to the tile after a "
           "double", ("FIRST-10",), "open_trains swapped: FIRST-10 off in the follow phase",
           patches={"open_trains": _own_train_mexican_not_in_follow}),
    Mutant("anyone-rule-cover-keeps-marker",
           "Under anyone-plays-on covering a double on a marked train leaves its marker up",
           ("MARK-4",), "_play swapped: the covered train's marker restored",
           patches={"_play": _cover_keeps_marker_under_anyone}),
    Mutant("celko-d6-three-take-9",
           "Celko's double-6 table gives 3 players the 9 tiles of 2", ("DEAL-12",),
           "Rules.ruleset.hand_table 3 -> 9 under celko-d6",
           rules=table_rows_changed(table_named("celko-d6"), {3: 9})),
    Mutant("goodsam-two-take-15",
           "The Good Sam table gives 2 players 15 tiles, the row of 3", ("DEAL-15",),
           "Rules.ruleset.hand_table 2 -> 15 under goodsam",
           rules=table_rows_changed(table_named("goodsam"), {2: 15})),
    Mutant("cardinal-seven-eight-take-10",
           "Cardinal's table gives 7 and 8 players 10 tiles, not 11", ("DEAL-5",),
           "Rules.ruleset.hand_table 7, 8 -> 10 under cardinal",
           rules=table_rows_changed(table_named("cardinal"), {7: 10, 8: 10})),
    Mutant("fundex-five-six-take-12",
           "The Fundex table gives 5 and 6 players 12 tiles, not 11", ("DEAL-6",),
           "Rules.ruleset.hand_table 5, 6 -> 12 under fundex",
           rules=table_rows_changed(table_named("fundex"), {5: 12, 6: 12})),
    Mutant("puremco-d9-three-take-15",
           "puremco's double-9 table gives 3 players the 15 tiles of 2", ("DEAL-4",),
           "Rules.ruleset.hand_table 3 -> 15 under puremco-d9",
           rules=table_rows_changed(table_named("puremco-d9"), {3: 15})),
)
"""A second reading: the mutants written once the first were measured, before the corpus
was run on these (the same rule: read from the clauses, never from the catalogue)."""
