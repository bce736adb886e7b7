"""Rule bugs of a thirty-fourth reading, written where house-rule engines live: a later
round's start, the end of a blocked round with the boneyard empty, a double left in hand,
the markers after a cover, and the known values next to the house rules such engines
declare `other` (tests/examples/: "Mexican first", "home first, doubles excepted",
"second rail", "home or a double", "no double to open", "no Mexican follow-up", "back
to the double or home").

The start: under engine-holder and after-engine the start of a later round read off the
holder of the set's highest double, [N-N], the round-1 engine, wherever a hand holds it
(SEAT-2, SEAT-4). The blocked round (END-2, asked at the start of a turn with the boneyard
empty): asked only once a lap, when play comes back to the round's starter; asked with
DBL-7 forgotten, so a seat able to cover a newer open double counts though the oldest,
dead and still binding (DBL-10), comes first; asked of the unmarked seats alone, a seat
whose marker is up taken as one that has shown it cannot play. The hand: the value table
built over `range(size - 1)`, so the set's [N-N] left in hand (dealt from round 2 on)
counts nothing (SCORE-1, SCORE-5, SCORE-6); under ENG-7 and ENG-8 the round's own double
read as the engine, which never scores, when the deal opened on another. The
markers: a cover of an earlier turn's double taking every marker down (MARK-1, MARK-3 to
MARK-5). The neighbours of house rules: under oldest-first the Mexican Train's open double
covered before any older one (DBL-7); under own-train-first a double laid anywhere before
the own train is started (TRAIN-7); under own-train-opens-mexican the own train counted as
started from its second tile, the engine counted as its first (FIRST-10); under
owner-plays-own a double the owner lays anywhere taking their marker off (MARK-3); under
no-double-end-start no double in a first-turn chain at all (FIRST-12); under follow-up
anywhere no follow-up on the Mexican Train unless the double is there (DBL-2); under
cover-own the follow-up on the double or the own train (DBL-4).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference.engine import CHAIN, FOLLOW, PASS, START, Action, State
from mtrain.reference.rules import FOLLOW_ANYWHERE, FOLLOW_COVER_OWN, MARKER_OWNER_OWN, Rules
from mtrain.spec import tiles as T

_REPLACED: dict[tuple[int, str], tuple[Rules, Rules]] = {}
_DOUBLES = sum(T.BIT[t] for t in range(T.TILE_COUNT) if T.IS_DOUBLE[t])


def _replaced(rules: Rules, **changes: Any) -> Rules:
    """`rules` with these flags changed, made once per rule set (the engine compares rules
    by identity, so a fresh copy per call would read as a new rule set)."""
    key = (id(rules), repr(sorted(changes.items())))
    found = _REPLACED.get(key)
    if found is None:
        found = _REPLACED[key] = (rules, dataclasses.replace(rules, **changes))
    return found[1]


# --- the start of a later round ----------------------------------------------------------


def _top_double_holder_starts(state: State, holder: int) -> None:
    """SEAT-2 and SEAT-4 with the holder sought by the set's [N-N], round 1's engine."""
    rules = state.rules
    if state.round > 1 and (rules.engine_holder_starts or rules.after_engine_starts):
        top = T.BIT[T.DOUBLE[rules.max_pip]]
        for s, hand in enumerate(state.hands):
            if hand & top:
                holder = s
                break
    ref.place_engine(state, holder)


# --- the blocked round --------------------------------------------------------------------


def _blocked_at_starter_only(state: State) -> None:
    """END-2 asked once a lap: only when play comes back round to the round's starter."""
    if (not state.boneyard and state.seat != state.starter
            and not state.rules.passes_end_round):
        return
    ref.check_blocked(state)


def _can_play_with(state: State, seat: int, **changes: Any) -> bool:
    rules = state.rules
    state.rules = _replaced(rules, **changes)
    try:
        return ref.can_ever_play(state, seat)
    finally:
        state.rules = rules


def _blocked_without_oldest_first(state: State, seat: int) -> bool:
    """END-2 with DBL-7 forgotten: any open double that binds may be the one covered."""
    if not state.rules.oldest_first:
        return ref.can_ever_play(state, seat)
    return _can_play_with(state, seat, oldest_first=False)


def _blocked_skips_marked(state: State, seat: int) -> bool:
    """END-2 asked of the seats whose marker is down: a marked seat has shown it is stuck."""
    if state.markers >> seat & 1:
        return False
    return ref.can_ever_play(state, seat)


