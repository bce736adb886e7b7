"""Rule bugs of a seventh outside reading: written from shared/RULES.md, the clauses
(docs/rules/) and the option values (docs/variants.md), then checked against the
catalogue's names and descriptions so that none repeats an earlier mutant. The reading
aimed at what the house engines exercise and earlier readings left alone: the hand
tables' untouched rows (2 players, the largest count of a table of one's own), a
single-tile first turn without a start, the draw (which tile, where it may go), the
marker a pass puts up, SCORE-2's [0-0] and SCORE-7's ties, SCORE-7's zero read as an out
by MATCH-5, the match totals, END-2 and END-3 beside a pass and a first-turn chain, and
who has a first turn.

Set aside on reading, before the mutants were counted, each for the reason given:
- The empty Mexican Train opened from [N-N] in every round: the codec rebuilds every open
  end from the engine and the tiles, so no hook can keep a stale end between two calls.
- SEAT-5's run-off drawn by every seat: a draw lists only the tied seats' run-offs, so the
  bug is a refusal of every valid draw, not a rule read another way.
- SCORE-6 with the winner's own hand counted: it is empty, so the sum is the same.
- SEAT-6 read before a dealt engine leaves its holder's hand (heaviest-counts-the-engine):
  built, measured (no fixture killed it) and dropped as equivalent. SEAT-6 requires
  ENG-2's set-aside engine (heaviest-in-hand-start refuses any other engine_procedure),
  so no hand ever holds the engine when the hands are weighed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.conformance.mutants.outside import table_named, table_rows_changed
from mtrain.reference.engine import BLOCKED, DRAW, ENGINE, PASS, START, Action, State
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T

# --- hand tables: rows no earlier reading touched -----------------------------------------


def _own_table_top_row_dropped(rules: Rules) -> Rules:
    """DEAL-11, DEAL-7: a table of one's own read with range(lowest, highest), so its
    largest player count has no row."""
    if rules.ruleset["hand_sizes"] != "custom":
        return rules
    top = max(n for n, _ in rules.ruleset.hand_table)
    return table_rows_changed(lambda r: True, {top: None})(rules)


# --- scoring ---------------------------------------------------------------------------


def _double_blank_once(rules: Rules) -> Rules:
    """SCORE-2 read per tile bearing a blank: [0-0] counts 25 once, not per end."""
    if rules.ruleset["blank_values"] != "blank-25":
        return rules
    value = list(rules.value)
    value[T.tile_id(0, 0)] = 25
    return dataclasses.replace(rules, value=tuple(value))


def _tie_scores_nobody(state: State, values: Sequence[int]) -> list[int]:
    """SCORE-7's zero kept for a single lowest hand: tied hands all score as SCORE-5 says."""
    out = ref.lowest_hands(state, values)
    return out if len(out) == 1 else []


def _blocked_zero_is_an_out(state: State, end: str, winner: int) -> None:
    """SCORE-7's zero counted by MATCH-5 as a round gone out."""
    rules = state.rules
    low: list[int] = []
    if winner < 0 and rules.blocked_low_wins and not rules.positive_scoring:
        low = ref.lowest_hands(state, [ref.hand_value(state, s) for s in range(state.players)])
    ref.finish(state, end, winner)
    for s in low:
        state.outs[s] += 1


def _totals_overwritten(state: State, end: str, winner: int) -> None:
    """MATCH-1's running total kept as the last round's scores: each round replaces it."""
    ref.finish(state, end, winner)
    if state.result is not None:
        state.scores[:] = list(state.result.scores)


# --- the round's end --------------------------------------------------------------------


def _blocked_pass_with_tiles_left(state: State, action: Action) -> None:
    """END-2 tested on a pass without 'the boneyard is empty': after a pass (a drawn tile
    that could not be played), a table nobody can play on ends the round, even while the
    boneyard holds tiles."""
    ref.perform(state, action)
    rules = state.rules
    if (action.kind == "pass" and state.boneyard and state.phase == START
            and not rules.passes_end_round and ref.nobody_can_ever_play(state)):
        ref.finish(state, BLOCKED, -1)


def _end_chain_counts_as_pass(state: State, action: Action) -> None:
    """END-3 counting an ended first-turn chain as a pass on an empty boneyard."""
    if action.kind == "end-chain" and not state.boneyard and state.rules.passes_end_round:
        state.passes += 1
    ref.perform(state, action)


