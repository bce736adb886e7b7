"""Rule bugs of a twenty-seventh reading, written where an engine's own bookkeeping meets the
rules' edges: a blocked round's "no winner" used as a seat, a marker's bit flipped where it
should be cleared, several open doubles of earlier turns released together or one at a
time, a first-turn pass beside END-3's count, an option's neighbour given its rule.

The blocked round's winner, -1, used as an index (Python reads it as the last seat): the
out credited to the last seat (MATCH-5); under positive scoring the hands collected by the
last seat (SCORE-6); and the collector's match total replaced by the take (MATCH-1).
Markers kept as bits and flipped, not cleared: a pass by a player whose marker is already
up takes it down (MARK-1); a removal under anyone-plays-on or owner-plays-anywhere raises a
marker that was down (MARK-4, MARK-5); a tile laid after a double taking no marker off, as
if only a turn's first tile did (MARK-3, MARK-4). Doubles: under any-open one dead double
releasing every open double (DBL-9, DBL-8); a double released once the boneyard holds none
of its number (DBL-9); under oldest-first an empty boneyard releasing the oldest double
only (DBL-12, DBL-7); the restricted follow-up's "first double" read as the turn's last
(DBL-3); a player who cannot follow a double they laid on another train marking that train
(DBL-5, MARK-1). The round's edges: a first-turn pass on an empty boneyard left out of
END-3's count (END-3, FIRST-3). Option neighbours: a chain-anywhere first turn's double
binding the next player at once, FIRST-5 kept for the own-train chain (FIRST-5, FIRST-11);
the engine's placer starting under highest-draw (SEAT-5) and, with an engine the deal
chose, under after-engine (SEAT-4); every double counting twice its pips under blank-25
and under double-blank-50, the double blank's penalty read as a rule for doubles (SCORE-2,
SCORE-3).
"""

from __future__ import annotations

from collections.abc import Callable

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference.engine import FOLLOW, START, Action, Result, State
from mtrain.reference.rules import FOLLOW_RESTRICTED, MARKER_ANYONE_ON, MARKER_OWNER_ANYWHERE
from mtrain.spec import tiles as T

_BIT, _IS_DOUBLE, _PIPS = T.BIT, T.IS_DOUBLE, T.PIPS


def _earlier_doubles(state: State) -> list[int]:
    """The open doubles laid on earlier turns (DBL-6's), in the order they were laid."""
    return [t for t in state.open_doubles if t not in state.turn_doubles]


# --- a blocked round's winner, -1, used as a seat ---------------------------------------------


def _blocked_out_to_last_seat(state: State, end: str, winner: int) -> None:
    """MATCH-5's `outs[winner] += 1` without its guard: a blocked round (winner -1) credits
    the last seat with an out."""
    ref.finish(state, end, winner)
    if winner < 0:
        state.outs[winner] += 1


def _blocked_take_to_last_seat(state: State, end: str, winner: int) -> None:
    """SCORE-6's `scores[winner] = take` without its guard: under positive scoring a
    blocked round's hands are collected by the last seat (winner -1)."""
    ref.finish(state, end, winner)
    if winner >= 0 or not state.rules.positive_scoring:
        return
    take = sum(ref.hand_value(state, s) for s in range(state.players))
    scores = list(state.result.scores) if state.result else [0] * state.players
    scores[winner] += take
    state.scores[winner] += take
    state.result = Result(end, winner, tuple(scores))


def _positive_take_replaces_total(state: State, end: str, winner: int) -> None:
    """SCORE-6's take written over the collector's match total, not added to it."""
    ref.finish(state, end, winner)
    if winner >= 0 and state.rules.positive_scoring and state.result is not None:
        state.scores[winner] = state.result.scores[winner]


# --- markers kept as bits, flipped ------------------------------------------------------------


