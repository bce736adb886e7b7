"""Rule bugs of a thirty-second reading, written where a house-rule engine's own code paths
part from the common one: the blank rules' price of the [0-0], the draw's own path through
doubles (a drawn double, a drawn cover, a drawn tile beside a closed train), the search for
a missing engine at tables of nine and more, a train that has come back round to the
engine's number, the blocked test's loop over the seats, and the empty boneyard's release
read one tile early.

Scoring: under blank-25 the [0-0] priced at its two blank ends and the double blank's 50
besides, 100 (SCORE-2); under double-blank-50 the 50 counted for each of its blank ends,
100 (SCORE-3). The draw's path: a drawn double laid asks for its follow-up but is never
entered among the open doubles, so left uncovered it binds nobody (DBL-6, TURN-3); a drawn
tile laid on an open double does not cover it: the double stays listed open (TRAIN-3,
TURN-3); a drawn tile kept off another player's unmarked train, even to cover the double
that binds the drawer there (TRAIN-6, TURN-3). The engine: the search for a missing engine
passes on round eight seats, puremco's largest table, so at nine players and more seats 8
and up never draw for it (ENG-4). The trains: a personal train whose open end is the
engine's number again ([12-3], [3-5], [5-12]) read as not yet started, for own-train-first
and own-train-opens-mexican (TRAIN-7, FIRST-10). The blocked round: END-2's loop over the
seats skips the player about to move, or the one who has just passed (END-2). The
release: under released-when-boneyard-empty the doubles are released once the boneyard
holds one tile or none (DBL-12).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TypeVar

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference import deal as deal_module
from mtrain.reference import engine as engine_module
from mtrain.reference.engine import ENGINE, Action, State
from mtrain.reference.rules import Rules, tile_values
from mtrain.spec import tiles as T

_T = TypeVar("_T")
_BLANK = T.tile_id(0, 0)
_PRICED: dict[tuple[int, str], tuple[Rules, Rules]] = {}

# the reference's, bound before any swap
_UNBOUND = engine_module.unbound
_NOBODY_CAN_EVER_PLAY = engine_module.nobody_can_ever_play


# --- scoring --------------------------------------------------------------------------------


def _blank_priced(rule: str, price: int) -> Callable[[Rules], Rules]:
    """A rules hook: under `rule` the [0-0] is worth `price` in hand."""
    def hook(rules: Rules) -> Rules:
        if rules.ruleset["blank_values"] != rule:
            return rules
        key = (id(rules), rule)
        found = _PRICED.get(key)
        if found is None:
            value = list(tile_values(rule))
            value[_BLANK] = price
            found = _PRICED[key] = (rules, dataclasses.replace(rules, value=tuple(value)))
        return found[1]
    return hook


# --- the draw's path through doubles --------------------------------------------------------


def _drawn_double_not_opened(state: State, action: Action) -> None:
    """The draw's path lays a drawn double as any tile: it asks for its follow-up (the
    turn's doubles) but is never entered among the table's open doubles."""
    kind, tile, train = action
    drawn = kind == "play" and tile == state.drawn and T.IS_DOUBLE[tile]
    ref.perform(state, action)
    if drawn and train in state.open_doubles and train in state.turn_doubles:
        state.open_doubles.remove(train)


def _drawn_cover_keeps_double_open(state: State, action: Action) -> None:
    """TRAIN-3 missed on the draw's path: a drawn tile laid on an open double leaves it
    listed open, where it stood."""
    kind, tile, train = action
    at = (state.open_doubles.index(train)
          if kind == "play" and tile == state.drawn and train in state.open_doubles else -1)
    ref.perform(state, action)
    if at >= 0 and train not in state.open_doubles:
        state.open_doubles.insert(at, train)


def _drawn_tile_off_closed_trains(state: State) -> list[int]:
    """TRAIN-6 missed on the draw's path: a drawn tile may not go on another player's
    unmarked train, even to cover the double that binds the drawer there."""
    out = ref.playable_trains(state)
    if state.drawn < 0:
        return out
    seat, players, markers = state.seat, state.players, state.markers
    return [t for t in out if t >= players or t == seat or markers >> t & 1]


# --- the engine -----------------------------------------------------------------------------


def _search_wraps_at_eight(state: State, action: Action) -> None:
    """ENG-4's search passed on round eight seats: `(seat + 1) % 8` at a table of more."""
    seat = state.seat
    searching = state.phase == ENGINE and not state.rules.everyone_draws
    ref.perform(state, action)
    if searching and state.phase == ENGINE and state.players > 8:
        state.seat = (seat + 1) % 8


