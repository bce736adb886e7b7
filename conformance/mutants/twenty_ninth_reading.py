"""Rule bugs of a twenty-ninth reading, written at the options the earlier readings read
least (own-train-first, the order of several doubles, starter-opens-mexican, the rotating
start and engine-holder-draws, ordinary doubles, the tie rule's outs) and at the round's
edges (the tile after a double as the last in hand, the boneyard's last tile, an empty
train at a pass).

Own train first (TRAIN-7): another player's empty train read as closed to everyone but its
owner, marked or not (TRAIN-7, TRAIN-4); a player who cannot start their train passing
without a draw (TRAIN-7, TURN-2); an unstarted own train offered beside a duty, as a way
out of covering (TRAIN-7, DBL-6). Several open doubles: under oldest-first the newer of two
doubles laid in one turn closed to the tile after them (DBL-7, DBL-2), and the oldest
double of an earlier turn binding only a player who can cover it (DBL-7, DBL-6). The first
turns and the deal: under starter-opens-mexican a non-starter whose own train holds a tile
let onto the Mexican Train during their first turn, FIRST-10's condition read into FIRST-9
(FIRST-9, FIRST-10); under the rotating start the engine's holder losing their first turn
by placing it, SEAT-4's "placing it counted as a turn" read into SEAT-3 (SEAT-3, FIRST-6,
ENG-3); a drawn tile kept off the empty Mexican Train, its opening taken for a choice made
from the hand (TURN-3, TRAIN-5, FIRST-8); under engine-holder-draws with another seat
starting, the replacement drawn by the starter (ENG-5, SEAT-3). Doubles and the match:
under ordinary doubles a double still asking for a follow-up, though left closed (DBL-11,
DBL-1); outs counted only under most-outs, the one tie rule that reads them (MATCH-5). The
round's edges: going out with the tile after a double not noticed (END-1, DBL-1); under
nobody-can-play a draw of the boneyard's last tile, unplayable, ending a blocked round at
once, the drawer's pass and marker skipped (END-2, TURN-4); a pass on an own train still
empty raising no marker, as if only a started train could carry one (MARK-1, TURN-4,
FIRST-3).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference import deal as deal_module
from mtrain.reference.engine import (
    BLOCKED,
    CHAIN,
    DRAW,
    ENGINE,
    FOLLOW,
    PASS,
    START,
    Action,
    State,
)
from mtrain.reference.rules import FOLLOW_ANYWHERE, Rules
from mtrain.spec import tiles as T

# --- own train first ------------------------------------------------------------------------


def _empty_trains_closed(state: State, seat: int, all_marked: bool = False,
                         first_turns_over: bool = False) -> list[int]:
    """TRAIN-7 read as "every train is started by its owner": under own-train-first another
    player's empty train is closed, marked or not."""
    out = ref.open_trains(state, seat, all_marked, first_turns_over)
    if not state.rules.own_train_first:
        return out
    trains, mex = state.trains, state.players
    return [t for t in out if t in (seat, mex) or trains[t]]


def _unstarted_passes(state: State) -> list[Action]:
    """TRAIN-7 read as a turn's end: under own-train-first a player whose own train is empty
    and who cannot start it passes without drawing."""
    out = ref.legal_actions(state)
    if (out == [DRAW] and state.phase == START and not state.trains[state.seat]
            and state.rules.own_train_first):
        return [PASS]
    return out


def _own_train_beside_duty(state: State) -> list[int]:
    """TRAIN-7 and DBL-6 both offered: under own-train-first a player bound to cover a double
    elsewhere may start their own empty train instead."""
    out = ref.playable_trains(state)
    seat = state.seat
    if (state.phase == START and state.open_doubles and seat not in out
            and not state.trains[seat] and state.rules.own_train_first
            and ref.duties(state)):
        return [*out, seat]
    return out


# --- several open doubles -------------------------------------------------------------------


