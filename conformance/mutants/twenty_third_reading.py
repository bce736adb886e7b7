"""Rule bugs of a twenty-third reading, written where house-rule engines keep code of
their own: the marker across a draw and a pass, doubles laid on the Mexican Train, a
double as a player's last tile, the boneyard a large table leaves nearly empty, the
engines of later rounds on sets whose top double is odd, the match's winner at its last
round, and the turn order after a player fails to follow a double.

The marker: a pass after a drawn tile fails flips the marker rather than raising it
(TURN-4, MARK-1: a marked player who draws in vain takes it down). The Mexican Train's
doubles: one laid there not kept among the turn's doubles (the follow-up is asked as a
duty of an earlier turn), or filed under the layer's own train (DBL-1 to DBL-4). A last
tile that is a double: listed open under ordinary doubles (DBL-11), or left among the
turn's doubles once the round is over (END-1). The boneyard: nobody draws once it holds
fewer tiles than there are players (TURN-2), and ENG-5's replacement skipped on such a
deal. Odd top doubles: the later rounds count down from the even double below it
(ENG-1). The match's end: winners read off the totals before the last round's scores
(MATCH-1, MATCH-2), most outs read before the totals (MATCH-5), the last round's out
counted twice in the tie (MATCH-5). First turns spent by a draw (FIRST-6, FIRST-9).
A failed follow-up passing the turn on from the double's train (SEAT-1). A cover
clearing every double of the turn (FIRST-4). A blocked round under SCORE-7 naming its
lowest hand as the winner. The seat to move reset to the starter when a round ends.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference import deal as deal_module
from mtrain.reference.engine import BLOCKED, DRAW, FOLLOW, OVER, PASS, START, Action, State
from mtrain.reference.rules import MARKER_OWNER_OWN, Rules
from mtrain.spec import tiles as T

_match_winners = deal_module.match_winners
_deal = deal_module.deal
_deal_pool = deal_module.deal_pool


# --- the marker across a draw and a pass ------------------------------------------------


def _pass_after_draw_toggles(state: State, action: Action) -> None:
    """TURN-4's marker flipped by a pass that follows a drawn tile: a marked player who
    draws in vain and passes takes the marker down."""
    seat, drawn = state.seat, state.drawn
    was_up = bool(state.markers >> seat & 1)
    ref.perform(state, action)
    if action.kind == "pass" and drawn >= 0 and was_up:
        state.markers &= ~(1 << seat)


# --- doubles on the Mexican Train ---------------------------------------------------------


def _mexican_double_untracked(state: State, tile: int, train: int) -> None:
    """A double laid on the Mexican Train is listed open but not among the turn's
    doubles: its follow-up is asked as an earlier turn's duty would be."""
    ref.play(state, tile, train)
    if (train == state.players and T.IS_DOUBLE[tile] and state.phase != OVER
            and train in state.turn_doubles):
        state.turn_doubles.remove(train)


def _mexican_double_under_layer(state: State, tile: int, train: int) -> None:
    """A double laid on the Mexican Train is filed among the turn's doubles under the
    layer's own train."""
    seat = state.seat
    ref.play(state, tile, train)
    turn = state.turn_doubles
    if train == state.players and T.IS_DOUBLE[tile] and state.phase != OVER and train in turn:
        turn[turn.index(train)] = seat


def _ordinary_mexican_double_opens(state: State, tile: int, train: int) -> None:
    """DBL-11 read on the personal trains only: under ordinary doubles a double laid on
    the Mexican Train still asks a follow-up (DBL-1)."""
    rules = state.rules
    if train == state.players and T.IS_DOUBLE[tile] and rules.ordinary_doubles:
        state.rules = dataclasses.replace(rules, ordinary_doubles=False)
        try:
            ref.play(state, tile, train)
        finally:
            state.rules = rules
        return
    ref.play(state, tile, train)


def _mexican_cover_lowers_marker(state: State, tile: int, train: int) -> None:
    """Under owner-plays-own, covering a double on the Mexican Train takes the coverer's
    marker off, as a play on their own train would (MARK-3)."""
    seat = state.seat
    covering = train == state.players and train in state.open_doubles
    ref.play(state, tile, train)
    if covering and state.rules.marker_rule == MARKER_OWNER_OWN:
        state.markers &= ~(1 << seat)


# --- a double as the last tile -----------------------------------------------------------


def _ordinary_last_double_open(state: State, tile: int, train: int) -> None:
    """DBL-11 read at the follow-up only: a last tile that is a double is listed open
    under ordinary doubles too."""
    ref.play(state, tile, train)
    if (state.phase == OVER and T.IS_DOUBLE[tile] and state.rules.ordinary_doubles
            and train not in state.open_doubles):
        state.open_doubles.append(train)


