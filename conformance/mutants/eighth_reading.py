"""Rule bugs of an eighth outside reading: written from shared/RULES.md, the clauses
(docs/rules/) and the option values (docs/variants.md), aimed at the rules the seven
readings before it touch least (counted per clause over the catalogue): the hand tables'
rows still untouched (puremco's 4 players, puremco-d9's 2, Fundex's and Cardinal's 4),
the ends of a table of one's own (its smallest count, a row read one up), a double-18
set's size, SCORE-1's face value, MATCH-4's shared tie, the last round of a match
(its [0-0] engine, a blocked last round), FIRST-8's Mexican Train on a single-tile start,
TRAIN-1's Mexican Train at 2 players, TRAIN-2's turned tile, and TURN-6's end of a turn
under ordinary doubles.

Set aside on reading, before the mutants were counted, each for the reason given:
- SET-2 to SET-5 with a set size written out wrong: the engine takes every set's size
  from its highest number (SET-1), so a wrong size is one bug for every set, which the
  catalogue's tile-count mutants already are; only double-18, the set added last, keeps
  a size of its own here (a table of sizes a new set was added to by hand).
- DEAL-8 and DEAL-10: checks of a rule-set file (spec/catalog.py), no rule an engine plays.
"""

from __future__ import annotations

import dataclasses

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.conformance.mutants.outside import table_named, table_rows_changed
from mtrain.reference import deal as deal_module
from mtrain.reference import engine
from mtrain.reference.engine import BLOCKED, START, Action, State
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T

_engine_number = engine.engine_number  # bound before any swap (originals.py's way)
_deal_pool = deal_module.deal_pool
_match_winners = deal_module.match_winners


# --- hand tables of one's own: the smallest count, a row read one up --------------------


def _own_table_bottom_row_dropped(rules: Rules) -> Rules:
    """DEAL-11, DEAL-7: a table of one's own read from its smallest count exclusive."""
    if rules.ruleset["hand_sizes"] != "custom":
        return rules
    low = min(n for n, _ in rules.ruleset.hand_table)
    return table_rows_changed(lambda r: True, {low: None})(rules)


def _own_table_row_above(rules: Rules) -> Rules:
    """DEAL-11, DEAL-1: a table of one's own looked up with `>` for `>=`: n players take the
    row of the next count listed (its largest count keeps its own)."""
    if rules.ruleset["hand_sizes"] != "custom":
        return rules
    table = dict(rules.ruleset.hand_table)
    counts = sorted(table)
    rows = {n: table[counts[k + 1]] if k + 1 < len(counts) else table[n]
            for k, n in enumerate(counts)}
    return table_rows_changed(lambda r: True, dict(rows))(rules)


# --- the set, the scoring -------------------------------------------------------------------


def _double_18_short(rules: Rules, round_no: int) -> list[int]:
    """SET-6 read with a size written out as 189: the pool of a double-18 set stops before
    its last tile, [18-18]."""
    pool = _deal_pool(rules, round_no)
    if rules.max_pip != 18:
        return pool
    return [t for t in pool if t != T.DOUBLE[18]]


def _face_double_blank_50(rules: Rules) -> Rules:
    """SCORE-1 with the commonest house rule built in: [0-0] worth 50 at face value too."""
    if rules.ruleset["blank_values"] != "face":
        return rules
    value = list(rules.value)
    value[T.tile_id(0, 0)] = 50
    return dataclasses.replace(rules, value=tuple(value))


# --- the match's winners, the last round ------------------------------------------------


def _everyone_tied_nobody_wins(state: State) -> list[int]:
    """MATCH-4 read as 'a tie is no win' when the whole table ties: nobody wins."""
    out = _match_winners(state)
    return [] if len(out) == state.players > 1 else out


def _positive_tie_lowest_seat(state: State) -> list[int]:
    """MATCH-4 under positive scoring written as MATCH-6: a shared tie goes to its lowest
    seat."""
    out = _match_winners(state)
    rules = state.rules
    if rules.positive_scoring and not (rules.tie_most_outs or rules.tie_lowest_seat):
        return out[:1]
    return out


