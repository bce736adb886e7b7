"""Rule bugs of a thirty-fifth reading, written where house-rule engines meet the moments
of a turn: a marker put up, put back or left down at the wrong one, the blocked test asked
with a neighbouring option's rule, a first turn read as spent by its double, known values
read as their house-rule neighbours, and a tie of three handled by code written for two.

The markers: the play of a tile just drawn read as a turn that failed, the marker put up
after it (TURN-3, MARK-1; a removal the play made is undone: MARK-3 to MARK-5); under
anyone-plays-on a failed follow-up read as undoing the turn, a marker its double took off
another player's train put back (MARK-4, DBL-5), and a double laid on a marked train
leaving the marker up while it waits for its follow-up (MARK-4, DBL-1); a pass made beside
an open double of an earlier turn, binding or released, read as the double's doing, the
passer's marker left down (MARK-1, TURN-4). The blocked round (END-2, asked at the start
of a turn with the boneyard empty): under release-uncoverable a dead double still read as
binding there (DBL-9); under any-open the test written for oldest-first (DBL-8); where the
own train need not come first the test written for own-train-first, a seat with an empty
own train asked about it alone (TRAIN-4). The first turn: under starter-opens-mexican
(single-tile starts) a double laid on a first turn taken as the end of it, its follow-up
free to open the Mexican Train (FIRST-9, FIRST-6). The neighbours of house rules
(tests/examples/): under own-train-first "start at home unless stuck" (TRAIN-7); under
oldest-first "the nearest first", the open double nearest the mover round the table
(DBL-7). Ties of three: in the draw for the start only the first two tied seats go on to
the run-off (SEAT-5); under most-outs only the first two tied seats' outs are compared
(MATCH-5).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference import deal as deal_module
from mtrain.reference.engine import ENGINE, FOLLOW, Action, State
from mtrain.reference.rules import MARKER_ANYONE_ON, Rules
from mtrain.spec import tiles as T

_REPLACED: dict[tuple[int, str], tuple[Rules, Rules]] = {}
_match_winners = deal_module.match_winners


def _replaced(rules: Rules, **changes: Any) -> Rules:
    """`rules` with these flags changed, made once per rule set (the engine compares rules
    by identity, so a fresh copy per call would read as a new rule set)."""
    key = (id(rules), repr(sorted(changes.items())))
    found = _REPLACED.get(key)
    if found is None:
        found = _REPLACED[key] = (rules, dataclasses.replace(rules, **changes))
    return found[1]


def _can_play_with(state: State, seat: int, **changes: Any) -> bool:
    rules = state.rules
    state.rules = _replaced(rules, **changes)
    try:
        return ref.can_ever_play(state, seat)
    finally:
        state.rules = rules


# --- the markers --------------------------------------------------------------------------


def _drawn_play_raises_marker(state: State, action: Action) -> None:
    """TURN-3 read as a failed turn: the player had to draw, so the marker goes up, after
    the drawn tile is laid (a removal the play made is undone)."""
    kind, _, _ = action
    seat = state.seat
    drawn = kind == "play" and state.drawn >= 0 and state.phase != ENGINE
    ref.perform(state, action)
    if drawn and state.result is None:
        state.markers |= 1 << seat


def _failed_follow_restores_markers(state: State, action: Action) -> None:
    """MARK-4 undone by a failed follow-up: every other player's train where a double of
    the turn still stands open (laid there while it was marked) is marked again."""
    kind, _, _ = action
    seat, players = state.seat, state.players
    back = 0
    if (kind == "pass" and state.phase == FOLLOW
            and state.rules.marker_rule == MARKER_ANYONE_ON):
        for t in state.turn_doubles:
            if t < players and t != seat:
                back |= 1 << t
    ref.perform(state, action)
    if back and state.result is None:
        state.markers |= back


def _anyone_double_keeps_marker(state: State, action: Action) -> None:
    """MARK-4 read as settled by a tile that ends the turn: a double laid on a marked
    train, asking for another tile, leaves the marker up; only a tile laid there later
    (its cover) takes it off."""
    kind, tile, train = action
    rules = state.rules
    keep = (kind == "play" and T.IS_DOUBLE[tile] and train < state.players
            and state.markers >> train & 1 and rules.marker_rule == MARKER_ANYONE_ON)
    ref.perform(state, action)
    if keep and state.result is None and state.phase == FOLLOW:
        state.markers |= 1 << train


def _pass_beside_double_unmarked(state: State, action: Action) -> None:
    """MARK-1 skipped while an open double of an earlier turn stands on the table, whether
    it binds or not: the pass is read as the double's doing."""
    kind, _, _ = action
    seat = state.seat
    earlier = kind == "pass" and any(t not in state.turn_doubles for t in state.open_doubles)
    was = state.markers >> seat & 1
    ref.perform(state, action)
    if earlier and not was:
        state.markers &= ~(1 << seat)


