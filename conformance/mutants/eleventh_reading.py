"""Rule bugs of an eleventh outside reading: written from shared/RULES.md and the clauses
(docs/rules/), aimed at where the corpus is thinnest, counted over the catalogue (421
mutants, 680 fixtures) per tile set and player count, and under house rules.

Per tile set and player count (the fixtures whose scopes name the set, by the seats
their table deals): double-15 and double-18 with 11 or 12 players had 2 or 3 fixtures
each, with 9 players 3, against 300 and more at 3 players; double-12 stops at 10 (pagat's
and billhathaway.com's tables), so an engine sized for ten seats (an array of ten, ten
bits of markers, a loop to ten) passes every fixture below eleven players. Under house
rules (an option a mutant's clauses do not name played `other`; a killer applies when a
product of its scope leaves the option free), the rules of the round's end were the
weakest: the blocked-winner rule (SCORE-7) and END-2/END-3 kept one killer or none once
`blocked_round`, `match_length` or `draw_rule` was the engine's own, and the MATCH rules
none under `match_length` (every fixture that tells reads the match's length). What a
round is worth was checked almost only on rounds gone out: the blank rules (SCORE-2 to
SCORE-4) on 18, 13 and 13 fixtures, few of them blocked; and how a blocked round is told
from one gone out, by who is credited with it, on none that an author who scores "the
last player to move" would fail.

Each is a slip an engine author makes: a seat table sized for pagat's ten players, a
score sheet read for the outs, the house rule on blanks written into one branch of the
scoring, a marked train's owner read as the only one who may start it, the Mexican
Train counted among the owner's trains, a loop to `n - 1`, a falsy zero.

Set aside on reading: markers carried into the next round. The next round is a new deal,
built from nothing but the totals and outs (deal.next_round), so no swap of the engine's
functions reaches it.
"""

from __future__ import annotations

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference import deal as deal_module
from mtrain.reference.engine import BLOCKED, OVER, START, Action, State
from mtrain.reference.rules import MARKER_OWNER_OWN
from mtrain.reference.state import Result
from mtrain.spec import tiles as T

_match_winners = deal_module.match_winners  # bound before any swap (originals.py's way)

TEN = 10
"""pagat's and billhathaway.com's largest table: the seats an author's arrays hold."""


# --- a table sized for ten players --------------------------------------------------------


def _turn_wraps_at_ten(state: State) -> None:
    """SEAT-1 with ten seats: after seat 9 comes seat 0, whatever the table."""
    seat = state.seat
    ref.end_turn(state)
    if seat == TEN - 1 and state.players > TEN and state.phase == START:
        state.seat = 0


def _rotate_wraps_at_ten(state: State, holder: int) -> None:
    """SEAT-3 with the modulus fixed at ten seats: round r starts at (r - 1) mod 10, so at
    11 or 12 players rounds 11 and later start too early."""
    ref.place_engine(state, holder)
    rules = state.rules
    if state.players > TEN and not (rules.engine_holder_starts or rules.after_engine_starts
                                    or rules.highest_draw_starts
                                    or rules.heaviest_tile_starts):
        state.seat = state.starter = (state.round - 1) % TEN


def _markers_in_ten_bits(state: State, action: Action) -> None:
    """MARK-1 with ten bits of markers: a marker of seat 10 or 11 is lost with the next
    action."""
    ref.perform(state, action)
    state.markers &= (1 << TEN) - 1


def _passes_to_ten(state: State) -> None:
    """END-3 with a round of passes counted to ten at most: at 11 or 12 players the round
    is blocked after ten passes in a row."""
    if state.boneyard or not state.rules.passes_end_round or state.players <= TEN:
        ref.check_blocked(state)
    elif state.passes >= TEN:
        ref.finish(state, BLOCKED, -1)


def _nobody_among_ten(state: State) -> bool:
    """END-2 asked of seats 0 to 9 only: a round where only seat 10 or 11 can still play
    is blocked."""
    for s in range(min(state.players, TEN)):
        if ref.can_ever_play(state, s):
            return False
    if not state.first_pending:
        return True
    return ref.nobody_can_ever_play(state)


