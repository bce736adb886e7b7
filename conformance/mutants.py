"""Mutants: realistic rule bugs, each a named switch on a wrapper around the reference engine.

A conformance suite is only as good as the bugs it catches. Each mutant here is one
mistake a real implementation could ship (a marker that never comes off, a double that
ends the turn, hands dealt from the wrong row of a table, ...), built without touching
`mtrain.reference`: a `MutantImplementation` is a `ReferenceImplementation` that, for
the duration of one call, either

- builds the engine's `Rules` with a flag changed (`dataclasses.replace`),
- swaps one or more engine functions for a faulty version that wraps the original
  (restored when the call returns, so nothing leaks into the reference), or
- post-processes the JSON it returns (a deal, the match winners).

Because the swapped function is the one the engine itself calls, `legal()` and
`apply()` always agree, as they would in a real buggy engine.

`run_mutants(fixtures)` plays every fixture against every mutant and reports which
fixtures kill which mutant: a fixture kills a mutant when it passes under the reference
and at least one of its outcomes is `fail` or `error` (a crash included) under the mutant.
Only runs that pass under the reference are used; a run that never reaches a mutant's
hooks is skipped, since the mutant would play it exactly as the reference does.

    python -m mtrain.conformance.mutants [PATH] [--first] [--json] [-j N] [-m NAME] [--list]

(`register` adds the same as `mtrain mutants` when listed in mtrain.cli.COMMAND_MODULES.)
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing as mp
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from mtrain.reference import codec, engine
from mtrain.reference import deal as deal_module
from mtrain.reference.deal import match_winners
from mtrain.reference.engine import (
    BLOCKED,
    CHAIN,
    DRAW,
    END_CHAIN,
    ENGINE,
    FOLLOW,
    OVER,
    PASS,
    START,
    Action,
    State,
)
from mtrain.reference.rules import (
    FOLLOW_ANYWHERE,
    FOLLOW_COVER_OWN,
    FOLLOW_RESTRICTED,
    MARKER_ANYONE_ON,
    MARKER_OWNER_ANYWHERE,
    MARKER_OWNER_OWN,
    Rules,
)
from mtrain.spec import tiles as T

from . import runner
from .adapter import JSON, Implementation, ReferenceImplementation, ruleset_json
from .fixture import Fixture, load_corpus
from .runner import run_fixture

RulesHook = Callable[[Rules], Rules]
DealHook = Callable[[JSON, Rules], JSON]
WinnersHook = Callable[[State], list[int]]


@dataclass(frozen=True)
class Mutant:
    """One rule bug. `patches` maps an engine function's name to its faulty replacement."""

    name: str
    description: str
    clauses: tuple[str, ...]
    mechanism: str
    rules: RulesHook | None = None
    patches: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    post_deal: DealHook | None = None
    winners: WinnersHook | None = None

    def implementation(self) -> MutantImplementation:
        return MutantImplementation(self)

    def to_json(self) -> JSON:
        hooks = [*(["rules"] if self.rules else []), *sorted(self.patches),
                 *(["deal"] if self.post_deal else []), *(["winners"] if self.winners else [])]
        return {"name": self.name, "description": self.description,
                "clauses": list(self.clauses), "mechanism": self.mechanism, "hooks": hooks}


# --- swapping engine functions ---------------------------------------------------------

# deal.py and codec.py import a few engine functions by name; a swap must reach them too.
_SITES: dict[str, tuple[ModuleType, ...]] = {
    "_place_engine": (engine, deal_module),
    "_check_blocked": (engine, deal_module),
    "engine_number": (engine, deal_module, codec),
}


@contextmanager
def swapped(patches: Mapping[str, Callable[..., Any]]) -> Iterator[None]:
    """Replace engine functions (everywhere they are looked up) until the block ends."""
    saved: list[tuple[ModuleType, str, Any]] = []
    try:
        for name, fn in patches.items():
            for module in _SITES.get(name, (engine,)):
                saved.append((module, name, getattr(module, name)))
                setattr(module, name, fn)
        yield
    finally:
        for module, name, old in reversed(saved):
            setattr(module, name, old)


class MutantImplementation(ReferenceImplementation):
    """The reference engine with one mutant switched on."""

    def __init__(self, mutant: Mutant) -> None:
        super().__init__()
        self.mutant = mutant
        self._mutated: dict[int, Rules] = {}

    def info(self) -> JSON:
        return {**super().info(), "name": f"mtrain-mutant:{self.mutant.name}"}

    def rules(self, ruleset: JSON) -> Rules:
        base = super().rules(ruleset)
        hook = self.mutant.rules
        if hook is None:
            return base
        found = self._mutated.get(id(base))
        if found is None:
            found = self._mutated[id(base)] = hook(base)
        return found

    def differs_under(self, ruleset: JSON) -> bool:
        """False when this mutant provably behaves as the reference under `ruleset`."""
        m = self.mutant
        if m.patches or m.post_deal or m.winners:
            return True
        return self.rules(ruleset) is not super().rules(ruleset)

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str]) -> JSON:
        with swapped(self.mutant.patches):
            state = super().deal(ruleset, players, round, order)
        if self.mutant.post_deal is not None:
            state = self.mutant.post_deal(state, self.rules(ruleset))
        return state

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        with swapped(self.mutant.patches):
            return super().legal(ruleset, state)

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        with swapped(self.mutant.patches):
            return super().apply(ruleset, state, action)

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        hook = self.mutant.winners
        with swapped(self.mutant.patches):
            if hook is None:
                return super().winners(ruleset, state)
            st = codec.state_from_json(self.rules(ruleset), state)
            if not deal_module.match_over(st):  # MATCH-1 as the reference has it: a hook's
                return []  # bug is in who wins, not in whether the match is over
            return hook(st)


# The reference functions, bound once: a faulty version calls these, never a swapped one.
_duties = engine.duties
_open_trains = engine.open_trains
_playable_trains = engine.playable_trains
_legal_actions = engine.legal_actions
_perform = engine.perform
_play = engine._play
_draw = engine._draw
_place_engine = engine._place_engine
_end_turn = engine._end_turn
_finish = engine._finish
_hand_value = engine.hand_value
_can_ever_play = engine.can_ever_play
_nobody_can_ever_play = engine.nobody_can_ever_play


def _first(state: State, seat: int) -> bool:
    return bool(state.first_pending >> seat & 1)


def _chain_start(state: State) -> bool:
    """The play about to be made opens a first-turn chain (FIRST-1)."""
    return (state.phase == START and state.rules.chain_first_turn
            and _first(state, state.seat))


def _when(test: Callable[[Rules], bool], **changes: Any) -> RulesHook:
    """A rules hook: change these flags, but only in rule sets where `test` holds."""
    def hook(rules: Rules) -> Rules:
        return dataclasses.replace(rules, **changes) if test(rules) else rules
    return hook


# --- deal --------------------------------------------------------------------------------


