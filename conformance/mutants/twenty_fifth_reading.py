"""Rule bugs of a twenty-fifth reading, written where two options meet and where a refusal
names its clause: the draw for the start read off its last drawing and FIRST-9's starter
kept from it, a later round's chain doubles, the passes END-3 counts around first turns,
failed follow-ups and plays off the own train, most-outs under positive scoring, the new
double-16 set dealt by the double-15 table, two markers taken off by the wrong play, and
refusals that cite the clause next door.

The starting seats: under highest-draw the draw won by the highest tile of each seat's
last drawing, a seat out of the run-off competing with its first tile (SEAT-5), and
FIRST-9's starter read as the draw's winner in every round. First turns of later rounds:
FIRST-5's wait kept for round 1 alone. END-3: a first-turn pass (FIRST-3) on an empty
boneyard left uncounted, a failed follow-up counted twice (DBL-5), the count set back only
by a play on the own train, as MARK-3 takes a marker off. MATCH-5: under positive scoring
the outs read the wrong way round, as if the penalty ranking were turned round for the tie
too. DEAL-11 on the double-16 set (SET-9): its file's table replaced by the nearest
published one below it, the double-15 table of OurPastimes (mut13-d18-dealt-by-d15-table's
slip on the new set). Markers: under anyone-plays-on a play on the Mexican Train taking
the mover's own marker off (MARK-4), under owner-plays-own a cover on another player's
personal train taking the coverer's off (MARK-3). Refusals: a tile that matches no open
end cited as TRAIN-4, a tile not held as TRAIN-2, FIRST-10's closed Mexican Train as
TRAIN-7, FIRST-9's as FIRST-10, TRAIN-7's own train first as FIRST-10, a chain's end due to
a cover (FIRST-4) as FIRST-12, a chain's tile off the own train (FIRST-2) as FIRST-1, a
move during the search for the engine as TURN-2.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.fourteenth_reading import _recited
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.conformance.mutants.thirteenth_reading import OURPASTIMES_D15
from mtrain.reference import deal as deal_module
from mtrain.reference import engine
from mtrain.reference.engine import FOLLOW, OVER, PIPS, START, Action, State
from mtrain.reference.rules import MARKER_ANYONE_ON, MARKER_OWNER_OWN, Rules

_match_winners = deal_module.match_winners
_open_trains = engine.open_trains


# --- the starting seats ------------------------------------------------------------------


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


# --- a later round's first turns ---------------------------------------------------------


def _chain_doubles_wait_in_round_one(state: State, first_turns_over: bool = False
                                     ) -> list[int]:
    """FIRST-5 kept for round 1 alone: from round 2 on a double left by a first-turn chain
    binds the next player at once, though first turns are still to come."""
    if state.round > 1 and state.rules.chain_first_turn:
        return ref.duties(state, True)
    return ref.duties(state, first_turns_over)


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


def _follow_pass_counts_twice(state: State, action: Action) -> None:
    """Under full-round-of-passes a failed follow-up on an empty boneyard counted twice:
    once as the follow-up's failure, once as the turn's pass."""
    extra = (action.kind == "pass" and state.phase == FOLLOW and not state.boneyard
             and state.rules.passes_end_round)
    ref.perform(state, action)
    if extra and state.phase == START:
        state.passes += 1
        ref.check_blocked(state)


def _passes_reset_at_home_only(state: State, tile: int, train: int) -> None:
    """END-3's count set back only by a play on the player's own train, as MARK-3 takes a
    marker off: a play elsewhere leaves the passes counted (the count stood below the
    players before it, so the play itself ends nothing)."""
    seat, passes = state.seat, state.passes
    ref.play(state, tile, train)
    if train != seat and passes and state.phase != OVER and state.rules.passes_end_round:
        state.passes = passes


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


TWENTY_FIFTH_READING: tuple[Mutant, ...] = (
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
    Mutant("mut25-chain-doubles-wait-in-round-one",
           "A double left by a first-turn chain waits for the first turns to end in round 1 "
           "only: from round 2 on it obliges the next player at once", ("FIRST-5", "DBL-6"),
           "duties swapped: asked as after the first turns in rounds 2 and up",
           patches={"duties": _chain_doubles_wait_in_round_one}),
    Mutant("mut25-first-turn-pass-uncounted",
           "Under full-round-of-passes a first-turn pass (no start, marker up) on an empty "
           "boneyard is not counted", ("END-3", "FIRST-3"),
           "perform swapped: a first turn's pass raises the marker without passes + 1",
           patches={"perform": _first_turn_pass_uncounted}),
    Mutant("mut25-follow-pass-counts-twice",
           "Under full-round-of-passes a player who cannot follow their double on an empty "
           "boneyard is counted two passes", ("END-3", "DBL-5"),
           "perform swapped: passes + 1 again after a follow-up's pass, then END-3 asked",
           patches={"perform": _follow_pass_counts_twice}),
    Mutant("mut25-passes-reset-at-home-only",
           "Under full-round-of-passes the count of passes is set back only by a play on the "
           "player's own train: a play elsewhere leaves it counting", ("END-3",),
           "_play swapped: passes restored after a play off the own train",
           patches={"_play": _passes_reset_at_home_only}),
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
    Mutant("mut25-tile-not-held-cites-train-2",
           "A play of a tile the player does not hold is refused citing TRAIN-2 (no "
           "match), not TURN-7", ("TURN-7",), "_refusals swapped: TURN-7 cited as TRAIN-2 "
           "for a play", patches={"_refusals": _recited("TURN-7", "TRAIN-2", _a_play)}),
    Mutant("mut25-own-train-mexican-cites-train-7",
           "Under own-train-opens-mexican opening the Mexican Train with an empty own train "
           "is refused citing TRAIN-7 (own-train-first), not FIRST-10", ("FIRST-10",),
           "_refusals swapped: FIRST-10 cited as TRAIN-7",
           patches={"_refusals": _recited("FIRST-10", "TRAIN-7")}),
    Mutant("mut25-starter-only-cites-first-10",
           "Under starter-opens-mexican opening the Mexican Train on another player's first "
           "turn is refused citing FIRST-10 (own-train-started), not FIRST-9", ("FIRST-9",),
           "_refusals swapped: FIRST-9 cited as FIRST-10",
           patches={"_refusals": _recited("FIRST-9", "FIRST-10")}),
    Mutant("mut25-own-train-first-cites-first-10",
           "Under own-train-first a play off the own train before it is started is refused "
           "citing FIRST-10 (own-train-started), not TRAIN-7", ("TRAIN-7",),
           "_refusals swapped: TRAIN-7 cited as FIRST-10",
           patches={"_refusals": _recited("TRAIN-7", "FIRST-10")}),
    Mutant("mut25-chain-cover-due-cites-first-12",
           "A first-turn chain ended on a double the player could cover is refused citing "
           "FIRST-12 (no double at the end), not FIRST-4", ("FIRST-4",),
           "_refusals swapped: FIRST-4 cited as FIRST-12",
           patches={"_refusals": _recited("FIRST-4", "FIRST-12")}),
    Mutant("mut25-chain-elsewhere-cites-first-1",
           "A first-turn chain's tile laid off the own train is refused citing FIRST-1 (the "
           "chain), not FIRST-2 (on the own train only)", ("FIRST-2",),
           "_refusals swapped: FIRST-2 cited as FIRST-1",
           patches={"_refusals": _recited("FIRST-2", "FIRST-1")}),
    Mutant("mut25-search-move-cites-turn-2",
           "During the search for an undealt engine an action other than a draw is refused "
           "citing TURN-2 (the draw), not ENG-4", ("ENG-4",),
           "_refusals swapped: ENG-4 cited as TURN-2",
           patches={"_refusals": _recited("ENG-4", "TURN-2")}),
)
"""The twenty-fifth reading: 18 rule bugs, none a mutant of the catalogue (names,
descriptions and what each changes checked against the twenty-four readings before it; the
nearest are other slips: draw-tie-to-lowest-seat drops the run-off,
mut25-draw-won-on-last-drawing reads it against the first drawing;
mut15-starter-only-means-rotation-seat and starter-only-means-seat-0 move FIRST-9's starter
under rotate, mut25-starter-only-means-draw-winner under highest-draw;
mut15-first-turns-round-one-only ends every first turn from round 2,
mut25-chain-doubles-wait-in-round-one only FIRST-5's wait; mut13-follow-pass-uncounted
counts a failed follow-up no time, mut25-follow-pass-counts-twice twice; passes-not-reset
never sets the count back, mut25-passes-reset-at-home-only only after a play off the own
train; mexican-play-lowers-seat-0-marker lowers seat 0's marker under anyone-plays-on,
mut25-mexican-play-lowers-mover-marker the mover's; marked-play-lowers-own-marker and
mut23-mexican-cover-lowers-marker lower the mover's marker for a play on a marked train or a
cover on the Mexican Train, mut25-cover-elsewhere-lowers-marker for a cover on any other
personal train; mut13-d18-dealt-by-d15-table deals double-18 by the double-15 table,
mut25-d16-dealt-by-d15-table double-16).

