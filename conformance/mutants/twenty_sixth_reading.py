"""Rule bugs of a twenty-sixth reading, written where house tables, sets other than
double-12 and later rounds press on rules first written for pagat's double-12 round 1: a
rule kept for round 1 alone, a table read at its edges, a set's pips read as double-12's,
a blank rule read as its neighbour, a score or an out counted from the wrong tiles or
rounds, an open double read in the wrong order or forgotten.

Round 1 against later rounds (each a rule an author tests on round 1 and guards with a
round-1 flag): under engine-holder the holder starts round 1 only, later rounds rotating
(SEAT-2 read as SEAT-3 from round 2); a chain first turn in round 1 only, a later round's
first turn one tile (FIRST-1); FIRST-9's starter rule in round 1 only; FIRST-3's marker
without a draw in round 1 only, a later round's first turn drawing; TRAIN-7's own train
first in round 1 only. The search for a missing engine: the drawn engine also kept in its
finder's hand (ENG-4, ENG-3); under engine-holder the seat the search began from starting,
not the finder (ENG-4, SEAT-2). Tables at their edges: a deal leaving fewer tiles in the
boneyard than there are players refused (a boneyard read as one draw a player at least:
the 12-player rows of the double-15 tables, Celko's double-6 row of 4 with the engine set
aside); a game of one player dealt the table's first row (DEAL-7); the double-16 file's
table stopping at eight players, as puremco's does (DEAL-11, DEAL-7). Sets and scoring: a
tile with an end above 12 worth nothing in hand (a value table sized for double-12:
SCORE-1); blank-25 read as double-blank-50 (SCORE-2); under positive scoring the winner
collecting every tile off the table, the boneyard's too (SCORE-6, the set's pips less the
table's); the outs of the last round only, not carried (MATCH-5). Doubles: any-open read
as a stack, the newest open double the only one to cover (DBL-8); a double a first-turn
chain leaves open forgotten, obliging nobody ever (FIRST-5, DBL-6).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from mtrain.conformance.adapter import JSON
from mtrain.conformance.interface import RefusedSetup
from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant, MutantImplementation
from mtrain.reference import engine, refusals
from mtrain.reference.engine import CHAIN, DOUBLE, DRAW, ENGINE, FOLLOW, PASS, START, Action, State
from mtrain.reference.rules import Rules, tile_values
from mtrain.spec import tiles as T

_BIT, _HIGH, _PIPS = T.BIT, T.HIGH, T.PIPS
_refusals = refusals._refusals

TWELVE = 12
"""The set the value table of mut26-pips-tabled-for-d12 was written for."""


# --- rules kept for round 1 ---------------------------------------------------------------


def _holder_starts_round_one_only(state: State, holder: int) -> None:
    """SEAT-2 kept for round 1: from round 2 on the start rotates, as under SEAT-3."""
    ref.place_engine(state, holder)
    if state.round > 1 and state.rules.engine_holder_starts:
        state.seat = state.starter = (state.round - 1) % state.players


def _chain_round_one_only(state: State, tile: int, train: int) -> None:
    """FIRST-1 kept for round 1: a later round's first turn is one tile (a double asking
    for its follow-up, DBL-1), laid where the first-turn rule lets it go (FIRST-2,
    FIRST-11)."""
    opens = state.round > 1 and ref.chain_start(state)
    ref.play(state, tile, train)
    if opens and state.phase == CHAIN:
        if T.IS_DOUBLE[tile] and not state.rules.ordinary_doubles:
            state.phase = FOLLOW
        else:
            ref.end_turn(state)


def _starter_only_round_one_only(state: State, seat: int, all_marked: bool = False,
                                 first_turns_over: bool = False) -> list[int]:
    """FIRST-9 kept for round 1: in a later round's first turns anyone may open the
    Mexican Train."""
    if not (state.round > 1 and state.rules.starter_only_mexican):
        return ref.open_trains(state, seat, all_marked, first_turns_over)
    starter = state.starter
    state.starter = seat
    try:
        return ref.open_trains(state, seat, all_marked, first_turns_over)
    finally:
        state.starter = starter


def _first_turn_draws_after_round_one(state: State) -> list[Action]:
    """FIRST-3 kept for round 1: from round 2 on a player who cannot start their train on
    their first turn draws, as in a later turn (TURN-2), instead of marking at once."""
    out = ref.legal_actions(state)
    if (out == [PASS] and state.round > 1 and state.boneyard and state.drawn < 0
            and state.phase == START and ref.in_first_turn(state, state.seat)
            and state.rules.chain_first_turn):
        return [DRAW]
    return out


_UNBOUND: dict[int, tuple[Rules, Rules]] = {}
"""Each rule set's rules without own-train-first, by the id of the rules they come from
(kept beside them, so that an id reused by other rules is not taken for theirs)."""


def _without_own_train_first(rules: Rules) -> Rules:
    found = _UNBOUND.get(id(rules))
    if found is None or found[0] is not rules:
        found = _UNBOUND[id(rules)] = (rules, dataclasses.replace(rules, own_train_first=False))
    return found[1]


def _own_train_first_round_one(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn` with TRAIN-7 read in round 1 only: from round 2 on it is called on rules
    without own-train-first."""
    def swapped(state: State, *args: Any) -> Any:
        rules = state.rules
        if state.round == 1 or not rules.own_train_first:
            return fn(state, *args)
        state.rules = _without_own_train_first(rules)
        try:
            return fn(state, *args)
        finally:
            state.rules = rules
    return swapped