def _engine_always_top(rules: Rules, round_no: int) -> int:
    return rules.max_pip


def _pagat_five_takes_fifteen(rules: Rules) -> Rules:
    if rules.ruleset["hand_sizes"] != "pagat":
        return rules
    table = {**dict(rules.ruleset.hand_table), 5: 15}
    ruleset = dataclasses.replace(rules.ruleset, hand_table=tuple(sorted(table.items())))
    return dataclasses.replace(rules, ruleset=ruleset, hand_table=table)


def _engine_searched_for(state: JSON, rules: Rules) -> JSON:
    if rules.holder_lays or state["phase"] != "start":
        return state
    first = (state["round"] - 1) % len(state["hands"])
    return {**state, "phase": "engine", "engine_placed": False, "seat": first,
            "starter": first}


def _place_engine_seat_zero(state: State, holder: int) -> None:
    _place_engine(state, holder)
    if not state.rules.engine_holder_starts:
        state.seat = state.starter = 0


def _search_from_seat_zero(state: JSON, rules: Rules) -> JSON:
    if state["phase"] != "engine":
        return state
    return {**state, "seat": 0, "starter": 0}


def _draw_finder_moves_on(state: State) -> None:
    searching = state.phase == ENGINE
    _draw(state)
    if searching and state.phase == START and state.rules.engine_holder_starts:
        state.seat = state.starter = (state.seat + 1) % state.players


def _holder_keeps_engine(state: JSON, rules: Rules) -> JSON:
    if not (rules.holder_lays and rules.engine_holder_starts) or state["phase"] != "start":
        return state
    hands = [list(h) for h in state["hands"]]
    engine_tile = T.DOUBLE[state["engine"]]
    seat = state["starter"]
    ids = sorted([T.parse(x) for x in hands[seat]] + [engine_tile], key=codec.hand_order)
    hands[seat] = [T.name(t) for t in ids]
    return {**state, "hands": hands}


# --- first turn --------------------------------------------------------------------------


def _open_mexican_on_first_turn(state: State, seat: int, all_marked: bool = False,
                                first_turns_over: bool = False) -> list[int]:
    out = _open_trains(state, seat, all_marked, first_turns_over)
    if (state.rules.chain_first_turn and _first(state, seat) and not first_turns_over
            and state.players not in out):
        out.append(state.players)
    return out


def _chain_goes_anywhere(state: State) -> list[int]:
    if state.phase != CHAIN:
        return _playable_trains(state)
    seat = state.seat
    return [seat, state.players, *(o for o in range(state.players)
                                   if o != seat and state.markers[o])]


def _end_chain_always(state: State) -> list[Action]:
    out = _legal_actions(state)
    if state.phase == CHAIN and END_CHAIN not in out:
        out.append(END_CHAIN)
    return out


def _first_turn_draws(state: State) -> list[Action]:
    out = _legal_actions(state)
    if out == [PASS] and _chain_start(state) and state.drawn < 0 and state.boneyard:
        return [DRAW]
    return out


def _duties_during_first_turns(state: State, first_turns_over: bool = False) -> list[int]:
    pending = state.first_pending
    state.first_pending = 0
    try:
        return _duties(state)
    finally:
        state.first_pending = pending


def _single_start_chains(state: State, tile: int, train: int) -> None:
    rules = state.rules
    if (state.phase == START and not rules.chain_first_turn and train == state.seat
            and _first(state, state.seat)):
        state.rules = dataclasses.replace(rules, chain_first_turn=True)
        try:
            _play(state, tile, train)
        finally:
            state.rules = rules
    else:
        _play(state, tile, train)


def _end_turn_keeps_first(state: State) -> None:
    # engine._end_turn without its FIRST-6 line
    state.turn_doubles.clear()
    state.drawn = -1
    state.seat = (state.seat + 1) % state.players
    state.phase = START
    engine._check_blocked(state)


# --- turns -------------------------------------------------------------------------------


def _can_play(out: list[Action]) -> bool:
    return bool(out) and out[0].kind == "play"


def _draw_while_playable(state: State) -> list[Action]:
    out = _legal_actions(state)
    if state.phase in (START, FOLLOW) and state.drawn < 0 and state.boneyard and _can_play(out):
        out.append(DRAW)
    return out


def _pass_while_playable(state: State) -> list[Action]:
    out = _legal_actions(state)
    if state.phase in (START, FOLLOW) and state.drawn < 0 and _can_play(out):
        out.append(PASS)
    return out


def _draw_two(state: State) -> None:
    if state.phase != ENGINE and len(state.boneyard) > 1:
        state.hands[state.seat] |= T.BIT[state.boneyard.pop(0)]
    _draw(state)


def _drawn_tile_optional(state: State) -> list[Action]:
    out = _legal_actions(state)
    if state.drawn >= 0 and _can_play(out):
        out.append(PASS)
    return out


def _drawn_tile_anywhere(state: State) -> list[int]:
    if state.drawn >= 0 and state.phase != CHAIN:
        return list(range(state.players + 1))
    return _playable_trains(state)


def _pass_keeps_marker_down(state: State, action: Action) -> None:
    seat, was = state.seat, state.markers[state.seat]
    _perform(state, action)
    if action.kind == "pass":
        state.markers[seat] = was


def _open_all_trains(state: State, seat: int, all_marked: bool = False,
                     first_turns_over: bool = False) -> list[int]:
    return _open_trains(state, seat, True, first_turns_over)


def _mexican_needs_marker(state: State, seat: int, all_marked: bool = False,
                          first_turns_over: bool = False) -> list[int]:
    out = _open_trains(state, seat, all_marked, first_turns_over)
    mexican = state.players
    if mexican in out and not state.markers[mexican]:
        out.remove(mexican)
    return out


def _end_turn_backwards(state: State) -> None:
    seat = state.seat
    _end_turn(state)
    if state.phase != OVER:
        state.seat = (seat - 1) % state.players


def _draw_marks(state: State) -> None:
    searching, seat = state.phase == ENGINE, state.seat
    _draw(state)
    if not searching:
        state.markers[seat] = True


# --- markers -----------------------------------------------------------------------------


def _play_keeps_markers(state: State, tile: int, train: int) -> None:
    before = state.markers[:]
    _play(state, tile, train)
    state.markers[:] = before


def _cover_keeps_marker(state: State, tile: int, train: int) -> None:
    covering = train == state.seat and train in state.open_doubles
    was = state.markers[train]
    _play(state, tile, train)
    if covering:
        state.markers[train] = was


# --- doubles -----------------------------------------------------------------------------


def _cover_leaves_double_open(state: State, tile: int, train: int) -> None:
    before = state.open_doubles[:]
    _play(state, tile, train)
    if train in before and train not in state.open_doubles and state.phase != OVER:
        state.open_doubles.insert(before.index(train), train)


def _double_ends_turn(state: State, tile: int, train: int) -> None:
    _play(state, tile, train)
    if state.phase == FOLLOW:
        engine._end_turn(state)


