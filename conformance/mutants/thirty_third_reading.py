"""Rule bugs of a thirty-third reading, written the way a real engine's bookkeeping slips
where large sets and tables and house rules meet: one pending double where the rules keep
a list, a seat number or a tile id of 0 read as "none", a loop over the seats that stops
one short, a table of the largest published set (double-15) read on a double-16 or -18
set; and house readings of the doubles rule.

The open doubles: a turn that leaves a double of its own open forgets the open doubles of
earlier turns, the engine's pending double being the last turn's (DBL-6, DBL-7, DBL-8);
under oldest-first the mover's own double taken as theirs to cover first, whatever its
age (DBL-7); a double on a marked train read as closing nothing, its train open to all
already (DBL-6); a double on the last seat's train, of an earlier turn, binding nobody
(the trains looked over with `range(n - 1)`) (DBL-6, TRAIN-6). The follow-up: under the
restricted follow-up the turn's first double read as the one on the lowest-numbered train
(DBL-3); under follow-up anywhere a double laid on a marked train whose marker it took off
(MARK-4) closed to its own follow-up (DBL-2, TRAIN-6). The doubles by number: the [0-0],
tile id 0, laid as a plain tile that asks for nothing and opens nothing (DBL-1, DBL-6,
TURN-6); under released an open [0-0] taken for uncoverable at once, its number 0 read as
"no tile left" (DBL-9); a double above [15-15], looked up in double-15's table, laid as a
plain tile (DBL-1, DBL-6); DBL-9's count stopped at 16 tiles, double-15's, where a
double-16 or -18 set has 17 or 19 of a number (DBL-9). The markers: the last seat's
marker never opening its train to the others (TRAIN-4, MARK-1). The first turns: the
deal's mask of players still to have one built one seat short, `(1 << (n - 1)) - 1`, so
the last seat's first turn is spent before it is taken (FIRST-6); under
starter-opens-mexican a starter at seat 0 read as none, the Mexican Train open to all from
the first turns (FIRST-9). The start: under heaviest-in-hand the heaviest tile of the set
not on the table sought, the start rotating where it lies in the boneyard (SEAT-6). The
scores: under blocked-winner the lowest hand sought over `range(n - 1)` (SCORE-7); under
positive scoring the collector's take summed over `range(n - 1)` (SCORE-6).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from mtrain.conformance.adapter import JSON
from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference import engine as engine_module
from mtrain.reference.engine import FOLLOW, Action, Result, State
from mtrain.reference.rules import FOLLOW_ANYWHERE, FOLLOW_RESTRICTED, Rules
from mtrain.spec import tiles as T

_BLANK = T.tile_id(0, 0)
_REPLACED: dict[tuple[int, str], tuple[Rules, Rules]] = {}

# the reference's, bound before any swap
_UNBOUND = engine_module.unbound
_LIVE = engine_module.live


def _replaced(rules: Rules, **changes: Any) -> Rules:
    """`rules` with these flags changed, made once per rule set (the engine's rules are
    compared by identity, so a fresh copy per call would read as a new rule set)."""
    key = (id(rules), repr(sorted(changes.items())))
    found = _REPLACED.get(key)
    if found is None:
        found = _REPLACED[key] = (rules, dataclasses.replace(rules, **changes))
    return found[1]


# --- the open doubles -----------------------------------------------------------------------


def _own_double_first(state: State, first_turns_over: bool = False) -> list[int]:
    """DBL-7 with the mover's own double first: among the doubles that bind, the one on
    the mover's own train is theirs to cover before any older one."""
    out = ref.duties(state, first_turns_over)
    rules = state.rules
    if not out or not rules.oldest_first or len(state.open_doubles) < 2:
        return out
    kept = state.rules
    state.rules = _replaced(rules, oldest_first=False)
    try:
        bound = ref.duties(state, first_turns_over)
    finally:
        state.rules = kept
    return [state.seat] if state.seat in bound else out


