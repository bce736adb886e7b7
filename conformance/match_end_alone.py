"""Who wins a match under a match length of one's own.

A fixture that ends a match (its `winners`) or says it goes on (`match_over: false`) reads
the match length for whether the match is over, so under `match_length: other` the whole
entry was not applicable, and with it who wins once it is over: equal totals shared
(MATCH-4) or split (MATCH-5, MATCH-6), the lowest total or the highest (MATCH-2,
MATCH-3). An engine whose match ends after a third out (tests/examples/coupling_engine.py)
had its winners checked nowhere, nor the steps that lead there. Yet the winners of a match
that is over do not depend on when it ends. So where the reference, playing the entry cut
down (whether the match is over left to the rule, named winners still checked) under every
known match length whose match has the entry's rounds (the rule set's other values kept),
finds the cut entry holds each time and reads no other rule played its own way, the cut
entry runs: the implementation may answer that its match goes on (no winners), and where
it names winners they must be the entry's.
"""

from __future__ import annotations

import dataclasses
import re

from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.round_end_alone import passes_under
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Region, Space
from mtrain.spec.tilesets import highest

OPTION = "match_length"


def only_match_length(why: str) -> bool:
    """Whether `applies`'s reason names the match length of one's own, and nothing else."""
    return re.findall(r"(\w+) \(played its own way\)", why) == [OPTION]


def over_left_open(exp: Expectation) -> Expectation:
    """`exp` with whether the match is over left to the rule: its winners, if it names
    any, checked only where the implementation names some."""
    return dataclasses.replace(exp, match_over=None,
                               winners_unless_going_on=exp.winners is not None)


def last_round(fx: Fixture, top: int) -> int:
    """The round the entry's checks are made in: its start's (the engine names it, ENG-1)
    and one more for each `next-round` step."""
    start = fx.table if fx.table is not None else fx.deal
    engine = (start or {}).get("engine", top)
    first = top - engine + 1 if isinstance(engine, int) and 0 <= engine <= top else 1
    return first + sum(1 for s in fx.steps if str(s).startswith("next-round"))


def match_end_entry(exp: Expectation, fx: Fixture, rs: Ruleset,
                    space: Space) -> Expectation | None:
    """`exp` with the match's end left to the rule, where no known match length whose
    match has its rounds changes the rest; None where that cannot be shown or the entry
    says nothing of the match's end."""
    if OPTION not in rs.unknown or exp.refused_setup is not None or (
            exp.winners is None and exp.match_over is None):
        return None
    cut = over_left_open(exp)
    if cut.checks == 0:
        return None
    others = set(rs.unknown) - {OPTION}
    known: Region = {o: frozenset((v,)) for o, v in space.point(rs).items()
                     if o not in rs.unknown}
    # the model's logic imports z3: only where a match length of one's own is run
    # (`mtrain serve` and `--help` import this module and no z3: test_command_line)
    from mtrain.spec.model.legality import Opts
    from mtrain.spec.model.scoring import match_rounds

    rounds = last_round(fx, highest(rs["tile_set"]))
    tried = 0
    for value in space.options[OPTION]:
        if match_rounds(Opts(values={OPTION: value}), highest(rs["tile_set"])) < rounds:
            continue  # its match has no such round (MATCH-7)
        passed = passes_under(fx, cut, rs, space, {**known, OPTION: frozenset((value,))},
                              others)
        if passed is False:
            return None
        tried += passed is True
    return cut if tried else None