def _no_duties(state: State, first_turns_over: bool = False) -> list[int]:
    return []


def _duties_newest_first(state: State, first_turns_over: bool = False) -> list[int]:
    rules = state.rules
    if not rules.oldest_first:
        return _duties(state, first_turns_over)
    # engine.duties with the last element taken instead of the first
    if not state.open_doubles or (rules.chain_first_turn and state.first_pending
                                  and not first_turns_over):
        return []
    out = [t for t in state.open_doubles if t not in state.turn_doubles]
    if rules.release_uncoverable:
        out = [t for t in out if engine.live(state, t)]
    return out[-1:]


def _live_if_mover_can_cover(state: State, train: int) -> bool:
    return bool(state.rules.number_mask[state.ends[train]] & state.hands[state.seat])


def _live_while_two_left(state: State, train: int) -> bool:
    left = state.rules.number_mask[state.ends[train]] & ~state.table_mask
    return bool(left & (left - 1))


def _follow_fail_no_draw(state: State) -> list[Action]:
    out = _legal_actions(state)
    if state.phase == FOLLOW and out == [DRAW]:
        return [PASS]
    return out


def _pass_ends_duty(state: State, action: Action) -> None:
    if action.kind == "pass" and state.phase != CHAIN:
        for train in engine.duties(state):
            state.open_doubles.remove(train)
    _perform(state, action)


def _follow_pass_unmarked(state: State, action: Action) -> None:
    seat, was, follow = state.seat, state.markers[state.seat], state.phase == FOLLOW
    _perform(state, action)
    if follow and action.kind == "pass":
        state.markers[seat] = was


def _cover_only_where_open(state: State) -> list[int]:
    if state.phase != CHAIN:
        due = engine.duties(state)
        if due:
            allowed = engine.open_trains(state, state.seat)
            return [t for t in due if t in allowed]
    return _playable_trains(state)


# --- round end and scoring ---------------------------------------------------------------


def _no_block_check(state: State) -> None:
    return None


def _blocked_by_current_markers(state: State, seat: int) -> bool:
    trains = engine.duties(state, first_turns_over=True) or engine.open_trains(
        state, seat, first_turns_over=True)
    hand = state.hands[seat]
    return any(hand & state.rules.number_mask[state.ends[t]] for t in trains)


def _double_out_goes_on(state: State, tile: int, train: int) -> None:
    seat = state.seat
    if not (T.IS_DOUBLE[tile] and state.hands[seat] == T.BIT[tile]):
        _play(state, tile, train)
        return
    chain = state.phase == CHAIN or _chain_start(state)
    with _swap_engine("_finish", _no_finish):
        _play(state, tile, train)
    state.phase = CHAIN if chain else FOLLOW


def _no_finish(state: State, end: str, winner: int) -> None:
    return None


@contextmanager
def _swap_engine(name: str, fn: Callable[..., Any]) -> Iterator[None]:
    with swapped({name: fn}):
        yield


def _hand_counted_twice(state: State, seat: int) -> int:
    return 2 * _hand_value(state, seat)


def _play_passes_kept(state: State, tile: int, train: int) -> None:
    passes = state.passes
    _play(state, tile, train)
    state.passes = passes


def _positive_blocked_as_penalty(state: State, end: str, winner: int) -> None:
    rules = state.rules
    if not (rules.positive_scoring and winner < 0):
        _finish(state, end, winner)
        return
    state.rules = dataclasses.replace(rules, positive_scoring=False)
    try:
        _finish(state, end, winner)
    finally:
        state.rules = rules


def _last_tile_scored(state: State, tile: int, train: int) -> None:
    seat = state.seat
    if state.hands[seat] != T.BIT[tile]:
        _play(state, tile, train)
        return
    extra = state.rules.value[tile]

    def value(st: State, s: int) -> int:
        return _hand_value(st, s) + (extra if s == seat else 0)

    with _swap_engine("hand_value", value):
        _play(state, tile, train)


def _totals_overwritten(state: State, end: str, winner: int) -> None:
    _finish(state, end, winner)
    assert state.result is not None
    state.scores[:] = state.result.scores


def _outs_not_counted(state: State, end: str, winner: int) -> None:
    _finish(state, end, winner)
    if winner >= 0:
        state.outs[winner] -= 1


def _blocked_lightest_wins(state: State, end: str, winner: int) -> None:
    if end == BLOCKED:
        left = [engine.hand_value(state, s) for s in range(state.players)]
        winner = left.index(min(left))
    _finish(state, end, winner)


def _winners_first_seat(state: State) -> list[int]:
    return match_winners(state)[:1]


def _winners_lowest_always(state: State) -> list[int]:
    st = state.copy()
    st.rules = dataclasses.replace(state.rules, positive_scoring=False)
    return match_winners(st)


def _blank_counted_once(rules: Rules) -> Rules:
    if rules.ruleset["blank_values"] != "blank-25":
        return rules
    value = tuple(T.PIPS[t] + (25 if T.LOW[t] == 0 else 0) for t in range(T.TILE_COUNT))
    return dataclasses.replace(rules, value=value)


def _double_blank_at_face(rules: Rules) -> Rules:
    if rules.ruleset["blank_values"] not in ("double-blank-50", "double-blank-25"):
        return rules
    return dataclasses.replace(rules, value=tuple(T.PIPS))


# --- issue 11: the blocked round, passes, the tie-break, and weakly caught rules ------------


def _blocked_on_the_last_table(state: State) -> bool:
    """END-2 as it was: only the table after every first turn and with every marker up."""
    return not any(_can_ever_play(state, s) for s in range(state.players))


def _never_blocked_during_first_turns(state: State) -> bool:
    return False if state.first_pending else _nobody_can_ever_play(state)


def _blocked_without_own_train_first(state: State, seat: int) -> bool:
    st = state.copy()
    st.rules = dataclasses.replace(state.rules, own_train_first=False)
    return _can_ever_play(st, seat)


def _last_draw_pass_uncounted(state: State, action: Action) -> None:
    """A pass is counted only if the boneyard was empty when the turn began."""
    if action.kind == "pass" and state.drawn >= 0 and not state.boneyard:
        state.markers[state.seat] = True
        engine._end_turn(state)
        return
    _perform(state, action)


def _pass_counted_with_tiles_left(state: State, action: Action) -> None:
    if action.kind == "pass" and state.boneyard:
        state.passes += 1
    _perform(state, action)


def _first_turn_pass_unmarked(state: State, action: Action) -> None:
    seat, was, first = state.seat, state.markers[state.seat], _chain_start(state)
    _perform(state, action)
    if first and action.kind == "pass":
        state.markers[seat] = was