def _ten_seats_scored(state: State, end: str, winner: int) -> None:
    """SCORE-5 and SCORE-6 on a score sheet of ten columns: seats 10 and 11 score
    nothing, and under positive scoring their hands are not collected."""
    ref.finish(state, end, winner)
    result = state.result
    assert result is not None  # (_finish sets it)
    n = state.players
    if n <= TEN:
        return
    scores = list(result.scores)
    for s in range(TEN, n):
        state.scores[s] -= scores[s]
        scores[s] = 0
    if winner >= 0 and state.rules.positive_scoring:
        lost = sum(ref.hand_value(state, s) for s in range(TEN, n))
        state.scores[winner] -= lost
        scores[winner] -= lost
    state.result = Result(result.end, result.winner, tuple(scores))


def _winners_among_ten(st: State) -> list[int]:
    """MATCH-2 and MATCH-3 over seats 0 to 9: seat 10 or 11 never wins."""
    if st.players <= TEN:
        return _match_winners(st)
    short = st.copy()
    worst = -(10 ** 9) if st.rules.positive_scoring else 10 ** 9
    short.scores = [v if s < TEN else worst for s, v in enumerate(st.scores)]
    return _match_winners(short)


# --- the match's end ------------------------------------------------------------------------


def _winners_skip_last_seat(st: State) -> list[int]:
    """MATCH-2 and MATCH-3 over `range(n - 1)`: the last seat never wins."""
    short = st.copy()
    worst = -(10 ** 9) if st.rules.positive_scoring else 10 ** 9
    short.scores = [*st.scores[:-1], worst]
    return _match_winners(short)


def _winners_skip_zero(st: State) -> list[int]:
    """MATCH-2 with a total of 0 read as 'nothing scored yet' (a falsy zero): under
    penalty scoring a player on 0 is passed over while anyone scored more."""
    if st.rules.positive_scoring or not any(st.scores) or 0 not in st.scores:
        return _match_winners(st)
    short = st.copy()
    short.scores = [v if v else 10 ** 9 for v in st.scores]
    return _match_winners(short)


def _outs_from_zero_scores(state: State, end: str, winner: int) -> None:
    """MATCH-5's outs read off the score sheet: under penalty scoring every round score
    of 0 counts as an out, a blocked round's lowest hand (SCORE-7) or a hand of [0-0]
    alone at face value (SCORE-1) included."""
    ref.finish(state, end, winner)
    result = state.result
    assert result is not None
    if state.rules.positive_scoring:
        return
    for s, v in enumerate(result.scores):
        if v == 0 and s != winner:
            state.outs[s] += 1


# --- a round blocked, scored as one gone out, and the reverse ------------------------------


def _face_value(state: State, seat: int) -> int:
    return sum(T.PIPS[t] for t in T.tiles_of(state.hands[seat]))


def _rescored(state: State, values: list[int]) -> None:
    """The round's penalty scores replaced by `values` (totals kept in step)."""
    result = state.result
    assert result is not None
    for s, v in enumerate(values):
        state.scores[s] += v - result.scores[s]
    state.result = Result(result.end, result.winner, tuple(values))


def _blocked_last_mover_out(state: State, end: str, winner: int) -> None:
    """A blocked round (END-2, END-3) scored as one gone out by the last player to move:
    under penalty scoring they score 0 and are credited with an out, under positive
    scoring they collect the hands. The round is still reported blocked."""
    ref.finish(state, end, winner)
    if end != BLOCKED or winner >= 0:
        return
    result = state.result
    assert result is not None
    last = (state.seat - 1) % state.players
    if state.rules.positive_scoring:
        values = [0] * state.players
        values[last] = sum(ref.hand_value(state, s) for s in range(state.players))
    else:
        values = list(result.scores)
        values[last] = 0
    state.outs[last] += 1
    _rescored(state, values)


def _blanks_only_when_out(state: State, end: str, winner: int) -> None:
    """SCORE-2 to SCORE-4 written into the branch of a round gone out: a blocked round's
    hands count at face value (penalty scoring, SCORE-7 not played)."""
    ref.finish(state, end, winner)
    rules = state.rules
    if end == BLOCKED and not rules.positive_scoring and not rules.blocked_low_wins:
        _rescored(state, [_face_value(state, s) for s in range(state.players)])


def _blanks_only_when_blocked(state: State, end: str, winner: int) -> None:
    """SCORE-2 to SCORE-4 written into the branch of a blocked round: when a player goes
    out the others' hands count at face value (penalty scoring)."""
    ref.finish(state, end, winner)
    rules = state.rules
    if end != BLOCKED and not rules.positive_scoring:
        _rescored(state, [0 if s == winner else _face_value(state, s)
                          for s in range(state.players)])


