"""Rule bugs of a thirtieth reading, written at the options the earlier readings read least
(heaviest-in-hand, chain-no-double-end, own-train-first beside the first turn's Mexican
rules, any-open-double, highest-draw's run-off, single-round) and at the round's edges (a
round dealt blocked).

The start: under heaviest-in-hand the heaviest tile read as the highest double, as the
engine's own search reads the hands (SEAT-6); under highest-draw a tie on the highest
total broken by the higher end, SEAT-6's tie rule read into SEAT-5, with no run-off
(SEAT-5). The first turns: under chain-no-double-end a double nothing would follow let into
the chain when it is the only tile the chain could lay, FIRST-12 read as a preference
(FIRST-12); under own-train-first a single-tile first turn that FIRST-8 or FIRST-9 lets open
the Mexican Train doing so before the own train is started, the first turn's permission
read as lifting TRAIN-7 (TRAIN-7, FIRST-8, FIRST-9); own-train-first read as "your own
train first, every turn": a player who can play on their started train must (TRAIN-7).
Doubles: under any-open-double a player bound by several doubles made to cover the one on
their own train first (DBL-8). The round's edges and the match: END-2 asked at the end of a
turn only, so a round dealt blocked is played on in passes (END-2); under single-round a
blocked round naming no winner, as if the game were won only by going out (MATCH-7).
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


# --- doubles --------------------------------------------------------------------------------


def _any_open_own_double_first(state: State, first_turns_over: bool = False) -> list[int]:
    """DBL-8 read with the player's own train first: under any-open-double a player bound by
    several open doubles, one of them on their own train, must cover that one."""
    out = ref.duties(state, first_turns_over)
    seat = state.seat
    if len(out) > 1 and seat in out and not state.rules.oldest_first:
        return [seat]
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
           "play there, every turn", ("TRAIN-7",),
           "open_trains swapped: the own train alone while a tile in hand fits it",
           patches={"open_trains": _own_train_first_every_turn}),
    Mutant("mut30-any-open-own-double-first",
           "Under any-open-double a player bound by several open doubles, one on their own "
           "train, must cover that one first", ("DBL-8",),
           "duties swapped: the own train's double alone when it is among several",
           patches={"duties": _any_open_own_double_first}),
    Mutant("mut30-single-round-blocked-no-winner",
           "Under single-round a blocked round names no winner: only going out wins the "
           "game", ("MATCH-7", "MATCH-2"),
           "winners: none when the single round ended blocked",
           winners=_single_round_blocked_no_winner),
)
"""The thirtieth reading."""