# --- the search for the engine --------------------------------------------------------------


def _finder_keeps_engine(state: State) -> None:
    """ENG-4's drawn engine kept in the finder's hand as it is placed."""
    seat, tile = state.seat, state.boneyard[0] if state.boneyard else -1
    found = (state.phase == ENGINE and not state.rules.everyone_draws
             and tile == DOUBLE[state.engine])
    ref.draw(state)
    if found:
        state.hands[seat] |= _BIT[tile]


def _search_first_seat_starts(state: State) -> None:
    """SEAT-2 read as the seat that began the search (ENG-4): the player who draws the
    engine places it, but the round's first drawer starts."""
    tile = state.boneyard[0] if state.boneyard else -1
    first = state.starter  # the deal's first seat, where the search began
    found = (state.phase == ENGINE and not state.rules.everyone_draws
             and tile == DOUBLE[state.engine])
    ref.draw(state)
    if found and state.rules.engine_holder_starts:
        state.seat = state.starter = first


# --- tables at their edges ------------------------------------------------------------------


def _with_table(rules: Rules, table: dict[int, int]) -> Rules:
    """`rules` dealing by `table` (the rule set's table and the engine's flag alike)."""
    ruleset = dataclasses.replace(rules.ruleset, hand_table=tuple(sorted(table.items())))
    return dataclasses.replace(rules, ruleset=ruleset, hand_table=table)


def _table_without(rules: Rules, keep: Callable[[int, int], bool]) -> Rules:
    """`rules` with the rows of its hand-size table `keep` refuses dropped (DEAL-7)."""
    table = {n: k for n, k in rules.hand_table.items() if keep(n, k)}
    return rules if len(table) == len(rules.hand_table) else _with_table(rules, table)


class _TableMutant(Mutant):
    """A mutant whose hand-size table drops rows (or adds one)."""

    def implementation(self) -> MutantImplementation:
        return _TableReader(self)


class _TableReader(MutantImplementation):
    """Refuses a count its table lacks by DEAL-7 at every setup, as an engine reading its
    own table would: the adapter's check (interface._check_players) skips the counts
    every known table lists, which a dropped row may be."""

    def _check(self, ruleset: JSON, players: int) -> None:
        table = self.rules(ruleset).ruleset
        if not table.deals(players):
            raise RefusedSetup(f"no hand size for {players} players: the table lists "
                               f"{', '.join(str(n) for n in table.player_counts)}", "DEAL-7")

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        self._check(ruleset, players)
        return super().deal(ruleset, players, round, order, draw)

    def state(self, ruleset: JSON, state: JSON) -> State:
        st = super().state(ruleset, state)
        self._check(ruleset, st.players)
        return st


def _short_boneyard_refused(rules: Rules) -> Rules:
    """A row whose deal leaves fewer tiles to draw than there are players read as not
    fitting the set (DEAL-8): a game of that many players is refused."""
    pool = rules.set_mask.bit_length() - (0 if rules.holder_lays else 1)  # ENG-2
    return _table_without(rules, lambda n, k: pool - n * k >= n)


