"""Rule bugs of a thirteenth outside reading: written from shared/RULES.md and the clauses
(docs/rules/), clause by clause over the reference engine, where the catalogue (454
mutants) had none: the deal's slices and pool at their edges, the first rows of two
hand-size tables, the marker put on the wrong train by a pass that ends a follow-up or a
duty, the first-turn flag cleared too soon, what a drawn tile may do in a follow-up, who
scores what when the start has moved round the table, the starter under the rotating
start, what a double asks for, END-2's test and a tie left after the outs.

Each is one slip an app author makes: a slice one tile late, a range one short, a pass
that marks "the train I was playing on", a flag cleared on the first action instead of
the turn's end, a drawn-tile limit kept after the tile is laid, a score sheet kept in
playing order, a modulus one short, a follow-up decided by the train's end rather than
the tile, a table of trains read without the Mexican Train.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from mtrain.conformance.adapter import JSON
from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference import deal as deal_module
from mtrain.reference import engine
from mtrain.reference.engine import DRAW, FOLLOW, PASS, START, Action, State
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T

_deal_pool = deal_module.deal_pool


# --- the deal ------------------------------------------------------------------------------


def _pool_one_short(rules: Rules, round_no: int) -> list[int]:
    """SET-1 with range(size - 1): the set's last tile, [N-N], never reaches the pool."""
    pool = _deal_pool(rules, round_no)
    top = T.DOUBLE[rules.max_pip]
    return [t for t in pool if t != top]


def _boneyard_one_late(state: JSON, rules: Rules) -> JSON:
    """DEAL-1 with the boneyard sliced from players * hand + 1: the first undealt tile is
    lost."""
    boneyard = state.get("boneyard")
    if state.get("phase") == "over" or not boneyard:
        return state
    return {**state, "boneyard": boneyard[1:]}


def _table_row(name: str, players: int, size: int) -> Any:
    def hook(rules: Rules) -> Rules:
        if rules.ruleset["hand_sizes"] != name:
            return rules
        table = {**dict(rules.ruleset.hand_table), players: size}
        ruleset = dataclasses.replace(rules.ruleset, hand_table=tuple(sorted(table.items())))
        return dataclasses.replace(rules, ruleset=ruleset, hand_table=table)
    return hook


# --- a pass marks the wrong train ----------------------------------------------------------


def _follow_fail_marks_double(state: State, action: Action) -> None:
    """DBL-5's pass puts the marker on the train of the double the player failed to
    follow, not on their own."""
    seat = state.seat
    laid = state.turn_doubles[-1] if state.turn_doubles else seat
    was_up = state.markers >> seat & 1
    failing = action.kind == "pass" and state.phase == FOLLOW and laid != seat
    ref.perform(state, action)
    if failing:
        if not was_up:
            state.markers &= ~(1 << seat)
        if laid < state.players:
            state.markers |= 1 << laid


def _duty_fail_marks_double(state: State, action: Action) -> None:
    """DBL-6's pass puts the marker on the train of the double the player failed to
    cover, not on their own."""
    seat = state.seat
    due = ref.duties(state) if action.kind == "pass" and state.phase == START else []
    target = due[0] if due else seat
    was_up = state.markers >> seat & 1
    ref.perform(state, action)
    if target != seat:
        if not was_up:
            state.markers &= ~(1 << seat)
        if target < state.players:
            state.markers |= 1 << target


# --- the first turn, the drawn tile, the follow-up -----------------------------------------


def _first_turn_cleared_early(state: State, action: Action) -> None:
    """FIRST-6's flag cleared on the player's first action, not at the end of their turn:
    after a draw or a double the rest of a single-tile first turn is an ordinary one."""
    seat, ordinary = state.seat, state.phase in (START, FOLLOW)
    ref.perform(state, action)
    if (ordinary and state.seat == seat and state.phase in (START, FOLLOW)
            and state.first_pending >> seat & 1):
        state.first_pending &= ~(1 << seat)


def _follow_draw_must_cover(state: State) -> list[Action]:
    """DBL-5 read as "draws for a cover": a tile drawn after failing to follow a double
    may only cover a double laid this turn."""
    found = ref.plays(state)
    if state.phase != FOLLOW or state.drawn < 0:
        return found
    laid = state.turn_doubles
    return [a for a in found if a.train in laid]


def _drawn_limit_outlives(state: State, tile: int, train: int) -> None:
    """TURN-3's limit kept after the drawn tile is laid: a drawn double's follow-up may
    only be the drawn tile again, which is gone, so the player passes."""
    seat, drawn = state.seat, state.drawn
    ref.play(state, tile, train)
    if drawn == tile and state.phase == FOLLOW and state.seat == seat:
        state.drawn = drawn