def _dropping(test: Callable[[State, int], bool]) -> tuple[Callable[..., list[int]],
                                                           Callable[[State, int], bool]]:
    """duties and unbound for an engine that reads an open double of an earlier turn on
    a train `test` picks as no double at all: it binds nobody and opens nothing."""
    def duties(state: State, first_turns_over: bool = False) -> list[int]:
        out = ref.duties(state, first_turns_over)
        if not out:
            return out
        kept = [t for t in out if t in state.turn_doubles or not test(state, t)]
        if len(kept) == len(out):
            return out
        if kept or not state.rules.oldest_first:
            return kept
        # DBL-7: with the oldest dropped, the next one still open is the one to cover
        kept_rules = state.rules
        state.rules = _replaced(kept_rules, oldest_first=False)
        try:
            rest = [t for t in ref.duties(state, first_turns_over)
                    if t in state.turn_doubles or not test(state, t)]
        finally:
            state.rules = kept_rules
        return rest[:1]

    def unbound(state: State, train: int) -> bool:
        if train not in state.turn_doubles and test(state, train):
            return True
        return _UNBOUND(state, train)

    return duties, unbound


def _last_seat(state: State, train: int) -> bool:
    return train == state.players - 1


def _marked(state: State, train: int) -> bool:
    return train < state.players and bool(state.markers >> train & 1)


_LAST_SEAT_DUTIES, _LAST_SEAT_UNBOUND = _dropping(_last_seat)
_MARKED_DUTIES, _MARKED_UNBOUND = _dropping(_marked)


# --- the [0-0] ------------------------------------------------------------------------------


def _blank_double_plain(state: State, action: Action) -> None:
    """`if tile and IS_DOUBLE[tile]`: the [0-0], tile id 0, laid as a plain tile."""
    kind, tile, _ = action
    rules = state.rules
    if kind != "play" or tile != _BLANK or rules.ordinary_doubles:
        ref.perform(state, action)
        return
    state.rules = _replaced(rules, ordinary_doubles=True)
    try:
        ref.perform(state, action)
    finally:
        state.rules = rules


def _blank_double_dead(state: State, train: int) -> bool:
    """DBL-9's count with the number 0 read as no number: an open [0-0] is taken as one
    nobody can cover from the moment it is laid."""
    if state.ends[train] == 0:
        return False
    return _LIVE(state, train)


# --- the markers ----------------------------------------------------------------------------


def _marker_ignored(test: Callable[[State, int], bool]) -> Callable[..., list[int]]:
    """open_trains for an engine that never sees the marker of the seat `test` picks."""
    def open_trains(state: State, seat: int, all_marked: bool = False,
                    first_turns_over: bool = False) -> list[int]:
        out = ref.open_trains(state, seat, all_marked, first_turns_over)
        return [t for t in out if t == seat or t >= state.players or not test(state, t)]
    return open_trains


# --- the first turns ------------------------------------------------------------------------


def _last_seat_first_turn_spent(state: JSON, rules: Rules) -> JSON:
    """The deal's mask of first turns to come built as `(1 << (n - 1)) - 1`."""
    last = len(state["trains"]) - 1
    state["first_turns"] = [s for s in state["first_turns"] if s != last]
    return state


def _starter_zero_unread(state: State, seat: int, all_marked: bool = False,
                         first_turns_over: bool = False) -> list[int]:
    """`if starter and seat != starter`: a starter at seat 0 read as none, FIRST-9 off."""
    rules = state.rules
    if state.starter != 0 or not rules.starter_only_mexican:
        return ref.open_trains(state, seat, all_marked, first_turns_over)
    state.rules = _replaced(rules, starter_only_mexican=False)
    try:
        return ref.open_trains(state, seat, all_marked, first_turns_over)
    finally:
        state.rules = rules


# --- the scores -----------------------------------------------------------------------------


def _lowest_hands_one_short(state: State, values: list[int]) -> list[int]:
    """SCORE-7's lowest hand sought over `range(n - 1)`."""
    n = state.players - 1
    counts = [state.hands[s].bit_count() for s in range(n)]
    key = min(zip(counts, values[:n], strict=True))
    return [s for s in range(n) if (counts[s], values[s]) == key]


