"""Rule bugs of a twenty-first reading, written where house-rule engines keep code of
their own: the match's winners under each tie rule, who is credited with going out, the
round's scores under each scoring rule, the markers and open doubles at the tile that
ends a round, the engines of the later rounds, the deal's order, the searches' draws.

The tie rules as their authors' code reads them: most-outs with `min` for `max`, over
the whole table rather than the tied seats, settled by the seat when the outs tie too,
or given back to every tied seat when two share the most; the outs read at the tied
seats' positions instead of their seats (MATCH-5); the shared tie given to the tied
players who went out (MATCH-4); lowest-seat read from the end of the list (MATCH-6).
The round's end: going out on the Mexican Train not credited, every score of 0 on the
sheet credited as an out (MATCH-5); the tile that goes out leaving markers and the
double it covers as they were (END-1, TRAIN-3, MARK-3..5); the collector's loop under
positive scoring starting after their own seat (SCORE-6), the penalty loop stopping one
seat short (SCORE-5), a blocked round scored by differences from the lowest hand as
block dominoes is (SCORE-7), a tile's ends packed in four bits (SCORE-1, double-18). The
start of a round: the engines counted up from [0-0] (ENG-1), the hands dealt off the end
of the order (DEAL-1), the searches for an engine drawing from the boneyard's end (ENG-4,
ENG-6, ENG-7, ENG-8). Draws: draw-until-playable stopped by an unplayable drawn double,
or passing a playable one over (TURN-5).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference import deal as deal_module
from mtrain.reference.engine import DOMINO, DRAW, ENGINE, OVER, PASS, START, Action, State
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T

_deal = deal_module.deal
_match_winners = deal_module.match_winners

NIBBLE = 0xF
"""The largest number four bits hold: an end packed in a nibble, as a hex digit."""


def _tied_on_total(state: State) -> list[int]:
    best = max(state.scores) if state.rules.positive_scoring else min(state.scores)
    return [s for s, v in enumerate(state.scores) if v == best]


# --- the match's winners -------------------------------------------------------------------


def _most_outs_read_as_fewest(state: State) -> list[int]:
    """MATCH-5 with `min` for `max`: of the tied seats, those who went out least win."""
    tied = _tied_on_total(state)
    if len(tied) < 2 or not state.rules.tie_most_outs:
        return _match_winners(state)
    least = min(state.outs[s] for s in tied)
    return [s for s in tied if state.outs[s] == least]


def _most_outs_over_whole_table(state: State) -> list[int]:
    """MATCH-5 with the most outs sought over every seat: the tied seats that went out as
    often as anyone at the table win; if none did, they share the win."""
    tied = _tied_on_total(state)
    if len(tied) < 2 or not state.rules.tie_most_outs:
        return _match_winners(state)
    most = max(state.outs)
    return [s for s in tied if state.outs[s] == most] or tied


def _most_outs_then_lowest_seat(state: State) -> list[int]:
    """MATCH-5 with MATCH-6 behind it: a tie left after the outs goes to the lowest seat."""
    out = _match_winners(state)
    if len(out) > 1 and state.rules.tie_most_outs:
        return out[:1]
    return out


def _most_outs_equal_shared_by_all(state: State) -> list[int]:
    """MATCH-5 with the outs deciding only when one seat has most: if two or more tied
    seats share the most outs, every seat on the winning total shares the win."""
    tied = _tied_on_total(state)
    if len(tied) < 2 or not state.rules.tie_most_outs:
        return _match_winners(state)
    most = max(state.outs[s] for s in tied)
    best = [s for s in tied if state.outs[s] == most]
    return best if len(best) == 1 else tied


def _outs_read_by_position(state: State) -> list[int]:
    """MATCH-5 with the largest count read as `outs[i]` for i the tied seat's position
    among the tied, not its seat: the seats whose outs equal that count win, or all share."""
    tied = _tied_on_total(state)
    if len(tied) < 2 or not state.rules.tie_most_outs:
        return _match_winners(state)
    most = max(state.outs[i] for i in range(len(tied)))
    return [s for s in tied if state.outs[s] == most] or tied


def _shared_tie_to_those_out(state: State) -> list[int]:
    """MATCH-4 read with most-outs' first step: with no tie rule, a tie is shared by the
    tied players who went out at least once (by all of them if none did)."""
    rules = state.rules
    tied = _tied_on_total(state)
    if len(tied) < 2 or rules.tie_most_outs or rules.tie_lowest_seat:
        return _match_winners(state)
    return [s for s in tied if state.outs[s] > 0] or tied


def _lowest_seat_from_the_end(state: State) -> list[int]:
    """MATCH-6 with the tied list read from its end: the highest tied seat wins."""
    tied = _tied_on_total(state)
    if len(tied) < 2 or not state.rules.tie_lowest_seat:
        return _match_winners(state)
    return tied[-1:]


# --- the round's end and its scores ---------------------------------------------------------


class _LastPlay:
    """The train of the play being made, for a `_finish` swapped in beside `_play` (the
    engine's `_finish` is not told which train ended the round)."""
    train = -1


def _play_noted(state: State, tile: int, train: int) -> None:
    _LastPlay.train = train
    try:
        ref.play(state, tile, train)
    finally:
        _LastPlay.train = -1


def _outs_read_from_zero_scores(state: State, end: str, winner: int) -> None:
    """MATCH-5's outs read off the score sheet: under penalty scoring every player who
    scores 0 in a round gone out (a hand of blanks at face value) is counted an out."""
    ref.finish(state, end, winner)
    result = state.result
    if result is None or winner < 0 or state.rules.positive_scoring:
        return
    for s, score in enumerate(result.scores):
        if score == 0 and s != winner:
            state.outs[s] += 1


def _mexican_out_uncredited(state: State, end: str, winner: int) -> None:
    """MATCH-5's outs counted in the personal trains' code: going out on the Mexican Train
    scores as going out but is not counted among the player's outs."""
    ref.finish(state, end, winner)
    if end == DOMINO and winner >= 0 and _LastPlay.train == state.players:
        state.outs[winner] -= 1


def _last_tile_bookkeeping_skipped(state: State, tile: int, train: int) -> None:
    """END-1 checked before the table is brought up to date: the tile that ends the round
    takes no marker off (MARK-3..5) and leaves the double it covers listed open (TRAIN-3)."""
    markers, doubles = state.markers, list(state.open_doubles)
    ref.play(state, tile, train)
    if state.phase == OVER and state.hands[state.seat] == 0:
        state.markers = markers
        state.open_doubles[:] = doubles


def _rescored(state: State, scores: Sequence[int], old: Sequence[int]) -> None:
    """Put `scores` in place of the round's scores `old`, in the totals too."""
    result = state.result
    assert result is not None
    state.scores[:] = [t - o + v for t, o, v in zip(state.scores, old, scores, strict=True)]
    state.result = result._replace(scores=tuple(scores))


def _collects_following_seats(state: State, end: str, winner: int) -> None:
    """SCORE-6 with the collector's loop running from the seat after theirs to the last
    seat, without wrapping: the hands of the seats before the collector are not taken."""
    ref.finish(state, end, winner)
    result = state.result
    if result is None or winner < 0 or not state.rules.positive_scoring:
        return
    scores = list(result.scores)
    scores[winner] = sum(ref.hand_value(state, s) for s in range(winner + 1, state.players))
    _rescored(state, scores, result.scores)


def _last_seat_unscored(state: State, end: str, winner: int) -> None:
    """SCORE-5 with the hands counted over range(n - 1): the last seat scores 0."""
    ref.finish(state, end, winner)
    result = state.result
    if result is None or state.rules.positive_scoring:
        return
    scores = list(result.scores)
    scores[-1] = 0
    _rescored(state, scores, result.scores)


def _blocked_scores_differences(state: State, end: str, winner: int) -> None:
    """SCORE-7 read as the blocked games of other domino games: the lowest hand scores 0
    and every other hand scores what it holds above the lowest hand's value (never below
    0), not its whole value."""
    ref.finish(state, end, winner)
    result = state.result
    rules = state.rules
    if result is None or winner >= 0 or not rules.blocked_low_wins or rules.positive_scoring:
        return
    values = [ref.hand_value(state, s) for s in range(state.players)]
    lowest = ref.lowest_hands(state, values)
    low = values[lowest[0]]
    scores = [0 if s in lowest else max(v - low, 0) for s, v in enumerate(values)]
    _rescored(state, scores, result.scores)


def _ends_in_four_bits(rules: Rules) -> Rules:
    """SCORE-1 with a tile's two ends packed in four bits each, as hex digits: on a
    double-18 set an end of 16, 17 or 18 counts 0, 1 or 2."""
    if rules.max_pip <= NIBBLE:
        return rules
    value = list(rules.value)
    for t in range(len(value)):
        hi, lo = T.HIGH[t], T.LOW[t]
        value[t] -= (hi - (hi & NIBBLE)) + (lo - (lo & NIBBLE))
    return dataclasses.replace(rules, value=tuple(value))


# --- the start of a round ---------------------------------------------------------------


def _engines_ascend(rules: Rules, round_no: int) -> int:
    """ENG-1 read upwards: round 1 uses [0-0], round r [r-1 - r-1], the last [N-N]."""
    return round_no - 1


def _deal_ascending(rules: Rules, players: int, round_no: int = 1, **kw: Any) -> State:
    """The deal of an engine whose rounds count up from [0-0] (a table it is given is read
    as the reference reads it: only its own deals, the next round's too, take the engine
    its count gives)."""
    # the deal module's own name only: the engine module and the codec keep the reference's
    saved = getattr(deal_module, "engine_number")  # noqa: B009 (a name it imports)
    setattr(deal_module, "engine_number", _engines_ascend)  # noqa: B010
    try:
        return _deal(rules, players, round_no, **kw)
    finally:
        setattr(deal_module, "engine_number", saved)  # noqa: B010


def _hands_from_order_end(rules: Rules, players: int, round_no: int = 1,
                          **kw: Any) -> State:
    """DEAL-1 dealt off the bottom: the hands are the last tiles of the shuffled order
    (seat 0 the first block of them), the boneyard the tiles before them."""
    order = kw.get("order")
    if order is None or not rules.ruleset.deals(players):
        return _deal(rules, players, round_no, **kw)
    dealt = players * rules.ruleset.hand_size(players)
    cut = max(len(order) - dealt, 0)
    turned = list(order[cut:]) + list(order[:cut])
    return _deal(rules, players, round_no, **{**kw, "order": turned})


def _search_draws_from_end(state: State) -> None:
    """ENG-4 and ENG-6 with the search drawing the boneyard's last tile (a turn's draw
    takes the first)."""
    if state.phase != ENGINE:
        ref.draw(state)
        return
    state.boneyard.reverse()
    try:
        ref.draw(state)
    finally:
        state.boneyard.reverse()


def _deal_search_from_end(st: State) -> None:
    """ENG-7 and ENG-8 with their draws taken from the boneyard's end."""
    st.boneyard.reverse()
    try:
        ref.engine_from_deal(st)
    finally:
        st.boneyard.reverse()


# --- draws -------------------------------------------------------------------------------


def _until_playable_stops_at_double(state: State) -> list[Action]:
    """TURN-5 with a drawn double taken as the end of the drawing: a drawn double that
    cannot be played is passed on (marker up) instead of drawing again."""
    found = ref.legal_actions(state)
    drawn = state.drawn
    if (found == [DRAW] and drawn >= 0 and state.phase == START and T.IS_DOUBLE[drawn]
            and state.rules.draw_until_playable):
        return [PASS]
    return found


def _until_playable_passes_doubles(state: State) -> list[Action]:
    """TURN-5 with a drawn double never offered under draw-until-playable: the drawer
    draws on past it (or passes when the boneyard is empty)."""
    found = ref.legal_actions(state)
    drawn = state.drawn
    if (drawn < 0 or state.phase != START or not T.IS_DOUBLE[drawn] or not found
            or found[0].kind != "play" or not state.rules.draw_until_playable):
        return found
    return [DRAW] if state.boneyard else [PASS]


TWENTY_FIRST_READING: tuple[Mutant, ...] = (
    # the match's winners
    Mutant("mut21-most-outs-read-as-fewest",
           "Under most-outs the tied player who went out in the fewest rounds wins",
           ("MATCH-5",), "winners: min for max over the tied seats' outs",
           winners=_most_outs_read_as_fewest),
    Mutant("mut21-most-outs-over-whole-table",
           "Under most-outs the tie goes to the tied players who went out as often as anyone "
           "at the table; if none did, the tie is shared", ("MATCH-5",),
           "winners: the most outs sought over every seat", winners=_most_outs_over_whole_table),
    Mutant("mut21-most-outs-then-lowest-seat",
           "Under most-outs a tie left after the outs goes to the lowest seat instead of "
           "being shared", ("MATCH-5", "MATCH-4"),
           "winners: the first seat of the tie left after the outs",
           winners=_most_outs_then_lowest_seat),
    Mutant("mut21-most-outs-equal-shared-by-all",
           "Under most-outs, when two tied players share the most outs, every player on the "
           "winning total shares the win", ("MATCH-5",),
           "winners: every tied seat unless one alone has most outs",
           winners=_most_outs_equal_shared_by_all),
    Mutant("mut21-outs-read-by-tie-position",
           "Under most-outs the most outs are read at the tied players' positions in the "
           "tie (outs[0], outs[1], ...), not at their seats", ("MATCH-5",),
           "winners: the largest of outs[i] for i below the tie's size",
           winners=_outs_read_by_position),
    Mutant("mut21-shared-tie-to-those-out",
           "With no tie rule a tie is shared only by the tied players who went out at least "
           "once", ("MATCH-4",), "winners: the tied seats with an out, where any has one",
           winners=_shared_tie_to_those_out),
    Mutant("mut21-lowest-seat-read-from-the-end",
           "Under lowest-seat the tie goes to the highest tied seat", ("MATCH-6",),
           "winners: the last of the tied seats", winners=_lowest_seat_from_the_end),
    # the round's end and its scores
    Mutant("mut21-last-tile-bookkeeping-skipped",
           "The tile that ends the round takes no marker off and leaves the double it covers "
           "listed open", ("END-1", "TRAIN-3", "MARK-3", "MARK-4", "MARK-5"),
           "_play swapped: markers and open doubles put back after a play that goes out",
           patches={"_play": _last_tile_bookkeeping_skipped}),
    Mutant("mut21-outs-read-from-zero-scores",
           "Under penalty scoring every player scoring 0 in a round gone out is counted "
           "among the outs, not only the one who went out", ("MATCH-5", "SCORE-5"),
           "_finish swapped: an out for every other seat scoring 0",
           patches={"_finish": _outs_read_from_zero_scores}),
    Mutant("mut21-mexican-out-uncredited",
           "Going out on the Mexican Train is scored but not counted among the player's outs",
           ("MATCH-5", "END-1"),
           "_play and _finish swapped: the out taken back when the last tile went on the "
           "Mexican Train", patches={"_play": _play_noted, "_finish": _mexican_out_uncredited}),
    Mutant("mut21-collector-takes-following-seats",
           "Under positive scoring the player who goes out collects only the hands of the "
           "seats after theirs, up to the last seat", ("SCORE-6",),
           "_finish swapped: the collector's sum over range(winner + 1, n)",
           patches={"_finish": _collects_following_seats}),
    Mutant("mut21-last-seat-hand-unscored",
           "Under penalty scoring the last seat's hand is not counted: it scores 0",
           ("SCORE-5",), "_finish swapped: the round's scores over range(n - 1)",
           patches={"_finish": _last_seat_unscored}),
    Mutant("mut21-blocked-scores-differences",
           "Under blocked-winner every hand but the lowest scores its value less the lowest "
           "hand's, not its whole value", ("SCORE-7",),
           "_finish swapped: the blocked round's scores less the lowest hand's value",
           patches={"_finish": _blocked_scores_differences}),
    Mutant("mut21-ends-in-four-bits",
           "A tile's ends are packed in four bits each: on a double-18 set an end of 16, 17 "
           "or 18 counts 0, 1 or 2 in hand", ("SCORE-1", "SET-6"),
           "Rules.value with each end taken modulo 16", rules=_ends_in_four_bits),
    # the start of a round
    Mutant("mut21-engines-ascend-from-blank",
           "The engines go up from [0-0]: round r is dealt with [r-1 - r-1], the last round "
           "with [N-N]", ("ENG-1",),
           "deal swapped (adapter): the deal's engine_number round - 1",
           patches={"deal": _deal_ascending}),
    Mutant("mut21-hands-dealt-off-the-bottom",
           "The hands are dealt off the end of the shuffled order and the boneyard is the "
           "tiles before them", ("DEAL-1",),
           "deal swapped (adapter): the order's last players x hand tiles moved to its front",
           patches={"deal": _hands_from_order_end}),
    Mutant("mut21-engine-search-draws-from-end",
           "The search for an undealt engine (one seat at a time or in laps) draws the "
           "boneyard's last tile", ("ENG-4", "ENG-6"),
           "_draw swapped: the boneyard reversed around a draw of the search",
           patches={"_draw": _search_draws_from_end}),
    Mutant("mut21-deal-search-draws-from-end",
           "Under highest-double-held and designated-opens the draws for a double come from "
           "the boneyard's end", ("ENG-7", "ENG-8"),
           "_engine_from_deal swapped: the boneyard reversed around it",
           patches={"_engine_from_deal": _deal_search_from_end}),
    # draws
    Mutant("mut21-until-playable-stops-at-double",
           "Under draw-until-playable a drawn double that cannot be played ends the drawing: "
           "the player passes", ("TURN-5",),
           "legal_actions swapped: pass in place of draw after an unplayable drawn double",
           patches={"legal_actions": _until_playable_stops_at_double}),
    Mutant("mut21-until-playable-passes-doubles",
           "Under draw-until-playable a drawn double is never played: the player draws on "
           "past it", ("TURN-5", "TURN-3"),
           "legal_actions swapped: draw (or pass) in place of a drawn double's plays",
           patches={"legal_actions": _until_playable_passes_doubles}),
)
"""The twenty-first reading: 20 rule bugs, none a mutant of the catalogue (names,
descriptions and what each changes checked against the twenty readings before it; the
nearest are narrower or wider, never the same: mut20-most-outs-read-as-went-out under
most-outs, mut16-shared-win-two-at-most a shared tie cut, mut19-lowest-seat-reversed-
under-positive positive scoring only, draw-from-boneyard-end a turn's draws,
replacement-from-boneyard-end ENG-5's, mut20-unfollowable-drawn-double-unplayable a
double with nothing to follow, out-on-double-uncredited the last tile's kind, not its
train, blocked-winner-counts-an-out a blocked round's lowest hand, engine-from-twelve
down from 12, blanks-only-when-out the blank rule, mut15-out-open-doubles-on-totals a
score, not the table). Five more were written and not kept. Two are equivalent to the
reference: the blocked test left out of the deal (END-2: with the boneyard empty after
the deal every tile of the engine's number but the engine is in a hand, so someone can
play on their empty train), and going out with the tile just drawn left unnoticed
(END-1: a player draws only holding tiles none of which can be played, and still holds
them after laying the drawn one). Three were replaced by the ones above as the protocol
cannot show them as the rule they break: the engine set aside in round 1 only (the deal
order of a later round, which leaves the engine out, is refused: an error, no failure),
the blocked round's lowest hand scoring minus its value (a negative score breaks the
state schema), and a tie with no tie rule naming no winner (no winners read as the
match not over, charged to MATCH-1).

Measured on the corpus before any fixture was added for them (2026-12-06, `mtrain
mutants -m mut21-...`, 2,813 passing runs): all 20 killed, 17 by two fixtures or more;
mut21-ends-in-four-bits (sets-030) and mut21-until-playable-passes-doubles (s49-big-007)
by one; the engines counted up from [0-0] and the end of the order by hundreds.

Two fixtures worked by hand from the clauses (scoring/twenty-first-reading.yaml:
mut21-pips-001, a double-18 hand of ends 16 to 18; mut21-draw-001, a playable drawn
double under draw-until-playable) and sixteen scenarios (s50-, match/house-rules-
session50.yaml and sets/own-tables-session50.yaml) give every one two killers or more
(2,841 runs). Blame (`--blame`) charged 18 of 20 to a clause they break:
mut21-hands-dealt-off-the-bottom is charged ENG-3 first (the deal moves the engine's
holder), and mut21-blocked-scores-differences was charged SCORE-1 (the lowest hand's 0
right and the others' scores wrong read as the tiles' values) until session 51 read every
scoring hand short by the lowest hand's value as SCORE-7's (score_charges.common_offset):
19 of 20."""