def _pass_toggles_marker(state: State, action: Action) -> None:
    """MARK-1's marker flipped at a pass: a passer whose marker is already up takes it
    down."""
    seat = state.seat
    up = state.markers >> seat & 1
    ref.perform(state, action)
    if up and action.kind == "pass":
        state.markers &= ~(1 << seat)


def _marker_removal_toggles(state: State, tile: int, train: int) -> None:
    """MARK-4 and MARK-5's removal written `markers ^= bit`: under anyone-plays-on a marked
    player laying on an unmarked personal train raises its marker; under
    owner-plays-anywhere an unmarked player laying on a marked train raises their own."""
    before, seat = state.markers, state.seat
    rule = state.rules.marker_rule
    ref.play(state, tile, train)
    if not before:
        return
    if rule == MARKER_ANYONE_ON:
        if train < state.players and before >> seat & 1 and not before >> train & 1:
            state.markers |= 1 << train
    elif (rule == MARKER_OWNER_ANYWHERE and train < state.players
          and before >> train & 1 and not before >> seat & 1):
        state.markers |= 1 << seat


def _follow_up_keeps_markers(state: State, tile: int, train: int) -> None:
    """MARK-3..5 read at the turn's first tile only: a tile laid after a double takes no
    marker off."""
    follow, before = state.phase == FOLLOW, state.markers
    ref.play(state, tile, train)
    if follow:
        state.markers |= before


# --- doubles ------------------------------------------------------------------------------------


def _any_open_dead_frees_all(state: State, first_turns_over: bool = False) -> list[int]:
    """DBL-9 under any-open-double read as a test of the whole table: one dead double among
    the earlier ones releases them all."""
    out = ref.duties(state, first_turns_over)
    rules = state.rules
    if not out or rules.oldest_first or not rules.release_uncoverable:
        return out
    for t in _earlier_doubles(state):
        if not _live(state, t):
            return []
    return out


def _live(state: State, train: int) -> bool:
    """The reference's DBL-9 test: a tile of the double's number still off the table."""
    number = state.rules.number_mask[state.ends[train]]
    return number & state.table_mask != number


def _live_while_in_boneyard(state: State, train: int) -> bool:
    """DBL-9's "nobody can cover it" read as "nobody can draw a cover": a double is live
    only while the boneyard holds a tile of its number."""
    number = state.rules.number_mask[state.ends[train]]
    return any(number & _BIT[t] for t in state.boneyard)


def _empty_release_oldest_only(state: State, first_turns_over: bool = False) -> list[int]:
    """DBL-12 under oldest-first applied to the oldest double alone: once the boneyard is
    empty the oldest is released and the next one binds."""
    out = ref.duties(state, first_turns_over)
    rules = state.rules
    if out or state.boneyard or not (rules.release_when_empty and rules.oldest_first):
        return out
    if state.first_pending and not first_turns_over and rules.chain_first_turn:
        return out  # FIRST-5 holds them all back, as in the reference
    earlier = _earlier_doubles(state)
    return earlier[1:2]


def _restricted_follow_last_double(state: State) -> list[int]:
    """DBL-3's "the first of the doubles" read as the last laid."""
    turn = state.turn_doubles
    if (state.phase != FOLLOW or len(turn) < 2
            or state.rules.follow != FOLLOW_RESTRICTED):
        return ref.playable_trains(state)
    state.turn_doubles = turn[::-1]
    try:
        return ref.playable_trains(state)
    finally:
        state.turn_doubles = turn


def _follow_fail_marks_double_train(state: State, action: Action) -> None:
    """MARK-1 read as marking the train where the player failed: a player who cannot follow
    a double they laid on another player's train marks that train (on the Mexican Train,
    which carries none, no marker goes up)."""
    seat, turn = state.seat, state.turn_doubles
    if not (action.kind == "pass" and state.phase == FOLLOW and turn and turn[-1] != seat):
        ref.perform(state, action)
        return
    train = turn[-1]
    if train < state.players:
        state.markers |= 1 << train
    if not state.boneyard:
        state.passes += 1  # END-3, as the reference counts it
    ref.end_turn(state)