# --- the blocked round --------------------------------------------------------------------


def _blocked_binds_dead(state: State, seat: int) -> bool:
    """END-2 with DBL-9 forgotten: a double nobody can cover still binds in the test."""
    if not state.rules.release_uncoverable:
        return ref.can_ever_play(state, seat)
    return _can_play_with(state, seat, release_uncoverable=False)


def _blocked_reads_oldest_first(state: State, seat: int) -> bool:
    """END-2 written for oldest-first: under any-open only the oldest double is coverable
    in the test."""
    if state.rules.oldest_first or len(state.open_doubles) < 2:
        return ref.can_ever_play(state, seat)
    return _can_play_with(state, seat, oldest_first=True)


def _blocked_keeps_home_first(state: State, seat: int) -> bool:
    """END-2 written for own-train-first: a seat whose own train is empty counts as able
    to play on it alone, whatever else the rules open to it."""
    if state.rules.own_train_first or state.trains[seat]:
        return ref.can_ever_play(state, seat)
    return _can_play_with(state, seat, own_train_first=True)


# --- the first turn -----------------------------------------------------------------------


def _first_turn_spent_by_double(state: State) -> list[int]:
    """FIRST-9 with the first turn read as over once its double is laid: the follow-up is
    a later turn's tile, free to open the Mexican Train."""
    seat = state.seat
    bit = 1 << seat
    if (state.phase != FOLLOW or not state.first_pending & bit
            or not state.rules.starter_only_mexican):
        return ref.playable_trains(state)
    state.first_pending &= ~bit
    try:
        return ref.playable_trains(state)
    finally:
        state.first_pending |= bit


# --- the neighbours of house rules --------------------------------------------------------


def _home_first_unless_stuck(state: State, seat: int, all_marked: bool = False,
                             first_turns_over: bool = False) -> list[int]:
    """TRAIN-7 read as "start at home unless stuck": a seat whose own train is empty and
    who holds no tile to start it may play wherever the rules open without TRAIN-7."""
    rules = state.rules
    if (not rules.own_train_first or state.trains[seat]
            or state.hands[seat] & rules.number_mask[state.ends[seat]]):
        return ref.open_trains(state, seat, all_marked, first_turns_over)
    state.rules = _replaced(rules, own_train_first=False)
    try:
        return ref.open_trains(state, seat, all_marked, first_turns_over)
    finally:
        state.rules = rules


def _oldest_first_nearest_mover(state: State, first_turns_over: bool = False) -> list[int]:
    """DBL-7 read as the house rule "the nearest first": of the doubles that bind, the one
    on the train nearest the mover round the table (the own train, the next seat's, ...,
    the Mexican Train last) is covered first, whatever their ages."""
    out = ref.duties(state, first_turns_over)
    rules = state.rules
    if len(out) != 1 or len(state.open_doubles) < 2 or not rules.oldest_first:
        return out
    state.rules = _replaced(rules, oldest_first=False)
    try:
        bound = ref.duties(state, first_turns_over)
    finally:
        state.rules = rules
    players, seat = state.players, state.seat
    return [min(bound, key=lambda t: players if t == players else (t - seat) % players)]


def _run_off_first_two(rules: Rules, players: int, draw: Sequence[Sequence[int]]) -> int:
    """SEAT-5 written for a tie of two: of three or more seats tied on the highest total,
    only the first two go on to the run-off; the others' later tiles are not read."""
    ref.draw_winner(rules, players, draw)  # the draw is checked as the reference checks it
    tied, k = list(range(players)), 0
    while True:
        here = [s for s in tied if len(draw[s]) > k]
        if not here:
            return tied[0]
        totals = {s: T.HIGH[draw[s][k]] + T.LOW[draw[s][k]] for s in here}
        best = max(totals.values())
        tied = [s for s in here if totals[s] == best][:2]
        if len(tied) == 1:
            return tied[0]
        k += 1


# --- the match ----------------------------------------------------------------------------