Written and not kept. Unreachable under any rule set: under heaviest-in-hand the engine
weighed in its placer's hand, and the start read before engine-holder-draws' replacement
(SEAT-6 requires the engine set aside, so no hand holds it and no replacement is drawn);
END-2 forgetting own-train-started (an empty own train and the empty Mexican Train both
end in the engine's number: a tile that would open one opens the other); a round blocked
at the deal left unnoticed (with every tile dealt some hand holds a tile of the engine's
number, which starts a train). Equivalent through the protocol: a train that does not
exist cited as TRAIN-4 and a tile outside the set as TURN-7 (the codec refuses both, with
TRAIN-1 and SET-1, before the engine is asked); END-3's count set back by a draw (with
tiles left to draw the count is 0 already). Not a citation: another player's unmarked
train cited as MARK-1 (MARK-1 is no refusal clause: the refusals' order has no place for
it, so the mutant crashed where it should have cited).

Measured on the corpus before any fixture was added for them (2026-12-06, `mtrain
mutants -m mut25-... --need 2`, 2,926 passing runs): 15 of 18 killed, the fewest killers
0; the three survivors wanted tables the corpus lacked: FIRST-9 in a later round under
highest-draw-start, a chain double in a later round's first turns, a failed follow-up on
an empty boneyard under full-round-of-passes; three more were caught once (the first-turn
pass by end-028, the play off the own train by mutant-002, the cover elsewhere by
marker-020). With the nine fixtures of conformance/fixtures/mutants/
twenty-fifth-reading.yaml, worked by hand, every one is killed by two fixtures or more
(2,943 runs)."""
