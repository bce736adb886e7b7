"""Rule bugs of a twenty-second reading, written where house-rule engines keep code of
their own: seat arithmetic that only works at 2, 4 and 8 players, a round that ends on
a double, what the engine writes in its own JSON answers, the state a round is left in
when it ends, and the match's last round.

Seats: the start of a later round (SEAT-3), the seat after the engine's holder (SEAT-4)
and the draw winner's rotation (SEAT-5) reduced with `& (players - 1)` in place of `%
players`, right on a table of 2, 4 or 8 and wrong on every other; the starter
overwritten by the seat to move at each turn's end (FIRST-9 then lets the second seat
open the Mexican Train). A round ending on a double (END-1): the last tile a double still
asking a follow-up (DBL-1), or read as a round blocked on an open double; the out
credited to the owner of the train the last tile went on, not the player (MATCH-5); the
drawn tile still marked drawn after it was laid as a double (TURN-3). The engine's own
answers: the result's winner written from 1 or, for seat 0, as null (`winner or None`);
the round's result carrying the totals; the seat to move advanced past the player who
went out; the deal's hands listed from the starter, and its boneyard written as the stack
it is drawn from. The round's end cleaning up: markers, open doubles, passes cleared. The
match: the last round added twice (MATCH-1), the match over only at the [0-0] round
(MATCH-1 under MATCH-7 and ENG-7), the engine counted as the rounds left (ENG-1 under
MATCH-7).
"""

from __future__ import annotations

from mtrain.conformance.adapter import JSON
from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference import deal as deal_module
from mtrain.reference.engine import BLOCKED, DOMINO, FOLLOW, State
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T

_match_winners = deal_module.match_winners


def _rotates(rules: Rules) -> bool:
    """SEAT-3's rule is the one in force: no other starting seat's flag is set."""
    return not (rules.engine_holder_starts or rules.after_engine_starts
                or rules.highest_draw_starts or rules.heaviest_tile_starts)


# --- seats ------------------------------------------------------------------------------


def _rotation_masked(state: State, holder: int) -> None:
    """SEAT-3 with the round's seat taken as (round - 1) & (players - 1)."""
    ref.place_engine(state, holder)
    if _rotates(state.rules):
        state.seat = state.starter = (state.round - 1) & (state.players - 1)


def _after_engine_masked(state: State, holder: int) -> None:
    """SEAT-4 with the seat after the holder taken as (holder + 1) & (players - 1)."""
    ref.place_engine(state, holder)
    if state.rules.after_engine_starts:
        state.seat = state.starter = (holder + 1) & (state.players - 1)


def _draw_start_masked(state: State, holder: int) -> None:
    """SEAT-5 with the later rounds' seat taken as (winner + round - 1) & (players - 1)
    (the deal keeps the right seat as `starter`; the draw's winner is read back from it)."""
    n, behind = state.players, state.round - 1
    winner = (state.starter - behind) % n
    ref.place_engine(state, holder)
    if state.rules.highest_draw_starts:
        state.seat = state.starter = (winner + behind) & (n - 1)


def _starter_follows_the_turn(state: State) -> None:
    """The starter overwritten with the seat to move at the end of every turn."""
    ref.end_turn(state)
    state.starter = state.seat


# --- a round ending on a double, and who is credited -------------------------------------


class _LastPlay:
    """The tile and train of the play being made, for a `_finish` swapped in beside `_play`
    (the engine's `_finish` is told neither)."""
    tile = -1
    train = -1


def _play_noted(state: State, tile: int, train: int) -> None:
    _LastPlay.tile, _LastPlay.train = tile, train
    try:
        ref.play(state, tile, train)
    finally:
        _LastPlay.tile = _LastPlay.train = -1


def _went_out_on_double(state: State, end: str) -> bool:
    tile = _LastPlay.tile
    return (end == DOMINO and tile >= 0 and T.IS_DOUBLE[tile]
            and not state.rules.ordinary_doubles)


def _last_double_asks_follow_up(state: State, end: str, winner: int) -> None:
    """END-1 checked after DBL-1: a last tile that is a double asks for a follow-up first,
    so the round goes on with the player due to follow (drawing, or passing)."""
    if _went_out_on_double(state, end):
        state.phase = FOLLOW
        return
    ref.finish(state, end, winner)