# --- the Mexican Train and markers ---------------------------------------------------------


def _marked_empty_train_closed(state: State) -> list[int]:
    """TRAIN-4 with 'only its owner starts a train': another player's marked train that
    holds no tile yet is not offered."""
    out = ref.playable_trains(state)
    seat, n, trains = state.seat, state.players, state.trains
    return [t for t in out if t == seat or t >= n or trains[t] or t in state.open_doubles]


def _owner_mexican_play_lowers_marker(state: State, tile: int, train: int) -> None:
    """MARK-3 with the Mexican Train counted among the owner's trains: under
    owner-plays-own a play on the Mexican Train takes the player's marker off."""
    seat = state.seat
    ref.play(state, tile, train)
    if train == state.players and state.rules.marker_rule == MARKER_OWNER_OWN:
        state.markers &= ~(1 << seat)


def _marked_player_own_train_only(state: State) -> list[int]:
    """TRAIN-4 read with 'a marked player must first lift their marker': while a player's
    marker is up they may play only on their own train (duties to cover kept)."""
    out = ref.playable_trains(state)
    seat = state.seat
    if state.phase != START or not state.markers >> seat & 1 or ref.duties(state):
        return out
    return [t for t in out if t == seat]


def _pass_on_empty_train_unmarked(state: State, action: Action) -> None:
    """MARK-1 read as 'a marker shows where others may help': a player who passes while
    their own train is still empty gets no marker, as if nothing could go there (a tile
    bearing the engine's number can, TRAIN-2)."""
    seat = state.seat
    ref.perform(state, action)
    if (action.kind == "pass" and state.phase != OVER and not state.trains[seat]
            and state.markers >> seat & 1):
        state.markers &= ~(1 << seat)