# --- first turns ------------------------------------------------------------------------


def _first_turn_starter_only(state: State, holder: int) -> None:
    """FIRST-6 read as the round's first turn: only the starting player has one."""
    ref.place_engine(state, holder)
    if state.phase == START and state.first_pending:
        state.first_pending = 1 << state.seat


# --- the turn: a pass's marker, the draw ------------------------------------------------


def _pass_marks_next(state: State, action: Action) -> None:
    """MARK-1's marker put up after the seat has moved on: on the next player's train."""
    if action.kind != "pass":
        ref.perform(state, action)
        return
    seat, before = state.seat, state.marked(state.seat)
    ref.perform(state, action)
    state.set_marker(seat, before)
    state.set_marker((seat + 1) % state.players, True)


def _draw_from_end(state: State) -> None:
    """TURN-2's draw taken from the boneyard's far end; the engine's search as DEAL-1 says."""
    if state.phase == ENGINE:
        ref.draw(state)
        return
    tile = state.boneyard.pop()
    state.hands[state.seat] |= T.BIT[tile]
    state.drawn = tile


def _drawn_own_train_only(state: State) -> list[int]:
    """TURN-3's drawn tile allowed on the player's own train alone."""
    out = ref.playable_trains(state)
    if state.drawn >= 0:
        return [t for t in out if t == state.seat]
    return out


def _single_first_marks_at_once(state: State) -> list[Action]:
    """FIRST-3's 'marker without drawing' applied to a single-tile first turn too."""
    out = ref.legal_actions(state)
    if (out == [DRAW] and state.phase == START and not state.rules.chain_first_turn
            and state.first_pending >> state.seat & 1 and state.drawn < 0):
        return [PASS]
    return out