def _most_outs_first_two(state: State) -> list[int]:
    """MATCH-5 written for a tie of two: of three or more tied seats the first two are
    compared, the one with more outs winning; equal, the whole tie is shared."""
    rules = state.rules
    best = max(state.scores) if rules.positive_scoring else min(state.scores)
    tied = [s for s, v in enumerate(state.scores) if v == best]
    if len(tied) < 3 or not rules.tie_most_outs:
        return _match_winners(state)
    a, b = tied[0], tied[1]
    if state.outs[a] != state.outs[b]:
        return [a if state.outs[a] > state.outs[b] else b]
    return tied


THIRTY_FIFTH_READING: tuple[Mutant, ...] = (
    Mutant("mut35-drawn-play-raises-marker",
           "Playing the tile just drawn puts the player's marker up: having had to draw is "
           "read as a turn that failed, the tile's marker removal undone",
           ("TURN-3", "MARK-1", "TURN-4", "MARK-3", "MARK-4", "MARK-5"),
           "perform swapped: the mover's marker raised after a drawn tile is laid",
           patches={"perform": _drawn_play_raises_marker}),
    Mutant("mut35-failed-follow-restores-markers",
           "Under anyone-plays-on a failed follow-up undoes the turn's marker removals: a "
           "marker its double took off another player's train goes back up",
           ("MARK-4", "DBL-5"),
           "perform swapped: at a pass in a follow-up, the other players' trains holding a "
           "double of the turn marked again",
           patches={"perform": _failed_follow_restores_markers}),
    Mutant("mut35-anyone-double-keeps-marker",
           "Under anyone-plays-on a double laid on a marked train leaves the marker up while "
           "it waits for its follow-up: only a tile laid there later takes it off",
           ("MARK-4", "DBL-1"),
           "perform swapped: a double's marker put back while the turn goes on to its "
           "follow-up",
           patches={"perform": _anyone_double_keeps_marker}),
    Mutant("mut35-pass-beside-open-double-unmarked",
           "A pass made while an open double of an earlier turn stands on the table, binding "
           "or released, leaves the passer's marker down", ("MARK-1", "TURN-4"),
           "perform swapped: the passer's marker kept as it was when such a double is open",
           patches={"perform": _pass_beside_double_unmarked}),
    Mutant("mut35-blocked-test-binds-dead",
           "Under release-uncoverable END-2 reads a double nobody can cover as still binding: "
           "a table where the others could play is found blocked", ("END-2", "DBL-9"),
           "can_ever_play swapped: release_uncoverable off inside it",
           patches={"can_ever_play": _blocked_binds_dead}),
    Mutant("mut35-blocked-reads-oldest-first",
           "Under any-open END-2 is asked as under oldest-first: a seat that could cover only "
           "a newer open double counts as stuck", ("END-2", "DBL-8"),
           "can_ever_play swapped: oldest_first on inside it",
           patches={"can_ever_play": _blocked_reads_oldest_first}),
    Mutant("mut35-blocked-keeps-home-first",
           "Where the own train need not come first, END-2 still asks a seat whose own train "
           "is empty whether it could start it, nothing else", ("END-2", "TRAIN-4"),
           "can_ever_play swapped: own_train_first on inside it for a seat with an empty "
           "own train",
           patches={"can_ever_play": _blocked_keeps_home_first}),
    Mutant("mut35-first-turn-spent-by-double",
           "Under starter-opens-mexican a double laid on a first turn ends it: its follow-up "
           "may open the Mexican Train, starter or not", ("FIRST-9", "FIRST-6", "DBL-2"),
           "playable_trains swapped: the mover's first turn taken as over in a follow-up",
           patches={"playable_trains": _first_turn_spent_by_double}),
    Mutant("mut35-home-first-unless-stuck",
           "Under own-train-first a player who holds no tile to start their own train may "
           "play elsewhere, as the house rule \"start at home unless stuck\" plays",
           ("TRAIN-7",),
           "open_trains swapped: TRAIN-7 off for a seat that cannot start its own train",
           patches={"open_trains": _home_first_unless_stuck}),
    Mutant("mut35-oldest-first-nearest-mover",
           "Under oldest-first the open double nearest the mover round the table is covered "
           "first, whatever its age, as the house rule \"the nearest first\" plays",
           ("DBL-7",),
           "duties swapped: of the doubles that bind, the nearest the mover",
           patches={"duties": _oldest_first_nearest_mover}),
    Mutant("mut35-draw-run-off-first-two",
           "Under highest-draw-start a tie of three or more on the highest total goes to a "
           "run-off between the first two tied seats only", ("SEAT-5",),
           "draw_winner swapped: the tied seats cut to the first two at each drawing",
           patches={"draw_winner": _run_off_first_two}),
    Mutant("mut35-most-outs-first-two-compared",
           "Under most-outs a tie of three or more is broken on the first two tied seats' "
           "outs alone; equal, the whole tie is shared", ("MATCH-5",),
           "winners: the first two tied seats compared, the others not read",
           winners=_most_outs_first_two),
)
"""The thirty-fifth reading: 12 rule bugs kept, none a mutant of the catalogue (names,
descriptions and what each changes checked against the thirty-four readings before it;
the nearest are other moments or other options: marker-up-on-draw raises the marker at the
draw, where a play home may still take it off, mut35-drawn-play-raises-marker after the
play; mut15-drawn-play-keeps-marker leaves the markers as they were; own-double-pass-
unmarked and mut13-follow-fail-marks-double-train mark the wrong train or none at a failed
follow-up, mut35-failed-follow-restores-markers marks the right one and puts another back;
mut33-follow-loses-unmarked-double closes the double's train to its follow-up, mut35-
anyone-double-keeps-marker leaves it marked; duty-pass-unmarked is a duty's pass on an
empty boneyard, mut35-pass-beside-open-double-unmarked any pass beside an earlier double;
blocked-test-binds-released is DBL-12's and DBL-13's, blocked-test-releases-dead DBL-10's,
mut35-blocked-test-binds-dead DBL-9's; mut34-blocked-ignores-oldest-first drops DBL-7 from
END-2, mut35-blocked-reads-oldest-first adds it under DBL-8; blocked-ignores-own-train-
first drops TRAIN-7, mut35-blocked-keeps-home-first adds it where it is not the rule (and
mut13-blocked-ignores-mexican closes the Mexican Train to every seat); mut23-first-turn-
spent-by-draw spends the first turn at a draw, mut35-first-turn-spent-by-double at a
double; mut29-own-train-first-stuck-passes and mut31-own-train-first-lapses-when-dry free
the stuck player otherwise; mut33-oldest-first-own-double-first and mut20-oldest-first-by-
train-order read the order off the own train or train numbers, mut35-oldest-first-nearest-
mover off the seats round from the mover; draw-tie-to-lowest-seat has nobody draw again;
mut19-tie-rule-only-for-two-way-ties shares every tie of three, mut35-most-outs-first-two-
compared breaks it on two seats).

Written and not kept. A twin: END-2 asked of every seat but the one about to move is
mut32-stuck-test-skips-mover (found after it was measured, killed by ten fixtures).
Considered and not written, each equivalent (no table can tell it from the reference):
under starter-opens-mexican the others
allowed the Mexican Train only once every first turn is over (FIRST-9's first sentence
alone): with single-tile starts a player's second turn comes after every first turn, the
order running round from the starter; under own-train-opens-mexican, or starter-opens-
mexican, the Mexican Train opened to a player who cannot start their own train ("unless
stuck"): both empty trains end in the engine's number, so a tile that would open the one
would start the other; under full-round-of-passes the passes kept as a set of seats
rather than a count: a seat can pass twice without a play between only after every other
seat has passed, when the count has reached the players already; the follow-up freed of
an earlier turn's binding double: no turn that began bound by one can lay a double, a
cover never being a double.

Measured on the corpus before any fixture was added for them (2026-12-07, `mtrain mutants
-m mut35-... --need 2`, 3,437 passing runs): 11 of 12 killed, mut35-failed-follow-restores-
markers surviving (no fixture fails a follow-up after a double on another player's marked
train under anyone-plays-on); mut35-blocked-reads-oldest-first (doubles-064) and mut35-
draw-run-off-first-two (draw-002) killed by one fixture each. With the four fixtures of
conformance/fixtures/mutants/mut35-markers-blocked-draw.yaml, worked by hand, every one is
killed by two fixtures or more (3,445 runs; the fewest, 2: mut35-failed-follow-restores-
markers, mut35-blocked-reads-oldest-first, mut35-blocked-keeps-home-first, mut35-first-
turn-spent-by-double, mut35-draw-run-off-first-two), and blame charges all 12 to a clause
they break."""