def _last_double_kept_in_turn(state: State, tile: int, train: int) -> None:
    """The turn's doubles cleared at the turn's end only: a round ended by a double
    leaves it (and the turn's others) among the turn's doubles."""
    before = list(state.turn_doubles)
    ref.play(state, tile, train)
    if state.phase == OVER and T.IS_DOUBLE[tile] and not state.rules.ordinary_doubles:
        state.turn_doubles[:] = [t for t in before if t != train] + [train]


# --- the boneyard a large table leaves --------------------------------------------------


def _short_boneyard_undrawn(state: State) -> list[Action]:
    """A boneyard of fewer tiles than there are players is left undrawn: pass."""
    found = ref.legal_actions(state)
    if found == [DRAW] and state.phase == START and len(state.boneyard) < state.players:
        return [PASS]
    return found


def _replacement_needs_a_lap(rules: Rules, players: int, round_no: int = 1,
                             **kw: Any) -> State:
    """ENG-5's replacement drawn only while the deal leaves a tile for every player."""
    if rules.holder_draws and rules.ruleset.deals(players):
        # (a count the table does not deal is left to the deal to refuse, as it would)
        left = len(_deal_pool(rules, round_no)) - players * rules.ruleset.hand_size(players)
        if left < players:
            rules = dataclasses.replace(rules, holder_draws=False)
    return _deal(rules, players, round_no, **kw)


def _short_boneyard_read_empty(state: State) -> None:
    """END-2 asked once the boneyard holds fewer tiles than there are players, as if it
    were empty: a round where nobody can play without drawing ends blocked."""
    ref.end_turn(state)
    if (state.phase == START and state.boneyard and len(state.boneyard) < state.players
            and not state.rules.passes_end_round and ref.nobody_can_ever_play(state)):
        ref.finish(state, BLOCKED, -1)


# --- odd top doubles ---------------------------------------------------------------------


def _later_engines_from_even_top(rules: Rules, round_no: int) -> int:
    """ENG-1's later rounds counted down from the even double at or below the top:
    on double-9 and double-15 round 2 skips a double (the last rounds stay on [0-0])."""
    if round_no == 1:
        return rules.max_pip
    return max(0, (rules.max_pip & ~1) - (round_no - 1))


def _deal_search_from_even_top(state: State) -> None:
    """ENG-7 and ENG-8's search for the largest double begun at the even double at or
    below the top: on double-9 and double-15 a held top double is passed over."""
    rules = state.rules
    state.rules = dataclasses.replace(rules, max_pip=rules.max_pip & ~1)
    try:
        ref.engine_from_deal(state)
    finally:
        state.rules = rules


# --- the match's winner ------------------------------------------------------------------


def _winners_before_last_round(state: State) -> list[int]:
    """MATCH-2 read off the totals as they stood before the last round's scores."""
    if state.result is None:
        return _match_winners(state)
    before = state.copy()
    before.scores = [t - s for t, s in zip(state.scores, state.result.scores, strict=True)]
    return _match_winners(before)


def _best(values: Sequence[int], seats: list[int], high: bool) -> list[int]:
    best = (max if high else min)(values[s] for s in seats)
    return [s for s in seats if values[s] == best]


def _most_outs_first(state: State) -> list[int]:
    """MATCH-5 read before MATCH-2: the most outs win, the totals break their tie."""
    rules = state.rules
    if not rules.tie_most_outs:
        return _match_winners(state)
    seats = _best(state.outs, list(range(state.players)), True)
    return _best(state.scores, seats, rules.positive_scoring)


def _last_out_twice(state: State) -> list[int]:
    """MATCH-5's outs with the last round's out counted again by the match's tally."""
    result = state.result
    if not state.rules.tie_most_outs or result is None or result.winner < 0:
        return _match_winners(state)
    again = state.copy()
    again.outs = list(state.outs)
    again.outs[result.winner] += 1
    return _match_winners(again)


# --- first turns, the turn order, the turn's doubles -----------------------------------


def _first_turn_spent_by_draw(state: State) -> None:
    """FIRST-6's first turn over once the player draws."""
    seat, searching = state.seat, not state.engine_placed
    ref.draw(state)
    if not searching:
        state.first_pending &= ~(1 << seat)


def _follow_fail_from_double_train(state: State, action: Action) -> None:
    """A pass in a follow-up hands the turn on from the seat whose train holds the double
    left open (the Mexican Train's: from the passer)."""
    seat, turn = state.seat, list(state.turn_doubles)
    following = state.phase == FOLLOW
    ref.perform(state, action)
    if (action.kind == "pass" and following and turn and turn[-1] < state.players
            and turn[-1] != seat and state.phase != OVER):
        state.seat = (turn[-1] + 1) % state.players