def _oldest_first_within_turn(state: State) -> list[int]:
    """DBL-7 read into a turn: under oldest-first the tile after two doubles laid in one turn
    may not cover the newer before the older."""
    out = ref.playable_trains(state)
    laid = state.turn_doubles
    rules = state.rules
    if state.phase != FOLLOW or len(laid) < 2 or rules.follow != FOLLOW_ANYWHERE:
        return out
    if not rules.oldest_first:
        return out
    newer = laid[1:]
    return [t for t in out if t not in newer]


_ANY_ORDER: dict[int, Rules] = {}


def _any_order(rules: Rules) -> Rules:
    found = _ANY_ORDER.get(id(rules))
    if found is None:
        found = _ANY_ORDER[id(rules)] = dataclasses.replace(rules, oldest_first=False)
    return found


def _oldest_first_when_coverable(state: State, first_turns_over: bool = False) -> list[int]:
    """DBL-7 read as "cover the oldest if you can": under oldest-first a player holding no
    cover for the oldest open double may cover any of the newer ones."""
    out = ref.duties(state, first_turns_over)
    rules = state.rules
    if len(out) != 1 or not rules.oldest_first:
        return out
    hand, mask = state.hands[state.seat], rules.number_mask
    if hand & mask[state.ends[out[0]]]:
        return out
    state.rules = _any_order(rules)
    try:
        return ref.duties(state, first_turns_over)
    finally:
        state.rules = rules


def _drawn_tile_never_opens_mexican(state: State) -> list[int]:
    """TURN-3 read with the Mexican Train's opening as a choice made from the hand: a drawn
    tile may go on the Mexican Train only once it is open."""
    out = ref.playable_trains(state)
    mex = state.players
    if state.drawn >= 0 and mex in out and not state.trains[mex]:
        return [t for t in out if t != mex]
    return out


# --- the first turns ------------------------------------------------------------------------


def _starter_only_lifted_by_own_train(state: State, seat: int, all_marked: bool = False,
                                      first_turns_over: bool = False) -> list[int]:
    """FIRST-10's condition read into FIRST-9: under starter-opens-mexican a player whose own
    train holds a tile may open the Mexican Train on their first turn, starter or not."""
    out = ref.open_trains(state, seat, all_marked, first_turns_over)
    mex = state.players
    if (mex not in out and state.trains[seat] and not state.trains[mex]
            and state.rules.starter_only_mexican):
        out.insert(1, mex)
    return out


def _rotate_placer_loses_first_turn(state: State, holder: int) -> None:
    """SEAT-4's "placing it counted as a turn" read into SEAT-3: under the rotating start
    the holder who places the engine has had their first turn."""
    ref.place_engine(state, holder)
    rules = state.rules
    if (holder >= 0 and rules.holder_lays and not rules.engine_holder_starts
            and not rules.after_engine_starts and not rules.highest_draw_starts):
        state.first_pending &= ~(1 << holder)


_DEAL = deal_module.deal  # the reference's, bound before any swap


def _replacement_to_starter(rules: Rules, players: int, round_no: int = 1,
                            **kw: Any) -> State:
    """ENG-5's replacement read as the first player's draw: under engine-holder-draws with
    a start other than the holder's or the seat after it, the round's starter draws it."""
    order = kw.get("order")
    if (not rules.holder_draws or rules.engine_holder_starts or rules.after_engine_starts
            or order is None):
        return _DEAL(rules, players, round_no, **kw)
    st = _DEAL(dataclasses.replace(rules, holder_draws=False), players, round_no, **kw)
    st.rules = rules
    dealt = order[:players * rules.ruleset.hand_size(players)]
    if T.DOUBLE[st.engine] in dealt and st.boneyard:
        st.hands[st.starter] |= T.BIT[st.boneyard.pop(0)]  # the replacement, misplaced
    return st


# --- doubles and the match ------------------------------------------------------------------

_OPENING: dict[int, Rules] = {}


def _opening(rules: Rules) -> Rules:
    found = _OPENING.get(id(rules))
    if found is None:
        found = _OPENING[id(rules)] = dataclasses.replace(rules, ordinary_doubles=False)
    return found