SEVENTH_READING: tuple[Mutant, ...] = (
    # hand tables: untouched rows, 2 players and a table's largest count
    Mutant("pagat-two-take-16",
           "pagat's table gives 2 players puremco's 16 tiles, not 15", ("DEAL-2",),
           "Rules.ruleset.hand_table 2 -> 16 under pagat",
           rules=table_rows_changed(table_named("pagat"), {2: 16})),
    Mutant("pagat-eight-take-9",
           "pagat's table gives 8 players puremco's 9 tiles, not 10", ("DEAL-2",),
           "Rules.ruleset.hand_table 8 -> 9 under pagat",
           rules=table_rows_changed(table_named("pagat"), {8: 9})),
    Mutant("puremco-two-take-15",
           "puremco's double-12 table gives 2 players pagat's 15 tiles, not 16", ("DEAL-3",),
           "Rules.ruleset.hand_table 2 -> 15 under puremco-d12",
           rules=table_rows_changed(table_named("puremco-d12"), {2: 15})),
    Mutant("puremco-five-take-12",
           "puremco's double-12 table gives 5 players pagat's 12 tiles, not 14", ("DEAL-3",),
           "Rules.ruleset.hand_table 5 -> 12 under puremco-d12",
           rules=table_rows_changed(table_named("puremco-d12"), {5: 12})),
    Mutant("puremco-seven-take-9",
           "puremco's double-12 table gives 7 players the 9 tiles of 8, not 10", ("DEAL-3",),
           "Rules.ruleset.hand_table 7 -> 9 under puremco-d12",
           rules=table_rows_changed(table_named("puremco-d12"), {7: 9})),
    Mutant("puremco-d9-four-take-9",
           "puremco's double-9 table gives 4 players Celko's 9 tiles, not 10", ("DEAL-4",),
           "Rules.ruleset.hand_table 4 -> 9 under puremco-d9",
           rules=table_rows_changed(table_named("puremco-d9"), {4: 9})),
    Mutant("celko-d9-six-take-6",
           "Celko's double-9 table gives 6 players the 6 tiles of 8, not 7", ("DEAL-13",),
           "Rules.ruleset.hand_table 6 -> 6 under celko-d9",
           rules=table_rows_changed(table_named("celko-d9"), {6: 6})),
    Mutant("goodsam-six-take-11",
           "The Good Sam table gives 6 players the 11 tiles of 7, not 12", ("DEAL-15",),
           "Rules.ruleset.hand_table 6 -> 11 under goodsam",
           rules=table_rows_changed(table_named("goodsam"), {6: 11})),
    Mutant("own-table-top-row-refused",
           "A table of one's own is read up to its largest player count exclusive: a game "
           "with that many players is refused", ("DEAL-11", "DEAL-7"),
           "Rules.ruleset.hand_table: the largest row left out under custom",
           rules=_own_table_top_row_dropped),
    # scoring
    Mutant("blank-25-double-blank-once",
           "Under blank-25 a tile bearing a blank adds 25 once: [0-0] is worth 25, not 50",
           ("SCORE-2",), "Rules.value [0-0] -> 25 under blank-25", rules=_double_blank_once),
    Mutant("blocked-winner-tie-scores-nobody",
           "Under blocked-winner hands equal on tiles and value all score as SCORE-5 says: "
           "only a single lowest hand scores 0", ("SCORE-7",),
           "lowest_hands swapped: [] when more than one seat ties",
           patches={"lowest_hands": _tie_scores_nobody}),
    Mutant("blocked-winner-counts-as-out",
           "Under blocked-winner the hand that scores 0 in a blocked round is counted as a "
           "round gone out", ("MATCH-5", "SCORE-7"),
           "_finish swapped: outs + 1 for SCORE-7's lowest hands",
           patches={"_finish": _blocked_zero_is_an_out}),
    Mutant("totals-overwritten-each-round",
           "Each round's scores replace the match totals instead of being added to them",
           ("MATCH-1",), "_finish swapped: scores set to the round's scores",
           patches={"_finish": _totals_overwritten}),
    # the round's end, first turns
    Mutant("blocked-on-pass-with-tiles-left",
           "Under nobody-can-play a pass ends the round blocked when nobody can play, even "
           "with tiles left in the boneyard", ("END-2",),
           "perform swapped: END-2's test made after a pass whatever the boneyard holds",
           patches={"perform": _blocked_pass_with_tiles_left}),
    Mutant("end-chain-counts-as-pass",
           "Under full-round-of-passes an ended first-turn chain counts as a pass when the "
           "boneyard is empty", ("END-3", "FIRST-1"),
           "perform swapped: passes + 1 on end-chain with the boneyard empty",
           patches={"perform": _end_chain_counts_as_pass}),
    Mutant("first-turn-starter-only",
           "Only the starting player has a first turn: every other player's first turn is an "
           "ordinary one", ("FIRST-6", "FIRST-1", "FIRST-7"),
           "_place_engine swapped: first_pending the starter's bit alone",
           patches={"_place_engine": _first_turn_starter_only}),
    # the turn
    Mutant("pass-marks-next-train",
           "A pass puts the marker on the next player's train, not the passer's own",
           ("MARK-1", "TURN-4"), "perform swapped: the marker of seat + 1 raised on a pass",
           patches={"perform": _pass_marks_next}),
    Mutant("draw-from-boneyard-end",
           "A turn's draw takes the boneyard's last tile, not its first", ("TURN-2", "DEAL-1"),
           "_draw swapped: boneyard.pop() outside the engine's search",
           patches={"_draw": _draw_from_end}),
    Mutant("drawn-tile-own-train-only",
           "A drawn tile may go only on the player's own train, not anywhere it is legal",
           ("TURN-3",), "playable_trains swapped: [seat] alone while a drawn tile waits",
           patches={"playable_trains": _drawn_own_train_only}),
    Mutant("single-start-stuck-marks-at-once",
           "On a single-tile first turn a player with no tile to lay puts up their marker "
           "without drawing, as on a pagat chain", ("FIRST-7", "TURN-2", "FIRST-3"),
           "legal_actions swapped: [draw] becomes [pass] on a single-tile first turn",
           patches={"legal_actions": _single_first_marks_at_once}),
)
"""The seventh reading: 20 rule bugs kept, none a mutant of the catalogue, and a 21st,
heaviest-counts-the-engine, dropped as equivalent (above).

Measured on the corpus before any fixture was added for them (2026-12-04, `mtrain mutants
-m NAME ... --need 2 -j 2`, 2,053 passing runs): all 20 killed, each by two hand-written
fixtures or more; the thinnest by exactly two (celko-d9-six-take-6 and goodsam-six-take-11
by rows-003 and rows-004, blocked-winner-tie-scores-nobody by score-021 and lowhand-003).
With conformance/fixtures/{deal/rows,scoring/lowest-hand}-seventh-reading.yaml each of
those three has a third. Blame charges all 20 to a clause they break."""