def _top_double_unpriced(state: State, seat: int) -> int:
    """The value table built over `range(size - 1)`: the set's [N-N] counts nothing."""
    value = ref.hand_value(state, seat)
    top = T.DOUBLE[state.rules.max_pip]
    if state.hands[seat] >> top & 1:
        value -= T.PIPS[top]  # [N-N] has no blank end: its value is its pips
    return value


def _round_double_unpriced(state: State, seat: int) -> int:
    """Under ENG-7 and ENG-8 the round's own double read as the engine, which never
    scores: left in hand (the deal opened on another double) it counts nothing."""
    value = ref.hand_value(state, seat)
    rules = state.rules
    number = rules.max_pip - (state.round - 1)  # ENG-1's double for the round
    if rules.engine_by_deal and state.engine != number:
        double = T.DOUBLE[number]
        if state.hands[seat] >> double & 1:
            value -= T.PIPS[double]  # a double above [0-0]: no blank end
    return value


# --- the markers --------------------------------------------------------------------------


def _cover_clears_markers(state: State, action: Action) -> None:
    """A cover of an open double of an earlier turn takes every marker down: the markers
    raised while it stood are read as its doing."""
    kind, _, train = action
    cover = (kind == "play" and train in state.open_doubles
             and train not in state.turn_doubles)
    ref.perform(state, action)
    if cover and state.result is None:
        state.markers = 0


# --- the neighbours of house rules --------------------------------------------------------


def _mexican_double_first(state: State, first_turns_over: bool = False) -> list[int]:
    """DBL-7 with the Mexican Train's double first among those that bind."""
    out = ref.duties(state, first_turns_over)
    rules = state.rules
    mex = state.players
    if not out or not rules.oldest_first or mex not in state.open_doubles or out == [mex]:
        return out
    kept = state.rules
    state.rules = _replaced(rules, oldest_first=False)
    try:
        bound = ref.duties(state, first_turns_over)
    finally:
        state.rules = kept
    return [mex] if mex in bound else out


def _doubles_excepted(state: State) -> list[Action]:
    """TRAIN-7 with doubles excepted: before the own train is started a double may go
    wherever it could without the rule."""
    out = ref.plays(state)
    rules = state.rules
    if (state.phase != START or state.trains[state.seat] or not rules.own_train_first
            or not state.hands[state.seat] & _DOUBLES):
        return out
    state.rules = _replaced(rules, own_train_first=False)
    try:
        free = ref.plays(state)
    finally:
        state.rules = rules
    return out + [a for a in free if T.IS_DOUBLE[a.tile] and a not in out]


def _mexican_waits_for_second_tile(state: State, seat: int, all_marked: bool = False,
                                   first_turns_over: bool = False) -> list[int]:
    """FIRST-10 with a train of one tile read as unstarted (the engine counted as its
    first): the empty Mexican Train waits for the own train's second tile."""
    out = ref.open_trains(state, seat, all_marked, first_turns_over)
    mex = state.players
    if (len(state.trains[seat]) != 1 or state.trains[mex] or mex not in out
            or not state.rules.own_train_mexican):
        return out
    return [t for t in out if t != mex]


def _anywhere_follow_no_mexican(state: State) -> list[int]:
    """DBL-2 read as "no Mexican follow-up": the tile after a double may not go on the
    Mexican Train unless a double of the turn is there."""
    out = ref.playable_trains(state)
    mex = state.players
    if (state.phase != FOLLOW or mex not in out or mex in state.turn_doubles
            or state.rules.follow != FOLLOW_ANYWHERE or ref.duties(state)):
        return out
    return [t for t in out if t != mex]


def _cover_own_or_home(state: State) -> list[int]:
    """DBL-4 read as "back to the double or home": the tile after a double covers it or
    goes on the layer's own train."""
    out = ref.playable_trains(state)
    seat = state.seat
    if (state.phase != FOLLOW or seat in out or state.rules.follow != FOLLOW_COVER_OWN
            or ref.duties(state)):
        return out
    return [*out, seat]


def _no_doubles_in_chain(state: State) -> list[Action]:
    """FIRST-12 read as "no double in a first-turn chain": not only a double nothing
    would follow, every double is kept out of the chain."""
    out = ref.legal_actions(state)
    rules = state.rules
    if (not (state.phase == CHAIN or ref.chain_start(state)) or not rules.chain_no_double_end
            or rules.ordinary_doubles):
        return out
    kept = [a for a in out if a.kind != "play" or not T.IS_DOUBLE[a.tile]]
    return kept or [PASS]  # FIRST-3: no start, the marker goes up