def _restricted_to_last_double(state: State) -> list[int]:
    rules, laid = state.rules, state.turn_doubles
    if (state.phase != FOLLOW or rules.follow != FOLLOW_RESTRICTED or len(laid) < 2
            or engine.duties(state)):
        return _playable_trains(state)
    base = engine.open_trains(state, state.seat)
    return [laid[-1], *(t for t in base if t != laid[-1]
                        and (t == state.players or t not in state.open_doubles))]


def _starter_only_mexican_forever(state: State, seat: int, all_marked: bool = False,
                                  first_turns_over: bool = False) -> list[int]:
    out = _open_trains(state, seat, all_marked, first_turns_over)
    if (state.rules.starter_only_mexican and seat != state.starter
            and not state.trains[state.players]):
        out = [t for t in out if t != state.players]
    return out


def _own_train_before_duty(state: State) -> list[int]:
    if (state.rules.own_train_first and state.phase == START
            and not state.trains[state.seat]):
        return [state.seat]
    return _playable_trains(state)


def _rotate_off_by_one(state: State, holder: int) -> None:
    _place_engine(state, holder)
    if not state.rules.engine_holder_starts:
        state.seat = state.starter = state.round % state.players


def _tie_to_most_outs_overall(state: State) -> list[int]:
    """Under tie-most-outs, a tie goes to whoever went out most, tied or not."""
    rules = state.rules
    best = max(state.scores) if rules.positive_scoring else min(state.scores)
    top = [s for s, v in enumerate(state.scores) if v == best]
    if len(top) > 1 and rules.tie_most_outs:
        most = max(state.outs)
        return [s for s in range(state.players) if state.outs[s] == most]
    return top


def _restricted_mexican_double_closed(state: State) -> list[int]:
    out = _playable_trains(state)
    if (state.phase == FOLLOW and state.rules.follow == FOLLOW_RESTRICTED
            and not engine.duties(state) and state.turn_doubles):
        first = state.turn_doubles[0]
        out = [t for t in out if t == first or t not in state.open_doubles]
    return out


def _search_drops_tiles(state: State) -> None:
    if state.phase != ENGINE or state.boneyard[0] == T.DOUBLE[state.engine]:
        _draw(state)
        return
    state.boneyard.pop(0)  # the drawn tile is laid aside instead of kept
    state.seat = (state.seat + 1) % state.players


def _winners_highest_always(state: State) -> list[int]:
    st = state.copy()
    st.rules = dataclasses.replace(state.rules, positive_scoring=True)
    return match_winners(st)


def _tie_to_fewest_outs(state: State) -> list[int]:
    rules = state.rules
    best = max(state.scores) if rules.positive_scoring else min(state.scores)
    top = [s for s, v in enumerate(state.scores) if v == best]
    if len(top) > 1 and rules.tie_most_outs:
        fewest = min(state.outs[s] for s in top)
        return [s for s in top if state.outs[s] == fewest]
    return top


# --- the catalogue ---------------------------------------------------------------------


def _owner_own(r: Rules) -> bool:
    return r.marker_rule == MARKER_OWNER_OWN