def _first_turn_pass_uncounted(state: State, action: Action) -> None:
    """END-3's count kept for the passes of later turns: a first-turn pass (FIRST-3, a
    marker without a draw) is not counted, even on an empty boneyard."""
    if not (action.kind == "pass" and state.phase == START and not state.boneyard
            and ref.in_first_turn(state, state.seat) and state.rules.chain_first_turn
            and state.rules.passes_end_round):
        ref.perform(state, action)
        return
    state.markers |= 1 << state.seat  # FIRST-3: the marker goes up
    ref.end_turn(state)


# --- an option's neighbour ------------------------------------------------------------------


def _chain_anywhere_binds_at_once(state: State, first_turns_over: bool = False) -> list[int]:
    """FIRST-5 kept for the own-train chain: under chain-anywhere-start a double a chain
    leaves open binds the next player at once."""
    return ref.duties(state, first_turns_over or state.rules.chain_anywhere)


def _draw_start_placer_starts(state: State, holder: int) -> None:
    """SEAT-5 read with SEAT-2: under highest-draw the player who places the engine starts."""
    ref.place_engine(state, holder)
    if holder >= 0 and state.rules.highest_draw_starts:
        state.seat = state.starter = holder


def _after_engine_deal_placer_starts(state: State, holder: int) -> None:
    """SEAT-4 read for the round's own engine only: under after-engine-start the player who
    places an engine the deal chose (ENG-7, ENG-8) starts, as under engine-holder."""
    ref.place_engine(state, holder)
    rules = state.rules
    if holder >= 0 and rules.after_engine_starts and rules.engine_by_deal:
        state.seat = state.starter = holder


def _doubles_twice_under(blank_values: str) -> Callable[[State, int], int]:
    """hand_value with every double in hand counted twice its pips under `blank_values`:
    the double blank's penalty (twice 25, or 50) read as a rule for every double."""
    def hand_value(state: State, seat: int) -> int:
        value = ref.hand_value(state, seat)
        if state.rules.ruleset["blank_values"] != blank_values:
            return value
        for t in T.tiles_of(state.hands[seat]):
            if _IS_DOUBLE[t]:
                value += _PIPS[t]
        return value
    return hand_value


