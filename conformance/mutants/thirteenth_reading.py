"""Rule bugs of a thirteenth outside reading: written from shared/RULES.md and the clauses
(docs/rules/), clause by clause over the reference engine, where the catalogue (454
mutants) had none: the deal's slices and pool at their edges, the first rows of two
hand-size tables and a double-18 file dealt by the double-15 table, the double-8 and
double-10 sets played as the next published set, the marker put on the wrong train (or
taken off) by a pass, the first-turn flag cleared too soon or kept in a byte, what a
drawn tile may do (in a follow-up, under FIRST-10 and TRAIN-7, after the engine search),
a duty's drawing under draw-until-playable, passes END-3 forgets, who scores what once
the start has moved round the table, the rotating start, what a double asks for, END-2
without the Mexican Train, and ties left after the outs.

Each is one slip an app author makes: a slice one tile late, a range one short, a pass
that marks "the train I was playing on", ^= for |=, a flag cleared on the first action
instead of the turn's end, a rule checked on a tile chosen from the hand but not on a
drawn one, a score sheet kept in playing order, a modulus one short, a follow-up decided
by the train's end rather than the tile, a table of trains read without the Mexican
Train, a strict comparison where a tie is shared.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from mtrain.conformance.adapter import JSON
from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference import deal as deal_module
from mtrain.reference import engine
from mtrain.reference.engine import DRAW, ENGINE, FOLLOW, OVER, PASS, START, Action, State
from mtrain.reference.rules import FOLLOW_RESTRICTED, MARKER_OWNER_ANYWHERE, Rules
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


# --- a second pass over the markers, the follow-up and large tables ----------------------


def _owner_anywhere_cover_keeps(state: State, tile: int, train: int) -> None:
    """MARK-5 missed on the duty's path: under owner-plays-anywhere a marked player who
    covers an open double on another player's train keeps their marker up."""
    seat = state.seat
    up = state.markers >> seat & 1
    covering = train != seat and train in state.open_doubles
    ref.play(state, tile, train)
    if up and covering and state.rules.marker_rule == MARKER_OWNER_ANYWHERE:
        state.markers |= 1 << seat


def _released_forgotten(state: State) -> None:
    """DBL-13 read as "forgotten": a double its layer left uncovered leaves the open
    doubles when the turn ends, as if it had been covered."""
    laid = list(state.turn_doubles)
    ref.end_turn(state)
    if laid and state.rules.release_after_turn and state.phase != OVER:
        state.open_doubles[:] = [t for t in state.open_doubles if t not in laid]


def _pass_toggles_marker(state: State, action: Action) -> None:
    """MARK-1 written with ^= for |=: a pass by a player whose marker is already up takes
    it off."""
    seat = state.seat
    up = state.markers >> seat & 1
    ref.perform(state, action)
    if action.kind == "pass" and up:
        state.markers &= ~(1 << seat)


def _restricted_own_train_open(state: State) -> list[int]:
    """DBL-3 with the own train always among the trains allowed: after several doubles
    the follow-up may go on the own train though it ends in a later open double."""
    found = ref.playable_trains(state)
    seat = state.seat
    if (state.phase == FOLLOW and state.rules.follow == FOLLOW_RESTRICTED
            and seat not in found and seat in state.open_doubles
            and seat in ref.open_trains(state, seat)):
        found = [*found, seat]
    return found


BYTE = 0xFF
"""Eight seats: the first-turn flags kept in a byte."""


def _first_turns_byte_legal(state: State) -> list[Action]:
    """FIRST-6 with the first-turn flags in a byte: seats 8 and up have no first turn."""
    state.first_pending &= BYTE
    return ref.legal_actions(state)


def _first_turns_byte_perform(state: State, action: Action) -> None:
    state.first_pending &= BYTE
    ref.perform(state, action)


OURPASTIMES_D15 = {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 11, 8: 11, 9: 11, 10: 11, 11: 11,
                   12: 11}
"""DEAL-9's table, the largest set's published one."""


def _d18_by_d15_table(rules: Rules) -> Rules:
    """DEAL-11 missed: a double-18 rule set deals by the double-15 table of ourpastimes,
    the largest set with a published one, not by the table its file gives."""
    if rules.max_pip != 18:
        return rules
    table = dict(OURPASTIMES_D15)
    ruleset = dataclasses.replace(rules.ruleset, hand_table=tuple(sorted(table.items())))
    return dataclasses.replace(rules, ruleset=ruleset, hand_table=table)


def _most_outs_against_first(state: State) -> list[int]:
    """MATCH-5 compared with the first tied seat's outs: every tied player with at least
    as many outs as the lowest tied seat wins."""
    rules = state.rules
    if not rules.tie_most_outs:
        return deal_module.match_winners(state)
    best = max(state.scores) if rules.positive_scoring else min(state.scores)
    tied = [s for s, v in enumerate(state.scores) if v == best]
    return [s for s in tied if state.outs[s] >= state.outs[tied[0]]]