_CATALOGUE: tuple[Mutant, ...] = (
    # deal and seats
    Mutant("wrong-engine-double",
           "The engine is always the set's highest double: later rounds are not lowered",
           ("ENG-1",), "engine_number swapped (engine, deal, codec) for one returning N",
           patches={"engine_number": _engine_always_top}),
    Mutant("wrong-hand-size",
           "pagat hand sizes with the 2-4 row running to 5 players: 5 players are dealt 15",
           ("DEAL-2",), "Rules.ruleset.hand_table with 5 -> 15 under the pagat table",
           rules=_pagat_five_takes_fifteen),
    Mutant("engine-not-set-aside",
           "Under set-aside the engine is still searched for in the hands, so players draw for it",
           ("ENG-2",), "deal output turned into the 'engine' phase under set-aside",
           post_deal=_engine_searched_for),
    Mutant("engine-holder-not-starting",
           "The player who placed the engine does not start: the start rotates instead",
           ("SEAT-2",), "Rules.engine_holder_starts forced false",
           rules=_when(lambda r: r.engine_holder_starts, engine_holder_starts=False)),
    Mutant("start-does-not-rotate",
           "Every round starts at seat 0 instead of seat (round - 1) mod n",
           ("SEAT-3",), "_place_engine swapped: the starter is reset to seat 0 under rotate",
           patches={"_place_engine": _place_engine_seat_zero}),
    Mutant("start-rotates-off-by-one",
           "The rotating start counts from round 0: round r starts at seat r mod n",
           ("SEAT-3",), "_place_engine swapped: the starter is seat round mod n under rotate",
           patches={"_place_engine": _rotate_off_by_one}),
    Mutant("engine-search-from-seat-0",
           "Drawing for a missing engine always starts at seat 0, whatever the round",
           ("ENG-4",), "deal output in the 'engine' phase gets seat and starter 0",
           post_deal=_search_from_seat_zero),
    Mutant("engine-finder-does-not-start",
           "The search loop moves on a seat before checking the draw: the finder's left-hand "
           "neighbour starts",
           ("ENG-4", "SEAT-2"), "_draw swapped: after the engine is found the seat advances",
           patches={"_draw": _draw_finder_moves_on}),
    Mutant("engine-search-drops-tiles",
           "Tiles drawn while searching for the engine are laid aside, not kept in hand",
           ("ENG-4",), "_draw swapped: a search draw that is not the engine leaves the "
           "table", patches={"_draw": _search_drops_tiles}),
    Mutant("engine-holder-keeps-engine",
           "The holder places the engine but it is not taken out of their hand",
           ("ENG-3",), "deal output: the engine tile added back to the starter's hand",
           post_deal=_holder_keeps_engine),
    Mutant("turn-order-reversed",
           "Play passes to seat s-1 instead of s+1",
           ("SEAT-1",), "_end_turn swapped: the seat moves backwards",
           patches={"_end_turn": _end_turn_backwards}),
    # first turn
    Mutant("mexican-on-pagat-first-turn",
           "A pagat first turn may open the Mexican Train as well as the player's own train",
           ("FIRST-2",), "open_trains swapped: the Mexican Train added during a chain first turn",
           patches={"open_trains": _open_mexican_on_first_turn}),
    Mutant("chain-on-other-trains",
           "A first-turn chain may carry on along the Mexican Train or a marked train",
           ("FIRST-1", "FIRST-2"), "playable_trains swapped in the chain phase",
           patches={"playable_trains": _chain_goes_anywhere}),
    Mutant("chain-ends-on-coverable-double",
           "A first-turn chain may end on a double the player could cover",
           ("FIRST-4",), "legal_actions swapped: end-chain always offered in a chain",
           patches={"legal_actions": _end_chain_always}),
    Mutant("first-turn-draws",
           "A pagat player who cannot start their train draws instead of marking at once",
           ("FIRST-3",), "legal_actions swapped: [pass] becomes [draw] on a chain first turn",
           patches={"legal_actions": _first_turn_draws}),
    Mutant("first-turn-pass-unmarked",
           "A pagat player who cannot start their train passes without putting up a marker",
           ("FIRST-3", "MARK-1"), "perform swapped: the marker restored after a chain "
           "first-turn pass", patches={"perform": _first_turn_pass_unmarked}),
    Mutant("chain-double-obliges-at-once",
           "A double left by a first-turn chain obliges the next player straight away",
           ("FIRST-5",), "duties swapped: the first-turn exemption ignored",
           patches={"duties": _duties_during_first_turns}),
    Mutant("single-start-allows-chain",
           "Under a single-tile start a first play on one's own train still opens a chain",
           ("FIRST-7",), "_play swapped: a first-turn play on one's own train runs as a chain",
           patches={"_play": _single_start_chains}),
    Mutant("first-turns-never-end",
           "The first-turn flag is never cleared, so every turn is treated as a first turn",
           ("FIRST-6",), "_end_turn swapped: first_turns left unchanged",
           patches={"_end_turn": _end_turn_keeps_first}),
    Mutant("starter-only-mexican-ignored",
           "Under starter-opens-mexican anyone may open the Mexican Train on their first turn",
           ("FIRST-9",), "Rules.starter_only_mexican forced false",
           rules=_when(lambda r: r.starter_only_mexican, starter_only_mexican=False)),
    Mutant("starter-only-mexican-forever",
           "Under starter-opens-mexican only the starter may open the Mexican Train, even "
           "after the first turns",
           ("FIRST-9",), "open_trains swapped: the restriction kept after every first turn",
           patches={"open_trains": _starter_only_mexican_forever}),
    Mutant("own-train-first-ignored",
           "Under own-train-first a player may play elsewhere before starting their own train",
           ("TRAIN-7",), "Rules.own_train_first forced false",
           rules=_when(lambda r: r.own_train_first, own_train_first=False)),
    Mutant("own-train-before-duty",
           "Under own-train-first a player who has not started their train may not cover an "
           "open double elsewhere",
           ("TRAIN-7", "TRAIN-6", "DBL-6"), "playable_trains swapped: the own train only, "
           "before any duty", patches={"playable_trains": _own_train_before_duty}),
    # turns and drawing
    Mutant("play-on-unmarked-train",
           "Another player's train is accepted whether or not it carries a marker",
           ("TRAIN-4",), "open_trains swapped: every personal train treated as marked",
           patches={"open_trains": _open_all_trains}),
    Mutant("mexican-treated-as-personal",
           "The Mexican Train is handled like a personal train: open only while marked, "
           "which it never is",
           ("MARK-2", "TRAIN-4"), "open_trains swapped: the Mexican Train needs a marker",
           patches={"open_trains": _mexican_needs_marker}),
    Mutant("draw-while-playable",
           "A player holding a playable tile may draw anyway",
           ("TURN-1",), "legal_actions swapped: draw added next to plays",
           patches={"legal_actions": _draw_while_playable}),
    Mutant("pass-while-playable",
           "A player holding a playable tile may pass anyway",
           ("TURN-1",), "legal_actions swapped: pass added next to plays",
           patches={"legal_actions": _pass_while_playable}),
    Mutant("draw-one-draws-twice",
           "A draw takes two tiles from the boneyard; the second is the drawn tile",
           ("TURN-2",), "_draw swapped: an extra tile goes into the hand first",
           patches={"_draw": _draw_two}),
    Mutant("draw-one-keeps-drawing",
           "Under draw-one the player keeps drawing until a tile can be played",
           ("TURN-2", "TURN-4"), "Rules.draw_until_playable forced true",
           rules=_when(lambda r: not r.draw_until_playable, draw_until_playable=True)),
    Mutant("draw-until-playable-ignored",
           "Under draw-until-playable the player passes after one unplayable draw",
           ("TURN-5",), "Rules.draw_until_playable forced false",
           rules=_when(lambda r: r.draw_until_playable, draw_until_playable=False)),
    Mutant("drawn-tile-optional",
           "A playable drawn tile need not be played: the player may pass instead",
           ("TURN-3",), "legal_actions swapped: pass added after a playable draw",
           patches={"legal_actions": _drawn_tile_optional}),
    Mutant("any-tile-after-draw",
           "After a draw the drawn tile may go on any train it matches, ignoring markers and "
           "open doubles",
           ("TURN-3", "TRAIN-4", "DBL-6"), "playable_trains swapped: every train once drawn",
           patches={"playable_trains": _drawn_tile_anywhere}),
    Mutant("pass-no-marker",
           "Passing does not put the player's marker up",
           ("TURN-4", "MARK-1"), "perform swapped: the marker restored after a pass",
           patches={"perform": _pass_keeps_marker_down}),
    Mutant("marker-up-on-draw",
           "The marker goes up when the player draws, not when they fail to play",
           ("TURN-4", "MARK-1"), "_draw swapped: the drawer's marker goes up",
           patches={"_draw": _draw_marks}),
    # markers
    Mutant("marker-never-removed",
           "A marker, once up, stays for the rest of the round",
           ("MARK-3", "MARK-4", "MARK-5"), "_play swapped: markers restored after every play",
           patches={"_play": _play_keeps_markers}),
    Mutant("marker-anyone-under-owner-own",
           "Under owner-plays-own a marker comes off when anyone plays on the train",
           ("MARK-3",), "Rules.marker_rule anyone-plays-on under owner-plays-own",
           rules=_when(_owner_own, marker_rule=MARKER_ANYONE_ON)),
    Mutant("marker-owner-anywhere-under-owner-own",
           "Under owner-plays-own a marker comes off when its owner plays anywhere",
           ("MARK-3",), "Rules.marker_rule owner-plays-anywhere under owner-plays-own",
           rules=_when(_owner_own, marker_rule=MARKER_OWNER_ANYWHERE)),
    Mutant("marker-anyone-ignored",
           "Under anyone-plays-on a marker comes off only when its owner plays on the train",
           ("MARK-4",), "Rules.marker_rule owner-plays-own under anyone-plays-on",
           rules=_when(lambda r: r.marker_rule == MARKER_ANYONE_ON,
                       marker_rule=MARKER_OWNER_OWN)),
    Mutant("marker-owner-anywhere-ignored",
           "Under owner-plays-anywhere a marker comes off only when the owner plays on it",
           ("MARK-5",), "Rules.marker_rule owner-plays-own under owner-plays-anywhere",
           rules=_when(lambda r: r.marker_rule == MARKER_OWNER_ANYWHERE,
                       marker_rule=MARKER_OWNER_OWN)),
    Mutant("marker-stays-on-cover",
           "Covering an open double on one's own train does not take the marker off",
           ("MARK-3",), "_play swapped: the marker restored after covering on one's own train",
           patches={"_play": _cover_keeps_marker}),
    # doubles
    Mutant("turn-ends-on-double",
           "Laying a double ends the turn: no follow-up tile",
           ("DBL-1",), "_play swapped: the follow phase ends the turn at once",
           patches={"_play": _double_ends_turn}),
    Mutant("covered-double-stays-open",
           "A covered double is not recorded as covered: it stays in the open doubles",
           ("TRAIN-3", "DBL-6"), "_play swapped: the covered train put back in open_doubles",
           patches={"_play": _cover_leaves_double_open}),
    Mutant("double-no-obligation",
           "An open double from an earlier turn obliges nobody: play goes on as normal",
           ("DBL-6",), "duties swapped for one returning nothing",
           patches={"duties": _no_duties}),
    Mutant("covering-refused-on-closed-train",
           "An open double on an unmarked personal train may be covered only by its owner",
           ("TRAIN-6",), "playable_trains swapped: duties filtered by the open trains",
           patches={"playable_trains": _cover_only_where_open}),
    Mutant("restricted-follow-ignored",
           "Under the restricted follow-up the tile after a double may go anywhere",
           ("DBL-3",), "Rules.follow anywhere under restricted",
           rules=_when(lambda r: r.follow == FOLLOW_RESTRICTED, follow=FOLLOW_ANYWHERE)),
    Mutant("restricted-follow-last-double",
           "Under the restricted follow-up the tile after several doubles may go on the last "
           "of them instead of the first",
           ("DBL-3",), "playable_trains swapped: the last double of the turn in place of the "
           "first", patches={"playable_trains": _restricted_to_last_double}),
    Mutant("restricted-follow-mexican-double-closed",
           "Under the restricted follow-up the Mexican Train is closed too when it ends in "
           "an open double",
           ("DBL-3",), "playable_trains swapped: trains ending in an open double dropped, "
           "the Mexican Train included",
           patches={"playable_trains": _restricted_mexican_double_closed}),
    Mutant("cover-own-ignored",
           "Under the Wikipedia rule the tile after a double need not cover it",
           ("DBL-4",), "Rules.follow anywhere under cover-own",
           rules=_when(lambda r: r.follow == FOLLOW_COVER_OWN, follow=FOLLOW_ANYWHERE)),
    Mutant("follow-must-cover-own-double",
           "Under follow-up-anywhere the double just laid counts as a duty: its layer must "
           "cover it",
           ("DBL-2",), "Rules.follow cover-own under anywhere",
           rules=_when(lambda r: r.follow == FOLLOW_ANYWHERE, follow=FOLLOW_COVER_OWN)),
    Mutant("oldest-first-ignored",
           "Several open doubles may be covered in any order under oldest-first",
           ("DBL-7",), "Rules.oldest_first forced false",
           rules=_when(lambda r: r.oldest_first, oldest_first=False)),
    Mutant("any-open-ignored",
           "Under any-open-double the oldest open double must still be covered first",
           ("DBL-8",), "Rules.oldest_first forced true",
           rules=_when(lambda r: not r.oldest_first, oldest_first=True)),
    Mutant("newest-double-first",
           "Open doubles kept as a stack: the newest must be covered first",
           ("DBL-7",), "duties swapped: the last open double instead of the first",
           patches={"duties": _duties_newest_first}),
    Mutant("uncoverable-never-released",
           "Under release-uncoverable a double nobody can cover keeps closing the table",
           ("DBL-9",), "Rules.release_uncoverable forced false",
           rules=_when(lambda r: r.release_uncoverable, release_uncoverable=False)),
    Mutant("released-when-mover-cannot-cover",
           "An open double is released as soon as the player to move cannot cover it",
           ("DBL-9", "DBL-6"), "live swapped: tested against the mover's hand, not the table",
           patches={"live": _live_if_mover_can_cover}),
    Mutant("release-off-by-one",
           "An open double is released while one tile of its number is still out",
           ("DBL-9",), "live swapped: a double is live only while two or more tiles are out",
           patches={"live": _live_while_two_left}),
    Mutant("follow-up-no-draw",
           "A player who cannot follow their double passes without drawing",
           ("DBL-5",), "legal_actions swapped: [draw] becomes [pass] in the follow phase",
           patches={"legal_actions": _follow_fail_no_draw}),
    Mutant("follow-failure-no-marker",
           "A player who fails to follow their own double passes without raising their marker",
           ("DBL-5",), "perform swapped: the marker restored after a pass in the follow phase",
           patches={"perform": _follow_pass_unmarked}),
    Mutant("duty-not-passed-on",
           "The duty to cover binds only the next player: once they pass, the double is "
           "forgotten",
           ("DBL-6",), "perform swapped: a pass drops the doubles that were due",
           patches={"perform": _pass_ends_duty}),
    # round end
    Mutant("blocked-never-detected",
           "A blocked round never ends: with an empty boneyard everybody passes forever",
           ("END-2", "END-3"), "_check_blocked swapped (engine, deal) for a no-op",
           patches={"_check_blocked": _no_block_check}),
    Mutant("domino-on-double-missed",
           "Going out on a double is not noticed: the player is asked for the follow-up",
           ("END-1",), "_play swapped: no finish when the last tile is a double",
           patches={"_play": _double_out_goes_on}),
    Mutant("blocked-counts-passes",
           "Under nobody-can-play the round ends only after a full round of passes",
           ("END-2",), "Rules.passes_end_round forced true",
           rules=_when(lambda r: not r.passes_end_round, passes_end_round=True)),
    Mutant("passes-rule-ignored",
           "Under full-round-of-passes the round ends as soon as nobody can play",
           ("END-3",), "Rules.passes_end_round forced false",
           rules=_when(lambda r: r.passes_end_round, passes_end_round=False)),
    Mutant("blocked-ignores-markers",
           "The blocked test looks only at the trains open now, not with every marker up",
           ("END-2",), "can_ever_play swapped: all_marked dropped",
           patches={"can_ever_play": _blocked_by_current_markers}),
    Mutant("passes-not-reset",
           "The count of passes is not reset when a tile is played",
           ("END-3",), "_play swapped: passes restored after a play",
           patches={"_play": _play_passes_kept}),
    Mutant("blocked-ignores-first-turns",
           "END-2 looks only at the table once every first turn is over: a player still to "
           "start, not yet bound by a chain double, is ignored",
           ("END-2", "FIRST-5"), "nobody_can_ever_play swapped for the last-table test alone",
           patches={"nobody_can_ever_play": _blocked_on_the_last_table}),
    Mutant("blocked-never-during-first-turns",
           "No round is blocked while a first turn is still to come",
           ("END-2", "FIRST-6"), "nobody_can_ever_play swapped: false while first turns remain",
           patches={"nobody_can_ever_play": _never_blocked_during_first_turns}),
    Mutant("blocked-ignores-own-train-first",
           "END-2 forgets own-train-first: a player who cannot start their train counts as "
           "able to play elsewhere",
           ("END-2", "TRAIN-7"), "can_ever_play swapped: the rule set's own_train_first off",
           patches={"can_ever_play": _blocked_without_own_train_first}),
    Mutant("last-draw-pass-uncounted",
           "A pass after drawing the boneyard's last tile is not counted as a pass on an "
           "empty boneyard",
           ("END-3",), "perform swapped: a pass after a draw that emptied the boneyard "
           "leaves the count alone", patches={"perform": _last_draw_pass_uncounted}),
    Mutant("passes-counted-with-tiles-left",
           "Every pass counts towards END-3, even with tiles still in the boneyard",
           ("END-3",), "perform swapped: a pass with a nonempty boneyard adds one",
           patches={"perform": _pass_counted_with_tiles_left}),
    # scoring and the match
    Mutant("hand-scored-twice",
           "Each hand's value is counted twice in the round score",
           ("SCORE-5", "SCORE-6"), "hand_value swapped for twice the value",
           patches={"hand_value": _hand_counted_twice}),
    Mutant("winner-scores-last-tile",
           "The player who went out is scored with the tile they went out with",
           ("SCORE-5", "SCORE-6"), "_play swapped: the last tile added to the winner's hand value",
           patches={"_play": _last_tile_scored}),
    Mutant("positive-blocked-scores-hands",
           "Under positive scoring a blocked round falls back to penalty scoring",
           ("SCORE-6",), "_finish swapped: a blocked round scored with positive scoring off",
           patches={"_finish": _positive_blocked_as_penalty}),
    Mutant("blocked-lightest-hand-wins",
           "A blocked round names the player with the lightest hand as the one who went out",
           ("END-2", "SCORE-6"), "_finish swapped: the winner of a blocked round is the lightest",
           patches={"_finish": _blocked_lightest_wins}),
    Mutant("blanks-scored-wrong",
           "Under blank-25 a tile with a blank counts 25 once, so [0-0] is 25 instead of 50",
           ("SCORE-2",), "Rules.value with one 25 per blank tile under blank-25",
           rules=_blank_counted_once),
    Mutant("double-blank-penalty-ignored",
           "Under double-blank-50 and double-blank-25 the [0-0] is scored at face value, 0",
           ("SCORE-3", "SCORE-4"), "Rules.value at face under the double-blank options",
           rules=_double_blank_at_face),
    Mutant("totals-not-accumulated",
           "A round's scores replace the match totals instead of adding to them",
           ("MATCH-1",), "_finish swapped: totals overwritten by the round's scores",
           patches={"_finish": _totals_overwritten}),
    Mutant("outs-not-counted",
           "Going out is not counted in the player's number of rounds won",
           ("MATCH-5",), "_finish swapped: the winner's outs left unchanged",
           patches={"_finish": _outs_not_counted}),
    Mutant("tie-broken-by-lowest-seat",
           "A tie on the winning total goes to the lowest seat instead of being shared",
           ("MATCH-4",), "winners: only the first of the tied seats",
           winners=_winners_first_seat),
    Mutant("winners-lowest-under-positive",
           "The lowest total wins even under positive scoring",
           ("MATCH-3",), "winners computed with positive scoring off",
           winners=_winners_lowest_always),
    Mutant("winners-highest-under-penalty",
           "The highest total wins even under penalty scoring",
           ("MATCH-2",), "winners computed with positive scoring on",
           winners=_winners_highest_always),
    Mutant("most-outs-ignored",
           "Under tie-most-outs a tie is shared instead of going to the player out most often",
           ("MATCH-5",), "Rules.tie_most_outs forced false",
           rules=_when(lambda r: r.tie_most_outs, tie_most_outs=False)),
    Mutant("tie-to-most-outs-overall",
           "Under tie-most-outs a tie goes to whoever went out most often, tied or not",
           ("MATCH-5",), "winners: the most outs among every player once a tie exists",
           winners=_tie_to_most_outs_overall),
    Mutant("tie-to-fewest-outs",
           "Under tie-most-outs a tie goes to the tied player who went out least often",
           ("MATCH-5",), "winners: the fewest outs among the tied", winners=_tie_to_fewest_outs),
)

