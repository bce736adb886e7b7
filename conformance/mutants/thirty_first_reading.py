"""Rule bugs of a thirty-first reading, written at the options the earlier readings read
least (own-train-first beside the chain start, marked trains, an empty boneyard, released
doubles and a first turn laid anywhere; own-train-opens-mexican beside a marker, the
starter and a double to cover; starter-opens-mexican beside a draw; oldest-first and
any-open-double beside a draw and a first turn laid anywhere; ordinary doubles beside the
follow-up rules; draw-until-playable and no-double-end beside the chain's rules; the
published hand-size tables read by trains).

The deal: a published table looked up by the number of trains, one more than the players
(DEAL-7). Own train first (TRAIN-7): read as a rule of the single-tile start, taken as met
by FIRST-2 under an own-train chain, so that after the first turn an empty own train binds
nobody (TRAIN-7); read as keeping the player off the Mexican Train alone, marked trains
left open (TRAIN-7, TRAIN-4); lifted once the boneyard is empty, as if a rule nobody can
meet by drawing lapsed (TRAIN-7); its "the duty comes first" read for a double that binds
nobody, so that a double DBL-12 or DBL-13 released may be covered before the own train is
started (TRAIN-7, DBL-12, DBL-13), or one FIRST-5 keeps waiting on a first turn laid
anywhere (TRAIN-7, FIRST-11, FIRST-5). The Mexican Train: under own-train-opens-mexican a
marked empty own train taken for a started one (FIRST-10); the starter let open it from an
empty own train on their first turn, FIRST-9's privilege read into FIRST-10 (FIRST-10);
FIRST-10 read on the duty's path, so that an empty own train keeps its owner from covering
a double on the Mexican Train (FIRST-10, DBL-6); under starter-opens-mexican a drawn tile
opening the Mexican Train on another player's first turn, the draw's path missing FIRST-9
(FIRST-9, TURN-3). Doubles: under oldest-first a drawn tile let cover any open double
(DBL-7, TURN-3); under any-open-double a drawn tile held to the oldest (DBL-8, TURN-3);
under chain-anywhere with oldest-first a first turn let cover only the oldest open double,
DBL-7 read where FIRST-5 binds nobody (FIRST-11, FIRST-5, DBL-7); ordinary doubles read
only beside follow-up-anywhere, so that under the restricted and Wikipedia follow-ups a
double still asks for its tile (DBL-11). The first turn: under draw-until-playable a player
who cannot start their chain draws until they can, TURN-5 read over FIRST-3 (FIRST-3,
TURN-5); under no-double-end-start the chain let end after a double, FIRST-12 taken to do
FIRST-4's work (FIRST-4, FIRST-12).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference import engine as engine_module
from mtrain.reference.engine import CHAIN, DRAW, END_CHAIN, PASS, START, State
from mtrain.reference.rules import FOLLOW_ANYWHERE, Rules
from mtrain.spec.ruleset import CUSTOM

# the reference's, bound before any swap
_UNBOUND = engine_module.unbound
_WITH_COVERS = engine_module.with_covers

_T = TypeVar("_T")
_CHANGED: dict[tuple[int, str], tuple[Rules, Rules]] = {}


def _without(rules: Rules, flag: str) -> Rules:
    """`rules` with one flag set to False (kept beside `rules` itself, whose id is the key
    and so cannot be reused, so that a table reads its rules once)."""
    key = (id(rules), flag)
    found = _CHANGED.get(key)
    if found is None:
        changes: dict[str, Any] = {flag: False}
        found = _CHANGED[key] = (rules, dataclasses.replace(rules, **changes))
    return found[1]


def _with_rules(state: State, rules: Rules, call: Callable[[], _T]) -> _T:
    """`call()` with `state` reading `rules` for its duration."""
    kept = state.rules
    state.rules = rules
    try:
        return call()
    finally:
        state.rules = kept


def _open_without(state: State, seat: int, all_marked: bool, first_turns_over: bool,
                  flag: str) -> list[int]:
    return _with_rules(state, _without(state.rules, flag), lambda: ref.open_trains(
        state, seat, all_marked, first_turns_over))


# --- the start ------------------------------------------------------------------------------


def _published_table_by_trains(rules: Rules) -> Rules:
    """DEAL-7 read with the trains for the players: a published table is looked up at one
    count more than the players, and its largest count is refused."""
    if rules.ruleset["hand_sizes"] == CUSTOM:
        return rules
    table = dict(rules.ruleset.hand_table)
    shifted = {n: table[n + 1] for n in table if n + 1 in table}
    ruleset = dataclasses.replace(rules.ruleset, hand_table=tuple(sorted(shifted.items())))
    return dataclasses.replace(rules, ruleset=ruleset, hand_table=shifted)


# --- own train first ------------------------------------------------------------------------


def _own_first_off_under_chain(state: State, seat: int, all_marked: bool = False,
                               first_turns_over: bool = False) -> list[int]:
    """TRAIN-7 read as a rule of the single-tile start: under an own-train chain (FIRST-2)
    an own train still empty after the first turn binds nobody."""
    rules = state.rules
    if (rules.own_train_first and rules.chain_first_turn and not rules.chain_anywhere
            and not state.trains[seat]):
        return _open_without(state, seat, all_marked, first_turns_over, "own_train_first")
    return ref.open_trains(state, seat, all_marked, first_turns_over)


def _own_first_marked_open(state: State, seat: int, all_marked: bool = False,
                           first_turns_over: bool = False) -> list[int]:
    """TRAIN-7 read as keeping the player off the Mexican Train alone: another player's
    marked train stays open before the own train is started."""
    out = ref.open_trains(state, seat, all_marked, first_turns_over)
    rules = state.rules
    if out != [seat] or state.trains[seat] or not rules.own_train_first:
        return out
    free = _open_without(state, seat, all_marked, first_turns_over, "own_train_first")
    return [t for t in free if t != state.players]


def _own_first_lapses_when_dry(state: State, seat: int, all_marked: bool = False,
                               first_turns_over: bool = False) -> list[int]:
    """TRAIN-7 read as lapsing once the boneyard is empty: with no draw left to find a
    starting tile, the player may play elsewhere."""
    if not state.boneyard and not state.trains[seat] and state.rules.own_train_first:
        return _open_without(state, seat, all_marked, first_turns_over, "own_train_first")
    return ref.open_trains(state, seat, all_marked, first_turns_over)


def _own_first_covers_released(state: State) -> list[int]:
    """TRAIN-7's "the duty comes first" read for a double that binds nobody: before the
    own train is started, a double DBL-12 or DBL-13 released may be covered where it lies."""
    out = ref.playable_trains(state)
    seat, rules = state.seat, state.rules
    if (state.phase != START or out != [seat] or state.trains[seat]
            or not rules.own_train_first or not state.open_doubles
            or (state.first_pending >> seat & 1 and rules.chain_first_turn)):
        return out
    return out + [t for t in state.open_doubles if t != seat and _UNBOUND(state, t)]


def _cover_before_own_train(state: State, base: list[int]) -> list[int]:
    """TRAIN-7's "the duty comes first" read for a first turn laid anywhere: under
    own-train-first a first turn may cover a double that FIRST-5 keeps from binding
    anyone before the own train is started."""
    if not state.trains[state.seat] and state.rules.own_train_first:
        return _with_rules(state, _without(state.rules, "own_train_first"),
                           lambda: _WITH_COVERS(state, base))
    return _WITH_COVERS(state, base)


# --- the Mexican Train ----------------------------------------------------------------------


def _mexican_cover_waits_for_own_train(state: State, first_turns_over: bool = False
                                       ) -> list[int]:
    """FIRST-10 read on the duty's path: under own-train-opens-mexican a player whose own
    train is empty may not cover a double on the Mexican Train."""
    out = ref.duties(state, first_turns_over)
    mex = state.players
    if mex in out and not state.trains[state.seat] and state.rules.own_train_mexican:
        return [t for t in out if t != mex]
    return out


def _marker_starts_own_train(state: State, seat: int, all_marked: bool = False,
                             first_turns_over: bool = False) -> list[int]:
    """FIRST-10 read as met once the own train is open to all: a player whose empty own
    train carries their marker may open the Mexican Train."""
    if (state.markers >> seat & 1 and not state.trains[seat]
            and state.rules.own_train_mexican):
        return _open_without(state, seat, all_marked, first_turns_over, "own_train_mexican")
    return ref.open_trains(state, seat, all_marked, first_turns_over)


def _starter_exempt_from_own_train(state: State, seat: int, all_marked: bool = False,
                                   first_turns_over: bool = False) -> list[int]:
    """FIRST-9's privilege read into FIRST-10: on their first turn the starter may open the
    Mexican Train from an empty own train."""
    if (seat == state.starter and state.first_pending >> seat & 1 and not first_turns_over
            and not state.trains[seat] and state.rules.own_train_mexican):
        return _open_without(state, seat, all_marked, first_turns_over, "own_train_mexican")
    return ref.open_trains(state, seat, all_marked, first_turns_over)


def _drawn_tile_skips_starter_only(state: State, seat: int, all_marked: bool = False,
                                   first_turns_over: bool = False) -> list[int]:
    """FIRST-9 missed on the draw's path: a tile drawn on a first turn may open the Mexican
    Train, starter or not."""
    if seat == state.seat and state.drawn >= 0 and state.rules.starter_only_mexican:
        return _open_without(state, seat, all_marked, first_turns_over,
                             "starter_only_mexican")
    return ref.open_trains(state, seat, all_marked, first_turns_over)


# --- doubles --------------------------------------------------------------------------------


def _oldest_first_drawn_any(state: State, first_turns_over: bool = False) -> list[int]:
    """DBL-7 missed on the draw's path: under oldest-first a drawn tile may cover any open
    double."""
    rules = state.rules
    if state.drawn >= 0 and rules.oldest_first:
        return _with_rules(state, _without(rules, "oldest_first"),
                           lambda: ref.duties(state, first_turns_over))
    return ref.duties(state, first_turns_over)


def _any_open_drawn_oldest(state: State, first_turns_over: bool = False) -> list[int]:
    """DBL-7 read on the draw's path: under any-open-double a drawn tile may cover only the
    oldest open double."""
    out = ref.duties(state, first_turns_over)
    if state.drawn >= 0 and len(out) > 1 and not state.rules.oldest_first:
        return out[:1]
    return out


def _chain_anywhere_covers_oldest(state: State, base: list[int]) -> list[int]:
    """DBL-7 read into FIRST-11: under oldest-first a first turn laid anywhere may cover
    only the oldest open double, though none binds anyone yet (FIRST-5)."""
    out = _WITH_COVERS(state, base)
    rules = state.rules
    if len(out) == len(base) or not rules.chain_anywhere or not rules.oldest_first:
        return out
    oldest = state.open_doubles[0]
    return base + [t for t in out[len(base):] if t == oldest]


def _ordinary_only_with_follow_anywhere(rules: Rules) -> Rules:
    """DBL-11 read as a value of the follow-up anywhere: under the restricted or the
    Wikipedia follow-up a double still asks for another tile."""
    if rules.ordinary_doubles and rules.follow != FOLLOW_ANYWHERE:
        return _without(rules, "ordinary_doubles")
    return rules


# --- the first turn -------------------------------------------------------------------------


def _no_double_end_chain_ends_at_will(state: State) -> list[engine_module.Action]:
    """FIRST-12 read as doing FIRST-4's work: under no-double-end-start the chain may be
    ended after a double, the cover the player must hold left unplayed."""
    out = ref.legal_actions(state)
    if (state.phase == CHAIN and state.turn_doubles and out and END_CHAIN not in out
            and state.rules.chain_no_double_end):
        return [*out, END_CHAIN]
    return out


def _until_playable_over_first_turn(state: State) -> list[engine_module.Action]:
    """TURN-5 read over FIRST-3: under draw-until-playable a player who cannot start their
    first-turn chain draws until they can."""
    out = ref.legal_actions(state)
    rules = state.rules
    if (out == [PASS] and state.phase == START and state.boneyard
            and state.first_pending >> state.seat & 1 and rules.chain_first_turn
            and rules.draw_until_playable):
        return [DRAW]
    return out


THIRTY_FIRST_READING: tuple[Mutant, ...] = (
    Mutant("mut31-published-table-by-trains",
           "A published hand-size table is looked up by the number of trains: n players "
           "take the row of n + 1, and its largest count is refused", ("DEAL-7",),
           "Rules.hand_table: each published row moved down one count",
           rules=_published_table_by_trains),
    Mutant("mut31-own-train-first-off-under-chain",
           "Under own-train-first with an own-train chain start an own train still empty "
           "after the first turn binds nobody: the rule is read for single-tile starts",
           ("TRAIN-7",), "open_trains swapped: own-train-first dropped under the chain start",
           patches={"open_trains": _own_first_off_under_chain}),
    Mutant("mut31-own-train-first-marked-trains-open",
           "Under own-train-first a player who has not started their own train may play on "
           "another player's marked train: only the Mexican Train is kept from them",
           ("TRAIN-7", "TRAIN-4"),
           "open_trains swapped: the marked trains added to an unstarted player's own",
           patches={"open_trains": _own_first_marked_open}),
    Mutant("mut31-own-train-first-lapses-when-dry",
           "Under own-train-first a player may play elsewhere before starting their own "
           "train once the boneyard is empty", ("TRAIN-7",),
           "open_trains swapped: own-train-first dropped with the boneyard empty",
           patches={"open_trains": _own_first_lapses_when_dry}),
    Mutant("mut31-own-train-first-covers-released",
           "Under own-train-first a player who has not started their own train may cover a "
           "double that binds nobody (DBL-12, DBL-13) on another train",
           ("TRAIN-7", "DBL-12", "DBL-13"),
           "playable_trains swapped: released doubles' trains added to the own train",
           patches={"playable_trains": _own_first_covers_released}),
    Mutant("mut31-chain-anywhere-cover-before-own-train",
           "Under chain-anywhere-start with own-train-first a first turn may cover an open "
           "double elsewhere before the own train is started, though it binds nobody yet",
           ("TRAIN-7", "FIRST-11", "FIRST-5"),
           "with_covers swapped: own-train-first not read for the covers",
           patches={"with_covers": _cover_before_own_train}),
    Mutant("mut31-own-train-started-by-marker",
           "Under own-train-opens-mexican a player whose empty own train carries their "
           "marker may open the Mexican Train", ("FIRST-10",),
           "open_trains swapped: own-train-opens-mexican not read for a marked own train",
           patches={"open_trains": _marker_starts_own_train}),
    Mutant("mut31-own-train-started-starter-exempt",
           "Under own-train-opens-mexican the starter may open the Mexican Train on their "
           "first turn from an empty own train", ("FIRST-10",),
           "open_trains swapped: own-train-opens-mexican not read on the starter's first "
           "turn", patches={"open_trains": _starter_exempt_from_own_train}),
    Mutant("mut31-own-train-started-blocks-mexican-cover",
           "Under own-train-opens-mexican a player whose own train is empty may not cover "
           "an open double on the Mexican Train", ("FIRST-10", "DBL-6"),
           "duties swapped: the Mexican Train's double dropped while the own train is empty",
           patches={"duties": _mexican_cover_waits_for_own_train}),
    Mutant("mut31-starter-only-drawn-tile-opens-mexican",
           "Under starter-opens-mexican a tile drawn on a first turn may open the Mexican "
           "Train, starter or not", ("FIRST-9", "TURN-3"),
           "open_trains swapped: starter-opens-mexican not read for the mover's drawn tile",
           patches={"open_trains": _drawn_tile_skips_starter_only}),
    Mutant("mut31-oldest-first-drawn-covers-any",
           "Under oldest-first a drawn tile may cover any open double, not only the oldest",
           ("DBL-7", "TURN-3"), "duties swapped: every open double a duty after a draw",
           patches={"duties": _oldest_first_drawn_any}),
    Mutant("mut31-any-open-drawn-covers-oldest",
           "Under any-open-double a drawn tile may cover only the oldest open double",
           ("DBL-8", "TURN-3"), "duties swapped: the oldest open double alone after a draw",
           patches={"duties": _any_open_drawn_oldest}),
    Mutant("mut31-chain-anywhere-covers-oldest",
           "Under chain-anywhere-start with oldest-first a first turn may cover only the "
           "oldest open double, though none binds anyone yet",
           ("FIRST-11", "FIRST-5", "DBL-7"),
           "with_covers swapped: only the oldest open double's train added",
           patches={"with_covers": _chain_anywhere_covers_oldest}),
    Mutant("mut31-ordinary-only-with-follow-anywhere",
           "Under ordinary-doubles with the restricted or the Wikipedia follow-up a double "
           "still asks for another tile and stays open", ("DBL-11",),
           "Rules.ordinary_doubles dropped unless the follow-up is anywhere",
           rules=_ordinary_only_with_follow_anywhere),
    Mutant("mut31-until-playable-over-first-turn",
           "Under draw-until-playable a player who cannot start their first-turn chain "
           "draws until they can, instead of putting up their marker at once",
           ("FIRST-3", "TURN-5"),
           "legal_actions swapped: [pass] becomes [draw] on a chain first turn",
           patches={"legal_actions": _until_playable_over_first_turn}),
    Mutant("mut31-no-double-end-chain-ends-at-will",
           "Under no-double-end-start a first-turn chain may be ended after a double, though "
           "the player holds its cover", ("FIRST-4", "FIRST-12"),
           "legal_actions swapped: end-chain offered beside the cover of the chain's double",
           patches={"legal_actions": _no_double_end_chain_ends_at_will}),
)
"""The thirty-first reading: 16 rule bugs, none a mutant of the catalogue (names,
descriptions and what each changes checked against the thirty readings before it; the
nearest are other slips: mut14-own-table-read-by-trains reads a table of one's own by
trains, mut31-published-table-by-trains the published ones; own-train-first-only-first-turn
lifts TRAIN-7 after every first turn, mut31-own-train-first-off-under-chain under the
own-train chain alone; own-train-first-mexican-open opens the Mexican Train,
mut31-own-train-first-marked-trains-open the marked trains; chain-anywhere-skips-own-train-
first lets a first turn lay anywhere, mut31-chain-anywhere-cover-before-own-train lets it
cover alone; mut30-marker-frees-own-train-first reads a marker as starting the own train
for TRAIN-7, mut31-own-train-started-by-marker for FIRST-10;
mut16-own-train-started-starter-only closes the Mexican Train to all but the starter,
mut31-own-train-started-starter-exempt opens it to the starter; own-train-mexican-every-
play closes an open Mexican Train in an ordinary play, mut31-own-train-started-blocks-
mexican-cover its double's duty; mut13-drawn-tile-opens-mexican misses FIRST-10 on the
draw's path, mut31-starter-only-drawn-tile-opens-mexican FIRST-9; no-double-end-under-
ordinary keeps FIRST-12 beside ordinary doubles, mut31-ordinary-only-with-follow-anywhere
drops DBL-11 beside two follow-up rules; first-turn-draws draws once on every chain first
turn, mut31-until-playable-over-first-turn draws on under draw-until-playable alone;
chain-ends-on-coverable-double ends any chain beside a cover, mut31-no-double-end-chain-
ends-at-will the no-double-end chain alone).