TWENTY_SEVENTH_READING: tuple[Mutant, ...] = (
    Mutant("mut27-blocked-out-to-last-seat",
           "A blocked round credits the last seat with an out (the winner -1 used as a seat)",
           ("MATCH-5", "END-2"), "_finish swapped: outs[-1] += 1 when nobody went out",
           patches={"_finish": _blocked_out_to_last_seat}),
    Mutant("mut27-blocked-take-to-last-seat",
           "Under positive scoring a blocked round's hands are collected by the last seat "
           "(the winner -1 used as a seat)", ("SCORE-6", "END-2"),
           "_finish swapped: the hands' value added to seat -1 when nobody went out",
           patches={"_finish": _blocked_take_to_last_seat}),
    Mutant("mut27-positive-take-replaces-total",
           "Under positive scoring the collector's match total is replaced by the round's "
           "take, not added to", ("SCORE-6", "MATCH-1"),
           "_finish swapped: the collector's total set to the round's score",
           patches={"_finish": _positive_take_replaces_total}),
    Mutant("mut27-pass-toggles-marker",
           "A pass flips the passer's marker: a player whose marker is already up takes it "
           "down by passing again", ("MARK-1", "TURN-4"),
           "perform swapped: a pass with the marker up leaves it down",
           patches={"perform": _pass_toggles_marker}),
    Mutant("mut27-marker-removal-toggles",
           "Taking a marker off flips its bit: under anyone-plays-on a marked player covering "
           "on an unmarked train marks it, under owner-plays-anywhere an unmarked player "
           "laying on a marked train marks their own", ("MARK-4", "MARK-5"),
           "_play swapped: the marker the rule would take off raised where it was down",
           patches={"_play": _marker_removal_toggles}),
    Mutant("mut27-follow-up-keeps-markers",
           "A tile laid after a double takes no marker off: only a turn's first tile does",
           ("MARK-3", "MARK-4", "MARK-5"),
           "_play swapped: the markers before a follow-up restored after it",
           patches={"_play": _follow_up_keeps_markers}),
    Mutant("mut27-any-open-dead-frees-all",
           "Under released with any-open-double one uncoverable double releases every open "
           "double", ("DBL-9", "DBL-8"),
           "duties swapped: none when an earlier open double is dead, under any-open",
           patches={"duties": _any_open_dead_frees_all}),
    Mutant("mut27-release-when-boneyard-lacks-number",
           "Under released a double is released once the boneyard holds no tile of its "
           "number, though a hand still does", ("DBL-9", "DBL-6"),
           "live swapped: a double live while the boneyard holds a tile of its number",
           patches={"live": _live_while_in_boneyard}),
    Mutant("mut27-empty-release-oldest-only",
           "Under released-when-boneyard-empty with oldest-first an empty boneyard releases "
           "the oldest open double only: the next one binds", ("DBL-12", "DBL-7"),
           "duties swapped: the second earlier double when the reference releases them all",
           patches={"duties": _empty_release_oldest_only}),
    Mutant("mut27-restricted-follow-last-double",
           "Under the restricted follow-up the tile after several doubles may go on the last "
           "of them, not the first", ("DBL-3",),
           "playable_trains called with the turn's doubles reversed under restricted",
           patches={"playable_trains": _restricted_follow_last_double}),
    Mutant("mut27-follow-fail-marks-double-train",
           "A player who cannot follow a double they laid on another player's train puts the "
           "marker on that train (none on the Mexican Train), not on their own",
           ("DBL-5", "MARK-1"),
           "perform swapped: a pass in a follow-up marks the double's train",
           patches={"perform": _follow_fail_marks_double_train}),
    Mutant("mut27-first-turn-pass-uncounted",
           "Under full-round-of-passes a first-turn pass (a marker without a draw) is not "
           "counted, even with the boneyard empty", ("END-3", "FIRST-3"),
           "perform swapped: a first-turn pass on an empty boneyard leaves the count",
           patches={"perform": _first_turn_pass_uncounted}),
    Mutant("mut27-chain-anywhere-binds-at-once",
           "Under chain-anywhere-start a double a first-turn chain leaves open obliges the "
           "next player at once", ("FIRST-5", "FIRST-11"),
           "duties called with first_turns_over under chain-anywhere",
           patches={"duties": _chain_anywhere_binds_at_once}),
    Mutant("mut27-draw-start-placer-starts",
           "Under highest-draw-start the player who places the engine starts, not the draw's "
           "seat for the round", ("SEAT-5",),
           "_place_engine swapped: the placer starts under highest-draw",
           patches={"_place_engine": _draw_start_placer_starts}),
    Mutant("mut27-blank-25-doubles-twice",
           "Under blank-25 every double left in hand counts twice its pips, as the double "
           "blank counts twice 25", ("SCORE-2", "SCORE-1"),
           "hand_value swapped: each double's pips added again under blank-25",
           patches={"hand_value": _doubles_twice_under("blank-25")}),
    Mutant("mut27-double-blank-50-doubles-twice",
           "Under double-blank-50 every other double left in hand counts twice its pips, as "
           "if the double blank's 50 were a rule for doubles", ("SCORE-3", "SCORE-1"),
           "hand_value swapped: each double's pips added again under double-blank-50",
           patches={"hand_value": _doubles_twice_under("double-blank-50")}),
    Mutant("mut27-after-engine-deal-placer-starts",
           "Under after-engine-start the player who places an engine the deal chose "
           "(highest-double-held, designated-opens) starts, not the seat after",
           ("SEAT-4", "ENG-7", "ENG-8"),
           "_place_engine swapped: the placer starts under after-engine with a dealt engine",
           patches={"_place_engine": _after_engine_deal_placer_starts}),
)
"""The twenty-seventh reading: 17 rule bugs, none a mutant of the catalogue (names,
descriptions and what each changes checked against the twenty-six readings before it; the
nearest are other slips: blocked-winner-counts-an-out and mut20-blocked-lowest-hand-counts-
an-out credit the lowest hand, mut27-blocked-out-to-last-seat the last seat whatever its
hand; positive-blocked-lightest-collects gives the take to the lightest hand, mut27-blocked-
take-to-last-seat to the last seat; totals-overwritten-each-round replaces every total,
mut27-positive-take-replaces-total the collector's alone; owner-marker-off-by-last-tile
and anyone-marker-off-by-last-tile keep the last tile, mut27-follow-up-keeps-markers the
first; release-frees-newer-doubles is oldest-first's, mut27-any-open-dead-frees-all
any-open's; release-ignores-boneyard releases on the hands, mut27-release-when-boneyard-
lacks-number on the boneyard; restricted-follow-oldest-open and mut24-turn-doubles-newest-
first read other lists than the turn's doubles reversed; mut13-duty-fail-marks-double-train
is a failed cover, mut27-follow-fail-marks-double-train a failed follow-up; end-chain-
counts-as-pass counts too much, mut27-first-turn-pass-uncounted too little; chain-double-
obliges-at-once holds under every chain, mut27-chain-anywhere-binds-at-once under
chain-anywhere alone; rotate-start-finder-starts and after-engine-finder-starts are the
search's finder under rotate and after-engine, the two placer mutants here the placer
under highest-draw, and under after-engine an engine the deal chose; doubles-score-twice
holds under every blank rule, the two mut27- doubles mutants under one each).

Written and not kept. Equivalent, no table can tell them: a double laid on an open double
taken for its cover only (a double covering [n-n] would have to be [n-n] itself, already on
the table), and the tile after a double freed of earlier turns' duties (a player bound by
one can lay no double, and no earlier double comes to bind within a turn). Unreachable
under every shipped rule set: the restricted follow-up onto a train ending in a released
double (restricted is puremco's, whose release is DBL-9's, and a dead double's train takes
no tile; DBL-12 and DBL-13 come as overlays of pagat, whose follow-up is anywhere), and the
refusals' own SET-1 and TRAIN-1 charged to a neighbour (the codec refuses a tile of no set
and a train the table lacks before the refusals are asked). Already in the catalogue:
the engine weighed with its holder's hand under heaviest-in-hand (the option sets the
engine aside), the follow-up made optional (follow-up-optional), a drawn tile's play
keeping the markers (mut15-drawn-play-keeps-marker), the drawn tile kept after a pass
(drawn-tile-kept-after-pass), END-2 binding released doubles (blocked-test-binds-released),
FIRST-12 and FIRST-4 under ordinary doubles (no-double-end-under-ordinary,
ordinary-chain-double-covered), placing the engine as the first turn
(placing-engine-is-first-turn), the lap drawing past an empty boneyard
(lap-goes-on-past-empty-boneyard), ending a chain raising the marker
(end-chain-raises-marker).

Measured on the corpus before any fixture was added for them (2026-12-06, `mtrain mutants
-m mut27-... --need 2`, 3,049 passing runs): 15 of 17 killed, the fewest killers 0; the
survivors wanted several open doubles of earlier turns with one released, under
any-open-double and under released-when-boneyard-empty with oldest-first, which no fixture
laid out. With the four fixtures of conformance/fixtures/mutants/twenty-seventh-reading.yaml,
worked by hand, every one is killed by two fixtures or more (3,055 runs), and blame charges
each to a clause it breaks (17 of 17)."""
