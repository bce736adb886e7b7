"""Rule bugs of a fifteenth reading, written where the catalogue's 522 mutants thin out: the
large sets and the many players (rounds past 13, the engine search at the last seats, the
boneyard's last tile), matches of several rounds, the first turn under each first_turn
value, marker removal on the plays a turn may hold, and a round's end with doubles left
open, scored under each blocked_round value.

A double-12 app grown to larger sets: the engine and the rotation counted modulo 13, so
round 14 of a double-15 match opens on [15-15] again or starts at seat 0 again. A search
whose seat wraps one short (`% (players - 1)`), in the one-by-one search and in the laps;
a highest-double search over the first eight seats only. The first turns set up for round
1 alone; FIRST-9's starter read as the rotation's seat. Markers lowered by the ordinary
play path only, so a play of the drawn tile, a follow-up or a first-turn chain leaves
them up; chain-anywhere's chain kept off marked trains. The blocked test skipped on the
turn that drew the boneyard's last tile. A double left open on a player's train added to
that player's running total at the round's end (a house rule half remembered); the
blocked round's zero given to its last mover; an out in a follow-up or a chain not
counted (MATCH-5's tie-break reads the outs).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference import deal as deal_module
from mtrain.reference import engine as engine_module
from mtrain.reference.engine import (
    BLOCKED,
    CHAIN,
    DOMINO,
    ENGINE,
    FOLLOW,
    Result,
    State,
)
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T

_deal = deal_module.deal

# --- the large sets: rounds past 13 -------------------------------------------------------


def _engine_cycles_by_13(rules: Rules, round_no: int) -> int:
    """ENG-1 written for a double-12 set's 13 rounds: `N - (round - 1) % 13`, so round 14
    of a double-15 or double-18 match opens on [N-N] again."""
    return rules.max_pip - (round_no - 1) % 13


def _deal_engine_cycling(rules: Rules, players: int, round_no: int = 1, **kw: Any) -> State:
    """The deal of `_engine_cycles_by_13`: the round's engine (and the tile set aside
    with it) counted down modulo 13; a state written with the right engine is still
    read, as the app's loader checks no engine."""
    real = getattr(deal_module, "engine_number")  # noqa: B009 (not re-exported by deal)
    setattr(deal_module, "engine_number", _engine_cycles_by_13)  # noqa: B010
    try:
        return _deal(rules, players, round_no, **kw)
    finally:
        setattr(deal_module, "engine_number", real)  # noqa: B010


def _rotation_by_13(state: State, holder: int) -> None:
    """SEAT-3 with the round kept modulo 13: round 14 starts where round 1 did."""
    real = state.round
    state.round = (real - 1) % 13 + 1
    try:
        ref.place_engine(state, holder)
    finally:
        state.round = real


# --- the engine search at many seats ------------------------------------------------------


def _search_skips_last_seat(state: State) -> None:
    """ENG-4's search passed on with `% (players - 1)`: the last seat never draws."""
    seat, n = state.seat, state.players
    ref.draw(state)
    if state.phase == ENGINE and not state.rules.everyone_draws and n > 2:
        state.seat = (seat + 1) % (n - 1)


def _lap_skips_last_seat(state: State, seat: int, tile: int) -> None:
    """ENG-6's laps with the same wrap one short: the last seat never draws."""
    n = state.players
    if n <= 2:
        ref.draw_in_lap(state, seat, tile)
        return
    state.hands[seat] |= T.BIT[tile]
    after = (seat + 1) % (n - 1)
    first = (state.starter if state.rules.highest_draw_starts
             else (state.round - 1) % n)
    if after == first or not state.boneyard:
        bit = T.BIT[T.DOUBLE[state.engine]]
        holder = next((s for s in range(n) if state.hands[s] & bit), -1)
        if holder >= 0:
            state.hands[holder] ^= bit
            engine_module._place_engine(state, holder)
            return
    state.seat = after