# --- the trains -----------------------------------------------------------------------------


def _back_at_engine_unstarted(state: State, seat: int, all_marked: bool = False,
                              first_turns_over: bool = False) -> list[int]:
    """A personal train is taken as started by its open end: one whose end is the
    engine's number again reads as empty to TRAIN-7 and FIRST-10."""
    trains = state.trains
    kept = trains[seat]
    rules = state.rules
    if (kept and state.ends[seat] == state.engine
            and (rules.own_train_first or rules.own_train_mexican)):
        trains[seat] = ()
        try:
            return ref.open_trains(state, seat, all_marked, first_turns_over)
        finally:
            trains[seat] = kept
    return ref.open_trains(state, seat, all_marked, first_turns_over)


# --- the blocked round ----------------------------------------------------------------------


def _skipping(state: State, skipped: int) -> bool:
    """END-2's answer with seat `skipped` left out of its loop over the seats, each seat
    asked whether it could play once every train were marked and every first turn over
    (the walk through the first turns still to come is the reference's own)."""
    if any(ref.can_ever_play(state, s) for s in range(state.players) if s != skipped):
        return False
    if not ref.can_ever_play(state, skipped):
        return _NOBODY_CAN_EVER_PLAY(state)
    if not state.first_pending:
        return True
    probe = state.copy()
    for _ in range(state.players):
        if ref.plays(probe):
            return False
        seat = probe.seat
        probe.markers |= 1 << seat
        probe.first_pending &= ~(1 << seat)
        probe.seat = (seat + 1) % probe.players
    return True


def _stuck_test_skips_mover(state: State) -> bool:
    """END-2 asked of every seat but the one about to move."""
    return _skipping(state, state.seat)


def _stuck_test_skips_passer(state: State) -> bool:
    """END-2 asked of every seat but the one that has just moved."""
    return _skipping(state, (state.seat - 1) % state.players)


# --- the release ----------------------------------------------------------------------------


def _one_tile_as_empty(state: State, call: Callable[[], _T]) -> _T:
    """`call()` with a boneyard of one tile read as empty under DBL-12."""
    bone = state.boneyard
    if len(bone) != 1 or not state.rules.release_when_empty:
        return call()
    state.boneyard = []
    try:
        return call()
    finally:
        state.boneyard = bone


def _release_one_early_duties(state: State, first_turns_over: bool = False) -> list[int]:
    """DBL-12 tested with `len(boneyard) <= 1`: the last tile's draw still to come."""
    return _one_tile_as_empty(state, lambda: ref.duties(state, first_turns_over))


def _release_one_early_unbound(state: State, train: int) -> bool:
    return _one_tile_as_empty(state, lambda: _UNBOUND(state, train))


def _without_release_when_empty(rules: Rules) -> Rules:
    key = (id(rules), "release_when_empty")
    found = _PRICED.get(key)
    if found is None:
        found = _PRICED[key] = (rules, dataclasses.replace(rules, release_when_empty=False))
    return found[1]


def _empty_release_spares_mexican(state: State, first_turns_over: bool = False) -> list[int]:
    """DBL-12 written for the personal trains: once the boneyard is empty a double on the
    Mexican Train still binds."""
    out = ref.duties(state, first_turns_over)
    rules = state.rules
    if out or state.boneyard or not rules.release_when_empty:
        return out
    kept = state.rules
    state.rules = _without_release_when_empty(rules)
    try:
        bound = ref.duties(state, first_turns_over)
    finally:
        state.rules = kept
    return [t for t in bound if t == state.players]


def _empty_release_spares_mexican_unbound(state: State, train: int) -> bool:
    if (train == state.players and not state.boneyard and state.rules.release_when_empty
            and not state.rules.release_after_turn):
        return False
    return _UNBOUND(state, train)


# --- the first turns and large tables -------------------------------------------------------


def _chain_doubles_bind_one_early(state: State, first_turns_over: bool = False) -> list[int]:
    """FIRST-5 read as "until every other player has had a first turn": with one first
    turn left, the chains' doubles bind its player."""
    pending = state.first_pending
    if pending and not pending & (pending - 1) and state.rules.chain_first_turn:
        return ref.duties(state, True)
    return ref.duties(state, first_turns_over)