def _ordinary_double_follows(state: State, tile: int, train: int) -> None:
    """DBL-11 read as "a double need not be covered": under ordinary doubles a double laid
    outside a first-turn chain still asks for a follow-up tile (DBL-1), but opens nothing."""
    rules = state.rules
    extra = (T.IS_DOUBLE[tile] and state.phase != CHAIN and not ref.chain_start(state)
             and rules.ordinary_doubles)
    if not extra:
        ref.play(state, tile, train)
        return
    state.rules = _opening(rules)
    try:
        ref.play(state, tile, train)
    finally:
        state.rules = rules
    if state.phase == FOLLOW and train in state.open_doubles:
        state.open_doubles.remove(train)  # the follow-up asked, the double not left open


def _outs_for_most_outs_only(state: State, end: str, winner: int) -> None:
    """MATCH-5's count kept only where the tie rule reads it: under the other tie rules a
    round gone out is not counted among the winner's outs."""
    ref.finish(state, end, winner)
    if winner >= 0 and not state.rules.tie_most_outs:
        state.outs[winner] -= 1


# --- the round's edges ----------------------------------------------------------------------


def _follow_up_out_missed(state: State, tile: int, train: int) -> None:
    """END-1 checked for a turn's first tile only: a player who lays their last tile after a
    double (the follow-up) is not seen to go out; their turn just ends."""
    follow = state.phase == FOLLOW
    scores, outs = state.scores[:], state.outs[:]
    ref.play(state, tile, train)
    if not follow or state.result is None or T.IS_DOUBLE[tile]:
        return
    state.scores[:], state.outs[:] = scores, outs
    state.result = None
    state.phase = FOLLOW  # as it was, so that the turn ends as a follow-up's does
    ref.end_turn(state)


def _last_draw_blocks(state: State) -> None:
    """END-2 asked as the boneyard's last tile is drawn: under nobody-can-play an unplayable
    last draw ends a blocked round at once, before the drawer passes and marks."""
    engine_phase = state.phase == ENGINE
    ref.draw(state)
    if engine_phase or state.boneyard or state.rules.passes_end_round:
        return
    if ref.legal_actions(state) == [PASS] and ref.nobody_can_ever_play(state):
        ref.finish(state, BLOCKED, -1)


def _empty_train_unmarked(state: State, action: Action) -> None:
    """MARK-1 read as a marker on a train's last tile: a pass leaves an own train that is
    still empty unmarked."""
    seat = state.seat
    empty = action.kind == "pass" and not state.trains[seat]
    up = state.markers >> seat & 1
    ref.perform(state, action)
    if empty and not up:
        state.markers &= ~(1 << seat)