def _positive_take_one_short(state: State, end: str, winner: int) -> None:
    """SCORE-6's take summed over `range(n - 1)`: the last seat's hand is not collected."""
    ref.finish(state, end, winner)
    result = state.result
    if (winner < 0 or winner == state.players - 1 or result is None
            or not state.rules.positive_scoring):
        return
    missed = ref.hand_value(state, state.players - 1)
    if not missed:
        return
    scores = list(result.scores)
    scores[winner] -= missed
    state.scores[winner] -= missed
    state.result = Result(result.end, result.winner, tuple(scores))


# --- a turn's doubles, the follow-up, the large sets, the heaviest tile ----------------------


def _newest_turn_forgets_older(state: State, action: Action) -> None:
    """A turn that ends with a double of its own left open forgets the open doubles of
    earlier turns: the engine's pending double is the last turn's."""
    kind, tile, train = action
    seat, laid = state.seat, state.turn_doubles[:]
    if kind == "play" and T.IS_DOUBLE[tile]:
        laid.append(train)
    ref.perform(state, action)
    if not laid or state.result is not None or state.seat == seat:
        return
    opened = state.open_doubles
    mine = [t for t in opened if t in laid]
    if mine and len(mine) < len(opened):
        opened[:] = mine


def _restricted_lowest_train(state: State) -> list[int]:
    """DBL-3's "first double of the turn" read as the one on the lowest-numbered train
    (the turn's doubles kept as a set of trains)."""
    laid = state.turn_doubles
    if (state.phase != FOLLOW or len(laid) < 2 or state.rules.follow != FOLLOW_RESTRICTED
            or min(laid) == laid[0]):
        return ref.playable_trains(state)
    kept = laid[:]
    laid.sort()
    try:
        return ref.playable_trains(state)
    finally:
        laid[:] = kept


def _follow_loses_unmarked_double(state: State) -> list[int]:
    """Under follow-up anywhere, the tile after a double goes only where the player may
    play now: a double laid on another player's train whose marker it took off (MARK-4)
    is closed to its own follow-up."""
    out = ref.playable_trains(state)
    if state.phase != FOLLOW or state.rules.follow != FOLLOW_ANYWHERE:
        return out
    seat, players, markers = state.seat, state.players, state.markers
    return [t for t in out if t >= players or t == seat or markers >> t & 1
            or (t in state.open_doubles and t not in state.turn_doubles)]


def _release_counted_to_sixteen(state: State, train: int) -> bool:
    """DBL-9's count stopped at 16 tiles, a number's count on the largest published set
    (double-15): on a double-16 or -18 set a double is released with tiles of its number
    still out."""
    if not _LIVE(state, train):
        return False
    number = state.rules.number_mask[state.ends[train]]
    return (number & state.table_mask).bit_count() < 16


_D15_TILES = T.set_size(15)


def _high_double_plain(state: State, action: Action) -> None:
    """A double looked up in the double-15 set's table: a double above [15-15] (on a
    double-16 or -18 set) laid as a plain tile."""
    kind, tile, _ = action
    rules = state.rules
    if kind != "play" or tile < _D15_TILES or not T.IS_DOUBLE[tile] or rules.ordinary_doubles:
        ref.perform(state, action)
        return
    state.rules = _replaced(rules, ordinary_doubles=True)
    try:
        ref.perform(state, action)
    finally:
        state.rules = rules


def _heaviest_of_the_set(state: State) -> int:
    """SEAT-6 read as "whoever holds the heaviest tile of the set": the heaviest tile not
    on the table is sought, and where it lies in the boneyard the start rotates."""
    best, found = (-1, -1), -1
    for t in T.tiles_of(state.rules.set_mask & ~state.table_mask):
        key = (T.PIPS[t], T.HIGH[t])
        if key > best:
            best, found = key, t
    for s, hand in enumerate(state.hands):
        if found >= 0 and hand >> found & 1:
            return s
    return (state.round - 1) % state.players


