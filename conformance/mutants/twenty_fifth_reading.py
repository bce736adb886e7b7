"""Rule bugs of a twenty-fifth reading, written where two options meet and where a refusal
names its clause: the heaviest tile weighed with the engine or before the holder's
replacement, the draw for the start read off its last drawing and the starter kept from
it, a first-turn pass on an empty boneyard, most-outs under positive scoring, the new
double-16 set dealt by the double-15 table, two markers taken off by the wrong play, and
refusals for the tile, the train and the access that cite the clause next door.

The starting seats: under heaviest-in-hand the engine weighed in its placer's hand (so the
placer starts) or the heaviest tile read before the holder draws a replacement (SEAT-6);
under highest-draw the draw won by the highest tile of each seat's last drawing, the
run-off not told from the first drawing (SEAT-5), and FIRST-9's starter read as the draw's
winner in every round. END-3: a first-turn pass (FIRST-3) on an empty boneyard left
uncounted. MATCH-5: under positive scoring the outs read the wrong way round, as if the
penalty ranking were turned round for the tie too. DEAL-11 on the double-16 set (SET-9):
its file's table replaced by the nearest published one below it, the double-15 table of
OurPastimes. Markers: under anyone-plays-on a play on the Mexican Train taking the mover's
own marker off (MARK-4), under owner-plays-own a cover on another player's train taking the
coverer's off (MARK-3). Refusals: a tile that matches no open end cited as TRAIN-4, a train
that does not exist as TRAIN-4, a tile outside the set as TURN-7, a tile not held as
TRAIN-2, FIRST-10's closed Mexican Train as TRAIN-7, a move during the search for the
engine as TURN-2, another player's unmarked train as MARK-1.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.fourteenth_reading import _recited
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.conformance.mutants.thirteenth_reading import OURPASTIMES_D15
from mtrain.reference import deal as deal_module
from mtrain.reference import engine
from mtrain.reference.engine import BIT, DOUBLE, PIPS, START, Action, State
from mtrain.reference.rules import MARKER_ANYONE_ON, MARKER_OWNER_OWN, Rules

_deal = deal_module.deal
_match_winners = deal_module.match_winners
_open_trains = engine.open_trains
_heaviest_holder = engine.heaviest_holder


# --- the starting seats ------------------------------------------------------------------


def _heaviest_weighs_engine(state: State, holder: int) -> None:
    """SEAT-6 read with the engine still in its placer's hand: the engine, the round's
    largest double, is weighed too."""
    if holder < 0 or not state.rules.heaviest_tile_starts:
        ref.place_engine(state, holder)
        return
    bit = BIT[DOUBLE[state.engine]]
    state.hands[holder] |= bit
    try:
        ref.place_engine(state, holder)
    finally:
        state.hands[holder] &= ~bit


def _heaviest_before_replacement(rules: Rules, players: int, round_no: int = 1,
                                 **kw: Any) -> State:
    """SEAT-6 read as the engine is placed, before ENG-5's replacement joins the holder's
    hand: the replacement tile is not weighed."""
    st = _deal(rules, players, round_no, **kw)
    order: Sequence[int] | None = kw.get("order")
    if (order is None or st.phase != START or not rules.heaviest_tile_starts
            or not rules.holder_draws):
        return st
    hand = rules.ruleset.hand_size(players)
    dealt = list(order[:players * hand])
    engine_tile = DOUBLE[st.engine]
    if engine_tile not in dealt or len(order) <= players * hand:
        return st  # no holder dealt the engine, or no replacement drawn
    holder = dealt.index(engine_tile) // hand
    probe = st.copy()
    probe.hands[holder] &= ~BIT[order[players * hand]]
    st.seat = st.starter = _heaviest_holder(probe)
    return st


def _draw_won_on_last_drawing(rules: Rules, players: int,
                              draw: Sequence[Sequence[int]]) -> int:
    """SEAT-5's run-off read as a fresh draw: the highest of every seat's last tile wins,
    a seat out of the run-off keeping its first tile."""
    ref.draw_winner(rules, players, draw)  # a draw the reference refuses is refused alike
    totals = [PIPS[tiles[-1]] for tiles in draw]
    return totals.index(max(totals))


def _starter_only_means_draw_winner(state: State, seat: int, all_marked: bool = False,
                                    first_turns_over: bool = False) -> list[int]:
    """FIRST-9's starter under highest-draw read as the draw's winner, round 1's starter,
    in every round."""
    rules = state.rules
    if not (rules.starter_only_mexican and rules.highest_draw_starts and state.round > 1):
        return _open_trains(state, seat, all_marked, first_turns_over)
    starter = state.starter
    state.starter = (starter - (state.round - 1)) % state.players
    try:
        return _open_trains(state, seat, all_marked, first_turns_over)
    finally:
        state.starter = starter


# --- END-3 and MATCH-5 --------------------------------------------------------------------


def _first_turn_pass_uncounted(state: State, action: Action) -> None:
    """Under full-round-of-passes a first-turn pass (FIRST-3: no start, marker up) on an
    empty boneyard is not counted."""
    seat = state.seat
    if not (action.kind == "pass" and not state.boneyard and state.phase == START
            and ref.in_first_turn(state, seat) and state.rules.chain_first_turn
            and state.rules.passes_end_round):
        ref.perform(state, action)
        return
    state.markers |= 1 << seat  # the pass's marker, as perform raises it; no count
    ref.end_turn(state)


def _most_outs_reversed_under_positive(state: State) -> list[int]:
    """MATCH-5 under positive scoring with the ranking turned round: of the tied players
    the one who went out least often wins."""
    rules = state.rules
    if not (rules.positive_scoring and rules.tie_most_outs):
        return _match_winners(state)
    best = max(state.scores)
    tied = [s for s, v in enumerate(state.scores) if v == best]
    if len(tied) > 1:
        fewest = min(state.outs[s] for s in tied)
        tied = [s for s in tied if state.outs[s] == fewest]
    return tied


# --- the double-16 set ---------------------------------------------------------------------


def _d16_by_d15_table(rules: Rules) -> Rules:
    """DEAL-11 missed on the double-16 set: the nearest published table below it, the
    double-15 table of OurPastimes, deals its hands, not the table its file gives."""
    if rules.max_pip != 16:
        return rules
    table = dict(OURPASTIMES_D15)
    ruleset = dataclasses.replace(rules.ruleset, hand_table=tuple(sorted(table.items())))
    return dataclasses.replace(rules, ruleset=ruleset, hand_table=table)


# --- markers ---------------------------------------------------------------------------------


def _mexican_play_lowers_mover_marker(state: State, tile: int, train: int) -> None:
    """MARK-4's train read as the mover's when the tile goes on the Mexican Train, which
    carries no marker: the mover's own marker comes off."""
    seat = state.seat
    ref.play(state, tile, train)
    if train == state.players and state.rules.marker_rule == MARKER_ANYONE_ON:
        state.markers &= ~(1 << seat)


