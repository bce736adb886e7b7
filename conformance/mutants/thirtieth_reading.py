"""Rule bugs of a thirtieth reading, written at the options the earlier readings read least
(heaviest-in-hand, highest-draw's run-off, a published table's last row, chain-no-double-
end, own-train-first beside the first turn's Mexican rules and a marker, own-train-opens-
mexican, draw-until-playable, any-open-double, single-round) and at the first turn's and
the match's edges.

The start and the deal: under heaviest-in-hand the heaviest tile read as the highest
double, as the engine's own search reads the hands (SEAT-6); under highest-draw a tie on
the highest total broken by the higher end, SEAT-6's tie rule read into SEAT-5, with no
run-off, and the drawn tiles kept out of later drawings, "the tiles going back" missed
(SEAT-5); a count past a published hand-size table's last row dealt by that row, as a
lookup that clamps would (DEAL-7). The first turns: FIRST-1's "as many tiles as you can"
read as a duty, so a chain may not be ended while a tile could go on it (FIRST-1,
FIRST-11); under chain-no-double-end a double nothing would follow let into the chain when
it is the only tile the chain could lay, FIRST-12 read as a preference (FIRST-12); under
the chain start a player whose own train is still empty after the first turn passing
without a draw, FIRST-3 stretched past the first turn (FIRST-3, TURN-2); under
own-train-opens-mexican the Mexican Train waiting for every personal train, not the
mover's own (FIRST-10). Own train first (TRAIN-7): a single-tile first turn that FIRST-8 or
FIRST-9 lets open the Mexican Train doing so before the own train is started (TRAIN-7,
FIRST-8, FIRST-9); "your own train first" read as a priority on every turn, so a player who
can play on their started train must, which takes away what TRAIN-4 and TRAIN-5 open
(TRAIN-7, TRAIN-4, TRAIN-5); a marked empty own train read as started, the marker taken for
TRAIN-7's condition (TRAIN-7). The turn: a player whose only plays are on the Mexican Train
let draw instead, TURN-1 read for one's own and marked trains (TURN-1); under
draw-until-playable the next draw offered beside a pass (TURN-5). Doubles: under any-open-
double a player bound by several doubles made to cover the one on their own train first,
or the one on the Mexican Train (DBL-8). The match: under single-round a blocked round
naming no winner, as if the game were won only by going out (MATCH-7, MATCH-2).
"""

from __future__ import annotations

import dataclasses

from mtrain.conformance.mutants import originals as ref
from mtrain.conformance.mutants.implementation import Mutant
from mtrain.reference import deal as deal_module
from mtrain.reference import engine as engine_module
from mtrain.reference.engine import BLOCKED, CHAIN, DRAW, END_CHAIN, PASS, START, State
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T
from mtrain.spec.ruleset import CUSTOM, MAX_PLAYERS

_FOLLOWED = engine_module._followed  # the reference's, bound before any swap
_DRAW_WINNER = deal_module.draw_winner

# --- the start ------------------------------------------------------------------------------


def _heaviest_is_highest_double(state: State) -> int:
    """SEAT-6 read as the engine's search reads the hands: the holder of the highest double
    starts; with no double dealt, the rotation's seat."""
    for n in range(state.rules.max_pip, -1, -1):
        bit = T.BIT[T.DOUBLE[n]]
        for s, hand in enumerate(state.hands):
            if hand & bit:
                return s
    return (state.round - 1) % state.players


def _draw_tie_by_higher_end(rules: Rules, players: int, draw: list[list[int]]) -> int:
    """SEAT-6's tie rule read into SEAT-5: of the seats tied on the first drawing's highest
    total, the one whose tile has the higher end wins; nobody draws again."""
    winner = _DRAW_WINNER(rules, players, draw)  # the reference's checks of the draw
    first = [d[0] for d in draw]
    best = max(T.PIPS[t] for t in first)
    tied = [s for s, t in enumerate(first) if T.PIPS[t] == best]
    if len(tied) == 1:
        return winner
    return max(tied, key=lambda s: T.HIGH[first[s]])