TWENTY_NINTH_READING: tuple[Mutant, ...] = (
    Mutant("mut29-own-train-first-closes-empty-trains",
           "Under own-train-first another player's empty train is closed, marked or not: "
           "only its owner may start it", ("TRAIN-7", "TRAIN-4"),
           "open_trains swapped: other players' empty trains dropped under own-train-first",
           patches={"open_trains": _empty_trains_closed}),
    Mutant("mut29-own-train-first-stuck-passes",
           "Under own-train-first a player who cannot start their own train passes without "
           "drawing", ("TRAIN-7", "TURN-2"),
           "legal_actions swapped: [draw] becomes [pass] while the own train is empty",
           patches={"legal_actions": _unstarted_passes}),
    Mutant("mut29-own-train-first-start-beside-duty",
           "Under own-train-first a player bound to cover an open double elsewhere may start "
           "their own empty train instead", ("TRAIN-7", "DBL-6"),
           "playable_trains swapped: the empty own train added beside the duties",
           patches={"playable_trains": _own_train_beside_duty}),
    Mutant("mut29-oldest-first-within-turn",
           "Under oldest-first the tile after two doubles laid in one turn may not cover the "
           "newer one before the older", ("DBL-7", "DBL-2"),
           "playable_trains swapped: the turn's newer doubles dropped from a follow-up",
           patches={"playable_trains": _oldest_first_within_turn}),
    Mutant("mut29-oldest-first-when-coverable",
           "Under oldest-first a player holding no cover for the oldest open double may cover "
           "a newer one", ("DBL-7", "DBL-6"),
           "duties swapped: every open double binds when the oldest cannot be covered",
           patches={"duties": _oldest_first_when_coverable}),
    Mutant("mut29-drawn-tile-never-opens-mexican",
           "A drawn tile may not open the Mexican Train: only a tile from the hand opens it",
           ("TURN-3", "TRAIN-5", "FIRST-8"),
           "playable_trains swapped: the empty Mexican Train dropped after a draw",
           patches={"playable_trains": _drawn_tile_never_opens_mexican}),
    Mutant("mut29-starter-only-lifted-by-own-train",
           "Under starter-opens-mexican a player whose own train holds a tile may open the "
           "Mexican Train on their first turn, starter or not", ("FIRST-9", "FIRST-10"),
           "open_trains swapped: the empty Mexican Train added once the own train holds a "
           "tile", patches={"open_trains": _starter_only_lifted_by_own_train}),
    Mutant("mut29-rotate-placer-loses-first-turn",
           "Under the rotating start the holder who places the engine has had their first "
           "turn: they play an ordinary turn when their seat comes",
           ("SEAT-3", "FIRST-6", "ENG-3"),
           "_place_engine swapped: the placer's first turn cleared under the rotating start",
           patches={"_place_engine": _rotate_placer_loses_first_turn}),
    Mutant("mut29-replacement-to-starter",
           "Under engine-holder-draws the replacement for the engine is drawn by the round's "
           "starter when another seat placed the engine", ("ENG-5", "SEAT-3"),
           "deal swapped: dealt without the replacement, then the starter draws it",
           patches={"deal": _replacement_to_starter}),
    Mutant("mut29-ordinary-double-follows",
           "Under ordinary doubles a double still asks for a follow-up tile, though it is not "
           "left open", ("DBL-11", "DBL-1", "TURN-6"),
           "_play swapped: a double laid as under open doubles, then taken off the open list",
           patches={"_play": _ordinary_double_follows}),
    Mutant("mut29-outs-for-most-outs-only",
           "Rounds gone out are counted only under tie-most-outs: under the other tie rules "
           "the outs stay 0", ("MATCH-5",),
           "_finish swapped: the winner's out taken back unless the tie rule is most-outs",
           patches={"_finish": _outs_for_most_outs_only}),
    Mutant("mut29-follow-up-out-missed",
           "Going out with the tile after a double is not noticed: the turn ends and the "
           "round goes on", ("END-1", "DBL-1"),
           "_play swapped: a follow-up's last tile ends the turn, the finish undone",
           patches={"_play": _follow_up_out_missed}),
    Mutant("mut29-last-draw-blocks-at-once",
           "Under nobody-can-play an unplayable draw of the boneyard's last tile ends a "
           "blocked round at once: the drawer neither passes nor marks", ("END-2", "TURN-4"),
           "_draw swapped: END-2 asked after a draw that empties the boneyard",
           patches={"_draw": _last_draw_blocks}),
    Mutant("mut29-empty-train-unmarked",
           "A pass leaves a player's own train unmarked while it is still empty: only a "
           "started train carries a marker", ("MARK-1", "TURN-4", "FIRST-3"),
           "perform swapped: no marker for a pass on an empty own train",
           patches={"perform": _empty_train_unmarked}),
)