def _blocked_last_round_no_winner(state: State) -> list[int]:
    """MATCH-1's end taken as 'the last round is won': a blocked last round names nobody."""
    if state.result is not None and state.result.end == BLOCKED:
        return []
    return _match_winners(state)


def _engine_zero_falsy(rules: Rules, round_no: int) -> int:
    """ENG-1's number for the last round, 0, taken as 'none' (`number or N`): the [0-0]
    round is played with [N-N] again."""
    return _engine_number(rules, round_no) or rules.max_pip


# --- first turns, the end of a turn ---------------------------------------------------------


def _single_start_mexican_closed(state: State) -> list[int]:
    """FIRST-8 left out: on a single-tile first turn under anyone-opens, the Mexican Train
    is closed (it opens for play only after one's first turn)."""
    out = ref.playable_trains(state)
    rules = state.rules
    if (state.phase == START and not rules.chain_first_turn
            and not (rules.starter_only_mexican or rules.own_train_mexican)
            and ref.in_first_turn(state, state.seat)):
        return [t for t in out if t != state.players]
    return out


def _two_players_no_mexican(state: State) -> list[int]:
    """TRAIN-1 read with the two-player house rule: at 2 players there is no Mexican Train
    to play on."""
    out = ref.playable_trains(state)
    return [t for t in out if t != state.players] if state.players == 2 else out


def _never_turned(state: State) -> list[Action]:
    """TRAIN-2 without turning a tile round: a tile is laid as written, so it matches an
    open end by its high end alone."""
    ends = state.ends
    return [a for a in ref.plays(state) if T.HIGH[a.tile] == ends[a.train]]


def _ordinary_double_plays_again(state: State, tile: int, train: int) -> None:
    """TURN-6 read without DBL-11's exception: under ordinary doubles a double laid still
    keeps the turn (nothing to cover: the player just moves again)."""
    seat = state.seat
    ref.play(state, tile, train)
    if (T.HIGH[tile] == T.LOW[tile] and state.rules.ordinary_doubles
            and state.phase == START and state.seat != seat):
        state.seat = seat