def _published_last_row_stretched(rules: Rules) -> Rules:
    """DEAL-7 missed on a published table: a count past its last row is dealt by that row,
    wherever the hands still fit the set."""
    if rules.ruleset["hand_sizes"] == CUSTOM:
        return rules
    table = dict(rules.ruleset.hand_table)
    top = max(table)
    pool = rules.set_mask.bit_length() - (0 if rules.holder_lays else 1)
    for n in range(top + 1, MAX_PLAYERS + 1):
        if n * table[top] <= pool:  # DEAL-8: the hands fit
            table[n] = table[top]
    if len(table) == len(rules.hand_table):
        return rules
    ruleset = dataclasses.replace(rules.ruleset, hand_table=tuple(sorted(table.items())))
    return dataclasses.replace(rules, ruleset=ruleset, hand_table=table)


def _draw_tiles_not_put_back(rules: Rules, players: int, draw: list[list[int]]) -> int:
    """SEAT-5 read without "the tiles going back": a tile drawn in one drawing may not come
    up in a later one."""
    seen: set[int] = set()
    for k in range(max(len(d) for d in draw)):
        now = {d[k] for d in draw if len(d) > k}
        if now & seen:
            raise deal_module.BadDraw(f"drawing {k + 1} holds a tile drawn before [SEAT-5]")
        seen |= now
    return _DRAW_WINNER(rules, players, draw)


# --- the first turns ------------------------------------------------------------------------


def _stranded_double_when_alone(state: State, found: list[engine_module.Action]
                                ) -> list[engine_module.Action]:
    """FIRST-12 read as a preference: a double nothing would follow is refused only while
    the chain has another tile to lay."""
    out = _FOLLOWED(state, found)
    return out if out or not found else found


def _first_turn_mexican_before_own(state: State, seat: int, all_marked: bool = False,
                                   first_turns_over: bool = False) -> list[int]:
    """FIRST-8 and FIRST-9 read as lifting TRAIN-7: under own-train-first a single-tile
    first turn that may open the Mexican Train may do so before the own train is started."""
    out = ref.open_trains(state, seat, all_marked, first_turns_over)
    rules, mex = state.rules, state.players
    first = state.first_pending >> seat & 1 and not first_turns_over
    if (out == [seat] and first and not state.trains[seat] and not state.trains[mex]
            and rules.own_train_first and not rules.chain_first_turn
            and not rules.chain_anywhere and not rules.own_train_mexican
            and (seat == state.starter or not rules.starter_only_mexican)):
        return [seat, mex]
    return out


def _own_train_first_every_turn(state: State, seat: int, all_marked: bool = False,
                                first_turns_over: bool = False) -> list[int]:
    """TRAIN-7 read as a priority on every turn: under own-train-first a player who holds a
    tile for their started own train may play only there."""
    out = ref.open_trains(state, seat, all_marked, first_turns_over)
    rules = state.rules
    if (len(out) > 1 and state.trains[seat] and rules.own_train_first
            and state.hands[seat] & rules.number_mask[state.ends[seat]]):
        return [seat]
    return out


def _chain_as_long_as_possible(state: State) -> list[engine_module.Action]:
    """FIRST-1 read as "as many tiles as you can": a first-turn chain may not be ended
    while the player has a tile to lay on it."""
    out = ref.legal_actions(state)
    if state.phase == CHAIN and len(out) > 1 and out[-1] == END_CHAIN:
        return out[:-1]
    return out


def _empty_train_never_draws(state: State) -> list[engine_module.Action]:
    """FIRST-3 stretched past the first turn: under the chain start a player whose own
    train is still empty and who cannot play passes, marker up, without drawing."""
    out = ref.legal_actions(state)
    rules = state.rules
    if (out == [DRAW] and state.phase == START and state.drawn < 0
            and not state.trains[state.seat] and rules.chain_first_turn
            and not rules.own_train_first):
        return [PASS]
    return out