"""The twenty-ninth reading: 14 rule bugs, none a mutant of the catalogue (names,
descriptions and what each changes checked against the twenty-eight readings before it;
the nearest are other slips: own-train-first-ignored, own-train-before-duty and
mut13-drawn-tile-skips-own-train-first misread the owner's own moves under TRAIN-7,
mut29-own-train-first-closes-empty-trains the others' moves onto an empty train;
single-start-stuck-marks-at-once passes without a draw on a single-tile first turn,
mut29-own-train-first-stuck-passes on every turn the own train is empty; own-train-before-
duty bars the cover, mut29-own-train-first-start-beside-duty offers the own train beside it;
oldest-first-ignored, newest-double-first and the by-train and by-number readings order the
doubles of earlier turns, mut29-oldest-first-within-turn orders a turn's own, and
mut29-oldest-first-when-coverable lets the order go when the oldest cannot be covered;
mut13-drawn-tile-opens-mexican and mut13-drawn-tile-skips-own-train-first let a drawn tile
open the Mexican Train where a rule bars it, mut29-drawn-tile-never-opens-mexican bars it
where the rules let it;
mut16-starter-only-waits-for-own-train adds FIRST-10's condition to FIRST-9,
mut29-starter-only-lifted-by-own-train lets it lift FIRST-9; after-engine-holder-loses-
first-turn and placing-engine-is-first-turn spend the placer's first turn under after-engine
and engine-holder, mut29-rotate-placer-loses-first-turn under the rotating start;
mut17-replacement-to-next-seat gives the replacement to the seat after the holder,
mut29-replacement-to-starter to the round's starter; ordinary-doubles-ignored and
mut23-ordinary-double-on-mexican-opens keep the double open, mut29-ordinary-double-follows
keeps only its follow-up; outs-not-counted holds under every tie rule, mut29-outs-for-most-
outs-only under all but most-outs; domino-on-double-missed and chain-out-at-turn-end miss an
out on a double or in a chain, mut29-follow-up-out-missed on the tile after a double;
stuck-player-ends-round and blocking-pass-unmarked end the round with a pass,
mut29-last-draw-blocks-at-once before it, at the draw; first-turn-pass-unmarked and
mut28-dry-pass-unmarked skip a pagat first turn's or a dry boneyard's marker,
mut29-empty-train-unmarked every pass on an empty own train).

Written and not kept. Unreachable: an own train holding a lone double read as not yet
started (TRAIN-7): a train's first tile matches the engine's number, and the double of that
number is the engine, so no train starts with a double. Killed only as an error: the engine
set aside under ENG-2 but left among the tiles to deal; a fixture gives the deal's order,
which lacks the engine, so such an engine shows its bug only on a shuffle of its own, and on
a given order refuses it (no clause charged). Impossible under the option space: the heaviest
tile weighed with the engine, read before a search or before the holder's replacement
(heaviest-in-hand requires set-aside: no hand holds the engine, nobody searches or draws for
it). Already in the catalogue: the Mexican Train's double covered last under oldest-first
(mut18-oldest-first-skips-mexican-double), the draw that empties the boneyard counted as a
pass (mut24-emptying-draw-counts-a-pass), a failed follow-up drawing once under
draw-until-playable (follow-draws-once-until-playable), the starter-only seat read as the
engine's holder or the rotation's (starter-only-means-engine-holder,
mut15-starter-only-means-rotation-seat), the lowest seat ignored under single-round
(lowest-seat-ignored-in-single-round).

Measured on the corpus before any fixture was added for them (2026-12-07, `mtrain mutants
-m mut29-... --need 2`, 3,096 passing runs): 11 of 14 killed, the fewest killers 0, and
mut29-starter-only-lifted-by-own-train killed by one fixture; the survivors wanted another
player's empty marked train under own-train-first, a duty beside an own train still empty,
and a dealt engine's replacement under engine-holder-draws with a start not the holder's,
which no fixture laid out. With the seven fixtures of conformance/fixtures/mutants/
twenty-ninth-reading.yaml, worked by hand, every one is killed by two fixtures or more
(3,117 runs); blame charged 12 of 14 to a clause they break, and 14 of 14 once a field that
shows a round ended early (the drawn tile cleared at the boneyard's last draw) was charged
to the round's end and hands sharing the deal's tiles otherwise, under engine-holder-draws,
to ENG-5 (conformance/attribution.py)."""
