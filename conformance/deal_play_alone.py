"""A deal under rules of one's own that govern play alone: the dealt state still runs.

A deal fixture with no step expects the table a deal leaves (the hands, the boneyard,
where the engine is, who moves, the phase) and often the legal set of the first player
to move. Under a first turn of one's own (`first_turn: other`) that legal set is the
rule's (heavy-001's [draw] for a seat holding no tile of the engine's number: a chain
start marks at once instead, FIRST-3), so the whole entry was not applicable, the deal
with it: seven deal fixtures for each of tender, hopper, hostler and yardmaster (session
62's count over the house engines' files). Yet a rule of play decides what a turn lets a
player do, never what the deal hands out nor who is dealt the first move: the deal is
over before the first turn begins.

So where an entry on a bare deal reads only such rules of one's own (PLAY_RULES), it runs
without its legal set and refusals, as the dealt state alone, where the reference, playing
the deal under every combination of the known values of those rules (the rule set's
other values kept), finds that state as the entry writes it each time and reads no other
rule played its own way. With no state field written, nothing is left to judge.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re

from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.round_end_alone import passes_under
from mtrain.spec.ruleset import OTHER, Ruleset
from mtrain.spec.scope import Region, Space

PLAY_RULES = frozenset((
    "first_turn", "mexican_first_turn", "own_train_first", "doubles", "follow_up",
    "double_order", "uncoverable_double", "marker_removal", "draw_rule"))
"""The options whose question is a move of play (FIRST-*, TRAIN-7, DBL-*, MARK-*, TURN-*):
none is asked before a round's first move. Not the deal's own (hand_sizes,
engine_procedure, starting_seat), a round's end (blocked_round, which a deal nobody can
play from may end at once), nor its worth or the match's."""

COMBINATIONS_MAX = 64
"""The most combinations of known values tried before the entry is left not applicable."""


def play_options(why: str, rs: Ruleset) -> frozenset[str]:
    """The options `applies`'s reason names as played their own way, where every one of
    them is a rule of play `rs` plays its own way (PLAY_RULES); else none."""
    named = frozenset(re.findall(r"(\w+) \(played its own way\)", why))
    if "hand_sizes" in why or not named <= PLAY_RULES or not named <= set(rs.unknown):
        return frozenset()
    return named


def bare_deal(fx: Fixture) -> bool:
    """A deal and nothing after it (a draw for the start is a starting seat's question)."""
    return fx.deal is not None and not fx.steps and "draw" not in fx.deal


def dealt_play_entry(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space,
                     named: frozenset[str]) -> Expectation | None:
    """`exp`, a bare deal's entry, as its dealt state alone, where every combination of
    known values of `named` (rules of play `rs` plays its own way, all the entry reads of
    its own rules) deals it under `rs`'s other rules; None where that cannot be shown or
    no state field is left. Under a table of one's own, a field that no combination deals
    as written is the table's (a hand's size: table_alone.py) and goes; one that some
    combinations deal and others do not would make a rule of play decide the deal: the
    entry stays not applicable."""
    if not named or not bare_deal(fx) or exp.refused_setup is not None or not exp.state:
        return None
    bare = dataclasses.replace(exp, legal=None, refused={}, result=..., winners=None,
                               match_over=None, state={})
    own = set(rs.unknown)
    known: Region = {o: frozenset((v,)) for o, v in space.point(rs).items() if o not in own}
    order = sorted(named)
    values = [[v for v in space.options[o] if v != OTHER] for o in order]
    if math.prod(len(v) for v in values) > COMBINATIONS_MAX:
        return None
    regions = [{**known, **{o: frozenset((v,)) for o, v in zip(order, combination,
                                                                strict=True)}}
               for combination in itertools.product(*values)]

    def held(state: dict[str, object]) -> list[bool]:
        """Whether the deal gives `state` under each combination the rules allow."""
        cut = dataclasses.replace(bare, state=state)
        found = (passes_under(fx, cut, rs, space, region, own - named) for region in regions)
        return [bool(p) for p in found if p is not None]

    kept = {}
    for key, value in exp.state.items():
        each = held({key: value})
        if len(each) < 2 or (any(each) and not all(each)):
            return None  # too few known readings, or a rule of play deciding the deal
        if all(each):
            kept[key] = value
        elif not rs.custom_table:
            return None  # the entry's own rules do not deal it: nothing to say why
    return dataclasses.replace(bare, state=kept) if kept and all(held(kept)) else None