def _marked_high_seats_closed(state: State, seat: int, all_marked: bool = False,
                              first_turns_over: bool = False) -> list[int]:
    """TRAIN-4 with the marked trains listed for eight seats: another player's train of
    seat 8 or later is never open to others, marked or not."""
    out = ref.open_trains(state, seat, all_marked, first_turns_over)
    players = state.players
    if players <= 8:
        return out
    return [t for t in out if t in (seat, players) or t < 8]


# --- the match's end ------------------------------------------------------------------------


def _lowest_total_from_zero(state: State) -> list[int]:
    """MATCH-2 with the lowest total sought from 0 (`best = 0`, then `<`): where every
    total is above 0 nobody is found on it."""
    if not state.rules.positive_scoring and min(state.scores) > 0:
        return []
    return deal_module.match_winners(state)


THIRTY_SECOND_READING: tuple[Mutant, ...] = (
    Mutant("mut32-blank-25-double-blank-100",
           "Under blank-25 the [0-0] counts its two blank ends and the double blank's 50 "
           "besides: 100, not 50", ("SCORE-2",),
           "Rules.value: the [0-0] priced 100 under blank-25",
           rules=_blank_priced("blank-25", 100)),
    Mutant("mut32-double-blank-50-per-end",
           "Under double-blank-50 the [0-0] counts 50 for each of its blank ends: 100, not 50",
           ("SCORE-3",), "Rules.value: the [0-0] priced 100 under double-blank-50",
           rules=_blank_priced("double-blank-50", 100)),
    Mutant("mut32-drawn-double-not-opened",
           "A drawn double, once laid, asks for its follow-up but is not entered among the "
           "open doubles: left uncovered it binds nobody", ("DBL-1", "DBL-6", "TURN-3"),
           "perform swapped: a drawn double's train taken out of the open doubles",
           patches={"perform": _drawn_double_not_opened}),
    Mutant("mut32-drawn-cover-keeps-double-open",
           "A drawn tile laid on an open double does not cover it: the double stays open",
           ("TRAIN-3", "TURN-3"),
           "perform swapped: a drawn cover's train put back among the open doubles",
           patches={"perform": _drawn_cover_keeps_double_open}),
    Mutant("mut32-drawn-tile-off-closed-trains",
           "A drawn tile may not go on another player's unmarked train, even to cover the "
           "double that binds the drawer there", ("TRAIN-6", "TURN-3"),
           "playable_trains swapped: other players' unmarked trains dropped after a draw",
           patches={"playable_trains": _drawn_tile_off_closed_trains}),
    Mutant("mut32-engine-search-wraps-at-eight",
           "The search for a missing engine passes on round eight seats: at a table of nine "
           "or more, seat 7's turn to draw is followed by seat 0's", ("ENG-4",),
           "perform swapped: the searcher after seat s is (s + 1) mod 8",
           patches={"perform": _search_wraps_at_eight}),
    Mutant("mut32-train-back-at-engine-unstarted",
           "Under own-train-first and own-train-opens-mexican a personal train whose open "
           "end is the engine's number again is read as not yet started",
           ("TRAIN-7", "FIRST-10", "TRAIN-4"),
           "open_trains swapped: the own train emptied while its end is the engine's number",
           patches={"open_trains": _back_at_engine_unstarted}),
    Mutant("mut32-stuck-test-skips-mover",
           "Under nobody-can-play whether anyone can ever play again is asked of every seat "
           "but the one about to move", ("END-2",),
           "nobody_can_ever_play swapped: the mover left out of the loop",
           patches={"nobody_can_ever_play": _stuck_test_skips_mover}),
    Mutant("mut32-stuck-test-skips-passer",
           "Under nobody-can-play whether anyone can ever play again is asked of every seat "
           "but the one that has just moved", ("END-2",),
           "nobody_can_ever_play swapped: the seat before the mover left out of the loop",
           patches={"nobody_can_ever_play": _stuck_test_skips_passer}),
    Mutant("mut32-empty-release-one-tile-early",
           "Under released-when-boneyard-empty the open doubles are released once the "
           "boneyard holds one tile or none", ("DBL-12",),
           "duties and unbound swapped: a boneyard of one tile read as empty under DBL-12",
           patches={"duties": _release_one_early_duties,
                    "unbound": _release_one_early_unbound}),
    Mutant("mut32-empty-release-spares-mexican",
           "Under released-when-boneyard-empty a double on the Mexican Train still binds "
           "once the boneyard is empty: only the personal trains' doubles are released",
           ("DBL-12",),
           "duties and unbound swapped: the Mexican Train's double kept binding under DBL-12",
           patches={"duties": _empty_release_spares_mexican,
                    "unbound": _empty_release_spares_mexican_unbound}),
    Mutant("mut32-chain-doubles-bind-one-early",
           "A double left by a first-turn chain binds once every player but one has had a "
           "first turn: the last player's first turn must cover it", ("FIRST-5",),
           "duties swapped: FIRST-5 lifted with one first turn left",
           patches={"duties": _chain_doubles_bind_one_early}),
    Mutant("mut32-marked-high-seats-closed",
           "At a table of 9 or more another player's train of seat 8 or later is never open, "
           "marked or not (the marked trains listed for eight seats)", ("TRAIN-4",),
           "open_trains swapped: other seats from 8 up dropped",
           patches={"open_trains": _marked_high_seats_closed}),
    Mutant("mut32-lowest-total-sought-from-zero",
           "Under penalty scoring the lowest total is sought from 0: a match whose every "
           "total is above 0 names no winner", ("MATCH-2",),
           "winners hook: none under penalty scoring when every total is above 0",
           winners=_lowest_total_from_zero),
)
"""The thirty-second reading: 14 rule bugs kept, none a mutant of the catalogue (names,
descriptions and what each changes checked against the thirty-one readings before it; the
nearest are other slips: blanks-scored-wrong and blank-25-double-blank-once price the
[0-0] 25 under blank-25, mut32-blank-25-double-blank-100 100; double-blank-25-at-50 and
double-blank-50-at-25 swap the two double-blank prices, mut32-double-blank-50-per-end
doubles one; covered-double-stays-open keeps every covered double open,
mut32-drawn-cover-keeps-double-open a drawn cover's alone; drawn-double-ends-turn and
mut22-drawn-kept-through-follow-up spoil a drawn double's follow-up,
mut32-drawn-double-not-opened its duty after the turn; covering-refused-on-closed-train
closes the unmarked trains to every cover, mut32-drawn-tile-off-closed-trains to a drawn
tile's; mut15-engine-search-skips-last-seat and mut18-lap-ends-after-eight-seats are the
search's other slips at large tables; mut18-stuck-test-asks-eight-seats and
blocked-test-asks-ten-seats cut END-2's loop at a fixed seat, the thirty-second reading's
two at the mover and the passer; release-on-empty-next-turn releases a turn late,
mut32-empty-release-one-tile-early a draw early).

Written and not kept, each equivalent (no table a rule set allows can tell it from the
reference). Under full-round-of-passes the count of passes set back by a draw (END-3):
passes are counted only on an empty boneyard, which no draw follows, so the count is 0 at
every draw. Going out with a drawn tile missed (END-1): a player draws only while holding
tiles none of which can be played, so after laying the drawn tile their hand still holds
those. END-2's test made before the passer's marker goes up (END-2, MARK-1): the test
reads every train as marked (can_ever_play's all_marked) and the passes to come raise
every marker, so one marker more or less never changes its answer. Under positive scoring
the collector's own hand added to their take (SCORE-6): the collector went out, so their
hand is empty and adds 0.

The last four (mut32-empty-release-spares-mexican, mut32-chain-doubles-bind-one-early,
mut32-marked-high-seats-closed, mut32-lowest-total-sought-from-zero) are as near to
mut27-empty-release-oldest-only, mut25-chain-doubles-wait-in-round-one, the eight-seat
slips of the seventeenth and eighteenth readings and everyone-tied-nobody-wins, and as
far: a release that spares one train, FIRST-5 off by one turn, TRAIN-4's marked list cut
at eight seats, a winner sought from 0.

Measured on the corpus before any fixture was added for them (2026-12-07, `mtrain mutants
-m mut32-... --need 2`, 3,213 passing runs): 13 of 14 killed, the fewest killers of a
killed mutant 1 (mut32-drawn-cover-keeps-double-open: doubles-035);
mut32-train-back-at-engine-unstarted survived. With the five fixtures of
conformance/fixtures/mutants/thirty-second-reading.yaml, worked by hand, every one is
killed by three fixtures or more (3,223 runs), and blame charges 13 of 14 to a clause
they break: mut32-lowest-total-sought-from-zero names no winner, which the harness reads
as a match not over (MATCH-1) unless it has asked for the round after."""