ELEVENTH_READING: tuple[Mutant, ...] = (
    # a table sized for ten players
    Mutant("turn-wraps-at-ten",
           "After seat 9 play passes to seat 0, whatever the number of players",
           ("SEAT-1", "TURN-6"), "_end_turn swapped: seat 10 skipped back to 0",
           patches={"_end_turn": _turn_wraps_at_ten}),
    Mutant("rotate-start-wraps-at-ten",
           "Under the rotating start round r starts at seat (r - 1) mod 10 whatever the "
           "number of players", ("SEAT-3",),
           "_place_engine swapped: (round - 1) mod 10 under rotate with more than 10 players",
           patches={"_place_engine": _rotate_wraps_at_ten}),
    Mutant("markers-in-ten-bits",
           "Markers are kept in ten bits: seats 10 and 11 lose their marker with the next "
           "action", ("MARK-1", "TURN-4"), "perform swapped: markers masked to ten bits",
           patches={"perform": _markers_in_ten_bits}),
    Mutant("blocked-test-asks-ten-seats",
           "Whether anyone can ever play again is asked of seats 0 to 9 only: a round where "
           "only seat 10 or 11 can play is blocked", ("END-2",),
           "nobody_can_ever_play swapped: seats past 9 not asked",
           patches={"nobody_can_ever_play": _nobody_among_ten}),
    Mutant("passes-counted-to-ten",
           "Under full-round-of-passes the round is blocked after ten passes in a row, "
           "whatever the number of players", ("END-3",),
           "_check_blocked swapped: at most ten passes asked",
           patches={"_check_blocked": _passes_to_ten}),
    Mutant("ten-seats-scored",
           "A round's score sheet has ten columns: seats 10 and 11 score nothing and their "
           "hands are not collected", ("SCORE-5", "SCORE-6"),
           "_finish swapped: scores past seat 9 dropped",
           patches={"_finish": _ten_seats_scored}),
    Mutant("winners-among-ten-seats",
           "The match's winner is sought among seats 0 to 9: seat 10 or 11 never wins",
           ("MATCH-2", "MATCH-3"), "winners hook: totals past seat 9 made losing",
           winners=_winners_among_ten),
    # the match's end
    Mutant("winners-skip-last-seat",
           "The match's winner is sought over range(n - 1): the last seat never wins, nor "
           "shares a win", ("MATCH-2", "MATCH-3", "MATCH-4", "MATCH-5"),
           "winners hook: the last seat's total made losing",
           winners=_winners_skip_last_seat),
    Mutant("winners-skip-zero-total",
           "Under penalty scoring a match total of 0 is read as nothing scored: that player "
           "is passed over", ("MATCH-2",), "winners hook: totals of 0 made losing",
           winners=_winners_skip_zero),
    Mutant("outs-from-zero-scores",
           "Outs are counted off the score sheet: under penalty scoring every round score "
           "of 0 is an out, a blocked round's too", ("MATCH-5", "SCORE-7", "SCORE-1"),
           "_finish swapped: an out added for each other score of 0",
           patches={"_finish": _outs_from_zero_scores}),
    # a round blocked vs gone out
    Mutant("blocked-last-mover-goes-out",
           "A blocked round is scored as gone out by the last player to move: they score "
           "0 (or collect the hands) and are credited with an out",
           ("SCORE-5", "SCORE-6", "END-2", "END-3", "MATCH-5"),
           "_finish swapped: a blocked round rescored for the seat before the one to move",
           patches={"_finish": _blocked_last_mover_out}),
    Mutant("blanks-only-when-out",
           "The blank rule is applied to rounds gone out only: a blocked round's hands "
           "count at face value", ("SCORE-2", "SCORE-3", "SCORE-4", "SCORE-5"),
           "_finish swapped: a blocked round rescored at face value",
           patches={"_finish": _blanks_only_when_out}),
    Mutant("blanks-only-when-blocked",
           "The blank rule is applied to blocked rounds only: when a player goes out the "
           "others' hands count at face value", ("SCORE-2", "SCORE-3", "SCORE-4", "SCORE-5"),
           "_finish swapped: a round gone out rescored at face value",
           patches={"_finish": _blanks_only_when_blocked}),
    # the Mexican Train and markers
    Mutant("marked-empty-train-closed",
           "Another player's marked train that holds no tile yet may not be started by "
           "anyone but its owner", ("TRAIN-4", "MARK-1", "TRAIN-2"),
           "playable_trains swapped: empty marked trains of others dropped",
           patches={"playable_trains": _marked_empty_train_closed}),
    Mutant("owner-mexican-play-lowers-marker",
           "Under owner-plays-own a play on the Mexican Train takes the player's marker off, "
           "as if it were their own train", ("MARK-3", "MARK-2"),
           "_play swapped: the mover's marker off after a Mexican play",
           patches={"_play": _owner_mexican_play_lowers_marker}),
    Mutant("marked-player-own-train-only",
           "A player whose marker is up may play only on their own train until it comes off",
           ("TRAIN-4", "MARK-1", "TURN-1"),
           "playable_trains swapped: a marked mover kept to their own train",
           patches={"playable_trains": _marked_player_own_train_only}),
    Mutant("pass-on-empty-train-unmarked",
           "A player who passes with their own train still empty gets no marker on it",
           ("MARK-1", "TURN-4", "FIRST-3", "TRAIN-2"),
           "perform swapped: a pass leaves no marker on an empty own train",
           patches={"perform": _pass_on_empty_train_unmarked}),
)
"""The eleventh reading: 17 rule bugs, none a mutant of the catalogue (names and
descriptions checked against the ten readings before it).

Measured on the corpus before any fixture was added for them (2026-12-05, `mtrain mutants
-m NAME ... -j 2`, 2,084 passing runs): 10 killed, seven survived, every one of a table
of 11 or 12 (turn-wraps-at-ten, rotate-start-wraps-at-ten, markers-in-ten-bits,
blocked-test-asks-ten-seats, passes-counted-to-ten, ten-seats-scored,
winners-among-ten-seats: no fixture played or dealt past seat 9); the fewest killers among
the rest four (blanks-only-when-out). With the fixtures worked by hand from the clauses
(seats/large-tables-eleventh-reading.yaml, tenseat-001 to -015) every one is killed by two
fixtures or more, and blame charges all 17 to a clause they break.

Under house rules, measured with the harness's own test (selection.entry_for: a rule set
named by a killer, with one option its clauses do not name played `other`, still selects
an entry), tenseat-014 and -015 keep markers-in-ten-bits and turn-wraps-at-ten at two
killers under a blocked-round rule of one's own (the others pass on an empty boneyard,
which asks that rule). The gaps left are where every fixture that can tell reads the
option: who wins (MATCH-2, MATCH-3) only once the match is over, which `match_length`
decides; a blocked round's scores (blanks-only-when-out) only once it is blocked, which
`blocked_round` decides; a deal's first seat (rotate-start-wraps-at-ten) only through the
engine's procedure and the starting rule."""