def _cover_elsewhere_lowers_marker(state: State, tile: int, train: int) -> None:
    """MARK-3 read as counting a cover (TRAIN-6) on another player's train as a play at
    home: the coverer's marker comes off."""
    seat = state.seat
    covering = train != seat and train < state.players and train in state.open_doubles
    ref.play(state, tile, train)
    if covering and state.rules.marker_rule == MARKER_OWNER_OWN:
        state.markers &= ~(1 << seat)


# --- refusals ------------------------------------------------------------------------------


def _a_play(state: State, action: Action) -> bool:
    return action.kind == "play"


def _another_train(state: State, action: Action) -> bool:
    return action.kind == "play" and action.train not in (state.seat, state.players)


TWENTY_FIFTH_READING: tuple[Mutant, ...] = (
    Mutant("mut25-heaviest-weighs-engine",
           "Under heaviest-in-hand-start the engine is weighed in its placer's hand: the "
           "player who places it starts", ("SEAT-6", "ENG-3"),
           "_place_engine swapped: the engine tile in the placer's hand while the start is read",
           patches={"_place_engine": _heaviest_weighs_engine}),
    Mutant("mut25-heaviest-before-replacement",
           "Under heaviest-in-hand-start with engine-holder-draws the start is read before the "
           "holder's replacement tile is drawn", ("SEAT-6", "ENG-5"),
           "deal swapped: the start read again without the replacement in the holder's hand",
           patches={"deal": _heaviest_before_replacement}),
    Mutant("mut25-draw-won-on-last-drawing",
           "Under highest-draw-start the draw is won by the highest of each seat's last tile "
           "drawn: a seat out of the run-off competes with its first tile", ("SEAT-5",),
           "draw_winner swapped: the highest total among draw[s][-1]",
           patches={"draw_winner": _draw_won_on_last_drawing}),
    Mutant("mut25-starter-only-means-draw-winner",
           "Under starter-opens-mexican with highest-draw-start the draw's winner, not the "
           "round's starter, may open the Mexican Train in the first turns of a later round",
           ("FIRST-9", "SEAT-5"),
           "open_trains swapped: the starter moved back by round - 1 under highest-draw",
           patches={"open_trains": _starter_only_means_draw_winner}),
    Mutant("mut25-first-turn-pass-uncounted",
           "Under full-round-of-passes a first-turn pass (no start, marker up) on an empty "
           "boneyard is not counted", ("END-3", "FIRST-3"),
           "perform swapped: a first turn's pass raises the marker without passes + 1",
           patches={"perform": _first_turn_pass_uncounted}),
    Mutant("mut25-most-outs-reversed-under-positive",
           "Under positive scoring and tie-most-outs a tie goes to the tied player who went "
           "out least often", ("MATCH-5", "MATCH-3"),
           "winners: the fewest outs among the tied under positive scoring",
           winners=_most_outs_reversed_under_positive),
    Mutant("mut25-d16-dealt-by-d15-table",
           "A double-16 rule set deals by the double-15 table of OurPastimes, not by the "
           "table its file gives", ("DEAL-11", "SET-9", "DEAL-1"),
           "Rules.hand_table replaced by DEAL-9's under double-16",
           rules=_d16_by_d15_table),
    Mutant("mut25-mexican-play-lowers-mover-marker",
           "Under anyone-plays-on a play on the Mexican Train takes the mover's own marker "
           "off", ("MARK-4", "MARK-2"),
           "_play swapped: the mover's marker cleared after a play on train n",
           patches={"_play": _mexican_play_lowers_mover_marker}),
    Mutant("mut25-cover-elsewhere-lowers-marker",
           "Under owner-plays-own covering an open double on another player's train takes "
           "the coverer's own marker off", ("MARK-3", "TRAIN-6"),
           "_play swapped: the mover's marker cleared after covering a double on another "
           "personal train", patches={"_play": _cover_elsewhere_lowers_marker}),
    Mutant("mut25-unmatched-tile-cites-train-4",
           "A tile that matches no open end of the train named is refused citing TRAIN-4 "
           "(the train closed), not TRAIN-2", ("TRAIN-2",),
           "_refusals swapped: TRAIN-2 cited as TRAIN-4",
           patches={"_refusals": _recited("TRAIN-2", "TRAIN-4")}),
    Mutant("mut25-no-such-train-cites-train-4",
           "A play on a train number that does not exist is refused citing TRAIN-4 (the "
           "train closed), not TRAIN-1", ("TRAIN-1",),
           "_refusals swapped: TRAIN-1 cited as TRAIN-4",
           patches={"_refusals": _recited("TRAIN-1", "TRAIN-4")}),
    Mutant("mut25-tile-outside-set-cites-turn-7",
           "A tile the set does not hold is refused citing TURN-7 (a tile not held), not "
           "SET-1", ("SET-1",), "_refusals swapped: SET-1 cited as TURN-7",
           patches={"_refusals": _recited("SET-1", "TURN-7")}),
    Mutant("mut25-tile-not-held-cites-train-2",
           "A play of a tile the player does not hold is refused citing TRAIN-2 (no "
           "match), not TURN-7", ("TURN-7",), "_refusals swapped: TURN-7 cited as TRAIN-2 "
           "for a play", patches={"_refusals": _recited("TURN-7", "TRAIN-2", _a_play)}),
    Mutant("mut25-own-train-mexican-cites-train-7",
           "Under own-train-opens-mexican opening the Mexican Train with an empty own train "
           "is refused citing TRAIN-7 (own-train-first), not FIRST-10", ("FIRST-10",),
           "_refusals swapped: FIRST-10 cited as TRAIN-7",
           patches={"_refusals": _recited("FIRST-10", "TRAIN-7")}),
    Mutant("mut25-search-move-cites-turn-2",
           "During the search for an undealt engine an action other than a draw is refused "
           "citing TURN-2 (the draw), not ENG-4", ("ENG-4",),
           "_refusals swapped: ENG-4 cited as TURN-2",
           patches={"_refusals": _recited("ENG-4", "TURN-2")}),
    Mutant("mut25-closed-train-cites-mark-1",
           "A play on another player's train that carries no marker is refused citing MARK-1 "
           "(the marker), not TRAIN-4", ("TRAIN-4",),
           "_refusals swapped: TRAIN-4 cited as MARK-1 for a play on another personal train",
           patches={"_refusals": _recited("TRAIN-4", "MARK-1", _another_train)}),
)
"""The twenty-fifth reading."""