def _highest_double_eight_seats(st: State) -> None:
    """ENG-7 with the hands searched over the first eight seats (a table laid out for 8):
    a double held at seat 8 or later is passed over for a lower one held earlier."""
    seats = min(st.players, 8)
    if st.rules.designated_opens or seats == st.players:
        ref.engine_from_deal(st)
        return
    for n in range(st.rules.max_pip, -1, -1):
        bit = T.BIT[T.DOUBLE[n]]
        holder = next((s for s in range(seats) if st.hands[s] & bit), -1)
        if holder >= 0:
            st.hands[holder] ^= bit
            break
    else:
        ref.engine_from_deal(st)  # (no double in the first eight hands: as the reference)
        return
    st.engine = n
    st.ends = [n] * (st.players + 1)
    engine_module._place_engine(st, holder)


# --- matches of several rounds and the first turns ----------------------------------------


def _first_turns_round_one(rules: Rules, players: int, round_no: int = 1, **kw: Any) -> State:
    """FIRST-6 set up with the match: the first turns are round 1's alone, and a later
    round deals with every first turn already over."""
    st = _deal(rules, players, round_no, **kw)
    if round_no > 1 and st.result is None:
        st.first_pending = 0
    return st


def _starter_by_rotation(state: State) -> list[int]:
    """FIRST-9's starter read as the rotation's seat, (round - 1) mod players, whoever
    started the round."""
    real = state.starter
    state.starter = (state.round - 1) % state.players
    try:
        return ref.playable_trains(state)
    finally:
        state.starter = real


def _chain_turn(state: State) -> bool:
    return state.phase == CHAIN or ref.chain_start(state)


def _chain_anywhere_off_marked(state: State) -> list[int]:
    """FIRST-11 with the chain kept off other players' marked trains (a double left open
    there may still be covered)."""
    found = ref.playable_trains(state)
    if not (state.rules.chain_anywhere and _chain_turn(state)):
        return found
    seat, n = state.seat, state.players
    return [t for t in found if t == seat or t >= n or not state.markers >> t & 1
            or t in state.open_doubles]


# --- markers ------------------------------------------------------------------------------


def _marker_kept(when: Callable[[State], bool]) -> Callable[[State, int, int], None]:
    """`_play` with the markers left as they were on the plays where `when` holds."""
    def play(state: State, tile: int, train: int) -> None:
        markers = state.markers if when(state) else None
        ref.play(state, tile, train)
        if markers is not None:
            state.markers = markers
    return play


def _drawn(state: State) -> bool:
    return state.drawn >= 0


def _follow(state: State) -> bool:
    return state.phase == FOLLOW


# --- the boneyard's last tile -------------------------------------------------------------


def _no_check(state: State) -> None:
    return None


def _check_skipped_after_last_draw(state: State) -> None:
    """END-2 and END-3 tested only at a turn that began with the boneyard empty: the turn
    that drew its last tile ends with no test."""
    if state.drawn < 0 or state.boneyard:
        ref.end_turn(state)
        return
    real = engine_module._check_blocked
    engine_module._check_blocked = _no_check
    try:
        ref.end_turn(state)
    finally:
        engine_module._check_blocked = real


# --- a round's end ------------------------------------------------------------------------


def _open_doubles_charged(ends: tuple[str, ...]) -> Callable[[State, str, int], None]:
    """SCORE-5 with a house rule half remembered: at a round's end of the kinds `ends`, a
    double left open on a player's own train is a penalty added to that player's running
    total (its pips), the round's sheet showing the hand alone."""
    def finish(state: State, end: str, winner: int) -> None:
        ref.finish(state, end, winner)
        if end not in ends or state.result is None or state.rules.positive_scoring:
            return
        for t in state.open_doubles:
            if t < state.players and t != winner:
                state.scores[t] += 2 * state.ends[t]
    return finish


def _blocked_zero_to_last_mover(state: State, end: str, winner: int) -> None:
    """SCORE-7 given to the seat whose turn ended the round (the last pass), as if the
    round's last mover had won it, not to the lowest hand."""
    before = list(state.scores)
    last = (state.seat - 1) % state.players  # _end_turn moved on before the test
    ref.finish(state, end, winner)
    rules = state.rules
    if end != BLOCKED or not rules.blocked_low_wins or rules.positive_scoring:
        return
    n = state.players
    scores = [0 if s == last else ref.hand_value(state, s) for s in range(n)]
    state.scores = [before[s] + scores[s] for s in range(n)]
    state.result = Result(end, winner, tuple(scores))