Written and not kept, each equivalent (no table a rule set allows can tell it from the
reference). Under heaviest-in-hand the hands weighed with the engine still in its placer's
hand (SEAT-6, ENG-3), or before engine-holder-draws' replacement is drawn (SEAT-6, ENG-5):
SEAT-6 requires engine_procedure set-aside (spec/data/clauses.yaml), so no hand ever
holds the engine, nor draws in its place. END-2's blocked test forgetting
own-train-opens-mexican (END-2, FIRST-10): a tile that would open the empty Mexican Train
bears the engine's number and so starts the player's own empty train as well, the train
END-2 always counts as open to its owner. Under starter-opens-mexican the starter's
follow-up kept off the empty Mexican Train on a first turn (FIRST-9): a first turn's first
tile starts an empty train, so it bears the engine's number and is no double (the double of
that number is the engine); no follow-up comes on a first turn of one tile.

Measured on the corpus before any fixture was added for them (2026-12-07, `mtrain mutants
-m mut31-... --need 2`, 3,205 passing runs): 11 of 16 killed, the fewest killers of a
killed mutant 1 (mut31-oldest-first-drawn-covers-any and mut31-any-open-drawn-covers-
oldest: doubles-053); mut31-own-train-first-covers-released, mut31-chain-anywhere-cover-
before-own-train, mut31-own-train-started-blocks-mexican-cover, mut31-chain-anywhere-
covers-oldest and mut31-until-playable-over-first-turn survived. With the ten fixtures of
conformance/fixtures/mutants/thirty-first-reading.yaml, worked by hand, every one is
killed by two fixtures or more (3,211 runs), and blame charges 16 of 16 to a clause they
break."""