def _last_double_ends_blocked(state: State, end: str, winner: int) -> None:
    """END-1 read with the uncovered double: a round whose last tile is an open double is
    scored as blocked (END-2), nobody having gone out."""
    if _went_out_on_double(state, end):
        ref.finish(state, BLOCKED, -1)
        return
    ref.finish(state, end, winner)


def _out_credited_to_train_owner(state: State, end: str, winner: int) -> None:
    """END-1's winner read from the train the last tile went on: going out on another
    player's train credits that player (the out, and under positive scoring the take)."""
    train = _LastPlay.train
    if end == DOMINO and 0 <= train < state.players and train != winner:
        winner = train
    ref.finish(state, end, winner)


def _drawn_kept_through_follow_up(state: State, tile: int, train: int) -> None:
    """TURN-3's drawn tile cleared at the turn's end only: a drawn double laid leaves the
    follow-up restricted to the tile just laid, so none can be played."""
    drawn = state.drawn
    ref.play(state, tile, train)
    if state.phase == FOLLOW and drawn == tile:
        state.drawn = drawn


# --- the engine's own answers ----------------------------------------------------------


def _winner_from_one(state: State, end: str, winner: int) -> None:
    """The result's winner written as a player number counted from 1."""
    ref.finish(state, end, winner)
    result = state.result
    if result is not None and result.winner >= 0:
        state.result = result._replace(winner=result.winner + 1)


def _winner_zero_as_null(state: State, end: str, winner: int) -> None:
    """The result's winner written as `winner or None`: seat 0 going out reads as no
    winner."""
    ref.finish(state, end, winner)
    result = state.result
    if result is not None and result.winner == 0:
        state.result = result._replace(winner=-1)


def _result_as_totals(state: State, end: str, winner: int) -> None:
    """The round's result written with the match totals in place of the round's scores."""
    ref.finish(state, end, winner)
    result = state.result
    if result is not None:
        state.result = result._replace(scores=tuple(state.scores))


def _seat_moves_on(state: State, end: str, winner: int) -> None:
    """The turn ended before the round's end is checked: after going out the seat to move
    is the next player's."""
    ref.finish(state, end, winner)
    if end == DOMINO:
        state.seat = (state.seat + 1) % state.players


def _hands_from_starter(state: JSON, rules: Rules) -> JSON:
    """The deal's hands written in playing order from the starter (the starter's hand
    first), the seats' numbers as they are."""
    hands, starter = state.get("hands"), state.get("starter")
    if not isinstance(hands, list) or not isinstance(starter, int) or not starter:
        return state
    return {**state, "hands": hands[starter:] + hands[:starter]}


def _boneyard_as_stack(state: JSON, rules: Rules) -> JSON:
    """The deal's boneyard written as the stack an engine pops from: last drawn first."""
    boneyard = state.get("boneyard")
    if not isinstance(boneyard, list):
        return state
    return {**state, "boneyard": boneyard[::-1]}


# --- the round's end cleaning up --------------------------------------------------------


def _markers_cleared(state: State, end: str, winner: int) -> None:
    """Every marker taken down when the round ends."""
    ref.finish(state, end, winner)
    state.markers = 0


def _open_doubles_cleared(state: State, end: str, winner: int) -> None:
    """The open doubles' list emptied when the round ends."""
    ref.finish(state, end, winner)
    state.open_doubles.clear()


def _passes_cleared(state: State, end: str, winner: int) -> None:
    """The passes in a row set back to 0 when the round ends."""
    ref.finish(state, end, winner)
    state.passes = 0


# --- the match ---------------------------------------------------------------------------


def _last_round_twice(state: State, end: str, winner: int) -> None:
    """MATCH-1 with the last round's scores added again by the match's own tally."""
    ref.finish(state, end, winner)
    result = state.result
    if result is not None and state.round >= state.rules.rounds:
        state.scores[:] = [t + v for t, v in zip(state.scores, result.scores, strict=True)]