def _double_anywhere_lowers_marker(state: State, action: Action) -> None:
    """MARK-3 read as "home or a double": a marked owner's double laid anywhere takes
    their marker off."""
    kind, tile, _ = action
    seat = state.seat
    marked = kind == "play" and T.IS_DOUBLE[tile] and state.markers >> seat & 1
    ref.perform(state, action)
    if (marked and state.rules.marker_rule == MARKER_OWNER_OWN
            and not state.rules.ordinary_doubles):
        state.markers &= ~(1 << seat)


THIRTY_FOURTH_READING: tuple[Mutant, ...] = (
    Mutant("mut34-holder-start-by-top-double",
           "Under engine-holder and after-engine the start of a later round goes by the holder "
           "of the set's highest double, round 1's engine, wherever a hand holds it",
           ("SEAT-2", "SEAT-4"),
           "_place_engine swapped: from round 2 the holder is the seat holding [N-N], if any",
           patches={"_place_engine": _top_double_holder_starts}),
    Mutant("mut34-blocked-tested-at-starter-only",
           "Under nobody-can-play the blocked test is made once a lap, when play comes back "
           "to the round's starter", ("END-2",),
           "_check_blocked swapped: END-2 skipped at every seat but the starter's",
           patches={"_check_blocked": _blocked_at_starter_only}),
    Mutant("mut34-blocked-ignores-oldest-first",
           "END-2 forgets oldest-first: a seat that could cover a newer open double counts "
           "as able to play, though the oldest binds", ("END-2", "DBL-7"),
           "can_ever_play swapped: oldest_first off inside it",
           patches={"can_ever_play": _blocked_without_oldest_first}),
    Mutant("mut34-blocked-skips-marked-seats",
           "END-2 is asked of the seats whose marker is down: a seat with its marker up is "
           "taken as stuck, whatever the table now offers it", ("END-2", "MARK-1"),
           "can_ever_play swapped: False for a marked seat",
           patches={"can_ever_play": _blocked_skips_marked}),
    Mutant("mut34-top-double-unpriced",
           "The set's highest double left in hand (dealt from round 2 on) counts nothing: the "
           "value table stops one tile short", ("SCORE-1", "SCORE-5", "SCORE-6"),
           "hand_value swapped: [N-N]'s pips taken off",
           patches={"hand_value": _top_double_unpriced}),
    Mutant("mut34-round-double-unpriced",
           "Under highest-double-held and designated-opens the round's own double left in "
           "hand counts nothing, as if it were the engine, when another double opened",
           ("SCORE-1", "SCORE-5", "ENG-7", "ENG-8"),
           "hand_value swapped: the round's double's pips taken off where the deal chose "
           "another engine",
           patches={"hand_value": _round_double_unpriced}),
    Mutant("mut34-cover-clears-markers",
           "Covering an open double of an earlier turn takes every marker down, as if the "
           "markers raised while it stood were its doing", ("MARK-1", "MARK-3", "MARK-4",
                                                           "MARK-5"),
           "perform swapped: markers cleared after such a cover",
           patches={"perform": _cover_clears_markers}),
    Mutant("mut34-oldest-first-mexican-first",
           "Under oldest-first the Mexican Train's open double is covered before any older "
           "one, as the house rule \"Mexican first\" plays", ("DBL-7",),
           "duties swapped: the Mexican Train first among the doubles that bind",
           patches={"duties": _mexican_double_first}),
    Mutant("mut34-own-train-first-doubles-excepted",
           "Under own-train-first a double may be laid anywhere it fits before the own train "
           "is started, as the house rule \"home first, doubles excepted\" plays",
           ("TRAIN-7",),
           "plays swapped: a turn's doubles played as without own-train-first",
           patches={"plays": _doubles_excepted}),
    Mutant("mut34-mexican-waits-for-second-tile",
           "Under own-train-opens-mexican the own train counts as started from its second "
           "tile (the engine counted as its first)", ("FIRST-10",),
           "open_trains swapped: the empty Mexican Train closed to an own train of one tile",
           patches={"open_trains": _mexican_waits_for_second_tile}),
    Mutant("mut34-owner-own-double-anywhere-lowers-marker",
           "Under owner-plays-own a double the owner lays on any train takes their marker "
           "off, as the house rule \"home or a double\" plays", ("MARK-3",),
           "perform swapped: a marked mover's double lowers their marker",
           patches={"perform": _double_anywhere_lowers_marker}),
    Mutant("mut34-no-double-end-no-doubles",
           "Under no-double-end-start no double may be laid in a first-turn chain, as the "
           "house rule \"no double to open\" plays", ("FIRST-12",),
           "legal_actions swapped: doubles dropped from a chain's plays",
           patches={"legal_actions": _no_doubles_in_chain}),
    Mutant("mut34-anywhere-follow-no-mexican",
           "Under follow-up anywhere the tile after a double may not go on the Mexican Train "
           "unless the double is there, as the house rule \"no Mexican follow-up\" plays",
           ("DBL-2",),
           "playable_trains swapped: the Mexican Train dropped from a follow-up elsewhere",
           patches={"playable_trains": _anywhere_follow_no_mexican}),
    Mutant("mut34-cover-own-or-home",
           "Under the Wikipedia rule the tile after a double may cover it or go on the "
           "layer's own train, as the house rule \"back to the double or home\" plays",
           ("DBL-4",),
           "playable_trains swapped: the own train added to a follow-up",
           patches={"playable_trains": _cover_own_or_home}),
)
"""The thirty-fourth reading: 14 rule bugs kept, none a mutant of the catalogue (names,
descriptions and what each changes checked against the thirty-three readings before it;
the nearest are other slips: set-aside-top-double-every-round sets [N-N] aside, mut34-
holder-start-by-top-double starts at its holder; mut19-heaviest-skips-doubles is SEAT-6's,
the [N-N] reading SEAT-2's and SEAT-4's; blocked-counts-passes waits for a round of
passes, mut34-blocked-tested-at-starter-only for the starter's turn; blocked-ignores-
markers reads the trains open now, mut34-blocked-skips-marked-seats drops the marked
seats; blocked-ignores-own-train-first is TRAIN-7's, mut34-blocked-ignores-oldest-first
DBL-7's; mut26-pips-tabled-for-d12 and double-blank-id-zero-skipped unprice ends above 12
and the [0-0], mut34-top-double-unpriced the set's last tile and mut34-round-double-
unpriced the round's double; marker-never-removed and mut22-markers-cleared-at-round-end
are the markers' other ends; mut30-any-open-mexican-double-first and mut33-oldest-first-
own-double-first are the nearest of mut34-oldest-first-mexican-first; own-train-first-
mexican-open lets any tile onto the Mexican Train, mut34-own-train-first-doubles-excepted
a double anywhere; mut24-own-train-started-by-any-train and mut31-own-train-started-by-
marker read FIRST-10 loosely, mut34-mexican-waits-for-second-tile strictly; marker-owner-
anywhere-under-owner-own lowers a marker at any play, mut34-owner-own-double-anywhere-
lowers-marker at a double; no-double-end-every-turn stretches FIRST-12 over turns, mut34-
no-double-end-no-doubles over doubles; restricted-follow-no-mexican is DBL-3's, mut34-
anywhere-follow-no-mexican DBL-2's; cover-own-elsewhere-when-stuck goes elsewhere when
stuck, mut34-cover-own-or-home home at will).

Written and not kept. Equivalent (no table can tell them from the reference), both
measured surviving the corpus before the proof (2026-12-07, `mtrain mutants -m ...`):
END-2 with FIRST-10 forgotten (own-train-opens-mexican read off inside the blocked test):
FIRST-10 closes the empty Mexican Train only to a player whose own train is empty, and an
empty train's open end is the engine's number, as the empty Mexican Train's is, so any
tile that would open the one starts the other, and the test, which asks whether a tile
fits some open end, gives the same answer; END-2 with FIRST-9 kept for a seat whose first
turn is to come: under starter-only that seat's own train is empty too (nobody lays on an
unmarked train, and its owner has not moved: REACH-FIRST-UNTOUCHED), so again its tiles
for the Mexican Train fit its own train. Not written, for twins: the tables of one's own
(some thirty mutants read them one row off, by trains, by the published table, by text,
clamped, stretched, per round: a row off at one count is one of those at the counts where
its table changes size), and the blank values on large sets (ends past 12 unpriced, blank
rules cut at double-12, four-bit ends, byte-wide scores: a cut at double-15 is one of
those with another bound).

Measured on the corpus before any fixture was added for them (2026-12-07, `mtrain mutants
-m mut34-... --need 2`, 3,312 passing runs): 13 of 14 killed, mut34-round-double-
unpriced surviving (no fixture ends a round whose deal opened on a double above the
round's own); mut34-blocked-ignores-oldest-first killed by one fixture (doubles-064). With
the four fixtures of conformance/fixtures/mutants/mut34-*.yaml, worked by hand, every one
is killed by two fixtures or more (3,317 runs; the fewest, 2, mut34-round-double-
unpriced; 3, mut34-holder-start-by-top-double and mut34-blocked-ignores-oldest-first), and
blame charges all 14 to a clause they break."""