def _solo_dealt_first_row(rules: Rules) -> Rules:
    """The table looked up with the players clamped to its first row: one player is
    dealt the hand of two."""
    if min(rules.hand_table) != 2:
        return rules
    return _with_table(rules, {1: rules.hand_table[2], **rules.hand_table})


def _puremco_d9_four_take_13(rules: Rules) -> Rules:
    """puremco's short-game table (DEAL-4) with its row of 3 run on to 4 players."""
    if rules.ruleset["hand_sizes"] != "puremco-d9":
        return rules
    return _with_table(rules, {**rules.hand_table, 4: 13})


def _celko_d6_stops_at_three(rules: Rules) -> Rules:
    """Celko's double-6 table (DEAL-12) read as 2 and 3 players: a game of 4 is refused."""
    if rules.ruleset["hand_sizes"] != "celko-d6":
        return rules
    return _table_without(rules, lambda n, k: n <= 3)


# --- sets and scores -----------------------------------------------------------------


def _pips_to_twelve(state: State, seat: int) -> int:
    """A hand's value from a table of double-12's tiles: a tile with an end above 12 is
    not in it and counts nothing."""
    hand = state.hands[seat]
    value = state.rules.value if hand & engine.BLANKS else _PIPS
    return sum(value[t] for t in T.tiles_of(hand) if _HIGH[t] <= TWELVE)


def _d16_stops_at_eight(rules: Rules) -> Rules:
    """The double-16 file's table read through eight players, as puremco's double-12
    table stops: 9 and 10 players are refused (DEAL-7)."""
    if rules.max_pip != 16:
        return rules
    return _table_without(rules, lambda n, k: n <= 8)


# --- scoring and the end of a round ------------------------------------------------------------


def _blank_25_as_double_blank_50(rules: Rules) -> Rules:
    """SCORE-2's "25 a blank, 50 the double blank" read as the double blank alone at 50."""
    if rules.ruleset["blank_values"] != "blank-25":
        return rules
    return dataclasses.replace(rules, value=tile_values("double-blank-50"))


def _outs_of_last_round(state: State, end: str, winner: int) -> None:
    """MATCH-5's outs kept for the round just ended, not added to the match's."""
    ref.finish(state, end, winner)
    state.outs[:] = [int(s == winner) for s in range(state.players)]


def _positive_collects_boneyard(state: State, end: str, winner: int) -> None:
    """SCORE-6 read as the set's pips less the table's: under positive scoring the
    player who went out collects the boneyard's tiles too, as if a loser held them."""
    if not (winner >= 0 and state.boneyard and state.rules.positive_scoring):
        ref.finish(state, end, winner)
        return
    loser = (winner + 1) % state.players
    held = state.hands[loser]
    for t in state.boneyard:
        state.hands[loser] |= _BIT[t]
    try:
        ref.finish(state, end, winner)
    finally:
        state.hands[loser] = held


# --- open doubles ------------------------------------------------------------------------------


def _any_open_newest_only(state: State, first_turns_over: bool = False) -> list[int]:
    """DBL-8 read as a stack: of several open doubles only the newest may be covered."""
    out = ref.duties(state, first_turns_over)
    if len(out) > 1 and not state.rules.oldest_first:
        return out[-1:]
    return out


def _chain_doubles_forgotten(state: State, action: Action) -> None:
    """FIRST-5 read as releasing a chain's open doubles: ending the chain takes them off
    the open doubles, so that they never oblige anyone."""
    if action.kind == "end-chain":
        for t in state.turn_doubles:
            state.open_doubles.remove(t)
    ref.perform(state, action)