MUTANTS: dict[str, Mutant] = {m.name: m for m in _CATALOGUE}
if len(MUTANTS) != len(_CATALOGUE):  # pragma: no cover - a catalogue error
    raise RuntimeError("two mutants share a name")


def mutant(name: str) -> Implementation:
    """The implementation with mutant `name` switched on."""
    found = MUTANTS.get(name)
    if found is None:
        raise ValueError(f"unknown mutant {name!r}; known: {', '.join(sorted(MUTANTS))}")
    return found.implementation()


# --- running the corpus against the mutants ---------------------------------------------


@dataclass
class MutantReport:
    """Which fixtures kill which mutant."""

    kills: dict[str, list[str]]  # mutant name -> ids of the fixtures that kill it
    runs: int = 0  # fixture x rule set runs that pass under the reference
    baseline_failures: list[str] = field(default_factory=list)  # "id [variant]"
    first_only: bool = False  # True: each mutant stopped at its first kill
    seconds: float = 0.0

    @property
    def killed(self) -> list[str]:
        return [name for name, ids in self.kills.items() if ids]

    @property
    def survived(self) -> list[str]:
        return [name for name, ids in self.kills.items() if not ids]

    @property
    def min_kills(self) -> tuple[int, list[str]]:
        """The fewest fixtures that kill a mutant, and the mutants killed by that few."""
        if not self.kills:
            return 0, []
        low = min(len(ids) for ids in self.kills.values())
        return low, [name for name, ids in self.kills.items() if len(ids) == low]

    def to_json(self) -> JSON:
        details = []
        for name, ids in self.kills.items():
            details.append({**MUTANTS[name].to_json(), "killed": bool(ids), "killed_by": ids})
        return {
            "mutants": {"count": len(self.kills), "details": details},
            "killed": self.killed,
            "survived": self.survived,
            "min_kills": self.min_kills[0],
            "min_kills_by": self.min_kills[1],
            "runs": self.runs,
            "baseline_failures": self.baseline_failures,
            "first_only": self.first_only,
            "seconds": round(self.seconds, 3),
        }