def _duty_draws_once(state: State) -> list[Action]:
    """TURN-5 forgotten under a duty: a player bound to cover an open double draws once
    and passes, though the rule is to draw until a tile can be played."""
    found = ref.legal_actions(state)
    if (found == [DRAW] and state.drawn >= 0 and state.phase == START
            and state.open_doubles and ref.duties(state)):
        return [PASS]
    return found


def _cover_asks_follow_up(state: State, tile: int, train: int) -> None:
    """DBL-1 decided by the train's end before the play: a tile laid against an open
    double is taken for a double, and the player must play again."""
    covering = (train in state.open_doubles and not T.IS_DOUBLE[tile]
                and state.phase in (START, FOLLOW))
    if not covering:
        ref.play(state, tile, train)
        return

    def hold(st: State) -> None:
        st.phase = FOLLOW  # (the seat keeps the turn)
        st.turn_doubles.append(train)

    saved = engine._end_turn
    setattr(engine, "_end_turn", hold)  # noqa: B010 (a module function swapped for a call)
    try:
        ref.play(state, tile, train)
    finally:
        setattr(engine, "_end_turn", saved)  # noqa: B010


def _double_elsewhere_ends_turn(state: State, tile: int, train: int) -> None:
    """DBL-1 applied to the own train alone: a double laid on the Mexican Train or on a
    marked train ends the turn, left open."""
    seat = state.seat
    ref.play(state, tile, train)
    if (train != seat and T.IS_DOUBLE[tile] and state.phase == FOLLOW
            and state.seat == seat):
        ref.end_turn(state)


# --- the score sheet, the starter, the end of the round ----------------------------------


def _scores_in_playing_order(state: State, end: str, winner: int) -> None:
    """SCORE-5 and MATCH-1 with the score sheet kept in playing order: the round's first
    column is the starter's, added to seat 0's total."""
    before = list(state.scores)
    ref.finish(state, end, winner)
    result = state.result
    n, first = state.players, state.starter
    if result is None or first % n == 0:
        return
    scores = tuple(result.scores[(first + i) % n] for i in range(n))
    state.scores = [before[s] + scores[s] for s in range(n)]
    state.result = type(result)(result.end, result.winner, scores)


def _rotate_one_short(state: State, holder: int) -> None:
    """SEAT-3 with (r - 1) mod (n - 1): the rotating start never reaches the last seat."""
    ref.place_engine(state, holder)
    rules = state.rules
    if (rules.engine_holder_starts or rules.after_engine_starts or rules.highest_draw_starts
            or rules.heaviest_tile_starts or state.players < 2):
        return
    state.seat = state.starter = (state.round - 1) % (state.players - 1)


def _most_outs_strict(state: State) -> list[int]:
    """MATCH-5 written with a strict "more outs than the others": when the tied players
    are equal on outs too, nobody wins instead of all of them."""
    tied = deal_module.match_winners(state)
    if len(tied) < 2 or not state.rules.tie_most_outs:
        return tied
    return []


def _blocked_without_mexican(state: State, seat: int) -> bool:
    """END-2 read as "every personal train marked": the Mexican Train is left out of
    whether a seat could ever play again."""
    trains = (state.open_doubles and ref.duties(state, True)) or ref.open_trains(
        state, seat, True, True)
    hand = state.hands[seat]
    mask = state.rules.number_mask
    return any(t != state.players and hand & mask[state.ends[t]] for t in trains)