EIGHTH_READING: tuple[Mutant, ...] = (
    # hand tables: rows still untouched
    Mutant("puremco-four-take-16",
           "puremco's double-12 table gives 4 players the 16 tiles of 2 and 3, not 15",
           ("DEAL-3",), "Rules.ruleset.hand_table 4 -> 16 under puremco-d12",
           rules=table_rows_changed(table_named("puremco-d12"), {4: 16})),
    Mutant("puremco-d9-two-take-13",
           "puremco's double-9 table gives 2 players the 13 tiles of 3, not 15", ("DEAL-4",),
           "Rules.ruleset.hand_table 2 -> 13 under puremco-d9",
           rules=table_rows_changed(table_named("puremco-d9"), {2: 13})),
    Mutant("fundex-four-take-11",
           "The Fundex table's first row read as 2 and 3 players: 4 players take 11, not 15",
           ("DEAL-6",), "Rules.ruleset.hand_table 4 -> 11 under fundex",
           rules=table_rows_changed(table_named("fundex"), {4: 11})),
    Mutant("cardinal-four-take-12",
           "Cardinal's table's first row read as 2 and 3 players: 4 players take 12, not 15",
           ("DEAL-5",), "Rules.ruleset.hand_table 4 -> 12 under cardinal",
           rules=table_rows_changed(table_named("cardinal"), {4: 12})),
    Mutant("own-table-bottom-row-refused",
           "A table of one's own is read from its smallest player count exclusive: a game "
           "with that few players is refused", ("DEAL-11", "DEAL-7"),
           "Rules.ruleset.hand_table: the smallest row left out under custom",
           rules=_own_table_bottom_row_dropped),
    Mutant("own-table-row-above",
           "A table of one's own is looked up with > for >=: n players take the row of the "
           "next count it lists", ("DEAL-11", "DEAL-1"),
           "Rules.ruleset.hand_table row n <- the next row under custom",
           rules=_own_table_row_above),
    # the set, the scoring
    Mutant("double-18-set-of-189",
           "A double-18 set is built of 189 tiles: [18-18] is missing", ("SET-6", "SET-1"),
           "deal_pool swapped: [18-18] left out under double-18",
           patches={"deal_pool": _double_18_short}),
    Mutant("face-double-blank-50",
           "At face value the [0-0] is worth 50, as under double-blank-50", ("SCORE-1",),
           "Rules.value [0-0] -> 50 under face", rules=_face_double_blank_50),
    # the match
    Mutant("everyone-tied-nobody-wins",
           "When every player ends on the winning total nobody wins, instead of all",
           ("MATCH-4",), "winners: [] when every seat is among them",
           winners=_everyone_tied_nobody_wins),
    Mutant("positive-tie-to-lowest-seat",
           "Under positive scoring a shared tie goes to the lowest of the tied seats",
           ("MATCH-4", "MATCH-3"), "winners: the first of the tied under positive and shared",
           winners=_positive_tie_lowest_seat),
    # who wins (MATCH-2 to MATCH-4) since session 47: the harness asks for the next
    # round's deal, which it refuses, so the match is over and only its winner is missing
    Mutant("blocked-last-round-no-winner",
           "A match whose last round is blocked names no winner: only a round gone out ends "
           "it with one", ("MATCH-1", "MATCH-7", "END-2", "MATCH-2", "MATCH-3", "MATCH-4"),
           "winners: [] after a blocked last round",
           winners=_blocked_last_round_no_winner),
    Mutant("last-round-engine-falsy",
           "The last round's engine number, 0, is read as none: the [0-0] round is played "
           "with [N-N]", ("ENG-1", "MATCH-1"),
           "engine_number swapped (engine, deal, codec): 0 -> N",
           patches={"engine_number": _engine_zero_falsy}),
    # first turns, the turn
    Mutant("single-start-mexican-closed",
           "On a single-tile start nobody may open the Mexican Train on their first turn, "
           "though anyone may", ("FIRST-8", "TRAIN-5"),
           "playable_trains swapped: the Mexican Train left out on a single first turn",
           patches={"playable_trains": _single_start_mexican_closed}),
    Mutant("two-players-no-mexican",
           "At 2 players there is no Mexican Train: nobody may play on it",
           ("TRAIN-1", "TRAIN-5", "TRAIN-4"),
           "playable_trains swapped: the Mexican Train left out at 2 players",
           patches={"playable_trains": _two_players_no_mexican}),
    Mutant("tiles-never-turned",
           "A tile is never turned round: it matches an open end by its high end alone",
           ("TRAIN-2",), "plays swapped: only tiles whose high end is the open end",
           patches={"plays": _never_turned}),
    Mutant("ordinary-double-plays-again",
           "Under ordinary doubles a double laid keeps the turn: the same player moves again",
           ("TURN-6", "DBL-11", "SEAT-1"),
           "_play swapped: the seat kept after an ordinary double",
           patches={"_play": _ordinary_double_plays_again}),
)
"""The eighth reading: 16 rule bugs, none a mutant of the catalogue (names and descriptions
checked against the seven readings before it).

Measured on the corpus before any fixture was added for them (2026-12-04, `mtrain mutants
-m NAME ... --need 2 -j 2`, 2,060 passing runs): 15 killed, the fewest kills two or more
but for own-table-bottom-row-refused (none: no fixture dealt a table of one's own at its
smallest count) and double-18-set-of-189 (one, sets-012). With
conformance/fixtures/deal/own-tables-eighth-reading.yaml (owntab-001 to -003, worked by
hand from the files' tables and ENG-1, ENG-2, ENG-3, SEAT-2, SEAT-3) all 16 are killed by
two fixtures or more (2,063 runs): own-table-bottom-row-refused by 2, double-18-set-of-189
by 3, the next fewest by 3. Blame charges 13 of 16 to a clause they break."""