def _statuses(fx: Fixture, variant: str, impl: Implementation) -> list[str]:
    try:
        return [o.status for o in run_fixture(fx, impl, [variant])]
    except Exception:  # a mutant may crash where the reference does not: that is a kill
        return ["error"]


def run_mutants(fixtures: Sequence[Fixture], names: Sequence[str] | None = None, *,
                first_only: bool = False, jobs: int = 1,
                enough: int | None = None) -> MutantReport:
    """Play every fixture against every mutant (or those in `names`).

    Only the (fixture, rule set) runs that pass under the reference count. With
    `first_only` a mutant stops at its first kill (faster; one killer per mutant), with
    `enough` at that many kills. `jobs` > 1 shares the mutants out among that many forked
    worker processes.
    """
    if first_only:
        enough = 1
    start = time.perf_counter()
    chosen = list(MUTANTS) if names is None else list(names)
    for name in chosen:
        if name not in MUTANTS:
            raise ValueError(f"unknown mutant {name!r}; known: {', '.join(sorted(MUTANTS))}")
    runs, failures = _passing_runs(fixtures)
    if jobs > 1 and len(chosen) > 1 and "fork" in mp.get_all_start_methods():
        _FORKED[:] = [runs, enough]
        try:
            with mp.get_context("fork").Pool(min(jobs, len(chosen))) as pool:
                lists = pool.map(_forked_kills, chosen, chunksize=1)
        finally:
            _FORKED.clear()
    else:
        lists = [_kills(MUTANTS[name], runs, enough) for name in chosen]
    kills = dict(zip(chosen, lists, strict=True))
    return MutantReport(kills, len(runs), failures, first_only, time.perf_counter() - start)