def _mexican_plays_optional(state: State) -> list[engine_module.Action]:
    """TURN-1 read for the player's own and marked trains only: a player whose only plays
    are on the Mexican Train may draw instead."""
    out = ref.legal_actions(state)
    mex = state.players
    if (out and state.phase == START and state.drawn < 0 and state.boneyard
            and all(a.kind == "play" and a.train == mex for a in out)):
        return [*out, DRAW]
    return out


def _mexican_waits_for_every_train(state: State, seat: int, all_marked: bool = False,
                                   first_turns_over: bool = False) -> list[int]:
    """FIRST-10 read as "once the trains are started": under own-train-opens-mexican the
    empty Mexican Train waits until every personal train holds a tile."""
    out = ref.open_trains(state, seat, all_marked, first_turns_over)
    mex, trains = state.players, state.trains
    if (mex in out and not trains[mex] and state.rules.own_train_mexican
            and not all(trains[:mex])):
        return [t for t in out if t != mex]
    return out


def _until_playable_may_stop(state: State) -> list[engine_module.Action]:
    """TURN-5 read as a permission: under draw-until-playable a player whose drawn tile
    cannot be played may draw again or pass."""
    out = ref.legal_actions(state)
    if (out == [DRAW] and state.drawn >= 0 and state.phase == START
            and state.rules.draw_until_playable):
        return [DRAW, PASS]
    return out


_NOT_FIRST: dict[int, Rules] = {}


def _not_first(rules: Rules) -> Rules:
    found = _NOT_FIRST.get(id(rules))
    if found is None:
        found = _NOT_FIRST[id(rules)] = dataclasses.replace(rules, own_train_first=False)
    return found


def _marker_frees_own_train_first(state: State, seat: int, all_marked: bool = False,
                                  first_turns_over: bool = False) -> list[int]:
    """TRAIN-7 read as met once the own train is open to all: under own-train-first a
    player whose empty own train carries their marker may play elsewhere."""
    rules = state.rules
    if (state.trains[seat] or not state.markers >> seat & 1 or not rules.own_train_first):
        return ref.open_trains(state, seat, all_marked, first_turns_over)
    state.rules = _not_first(rules)
    try:
        return ref.open_trains(state, seat, all_marked, first_turns_over)
    finally:
        state.rules = rules


# --- doubles --------------------------------------------------------------------------------


def _any_open_own_double_first(state: State, first_turns_over: bool = False) -> list[int]:
    """DBL-8 read with the player's own train first: under any-open-double a player bound by
    several open doubles, one of them on their own train, must cover that one."""
    out = ref.duties(state, first_turns_over)
    seat = state.seat
    if len(out) > 1 and seat in out and not state.rules.oldest_first:
        return [seat]
    return out


def _any_open_mexican_double_first(state: State, first_turns_over: bool = False) -> list[int]:
    """DBL-8 read with the shared train first: under any-open-double a player bound by
    several open doubles, one of them on the Mexican Train, must cover that one."""
    out = ref.duties(state, first_turns_over)
    mex = state.players
    if len(out) > 1 and mex in out and not state.rules.oldest_first:
        return [mex]
    return out


# --- the round's edges and the match ---------------------------------------------------------


def _single_round_blocked_no_winner(state: State) -> list[int]:
    """MATCH-7 read as "the game goes to whoever goes out": under single-round a blocked
    round names no winner."""
    result = state.result
    if state.rules.single_round and result is not None and result.end == BLOCKED:
        return []
    return deal_module.match_winners(state)