def _follow_pass_uncounted(state: State, action: Action) -> None:
    """END-3 counting only the passes of an ordinary turn: a player who cannot follow
    their double on an empty boneyard passes, and the pass is not counted."""
    if action.kind == "pass" and state.phase == FOLLOW and not state.boneyard:
        state.passes -= 1  # (perform counts it back: the count is left as it was)
    ref.perform(state, action)


def _duty_pass_uncounted(state: State, action: Action) -> None:
    """END-3 reading a pass under a duty as the duty moving on, not a pass: a player who
    cannot cover an open double on an empty boneyard passes uncounted."""
    if (action.kind == "pass" and state.phase == START and not state.boneyard
            and state.open_doubles and ref.duties(state)):
        state.passes -= 1  # (perform counts it back)
    ref.perform(state, action)


def _search_draw_kept(state: State) -> None:
    """ENG-4's search drawn with the turn's draw: the tile that finds the engine stays the
    drawn tile (TURN-3), so the round's first mover may lay only a tile gone to the centre."""
    searching = state.phase == ENGINE
    tile = state.boneyard[0] if state.boneyard else -1
    ref.draw(state)
    if searching and state.phase == START and tile >= 0:
        state.drawn = tile


def _drawn_tile_opens_mexican(state: State) -> list[int]:
    """FIRST-10 checked on a chosen tile only: a drawn tile may open the Mexican Train
    though the drawer's own train is still empty."""
    found = ref.playable_trains(state)
    mex, seat = state.players, state.seat
    rules = state.rules
    if (state.drawn >= 0 and state.phase == START and mex not in found
            and not state.trains[mex] and not state.trains[seat] and rules.own_train_mexican
            and not rules.own_train_first and not (state.open_doubles and ref.duties(state))):
        found = [*found, mex]
    return found


def _drawn_tile_skips_own_first(state: State) -> list[int]:
    """TRAIN-7 checked on a chosen tile only: a drawn tile may go on the Mexican Train
    though the drawer has not started their own train."""
    found = ref.playable_trains(state)
    mex, seat = state.players, state.seat
    if (state.drawn >= 0 and state.phase == START and found == [seat]
            and not state.trains[seat] and state.rules.own_train_first):
        found = [seat, mex]
    return found


def _restricted_drawn_anywhere(state: State) -> list[int]:
    """DBL-3 checked on a chosen tile only: a tile drawn after failing to follow a double
    may go on any train open in an ordinary turn, a later open double's too."""
    found = ref.playable_trains(state)
    if (state.phase != FOLLOW or state.drawn < 0
            or state.rules.follow != FOLLOW_RESTRICTED):
        return found
    extra = [t for t in ref.open_trains(state, state.seat) if t not in found]
    return found + extra


PUBLISHED_SETS = (6, 9, 12, 15, 18)
"""The sets a rule book describes the game on: an engine written for them alone."""