def _out_uncounted(when: Callable[[State], bool]) -> Callable[[State, str, int], None]:
    """`_finish` with the out not counted where `when` holds at the last play."""
    def finish(state: State, end: str, winner: int) -> None:
        skip = winner >= 0 and when(state)
        ref.finish(state, end, winner)
        if skip:
            state.outs[winner] -= 1
    return finish


FIFTEENTH_READING: tuple[Mutant, ...] = (
    # the large sets: rounds past 13
    Mutant("mut15-engine-cycles-by-thirteen",
           "The engine is counted down modulo 13 rounds, as on a double-12 set: round 14 "
           "of a double-15 or double-18 match opens on [N-N] again", ("ENG-1", "MATCH-1"),
           "deal swapped (adapter): engine_number N - (round - 1) % 13 while dealing",
           patches={"deal": _deal_engine_cycling}),
    Mutant("mut15-rotation-restarts-at-round-14",
           "Under a rotating start the round is kept modulo 13: round 14 starts at the seat "
           "round 1 did", ("SEAT-3", "MATCH-1"),
           "_place_engine swapped: the rotation read from (round - 1) % 13 + 1",
           patches={"_place_engine": _rotation_by_13}),
    # the engine search at many seats
    Mutant("mut15-engine-search-skips-last-seat",
           "The search for an undealt engine passes on with `% (players - 1)`: the last "
           "seat never draws", ("ENG-4", "SEAT-1"),
           "_draw swapped: the search's next seat (seat + 1) % (players - 1), 3 players up",
           patches={"_draw": _search_skips_last_seat}),
    Mutant("mut15-lap-search-skips-last-seat",
           "Under engine-everyone-draws the laps pass on with `% (players - 1)`: the last "
           "seat never draws", ("ENG-6", "SEAT-1"),
           "_draw_in_lap swapped: the next seat (seat + 1) % (players - 1), 3 players up",
           patches={"_draw_in_lap": _lap_skips_last_seat}),
    Mutant("mut15-highest-double-search-eight-seats",
           "Under highest-double-held the hands are searched over the first eight seats: "
           "a higher double held at seat 8 or later is passed over", ("ENG-7",),
           "_engine_from_deal swapped: holders looked for in seats 0 to 7",
           patches={"_engine_from_deal": _highest_double_eight_seats}),
    # matches of several rounds and the first turns
    Mutant("mut15-first-turns-round-one-only",
           "The first turns are set up once for the match: from round 2 on every first "
           "turn is over at the deal (no chain, no first-turn Mexican rule)",
           ("FIRST-6", "FIRST-1", "FIRST-9", "MATCH-1"),
           "deal swapped (adapter): first_pending cleared in rounds 2 and up",
           patches={"deal": _first_turns_round_one}),
    Mutant("mut15-starter-only-means-rotation-seat",
           "Under starter-only the seat that may open the Mexican Train in the first turns "
           "is the rotation's, (round - 1) mod players, not the round's starter",
           ("FIRST-9",), "playable_trains swapped: starter read as (round - 1) % players",
           patches={"playable_trains": _starter_by_rotation}),
    Mutant("mut15-chain-anywhere-off-marked-trains",
           "Under chain-anywhere-start the chain may not go on another player's marked "
           "train (unless to cover a double)", ("FIRST-11", "TRAIN-4"),
           "playable_trains swapped: others' marked trains dropped in a first-turn chain",
           patches={"playable_trains": _chain_anywhere_off_marked}),
    # markers
    Mutant("mut15-drawn-play-keeps-marker",
           "A play of the tile just drawn leaves every marker as it was: the draw path "
           "skips marker removal", ("MARK-3", "MARK-4", "MARK-5"),
           "_play swapped: markers restored after a play of the drawn tile",
           patches={"_play": _marker_kept(_drawn)}),
    Mutant("mut15-follow-up-play-keeps-marker",
           "A follow-up play after a double leaves every marker as it was",
           ("MARK-3", "MARK-4", "MARK-5"),
           "_play swapped: markers restored after a play in the follow-up",
           patches={"_play": _marker_kept(_follow)}),
    Mutant("mut15-chain-play-keeps-marker",
           "A play of a first-turn chain leaves every marker as it was",
           ("MARK-3", "MARK-4", "MARK-5", "FIRST-11"),
           "_play swapped: markers restored after a play of a first-turn chain",
           patches={"_play": _marker_kept(_chain_turn)}),
    # the boneyard's last tile
    Mutant("mut15-blocked-test-skipped-after-last-draw",
           "The blocked test runs only at a turn that began with the boneyard empty: the "
           "turn that drew its last tile and passed ends untested", ("END-2", "END-3"),
           "_end_turn swapped: no _check_blocked after a pass that followed the last draw",
           patches={"_end_turn": _check_skipped_after_last_draw}),
    # a round's end
    Mutant("mut15-blocked-open-doubles-on-totals",
           "After a blocked round each player's match total adds the pips of a double left "
           "open on their own train, besides their hand", ("SCORE-5", "SCORE-7", "MATCH-1"),
           "_finish swapped: a blocked round's open doubles added to their owners' totals",
           patches={"_finish": _open_doubles_charged((BLOCKED,))}),
    Mutant("mut15-out-open-doubles-on-totals",
           "After a round won by going out each other player's match total adds the pips "
           "of a double left open on their own train, besides their hand",
           ("SCORE-5", "MATCH-1"),
           "_finish swapped: a domino round's open doubles added to their owners' totals",
           patches={"_finish": _open_doubles_charged((DOMINO,))}),
    Mutant("mut15-blocked-winner-is-last-mover",
           "Under blocked-winner scoring a blocked round's 0 goes to the seat whose pass "
           "ended it, not to the lowest hand", ("SCORE-7", "END-2", "END-3"),
           "_finish swapped: the seat that moved last zeroed in a blocked round",
           patches={"_finish": _blocked_zero_to_last_mover}),
    Mutant("mut15-follow-up-out-uncounted",
           "A player who goes out in a follow-up (covering a double with the last tile) is "
           "not counted an out", ("END-1", "MATCH-5"),
           "_finish swapped: outs not raised for an out in the follow-up",
           patches={"_finish": _out_uncounted(_follow)}),
    Mutant("mut15-chain-out-uncounted",
           "A player who goes out in a first-turn chain is not counted an out",
           ("END-1", "MATCH-5", "FIRST-1"),
           "_finish swapped: outs not raised for an out in a first-turn chain",
           patches={"_finish": _out_uncounted(_chain_turn)}),
)
"""The fifteenth reading: 17 rule bugs, none a mutant of the catalogue (names and
descriptions checked against the fourteen readings before it). The engine counted modulo
13 is swapped into the adapter's deal only: swapped in the codec too (engine_number's
sites) the app would refuse every later round's state, an error no clause is charged
with.

Measured on the corpus as it was before any fixture was added for them (2026-12-05,
`mtrain mutants -m mut15-... -j 2`, 2,225 passing runs; the sixteen first written): 11
killed, five survived
(mut15-highest-double-search-eight-seats: no fixture deals 9 players or more under
highest-double-held; mut15-follow-up-play-keeps-marker: none takes a marker off by a
follow-up; mut15-out-charges-open-doubles: none goes out beside a double left open on
another player's train; mut15-follow-up-out-uncounted and mut15-chain-out-uncounted:
none checks the outs after an out in a follow-up or a first-turn chain). With the
fixtures worked by hand from the clauses (engine/highest-double-fifteenth-reading.yaml
bigset15-001, -002; markers/follow-up-fifteenth-reading.yaml marker15-001, -002;
round-end/open-doubles-fifteenth-reading.yaml open15-001, -002;
round-end/outs-fifteenth-reading.yaml outs15-001 to -004) every one is killed by two
fixtures or more (2,244 runs); mut15-blocked-winner-is-last-mover, written after them, is
killed by 8 (score-020 and others). Blame (`--blame`) charges all 17 to a clause they
break. The two open-double mutants add the penalty to the running totals alone: written
first on the round's sheet as well, they were charged SCORE-1, since round scores that
disagree with the hands at one seat read (INV-ROUND-SCORE, score_charges._values_only) as a
tile valued wrongly, not as who is charged what (SCORE-5)."""