THIRTY_THIRD_READING: tuple[Mutant, ...] = (
    Mutant("mut33-oldest-first-own-double-first",
           "Under oldest-first the mover's own train's open double is theirs to cover "
           "before any older one", ("DBL-7",),
           "duties swapped: the mover's own train first among the doubles that bind",
           patches={"duties": _own_double_first}),
    Mutant("mut33-marked-double-binds-nobody",
           "A double left open on a marked train closes nothing: its train is open to all "
           "already, so the others stay open too", ("DBL-6",),
           "duties and unbound swapped: a double on a marked train of an earlier turn "
           "binds nobody",
           patches={"duties": _MARKED_DUTIES, "unbound": _MARKED_UNBOUND}),
    Mutant("mut33-last-seat-double-binds-nobody",
           "An open double on the last seat's train, of an earlier turn, binds nobody (the "
           "personal trains looked over with range(n - 1))", ("DBL-6", "TRAIN-6"),
           "duties and unbound swapped: the last seat's open double dropped",
           patches={"duties": _LAST_SEAT_DUTIES, "unbound": _LAST_SEAT_UNBOUND}),
    Mutant("mut33-double-blank-laid-plain",
           "The [0-0] (tile 0) laid outside the last round is a plain tile: it asks for no "
           "other tile, ends the turn and opens nothing", ("DBL-1", "DBL-6", "TURN-6"),
           "perform swapped: a [0-0] laid as under ordinary doubles",
           patches={"perform": _blank_double_plain}),
    Mutant("mut33-blank-double-dead-at-once",
           "Under released an open [0-0] is taken for one nobody can cover as soon as it is "
           "laid (its number 0 read as none): it never binds", ("DBL-9", "DBL-6"),
           "live swapped: a train ending in 0 never live",
           patches={"live": _blank_double_dead}),
    Mutant("mut33-last-seat-marker-ignored",
           "The last seat's marker never opens its train to the others (the marked trains "
           "looked over with range(n - 1))", ("TRAIN-4", "MARK-1"),
           "open_trains swapped: the last seat's train dropped for every other seat",
           patches={"open_trains": _marker_ignored(_last_seat)}),
    Mutant("mut33-last-seat-first-turn-spent",
           "The deal marks the last seat's first turn as taken ((1 << (n - 1)) - 1): it "
           "plays a normal turn where the others have their first", ("FIRST-6",),
           "deal output's first_turns without the last seat",
           post_deal=_last_seat_first_turn_spent),
    Mutant("mut33-starter-only-seat-zero-unread",
           "Under starter-opens-mexican a starter at seat 0 is read as none: during that "
           "round's first turns anyone may open the Mexican Train", ("FIRST-9",),
           "open_trains swapped: FIRST-9 off while the starter is seat 0",
           patches={"open_trains": _starter_zero_unread}),
    Mutant("mut33-blocked-winner-skips-last-seat",
           "Under blocked-winner the lowest hand is sought over range(n - 1): the last seat "
           "never scores 0 for it", ("SCORE-7",),
           "lowest_hands swapped: the last seat left out",
           patches={"lowest_hands": _lowest_hands_one_short}),
    Mutant("mut33-positive-take-skips-last-seat",
           "Under positive scoring the collector's take is summed over range(n - 1): the "
           "last seat's hand is not collected", ("SCORE-6",),
           "_finish swapped: the last seat's hand taken off the collector's score",
           patches={"_finish": _positive_take_one_short}),
    Mutant("mut33-newest-turn-forgets-older",
           "A turn that leaves a double of its own open forgets the open doubles of earlier "
           "turns: only the last turn's doubles bind", ("DBL-6", "DBL-7", "DBL-8"),
           "perform swapped: at a turn's end with its double open, older doubles dropped",
           patches={"perform": _newest_turn_forgets_older}),
    Mutant("mut33-restricted-follow-lowest-train",
           "Under the restricted follow-up the turn's first double is read as the one on the "
           "lowest-numbered train", ("DBL-3",),
           "playable_trains swapped: the turn's doubles sorted by train in a follow-up",
           patches={"playable_trains": _restricted_lowest_train}),
    Mutant("mut33-follow-loses-unmarked-double",
           "Under follow-up anywhere a double laid on another player's train whose marker it "
           "took off cannot be followed there", ("DBL-2", "MARK-4", "TRAIN-6"),
           "playable_trains swapped: a follow-up limited to the trains open in a plain turn",
           patches={"playable_trains": _follow_loses_unmarked_double}),
    Mutant("mut33-release-counted-to-sixteen",
           "Under released a double is taken for uncoverable once 16 tiles of its number are "
           "on the table, double-15's count, though a double-16 or -18 set has more",
           ("DBL-9", "SET-6", "SET-9"),
           "live swapped: a number with 16 tiles on the table is dead",
           patches={"live": _release_counted_to_sixteen}),
    Mutant("mut33-high-double-plain",
           "On a double-16 or -18 set a double above [15-15] is laid as a plain tile: it "
           "asks for nothing and opens nothing", ("DBL-1", "DBL-6", "SET-6", "SET-9"),
           "perform swapped: doubles past double-15's ids laid as under ordinary doubles",
           patches={"perform": _high_double_plain}),
    Mutant("mut33-heaviest-of-the-set",
           "Under heaviest-in-hand the heaviest tile of the set not on the table decides: "
           "where it lies in the boneyard, the start rotates", ("SEAT-6",),
           "heaviest_holder swapped: the set's heaviest tile sought, not the hands'",
           patches={"heaviest_holder": _heaviest_of_the_set}),
)
"""The thirty-third reading: 16 rule bugs kept, none a mutant of the catalogue (names,
descriptions and what each changes checked against the thirty-two readings before it; the
nearest are other slips: newest-double-first orders the open doubles as a stack and
mut26-any-open-newest-only lets only the newest be covered, mut33-newest-turn-forgets-older
drops the older ones from the table's list; mut30-any-open-own-double-first is under
any-open, mut33-oldest-first-own-double-first under oldest-first; mut21-last-seat-hand-
unscored is penalty scoring's last seat, mut33-positive-take-skips-last-seat positive
scoring's; mut17-blocked-lowest-hand-eight-seats cuts SCORE-7's loop at eight seats,
mut33-blocked-winner-skips-last-seat at n - 1; release-counts-thirteen counts a double-12
number, mut33-release-counted-to-sixteen a double-15 one; drawn-double-blank-forgotten
loses a drawn [0-0], mut33-double-blank-laid-plain a laid one's duty;
mut27-restricted-follow-last-double and mut24-turn-doubles-newest-first read the turn's
last double as its first, mut33-restricted-follow-lowest-train the one on the lowest
train; anyone-marker-off-by-last-tile keeps a marker up, mut33-follow-loses-unmarked-double
takes it off and closes the double with it).

Written and not kept. Three were kept out for their near twins in this reading, each
killed at once by the corpus (2026-12-07, `mtrain mutants -m ...`): one open double at a
time, a double laid forgetting every other, of its own turn too (21 killers; its
turn-end form, mut33-newest-turn-forgets-older, is the one the corpus caught once); seat
0's open double binding nobody (71) and seat 0's marker ignored (42), the falsy-0 forms
of the last-seat mutants kept. Not kept as a mutant of
the shipped rule sets: heaviest-in-hand computed with the engine still in its holder's
hand, since the value's own decision sets the engine aside (options.yaml) and every
shipped rule set that starts from the heaviest tile does, so no hand holds it there (a
rule set of one's own that lays the engine from a hand would tell it apart: a reading for
later). Equivalent (no table a rule set allows can tell it from the reference): DBL-9's
count made without the engine, since the engine is the one double of its number and no
other double of that number can be open; FIRST-5 read per seat (a chain double binds a
player once that player's own first turn is over), since first turns are taken in seat
order from the starter, so nobody takes a second turn before every first turn is over
and the two readings never part.

Measured on the corpus before any fixture was added for them (2026-12-07, `mtrain mutants
-m mut33-... --need 2`, 3,302 passing runs): 15 of 16 killed, mut33-high-double-plain
surviving (no fixture lays a double above [15-15]); mut33-newest-turn-forgets-older and
mut33-release-counted-to-sixteen killed by one fixture each (chaindbl-010, sets-041),
mut33-follow-loses-unmarked-double by two. With the ten fixtures of
conformance/fixtures/mutants/thirty-third-reading.yaml, worked by hand, every one is
killed by three fixtures or more (3,312 runs), and blame charges 15 of 16 to a clause they
break: mut33-last-seat-double-binds-nobody frees a double that can still be covered,
which the harness charges to the release rule (DBL-9) more often than to the duty it
drops (DBL-6)."""