def _over_at_blank_engine(state: State) -> list[int]:
    """MATCH-1 read off the engine: the match is over once a round on [0-0] ends."""
    return _match_winners(state) if state.engine == 0 else []


def _engine_from_rounds_left(rules: Rules, round_no: int) -> int:
    """ENG-1 counted as the rounds left: rounds - round, [N-N] first in a full match but
    [0-0] in a single round."""
    return rules.rounds - round_no


TWENTY_SECOND_READING: tuple[Mutant, ...] = (
    # seats
    Mutant("mut22-rotation-masked-by-players",
           "The round's first seat under the rotating start is (round - 1) & (players - 1): "
           "right at 2, 4 and 8 players, wrong at the others", ("SEAT-3",),
           "_place_engine swapped: the rotation's seat masked",
           patches={"_place_engine": _rotation_masked}),
    Mutant("mut22-after-engine-masked-by-players",
           "The seat after the engine's holder is (holder + 1) & (players - 1)",
           ("SEAT-4",), "_place_engine swapped: the seat after the holder masked",
           patches={"_place_engine": _after_engine_masked}),
    Mutant("mut22-draw-start-masked-by-players",
           "Under highest-draw a round's first seat is (winner + round - 1) & (players - 1)",
           ("SEAT-5",), "_place_engine swapped: the draw's rotation masked",
           patches={"_place_engine": _draw_start_masked}),
    Mutant("mut22-starter-follows-the-turn",
           "The starter is overwritten with the seat to move at the end of every turn",
           ("FIRST-9", "SEAT-3"), "_end_turn swapped: starter set to the next seat",
           patches={"_end_turn": _starter_follows_the_turn}),
    # a round ending on a double, and who is credited
    Mutant("mut22-last-double-asks-follow-up",
           "A last tile that is a double does not end the round: a follow-up is due first",
           ("END-1", "DBL-1"),
           "_play and _finish swapped: a domino on a double turned into a follow-up",
           patches={"_play": _play_noted, "_finish": _last_double_asks_follow_up}),
    Mutant("mut22-last-double-ends-blocked",
           "A round whose last tile is a double is scored as blocked: nobody went out",
           ("END-1", "SCORE-5", "MATCH-5"),
           "_play and _finish swapped: a domino on a double finished as blocked",
           patches={"_play": _play_noted, "_finish": _last_double_ends_blocked}),
    Mutant("mut22-out-credited-to-train-owner",
           "Going out on another player's train credits the out (and a positive round's "
           "take) to the train's owner", ("END-1", "MATCH-5", "SCORE-6"),
           "_play and _finish swapped: the winner read from the last tile's train",
           patches={"_play": _play_noted, "_finish": _out_credited_to_train_owner}),
    Mutant("mut22-drawn-kept-through-follow-up",
           "A drawn double laid stays the drawn tile: its follow-up can play nothing",
           ("TURN-3", "DBL-1", "DBL-5"),
           "_play swapped: drawn kept when a drawn double asks a follow-up",
           patches={"_play": _drawn_kept_through_follow_up}),
    # the engine's own answers
    Mutant("mut22-winner-written-from-one",
           "The round's winner is written counted from 1", ("END-1",),
           "_finish swapped: result.winner + 1", patches={"_finish": _winner_from_one}),
    Mutant("mut22-winner-seat-zero-written-null",
           "Seat 0 going out is written as no winner (`winner or None`)", ("END-1",),
           "_finish swapped: result.winner 0 written as none",
           patches={"_finish": _winner_zero_as_null}),
    Mutant("mut22-round-result-written-as-totals",
           "The round's result carries the match totals in place of the round's scores",
           ("SCORE-5", "SCORE-6", "MATCH-1"), "_finish swapped: result.scores = totals",
           patches={"_finish": _result_as_totals}),
    Mutant("mut22-seat-moves-on-after-going-out",
           "After a player goes out the seat to move is written as the next player's",
           ("END-1", "SEAT-1"), "_finish swapped: seat + 1 after a domino",
           patches={"_finish": _seat_moves_on}),
    Mutant("mut22-deal-hands-listed-from-starter",
           "The deal's hands are written in playing order from the starter",
           ("DEAL-1", "SEAT-3"), "deal answer: hands rotated to start at the starter",
           post_deal=_hands_from_starter),
    Mutant("mut22-deal-boneyard-written-as-stack",
           "The deal's boneyard is written last-drawn first", ("DEAL-1",),
           "deal answer: boneyard reversed", post_deal=_boneyard_as_stack),
    # the round's end cleaning up
    Mutant("mut22-markers-cleared-at-round-end",
           "Every marker is taken down when the round ends", ("MARK-1", "END-1", "END-2"),
           "_finish swapped: markers = 0", patches={"_finish": _markers_cleared}),
    Mutant("mut22-open-doubles-cleared-at-round-end",
           "The open doubles are forgotten when the round ends", ("TRAIN-3", "END-1"),
           "_finish swapped: open_doubles emptied", patches={"_finish": _open_doubles_cleared}),
    Mutant("mut22-passes-cleared-at-round-end",
           "The passes in a row are set back to 0 when the round ends", ("END-3",),
           "_finish swapped: passes = 0", patches={"_finish": _passes_cleared}),
    # the match
    Mutant("mut22-last-round-totalled-twice",
           "The last round's scores are added to the totals twice", ("MATCH-1", "MATCH-2"),
           "_finish swapped: the last round's scores added again",
           patches={"_finish": _last_round_twice}),
    Mutant("mut22-match-over-at-blank-engine",
           "The match is over only when a round on [0-0] ends: never under single-round, "
           "and under the deal's engines only where the last one was [0-0]",
           ("MATCH-1", "MATCH-7", "ENG-7"),
           "winners: none unless the round's engine is [0-0]", winners=_over_at_blank_engine),
    Mutant("mut22-engine-from-rounds-left",
           "The round's engine is the rounds left to play: [N-N] first in a full match, "
           "[0-0] in a single round", ("ENG-1", "MATCH-7"),
           "engine_number swapped: rounds - round",
           patches={"engine_number": _engine_from_rounds_left}),
)
"""The twenty-second reading: 20 rule bugs, none a mutant of the catalogue (names,
descriptions and what each changes checked against the twenty-one readings before it;
the nearest are other slips: start-rotates-off-by-one and rotate-start-wraps-at-eight
are wrong at every count or only past eight, after-engine-no-wrap only at the last seat,
out-on-double-uncredited keeps the round's end, mut15-out-open-doubles-on-totals charges
the open double rather than forgetting it, last-round-not-totalled is the opposite slip,
rotate-from-engine-number reads the round off the engine where
mut22-engine-from-rounds-left reads the engine off the rounds).

Written and not kept. Equivalent to the reference: the collector under positive scoring
counting their own hand too (SCORE-6: the player who went out holds nothing), and the
holder's replacement (ENG-5) skipped, or the first draw refused, when the deal leaves one
tile or none: no table the catalogue accepts deals so many (the fewest left by any is 3
under holder-lays, cardinal's 8 players on double-12, and 2 with the engine set aside),
so only a table of one's own outside spec/data/rulesets/ reaches it. Not expressible:
markers, open doubles or the boneyard carried into the next round's deal (the protocol's
deal is given no earlier state, so such a mutant must keep it in a global, and its
answers would hang on the order fixtures run in), and sets the option space lacks
(double-7, 11, 13, 14, 16, 17: no tile_set value names them).

Measured on the corpus before any fixture was added for them (2026-12-06, `mtrain
mutants -m mut22-...`, 2,841 passing runs): all 20 killed, 19 by two fixtures or more;
mut22-seat-moves-on-after-going-out by one (doubles-ordinary-005, the only fixture that
read the seat to move after a player went out); the winner written from 1 by 154, the
round's result written as the totals by 78. With the fifteen s51 scenarios
(sets/thin-corners-session51.yaml, worked by hand) every one has two killers or more,
the fewest five (2,856 runs). Blame (`--blame`) charges 16 of 20 to a clause they break;
the four others are charged where their failures show (tests/test_blame.py): TURN-6 for
the drawn tile kept through a follow-up, TURN-4 for the markers cleared, MATCH-2 and
MATCH-4 for the match over only at [0-0], and nothing for seat 0's win written as none
(the answer breaks the state schema: an error, no failure to charge)."""