TWENTY_SIXTH_READING: tuple[Mutant, ...] = (
    Mutant("mut26-engine-holder-round-one-only",
           "Under engine-holder-start the engine's holder starts round 1 only: from round 2 "
           "the start rotates, seat (round - 1) mod n", ("SEAT-2", "SEAT-3"),
           "_place_engine swapped: seat (round - 1) mod n after round 1 under engine-holder",
           patches={"_place_engine": _holder_starts_round_one_only}),
    Mutant("mut26-chain-round-one-only",
           "A first-turn chain is laid in round 1 only: a later round's first turn is a "
           "single tile (a double still asking for its follow-up)", ("FIRST-1", "FIRST-7"),
           "_play swapped: a later round's first-turn play ends the turn (a double asks for "
           "its follow-up)", patches={"_play": _chain_round_one_only}),
    Mutant("mut26-starter-only-round-one-only",
           "Under starter-opens-mexican only round 1's starter is held back: in a later "
           "round's first turns anyone may open the Mexican Train", ("FIRST-9",),
           "open_trains swapped: every seat read as the starter after round 1",
           patches={"open_trains": _starter_only_round_one_only}),
    Mutant("mut26-first-turn-draws-after-round-one",
           "A player who cannot start their train on a later round's first turn draws, "
           "instead of marking at once as in round 1", ("FIRST-3",),
           "legal_actions swapped: draw, not pass, on a first turn with no start after "
           "round 1", patches={"legal_actions": _first_turn_draws_after_round_one}),
    Mutant("mut26-own-train-first-round-one-only",
           "Under own-train-first the own train must be started first in round 1 only",
           ("TRAIN-7",), "legal_actions, perform and _refusals called without "
           "Rules.own_train_first after round 1",
           patches={name: _own_train_first_round_one(fn) for name, fn in (
               ("legal_actions", ref.legal_actions), ("perform", ref.perform),
               ("_refusals", _refusals))}),
    Mutant("mut26-search-finder-keeps-engine",
           "The engine drawn in the search is placed and also kept in its finder's hand",
           ("ENG-4", "ENG-3"), "_draw swapped: the found engine added to the finder's hand",
           patches={"_draw": _finder_keeps_engine}),
    Mutant("mut26-search-first-seat-starts",
           "Under engine-holder-start with nobody dealt the engine the seat the search began "
           "from starts, not the player who drew the engine", ("ENG-4", "SEAT-2"),
           "_draw swapped: the search's first seat starts once the engine is drawn",
           patches={"_draw": _search_first_seat_starts}),
    _TableMutant("mut26-short-boneyard-deal-refused",
           "A game whose deal leaves fewer tiles in the boneyard than there are players is "
           "refused, as if the hands did not fit the set", ("DEAL-7", "DEAL-8"),
           "Rules.hand_table without the rows leaving fewer than n tiles to draw",
           rules=_short_boneyard_refused),
    _TableMutant("mut26-solo-game-dealt",
           "A game of one player is dealt the hand of two instead of being refused",
           ("DEAL-7",), "Rules.hand_table with a row for 1 player, the row of 2's size",
           rules=_solo_dealt_first_row),
    Mutant("mut26-puremco-d9-four-take-13",
           "puremco's double-9 table gives 4 players the 13 tiles of 3, not 10", ("DEAL-4",),
           "Rules.hand_table: 4 players take 13 under puremco-d9",
           rules=_puremco_d9_four_take_13),
    _TableMutant("mut26-celko-d6-stops-at-three",
           "Celko's double-6 table is read as 2 and 3 players: a game of 4 is refused",
           ("DEAL-12", "DEAL-7"), "Rules.hand_table without its row of 4 under celko-d6",
           rules=_celko_d6_stops_at_three),
    _TableMutant("mut26-d16-table-stops-at-eight",
           "The double-16 file's table is read through eight players, as puremco's stops: "
           "a game of 9 or 10 is refused", ("DEAL-11", "DEAL-7"),
           "Rules.hand_table without its rows of 9 and 10 under double-16",
           rules=_d16_stops_at_eight),
    Mutant("mut26-pips-tabled-for-d12",
           "A tile with an end above 12 counts nothing in hand (a value table of double-12's "
           "tiles)", ("SCORE-1", "SCORE-5"),
           "hand_value swapped: tiles with an end above 12 skipped",
           patches={"hand_value": _pips_to_twelve}),
    Mutant("mut26-blank-25-read-as-double-blank-50",
           "Under blank-25 only the double blank is penalised, at 50: [5-0] is worth 5",
           ("SCORE-2",), "Rules.value of double-blank-50 under blank-25",
           rules=_blank_25_as_double_blank_50),
    Mutant("mut26-positive-collects-boneyard",
           "Under positive scoring the player who went out also collects the tiles left in "
           "the boneyard", ("SCORE-6",),
           "_finish swapped: the boneyard added to a loser's hand while the round is scored",
           patches={"_finish": _positive_collects_boneyard}),
    Mutant("mut26-outs-not-carried",
           "The outs are the last round's only: an out of an earlier round is forgotten",
           ("MATCH-5",), "_finish swapped: outs set to the round's out alone",
           patches={"_finish": _outs_of_last_round}),
    Mutant("mut26-any-open-newest-only",
           "Under any-open-double only the newest of several open doubles may be covered",
           ("DBL-8",), "duties swapped: the last open double alone when not oldest-first",
           patches={"duties": _any_open_newest_only}),
    Mutant("mut26-chain-doubles-forgotten",
           "A double left open at the end of a first-turn chain is forgotten: it never "
           "obliges anyone", ("FIRST-5", "DBL-6"),
           "perform swapped: end-chain takes the turn's doubles off the open doubles",
           patches={"perform": _chain_doubles_forgotten}),
)
"""The twenty-sixth reading: 18 rule bugs, none a mutant of the catalogue (names,
descriptions and what each changes checked against the twenty-five readings before it; the
nearest are other slips: mut17-holder-start-rotates starts round r at the holder plus r - 1,
mut26-engine-holder-round-one-only at the rotation's seat; mut15-first-turns-round-one-only
ends every later first turn at the deal, the four round-1 mut26- mutants keep one first-turn
rule each; first-turn-draws draws in every round, mut26-first-turn-draws-after-round-one
from round 2; engine-holder-keeps-engine keeps a dealt engine, the search's finder keeps it
here; double-search-first-seat-starts is ENG-7's search, mut26-search-first-seat-starts
ENG-4's; mut23-replacement-skipped-on-short-boneyard skips ENG-5's draw where the boneyard
is short, mut26-short-boneyard-deal-refused refuses the game; d15-table-stops-at-eight and
mut26-d16-table-stops-at-eight cut different sets; mut16-blank-values-stop-at-twelve and
mut21-ends-in-four-bits misvalue blanks and ends past 15, mut26-pips-tabled-for-d12 every
tile above 12; newest-double-first reads oldest-first as a stack, mut26-any-open-newest-only
any-open; outs-not-counted and tie-outs-before-last-round lose outs, mut26-outs-not-carried
keeps only the last round's; positive-at-face-value misvalues blanks,
mut26-positive-collects-boneyard counts tiles nobody holds).

Written and not kept. Already in the catalogue under other names (checked by description,
not by name, once they were written): the draw for the start in round 1 only
(draw-for-round-one-only), ENG-5's replacement in round 1 only
(mut17-replacement-round-one-only), the top double set aside every round
(set-aside-top-double-every-round), the search drawn to the right
(engine-search-counterclockwise), ENG-6's lap ended at seat 0 or off the draw
(lap-ends-at-seat-0, lap-end-ignores-draw), ENG-8's smallest double
(designated-smallest-double), thirteen rounds on every set
(thirteen-rounds-whatever-the-set), END-3 counted to n + 1 (passes-one-too-many), SEAT-5 by
the higher end or by text (draw-by-high-end, mut18-draw-totals-compared-as-text), a bound
player drawing once under draw-until-playable (follow-draws-once-until-playable,
mut13-duty-draws-once), SEAT-4's finder starting (after-engine-finder-starts). Dropped as
the meeting of two mutants the corpus kills apart: a pass after drawing the boneyard out
under draw-until-playable left unmarked (draw-pass-unmarked, empty-boneyard-pass-unmarked).
Unreachable in the corpus: ENG-5's replacement drawn from an empty boneyard (no shipped
table deals every tile: the fullest rows, the double-15 tables' 12 players, leave 4 to draw,
3 with the engine set aside).

Measured on the corpus before any fixture was added for them (2026-12-06, `mtrain mutants
-m mut26-... --need 2`, 2,976 passing runs): 17 of 18 killed, the fewest killers 0; the
survivor wanted a double-16 game of 9 or 10 players, which no fixture dealt, and
mut26-solo-game-dealt was caught once (refused-003, a table of one seat, never a deal).
With the three fixtures of conformance/fixtures/mutants/twenty-sixth-reading.yaml, worked
by hand, every one is killed by two fixtures or more (2,981 runs), and blame charges each
to a clause it breaks (18 of 18)."""