THIRTIETH_READING: tuple[Mutant, ...] = (
    Mutant("mut30-heaviest-double-starts",
           "Under heaviest-in-hand-start the holder of the highest double starts, not the "
           "holder of the heaviest tile", ("SEAT-6",),
           "heaviest_holder swapped: the hands searched for their highest double",
           patches={"heaviest_holder": _heaviest_is_highest_double}),
    Mutant("mut30-draw-tie-by-higher-end",
           "Under highest-draw-start a tie on the highest total goes to the tile with the "
           "higher end, as under heaviest-in-hand: nobody draws again", ("SEAT-5",),
           "draw_winner swapped: the first drawing's tie broken by the higher end",
           patches={"draw_winner": _draw_tie_by_higher_end}),
    Mutant("mut30-draw-tiles-not-put-back",
           "Under highest-draw-start the tiles drawn for the start are not put back between "
           "drawings: a run-off holding a tile drawn before is refused", ("SEAT-5",),
           "draw_winner swapped: a tile seen in an earlier drawing refused",
           patches={"draw_winner": _draw_tiles_not_put_back}),
    Mutant("mut30-published-table-last-row-stretched",
           "A count past a published hand-size table's last row is dealt by that row, where "
           "the hands fit, instead of being refused", ("DEAL-7",),
           "Rules.hand_table: the last published row stretched to every dealable count",
           rules=_published_last_row_stretched),
    Mutant("mut30-no-double-end-when-nothing-else",
           "Under no-double-end-start a double nothing would follow may end the chain when "
           "it is the only tile the chain could lay", ("FIRST-12",),
           "_followed swapped: the stranded doubles kept when nothing else is playable",
           patches={"_followed": _stranded_double_when_alone}),
    Mutant("mut30-first-turn-mexican-before-own-train",
           "Under own-train-first a single-tile first turn that may open the Mexican Train "
           "may do so before the own train is started", ("TRAIN-7", "FIRST-8", "FIRST-9"),
           "open_trains swapped: the empty Mexican Train added on a first turn under "
           "own-train-first", patches={"open_trains": _first_turn_mexican_before_own}),
    Mutant("mut30-chain-as-long-as-possible",
           "A first-turn chain may not be ended while the player holds a tile to lay on it: "
           "the chain is as long as it can be", ("FIRST-1", "FIRST-11"),
           "legal_actions swapped: end-chain dropped while a play is listed",
           patches={"legal_actions": _chain_as_long_as_possible}),
    Mutant("mut30-mexican-waits-for-every-train",
           "Under own-train-opens-mexican the empty Mexican Train waits until every "
           "personal train holds a tile", ("FIRST-10",),
           "open_trains swapped: the empty Mexican Train dropped while a personal train is "
           "empty", patches={"open_trains": _mexican_waits_for_every_train}),
    Mutant("mut30-empty-train-never-draws",
           "Under the chain start a player whose own train is still empty after their first "
           "turn passes without drawing when they cannot play", ("FIRST-3", "TURN-2"),
           "legal_actions swapped: [draw] becomes [pass] while the own train is empty",
           patches={"legal_actions": _empty_train_never_draws}),
    Mutant("mut30-mexican-plays-optional",
           "A player whose only plays are on the Mexican Train may draw instead",
           ("TURN-1",), "legal_actions swapped: draw added when every play is on the Mexican "
           "Train", patches={"legal_actions": _mexican_plays_optional}),
    Mutant("mut30-until-playable-may-stop",
           "Under draw-until-playable a player whose drawn tile cannot be played may pass "
           "instead of drawing again", ("TURN-5",),
           "legal_actions swapped: pass offered beside the next draw",
           patches={"legal_actions": _until_playable_may_stop}),
    Mutant("mut30-own-train-first-every-turn",
           "Under own-train-first a player who can play on their started own train must "
           "play there, every turn", ("TRAIN-7", "TRAIN-4", "TRAIN-5"),
           "open_trains swapped: the own train alone while a tile in hand fits it",
           patches={"open_trains": _own_train_first_every_turn}),
    Mutant("mut30-any-open-own-double-first",
           "Under any-open-double a player bound by several open doubles, one on their own "
           "train, must cover that one first", ("DBL-8",),
           "duties swapped: the own train's double alone when it is among several",
           patches={"duties": _any_open_own_double_first}),
    Mutant("mut30-any-open-mexican-double-first",
           "Under any-open-double a player bound by several open doubles, one on the Mexican "
           "Train, must cover that one first", ("DBL-8",),
           "duties swapped: the Mexican Train's double alone when it is among several",
           patches={"duties": _any_open_mexican_double_first}),
    Mutant("mut30-marker-frees-own-train-first",
           "Under own-train-first a player whose own train is still empty but carries their "
           "marker may play elsewhere", ("TRAIN-7",),
           "open_trains swapped: own-train-first not read for a marked empty own train",
           patches={"open_trains": _marker_frees_own_train_first}),
    Mutant("mut30-single-round-blocked-no-winner",
           "Under single-round a blocked round names no winner: only going out wins the "
           "game", ("MATCH-7", "MATCH-2"),
           "winners: none when the single round ended blocked",
           winners=_single_round_blocked_no_winner),
)
"""The thirtieth reading: 16 rule bugs, none a mutant of the catalogue (names, descriptions
and what each changes checked against the twenty-nine readings before it; the nearest are
other slips: heaviest-by-high-end, heaviest-tie-to-double and mut19-heaviest-skips-doubles
weigh the tiles wrongly, mut30-heaviest-double-starts weighs the doubles alone;
draw-tie-to-lowest-seat settles a tie by the seat, mut30-draw-tie-by-higher-end by the
tiles' ends; mut14-own-table-last-row-stretched stretches a table of one's own,
mut30-published-table-last-row-stretched the published ones; follow-up-optional,
drawn-tile-optional and marked-plays-optional make other plays optional, end-chain-before-a-
tile ends a chain too soon, mut30-chain-as-long-as-possible never lets it end and
mut30-mexican-plays-optional lets a Mexican play go; no-double-end-ignored drops FIRST-12,
mut30-no-double-end-when-nothing-else keeps it where something else is playable;
first-turn-draws draws on the first turn, mut30-empty-train-never-draws does not on later
ones; mut24-own-train-started-by-any-train opens the Mexican Train once any personal train
is started, mut30-mexican-waits-for-every-train once all are; own-train-first-mexican-open
and mut24-own-train-first-by-any-train lift TRAIN-7 on every turn or once any train is
started, mut30-first-turn-mexican-before-own-train on a first turn that may open the
Mexican Train, mut30-marker-frees-own-train-first once the own train carries a marker, and
mut30-own-train-first-every-turn keeps TRAIN-7 on a started train;
draw-until-playable-ignored passes after one draw, mut30-until-playable-may-stop may pass
or draw on; oldest-first and the by-train, by-number and newest readings order the doubles
by age or seat, mut30-any-open-own-double-first and mut30-any-open-mexican-double-first by
whose train they are on; single-round-out-wins gives the game to the player out whatever
the scores, mut30-single-round-blocked-no-winner gives a blocked game to nobody).

Written and not kept. Equivalent: END-2 asked at the end of a turn only, so that a round
dealt blocked would be played on in passes. No round is blocked at its deal: with the
boneyard empty every tile but the engine is in a hand, the tiles bearing the engine's number
among them, and whoever holds one may start their own train, whatever the rules (nor is it
reached in the corpus: no shipped hand-size table deals every tile).

Measured on the corpus before any fixture was added for them (2026-12-07, `mtrain mutants
-m mut30-... --need 2`, 3,117 passing runs): 16 of 16 killed, the fewest killers 1
(mut30-draw-tie-by-higher-end: s46-draw-002; mut30-draw-tiles-not-put-back: draw-002),
mut30-mexican-waits-for-every-train and mut30-own-train-first-every-turn killed by
chain-anywhere fixtures alone, charged to FIRST-11. With the six fixtures of
conformance/fixtures/mutants/thirtieth-reading.yaml, worked by hand, every one is killed by
two fixtures or more (3,135 runs), and blame charges 16 of 16 to a clause they break (one
in a tie at the top: mut30-single-round-blocked-no-winner, MATCH-2 beside MATCH-4)."""