Run = tuple[Fixture, str, JSON, frozenset[str]]
_FORKED: list[Any] = []  # [runs, enough], read by forked workers


class _TracingReference(ReferenceImplementation):
    """The reference, noting which hooks a run reaches: the engine functions any mutant
    swaps, and the deal and winners calls."""

    def __init__(self) -> None:
        super().__init__()
        self.called: set[str] = set()
        names = sorted({name for m in MUTANTS.values() for name in m.patches})
        self.tracers = {name: self._tracer(name, getattr(engine, name)) for name in names}

    def _tracer(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        called = self.called

        def traced(*args: Any, **kwargs: Any) -> Any:
            called.add(name)
            return fn(*args, **kwargs)

        return traced

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str]) -> JSON:
        self.called.add("deal")
        with swapped(self.tracers):
            return super().deal(ruleset, players, round, order)

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        with swapped(self.tracers):
            return super().legal(ruleset, state)

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        with swapped(self.tracers):
            return super().apply(ruleset, state, action)

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        self.called.add("winners")
        return super().winners(ruleset, state)


def _passing_runs(fixtures: Sequence[Fixture]) -> tuple[list[Run], list[str]]:
    """The (fixture, rule set) runs that pass under the reference, each with the hooks it
    reaches; and the runs that do not pass."""
    reference = _TracingReference()
    runs: list[Run] = []
    failures: list[str] = []
    rulesets: dict[str, JSON] = {}
    for fx in fixtures:
        for variant in dict.fromkeys(v for v, _ in fx.rulesets()):
            reference.called.clear()
            if all(s == "pass" for s in _statuses(fx, variant, reference)):
                if variant not in rulesets:
                    rulesets[variant] = ruleset_json(runner.resolve(variant))
                runs.append((fx, variant, rulesets[variant], frozenset(reference.called)))
            else:
                failures.append(f"{fx.id} [{variant}]")
    return runs, failures


def _touches(m: Mutant) -> frozenset[str] | None:
    """The hooks through which `m` acts, or None when it may act anywhere (its rules)."""
    if m.rules is not None:
        return None
    extra = {"deal"} if m.post_deal else set()
    if m.winners:
        extra.add("winners")
    return frozenset(m.patches) | extra


def _kills(m: Mutant, runs: Sequence[Run], enough: int | None) -> list[str]:
    """Ids of the fixtures that kill `m`, in corpus order.

    A run that never reaches any hook of the mutant is skipped: up to the first call of a
    swapped function the mutant runs exactly as the reference, and that call never comes.
    """
    impl = m.implementation()
    touches = _touches(m)
    ids: list[str] = []
    for fx, variant, rj, called in runs:
        if ids and ids[-1] == fx.id:
            continue
        if touches is not None and touches.isdisjoint(called):
            continue
        if touches is None and not impl.differs_under(rj):
            continue
        if any(s != "pass" for s in _statuses(fx, variant, impl)):
            ids.append(fx.id)
            if enough is not None and len(ids) >= enough:
                break
    return ids


def _forked_kills(name: str) -> list[str]:
    runs, enough = _FORKED
    return _kills(MUTANTS[name], runs, enough)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", nargs="?", help="a fixture file or folder (default: the corpus)")
    parser.add_argument("-m", dest="names", action="append", metavar="NAME",
                        help="only this mutant (repeatable)")
    parser.add_argument("--first", action="store_true",
                        help="stop each mutant at its first kill (faster)")
    parser.add_argument("-j", "--jobs", dest="jobs", type=int, default=1,
                        help="worker processes (default 1)")
    parser.add_argument("--need", type=int, default=1, metavar="N",
                        help="fail unless every mutant is killed by N fixtures (default 1)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--blame", action="store_true",
                        help="per mutant, the clauses its failures are charged to, and whether "
                        "the one charged most is a clause it breaks")


def cmd_mutants(args: argparse.Namespace) -> int:
    """Exit 0 when every mutant is killed (by `--need` fixtures), 1 otherwise."""
    if args.list:
        for m in MUTANTS.values():
            print(f"{m.name:40} {', '.join(m.clauses):22} {m.description}")
        return 0
    fixtures, errors = load_corpus(args.path)
    for e in errors:
        print(f"LOAD ERROR {e}", file=sys.stderr)
    if args.blame:
        from .blame import blame

        found = blame(fixtures, args.names)
        for b in found:
            top = ", ".join(f"{c} {n}" for c, n in b.charged.most_common(3)) or "no failure"
            print(f"{'RIGHT' if b.right else 'WRONG'} {b.mutant} (breaks "
                  f"{', '.join(b.breaks)}): {b.failures} failures, charged {top}")
        right = sum(b.right for b in found)
        print(f"{right} of {len(found)} mutants: the clause charged most is one they break")
        return 0
    report = run_mutants(fixtures, args.names, first_only=args.first, jobs=args.jobs)
    low, weakest = report.min_kills
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        for name, ids in report.kills.items():
            shown = ", ".join(ids[:6]) + (f" (+{len(ids) - 6})" if len(ids) > 6 else "")
            print(f"{'KILLED  ' if ids else 'SURVIVED'} {name}: {shown or '-'}")
        for failure in report.baseline_failures:
            print(f"NOT USED (fails under the reference) {failure}")
        capped = " (--first: at most 1)" if args.first else ""
        print(f"{len(report.killed)} killed, {len(report.survived)} survived, "
              f"fewest killers {low}{capped} ({', '.join(weakest[:4])}"
              f"{', ...' if len(weakest) > 4 else ''}), {report.runs} passing runs, "
              f"{report.seconds:.1f} s")
    return 1 if report.survived or low < args.need else 0


def register(sub: Any) -> None:
    """Add `mutants` to the `mtrain` command line."""
    p = sub.add_parser("mutants", help="run the fixtures against every mutant of the reference",
                       description="Play the fixture corpus against each mutant (a known rule "
                       "bug switched on in the reference engine) and report which fixtures "
                       "kill it. Exit 1 if a mutant survives.")
    _add_arguments(p)
    p.set_defaults(func=cmd_mutants)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Run the fixture corpus against every mutant of the reference engine.")
    _add_arguments(parser)
    return cmd_mutants(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