def _cover_clears_turn_doubles(state: State, tile: int, train: int) -> None:
    """A tile covering a double of this turn clears every double of the turn."""
    covering = train in state.turn_doubles
    ref.play(state, tile, train)
    if covering and state.phase != OVER:
        state.turn_doubles[:] = [train] if train in state.open_doubles else []


# --- the round's end ----------------------------------------------------------------------


def _blocked_names_lowest(state: State, end: str, winner: int) -> None:
    """SCORE-7's lowest hand written as the blocked round's winner (no out counted)."""
    ref.finish(state, end, winner)
    result = state.result
    if end == BLOCKED and state.rules.blocked_low_wins and result is not None:
        low = [s for s, v in enumerate(result.scores) if v == 0]
        if len(low) == 1:
            state.result = result._replace(winner=low[0])


def _seat_back_to_starter(state: State, end: str, winner: int) -> None:
    """The seat to move set back to the round's starter when the round ends."""
    ref.finish(state, end, winner)
    state.seat = state.starter


TWENTY_THIRD_READING: tuple[Mutant, ...] = (
    Mutant("mut23-pass-after-draw-toggles-marker",
           "A marked player who draws in vain and passes takes the marker down",
           ("TURN-4", "MARK-1"), "perform swapped: a pass after a draw flips the marker",
           patches={"perform": _pass_after_draw_toggles}),
    Mutant("mut23-mexican-double-not-a-turn-double",
           "A double laid on the Mexican Train is open but not among the turn's doubles: "
           "its follow-up is asked as an earlier turn's duty",
           ("DBL-1", "DBL-2", "DBL-3", "DBL-4"),
           "_play swapped: the Mexican Train left out of turn_doubles",
           patches={"_play": _mexican_double_untracked}),
    Mutant("mut23-mexican-double-filed-under-layer",
           "A double laid on the Mexican Train is filed among the turn's doubles under the "
           "layer's own train", ("DBL-1", "DBL-3", "DBL-4", "DBL-6"),
           "_play swapped: the Mexican Train's turn double written as the layer's seat",
           patches={"_play": _mexican_double_under_layer}),
    Mutant("mut23-ordinary-last-double-left-open",
           "Under ordinary doubles a last tile that is a double is listed as an open double",
           ("DBL-11", "END-1"), "_play swapped: a last double appended to open_doubles",
           patches={"_play": _ordinary_last_double_open}),
    Mutant("mut23-last-double-kept-as-turn-double",
           "A round ended by a double leaves it among the turn's doubles",
           ("END-1", "DBL-1"), "_play swapped: turn_doubles kept after a last double",
           patches={"_play": _last_double_kept_in_turn}),
    Mutant("mut23-short-boneyard-left-undrawn",
           "Nobody draws from a boneyard holding fewer tiles than there are players: "
           "they pass", ("TURN-2", "TURN-4"),
           "legal_actions swapped: [draw] becomes [pass] below one tile a player",
           patches={"legal_actions": _short_boneyard_undrawn}),
    Mutant("mut23-replacement-skipped-on-short-boneyard",
           "Under engine-holder-draws no replacement is drawn when the deal leaves fewer "
           "tiles than players", ("ENG-5",),
           "deal swapped: holder_draws off where the boneyard is short of a lap",
           patches={"deal": _replacement_needs_a_lap}),
    Mutant("mut23-later-engines-from-even-top",
           "On a set whose top double is odd the later rounds count down from the even "
           "double below it", ("ENG-1",),
           "engine_number swapped: (N & ~1) - (round - 1) past round 1",
           patches={"engine_number": _later_engines_from_even_top}),
    Mutant("mut23-winners-before-last-round-added",
           "The match's winners are read off the totals before the last round's scores",
           ("MATCH-1", "MATCH-2"), "winners: the totals less the last round's scores",
           winners=_winners_before_last_round),
    Mutant("mut23-most-outs-before-totals",
           "Under most-outs the player with the most outs wins, the totals breaking their "
           "tie", ("MATCH-5", "MATCH-2"), "winners: most outs first, then the best total",
           winners=_most_outs_first),
    Mutant("mut23-last-out-counted-twice-in-tie",
           "Under most-outs the last round's out is counted twice in the tie-break",
           ("MATCH-5",), "winners: the last round's winner given one more out",
           winners=_last_out_twice),
    Mutant("mut23-first-turn-spent-by-draw",
           "A player's first turn is over once they draw: the drawn tile plays as in a "
           "later turn", ("FIRST-6", "FIRST-9"),
           "_draw swapped: first_pending cleared at a draw",
           patches={"_draw": _first_turn_spent_by_draw}),
    Mutant("mut23-follow-fail-turn-from-double-train",
           "After a failed follow-up on another player's train the turn goes to the seat "
           "after that train's owner", ("SEAT-1", "DBL-5"),
           "perform swapped: the seat after a follow-up's pass from the double's train",
           patches={"perform": _follow_fail_from_double_train}),
    Mutant("mut23-cover-clears-turn-doubles",
           "Covering a double of the turn clears every double laid in the turn",
           ("TRAIN-3", "FIRST-4", "DBL-1"),
           "_play swapped: turn_doubles emptied by a cover",
           patches={"_play": _cover_clears_turn_doubles}),
    Mutant("mut23-blocked-round-names-lowest-hand",
           "Under penalty-blocked-winner the blocked round's result names its lowest hand "
           "as the winner", ("END-2", "SCORE-7"),
           "_finish swapped: result.winner = the one seat scoring 0 in a blocked round",
           patches={"_finish": _blocked_names_lowest}),
    Mutant("mut23-seat-back-to-starter-at-round-end",
           "When a round ends the seat to move is set back to the round's starter",
           ("END-1", "END-2"), "_finish swapped: seat = starter",
           patches={"_finish": _seat_back_to_starter}),
    Mutant("mut23-ordinary-double-on-mexican-opens",
           "Under ordinary doubles a double laid on the Mexican Train still asks a "
           "follow-up and is left open", ("DBL-11", "DBL-1"),
           "_play swapped: ordinary_doubles off for a double on the Mexican Train",
           patches={"_play": _ordinary_mexican_double_opens}),
    Mutant("mut23-mexican-cover-lowers-marker",
           "Under owner-plays-own covering a double on the Mexican Train takes the "
           "coverer's marker off", ("MARK-3", "MARK-2"),
           "_play swapped: the mover's marker cleared by a Mexican Train cover",
           patches={"_play": _mexican_cover_lowers_marker}),
    Mutant("mut23-short-boneyard-read-empty-for-blocked",
           "A round is checked for blocked (END-2) once the boneyard holds fewer tiles "
           "than there are players, as if it were empty", ("END-2", "TURN-2"),
           "_end_turn swapped: END-2 asked below one tile a player",
           patches={"_end_turn": _short_boneyard_read_empty}),
    Mutant("mut23-deal-engine-search-from-even-top",
           "Under highest-double-held and designated-opens the largest double is sought "
           "from the even double at or below the top", ("ENG-7", "ENG-8"),
           "_engine_from_deal swapped: max_pip & ~1 during the search",
           patches={"_engine_from_deal": _deal_search_from_even_top}),
)
"""The twenty-third reading: 20 rule bugs, none a mutant of the catalogue (names,
descriptions and what each changes checked against the twenty-two readings before it;
the nearest are other slips: mut13-pass-toggles-marker flips the marker at every pass,
this one only after a drawn tile; ordinary-double-left-open keeps a double open in the
round, mut23-ordinary-last-double-left-open at its end; turn-doubles-kept and
chain-cover-kept-in-turn keep doubles the turn closed, mut23-cover-clears-turn-doubles
drops one still open; draw-until-one-left stops one tile short under
draw-until-playable, mut23-short-boneyard-left-undrawn a lap short under every draw
rule; winners-by-last-round reads the last round alone, mut23-winners-before-last-round-
added every round but it; mut21-most-outs-read-as-fewest and its kin read the outs
among the tied, mut23-most-outs-before-totals reads them first).

Written and not kept. Equivalent to the reference: the passes in a row set back by a
draw or by the end of a chain (END-3 counts passes on an empty boneyard only, where no
draw is made, and a chain ends after a play, which has set the count back already).
Not expressible: the Mexican Train opened by a double (its first tile must carry the
engine's number, and the one double that does is the engine), later rounds started by
the last round's winner (the protocol's deal is given the totals, not who went out),
and a match cut short on an odd set (the match's length is the rules', read by the
harness, not a hook).

Measured on the corpus before any fixture was added for them (2026-12-06, `mtrain
mutants -m mut23-...`, 2,870 passing runs): 18 of 20 killed, the fewest killers one
(mut23-ordinary-last-double-left-open: doubles-ordinary-005; mut23-follow-fail-turn-from-
double-train: doubles-019; mut23-mexican-cover-lowers-marker: release-002); the two
survivors wanted a table the corpus lacked: ENG-5's replacement on a deal that leaves
fewer tiles than players (cardinal's 8 hands on double-12 leave 3), and a chain-anywhere
first turn with doubles open on two trains. With the five fixtures of
conformance/fixtures/mutants/twenty-third-reading.yaml and the seventeen s52 scenarios
(sets/thin-corners-session52.yaml), all worked by hand, every one is killed by two
fixtures or more (2,894 runs). Blame (`--blame`) charges 18 of 20 to a clause they
break; the two others (tests/test_blame.py): the winners read before the last round's
scores name shared wins where the totals name one (MATCH-4, 68 of 134, ahead of
MATCH-2), and a blocked round's lowest hand written as its winner breaks the state
schema (an error, no failure to charge)."""