def _set_rounded_up(rules: Rules) -> Rules:
    """SET-7 and SET-8 unknown to the engine: a double-8 or double-10 set is played as the
    next set a rule book names, double-9 or double-12 (its tiles, numbers and engines)."""
    if rules.max_pip in PUBLISHED_SETS:
        return rules
    top = min(n for n in PUBLISHED_SETS if n > rules.max_pip)
    mask = T.set_mask(top)
    return dataclasses.replace(rules, max_pip=top, set_mask=mask,
                               number_mask=tuple(m & mask for m in T.NUMBER_MASK))


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
    # a second pass: markers, the follow-up, large tables
    Mutant("mut13-owner-anywhere-cover-keeps-marker",
           "Under owner-plays-anywhere a marked player who covers an open double on "
           "another player's train keeps their marker up", ("MARK-5", "DBL-6", "TRAIN-6"),
           "_play swapped: the mover's marker put back after a cover elsewhere",
           patches={"_play": _owner_anywhere_cover_keeps}),
    Mutant("mut13-released-double-forgotten",
           "Under released-after-layers-turn a double its layer left uncovered is dropped "
           "from the open doubles when the turn ends", ("DBL-13", "TRAIN-3", "TRAIN-6"),
           "_end_turn swapped: the turn's doubles taken out of the open doubles",
           patches={"_end_turn": _released_forgotten}),
    Mutant("mut13-pass-toggles-marker",
           "A pass by a player whose marker is already up takes it off",
           ("MARK-1", "TURN-4"), "perform swapped: the passer's marker flipped, not raised",
           patches={"perform": _pass_toggles_marker}),
    Mutant("mut13-restricted-follow-own-train-open",
           "Under the restricted follow-up the own train is always allowed, even when it "
           "ends in an open double that is not the turn's first", ("DBL-3", "TRAIN-4"),
           "playable_trains swapped: the own train added in a restricted follow-up",
           patches={"playable_trains": _restricted_own_train_open}),
    Mutant("mut13-first-turns-in-a-byte",
           "The first-turn flags are kept in eight bits: seats 8 and up never have a first "
           "turn", ("FIRST-6", "FIRST-1", "FIRST-2", "FIRST-9"),
           "legal_actions and perform swapped: the first-turn flags masked to a byte",
           patches={"legal_actions": _first_turns_byte_legal,
                    "perform": _first_turns_byte_perform}),
    Mutant("mut13-set-rounded-up",
           "A double-8 or double-10 set is played as the next set a rule book names, "
           "double-9 or double-12: its tiles, numbers and engines",
           ("SET-7", "SET-8", "SET-1", "ENG-1"),
           "Rules.max_pip, set_mask and number_mask of the next published set",
           rules=_set_rounded_up),
    Mutant("mut13-d18-dealt-by-d15-table",
           "A double-18 rule set deals by the double-15 table of ourpastimes, not by the "
           "table its file gives", ("DEAL-11", "DEAL-9", "DEAL-1"),
           "Rules.hand_table replaced by DEAL-9's under double-18",
           rules=_d18_by_d15_table),
    Mutant("mut13-most-outs-against-first-tied",
           "Under tie-most-outs every tied player with at least as many outs as the lowest "
           "tied seat wins", ("MATCH-5",),
           "winners swapped: the outs compared with the first tied seat's",
           winners=_most_outs_against_first),
    Mutant("mut13-follow-pass-uncounted",
           "Under full-round-of-passes a pass by a player who cannot follow their double on "
           "an empty boneyard is not counted", ("END-3", "DBL-5"),
           "perform swapped: the pass count left as it was after a follow-up's pass",
           patches={"perform": _follow_pass_uncounted}),
    Mutant("mut13-duty-pass-uncounted",
           "Under full-round-of-passes a pass by a player who cannot cover an open double "
           "on an empty boneyard is not counted", ("END-3", "DBL-6"),
           "perform swapped: the pass count left as it was after a pass under a duty",
           patches={"perform": _duty_pass_uncounted}),
    Mutant("mut13-search-draw-kept-as-drawn",
           "The draw that finds a missing engine is left as the turn's drawn tile: the "
           "round's first mover may lay only it, and it is in the centre", ("ENG-4", "ENG-6",
                                                                             "TURN-3"),
           "_draw swapped: drawn set to the engine once the search places it",
           patches={"_draw": _search_draw_kept}),
    Mutant("mut13-drawn-tile-opens-mexican",
           "Under own-train-opens-mexican a drawn tile may open the Mexican Train though "
           "the drawer's own train is empty", ("FIRST-10", "TURN-3"),
           "playable_trains swapped: the empty Mexican Train added after a draw",
           patches={"playable_trains": _drawn_tile_opens_mexican}),
    Mutant("mut13-drawn-tile-skips-own-train-first",
           "Under own-train-first a drawn tile may go on the Mexican Train though the "
           "drawer has not started their own train", ("TRAIN-7", "TURN-3"),
           "playable_trains swapped: the Mexican Train added after a draw",
           patches={"playable_trains": _drawn_tile_skips_own_first}),
    Mutant("mut13-restricted-follow-drawn-anywhere",
           "Under the restricted follow-up a tile drawn after failing to follow may go on "
           "any train open in an ordinary turn, one ending in a later open double too",
           ("DBL-3", "DBL-5", "TURN-3"),
           "playable_trains swapped: the ordinary turn's trains added for a drawn follow-up",
           patches={"playable_trains": _restricted_drawn_anywhere}),
)
"""The thirteenth reading: 30 rule bugs, none a mutant of the catalogue (names and
descriptions checked against the twelve readings before it). Two written and dropped as
equivalent to the reference: the engine weighed among its holder's tiles under
heaviest-in-hand (SEAT-6 requires set-aside, so no hand ever holds it), and END-2's walk
through the passes to come one seat short (its last seat is the one that just moved,
whose step asks what can_ever_play already asked).

Measured on the corpus before any fixture was added for them (2026-12-05, `mtrain mutants
-m NAME ... -j 2`, 2,175 to 2,187 passing runs): 28 killed, two survived
(mut13-duty-draws-once: no fixture draws twice under a duty with draw-until-playable;
mut13-drawn-tile-opens-mexican: no fixture draws a tile that would open the Mexican Train
under own-train-opens-mexican), and three had one killer alone
(mut13-blocked-ignores-mexican: doubles-064; mut13-first-turn-cleared-early: firstsix-008;
mut13-owner-anywhere-cover-keeps-marker: marker-020). With the fixtures worked by hand
from the clauses (doubles/duty-draw-thirteenth-reading.yaml duty13-001 to -003,
round-end/mexican-thirteenth-reading.yaml block13-001, -002 on the double-6 file,
first-turn/starter-mexican-thirteenth-reading.yaml first13-001, -002,
markers/owner-anywhere-thirteenth-reading.yaml mark13-001, -002,
first-turn/own-train-mexican-thirteenth-reading.yaml open13-001, -002) every one is killed
by two fixtures or more (2,189 runs); the whole catalogue, 484 mutants, by two or more.
Blame charges 23 of the 30 to a clause they break; the seven charged elsewhere: a
pool or a set the deal refuses (no failure to charge), a match whose winners the
harness reads under MATCH-1, and four whose failures show at a turn's end (TURN-6,
TURN-4) or at a follow-up's clause (DBL-2, DBL-4) rather than at the rule they break."""