THIRTEENTH_READING: tuple[Mutant, ...] = (
    # the deal
    Mutant("mut13-pool-drops-top-double",
           "The tiles to deal are ids 0 to size - 2: the set's [N-N] is never dealt",
           ("SET-1", "DEAL-1", "ENG-1"),
           "deal_pool swapped: [N-N] left out of every pool",
           patches={"deal_pool": _pool_one_short}),
    Mutant("mut13-boneyard-one-late",
           "The boneyard is sliced one tile past the hands: the first undealt tile is lost",
           ("DEAL-1", "TURN-2"), "deal output with the boneyard's first tile dropped",
           post_deal=_boneyard_one_late),
    Mutant("mut13-d15-five-take-15",
           "The double-15 table of ourpastimes gives 5 players 15 tiles: its first row read "
           "as 2 to 5", ("DEAL-9",), "Rules.hand_table with 5 -> 15 under ourpastimes-d15",
           rules=_table_row("ourpastimes-d15", 5, 15)),
    Mutant("mut13-pagat-four-take-12",
           "pagat's table gives 4 players 12 tiles: its first row read as 2 and 3",
           ("DEAL-2",), "Rules.hand_table with 4 -> 12 under pagat",
           rules=_table_row("pagat", 4, 12)),
    # a pass marks the wrong train
    Mutant("mut13-follow-fail-marks-double-train",
           "A player who cannot follow a double laid on another train passes with the "
           "marker on that train, not their own", ("DBL-5", "MARK-1", "TURN-4"),
           "perform swapped: a follow-up's pass marks the turn's last double's train",
           patches={"perform": _follow_fail_marks_double}),
    Mutant("mut13-duty-fail-marks-double-train",
           "A player who cannot cover an open double on another train passes with the "
           "marker on that train, not their own", ("DBL-6", "MARK-1", "TURN-4"),
           "perform swapped: a pass under a duty marks the first duty's train",
           patches={"perform": _duty_fail_marks_double}),
    # the first turn, the drawn tile, the follow-up
    Mutant("mut13-first-turn-cleared-early",
           "A first turn ends with the player's first action: after a draw or a double the "
           "rest of a single-tile first turn is an ordinary turn", ("FIRST-6", "FIRST-9"),
           "perform swapped: the first-turn flag cleared when the turn goes on",
           patches={"perform": _first_turn_cleared_early}),
    Mutant("mut13-follow-draw-must-cover",
           "A tile drawn after failing to follow a double may only cover a double of the "
           "turn, not go wherever it is legal", ("DBL-5", "DBL-2", "DBL-3", "TURN-3"),
           "plays swapped: a follow-up's drawn tile kept to the turn's doubles",
           patches={"plays": _follow_draw_must_cover}),
    Mutant("mut13-drawn-limit-outlives-double",
           "After a drawn double is laid the drawn-tile limit stays: its follow-up may only "
           "be the tile just laid, so the player passes", ("TURN-3", "DBL-1", "DBL-5"),
           "_play swapped: drawn kept after a drawn double",
           patches={"_play": _drawn_limit_outlives}),
    Mutant("mut13-duty-draws-once",
           "Under draw-until-playable a player bound to cover an open double draws once "
           "and passes", ("TURN-5", "DBL-6"),
           "legal_actions swapped: pass after one draw under a duty",
           patches={"legal_actions": _duty_draws_once}),
    Mutant("mut13-cover-asks-follow-up",
           "A tile that covers an open double is taken for a double: its player must play "
           "again", ("DBL-1", "TRAIN-3", "TURN-6"),
           "_play swapped: a cover keeps the turn with a follow-up asked",
           patches={"_play": _cover_asks_follow_up}),
    Mutant("mut13-double-elsewhere-ends-turn",
           "A double laid on the Mexican Train or another player's marked train ends the "
           "turn, left open: only a double on the own train asks for another tile",
           ("DBL-1", "TURN-6"), "_play swapped: the turn ended after a double off the own "
           "train", patches={"_play": _double_elsewhere_ends_turn}),
    # the score sheet, the starter, the end of the round
    Mutant("mut13-scores-in-playing-order",
           "A round's score sheet is written in playing order from the starter: once the "
           "start has moved, each score goes to the wrong seat", ("SCORE-5", "SCORE-6",
                                                                  "MATCH-1"),
           "_finish swapped: the round's scores rotated by the starter",
           patches={"_finish": _scores_in_playing_order}),
    Mutant("mut13-rotate-start-one-short",
           "Under the rotating start round r starts at seat (r - 1) mod (n - 1): the last "
           "seat never starts", ("SEAT-3",),
           "_place_engine swapped: the rotation taken modulo n - 1",
           patches={"_place_engine": _rotate_one_short}),
    Mutant("mut13-most-outs-equal-nobody-wins",
           "Under tie-most-outs players tied on the total and on outs too all lose: the "
           "tie is not shared", ("MATCH-5", "MATCH-4"),
           "winners swapped: an empty list where the outs leave a tie",
           winners=_most_outs_strict),
    Mutant("mut13-blocked-ignores-mexican",
           "END-2 asks whether a seat could play on the personal trains alone: a seat whose "
           "only play is on the Mexican Train counts as stuck", ("END-2", "MARK-2"),
           "can_ever_play swapped: the Mexican Train left out",
           patches={"can_ever_play": _blocked_without_mexican}),
)
"""The thirteenth reading: 16 rule bugs, none a mutant of the catalogue (names and
descriptions checked against the twelve readings before it)."""
