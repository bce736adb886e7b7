"""A round's end, then the next deal, under a starting seat and a scoring of one's own.

Each cut alone runs its entry: under `starting_seat: other` a table played to its end
and the next round dealt runs without the deal's seat and starter
(seat_alone.dealt_entry), and under a scoring, blank values or tie rule of one's own a
fixture whose steps end a round runs without what the end is worth (round_end_alone).
But `applies` names both options for such an entry where both are one's own, and neither
cut took the other's option: the entry was not applicable whole. dolly
(tests/examples/js/dolly_engine.js: the heaviest hand leads, a tile tax on each tile
left in hand) had points-003 (round 3 dealt on [10-10], the round gone out counted in
`outs`) set aside so, though each rule alone let it run (ballast,
tests/examples/ballast_engine.py, with both its own too: 110 not applicable, 100 now,
the ten run passing). So where `applies` names the starting seat and round-end options
alone, the entry runs cut of both (its worth, and the next deal's seat and starter),
where the reference, playing it under each known value of each in turn (the rule set's
other values kept), holds the cut entry each time: a starting seat whose rules refuse
the next deal itself (the highest draw, with no draw given) cannot have dealt it and is
left out.
"""

from __future__ import annotations

import dataclasses
import re

from mtrain.conformance.divergence import ROUND_END
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.round_end_alone import passes_under, worth_aside
from mtrain.conformance.seat_alone import SEAT_FIELDS, next_round_last
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Region, Space

SEAT = "starting_seat"


def seat_and_round_end(why: str) -> bool:
    """Whether `applies`'s reason names a starting seat of one's own and round-end options
    of one's own, and nothing else."""
    named = set(re.findall(r"(\w+) \(played its own way\)", why))
    return SEAT in named and bool(named & ROUND_END) and named <= ROUND_END | {SEAT}


def seat_worth_entry(exp: Expectation, fx: Fixture, rs: Ruleset,
                     space: Space) -> Expectation | None:
    """`exp` without what its round's end is worth and, where its last step deals the next
    round, without that deal's seat and starter (and the actions, which are the seat's);
    None where no known value of each such option can be shown to give the rest alike, or
    nothing is left to check."""
    own = set(rs.unknown)
    if SEAT not in own or not own & ROUND_END or not fx.steps or exp.refused_setup is not None:
        return None
    cut = worth_aside(exp, own)
    if next_round_last(fx):
        cut = dataclasses.replace(cut, legal=None, refused={}, state={
            k: v for k, v in cut.state.items() if k not in SEAT_FIELDS})
    if cut.checks == 0:
        return None
    options = (own & ROUND_END) | {SEAT}
    others = own - options
    known: Region = {o: frozenset((v,)) for o, v in space.point(rs).items() if o not in own}
    dealt = dataclasses.replace(cut, legal=None, refused={}, result=..., winners=None,
                                match_over=None, state={})  # the steps taken, nothing more
    tried = 0
    for option in sorted(options):
        for value in space.options[option]:
            region = {**known, option: frozenset((value,))}
            passed = passes_under(fx, cut, rs, space, region, others)
            if passed is False and option == SEAT and \
                    passes_under(fx, dealt, rs, space, region, others) is False:
                continue  # its rules refuse the steps (a next deal needing a draw)
            if passed is False:
                return None
            tried += passed is True
    return cut if tried >= 2 else None
