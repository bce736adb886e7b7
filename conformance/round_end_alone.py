"""A round's end under a scoring, blank values or tie rule of one's own.

A fixture whose steps end a round reads the scoring (and the blank values, and at a match's
end the tie rule) for the round's scores, the totals and the winners, so under any of them
`other` the whole entry was not applicable, and with it what went before: whether the last
tile is accepted (END-1), the state it leaves, a refusal on the way. An engine that plays
its own scoring (tests/examples/semaphore_engine.py: a blocked round charged twice) had its
going out checked nowhere. Yet those checks do not depend on what a hand is worth. So where
the reference, playing the entry cut down to them under every known value of each such
option in turn (the rule set's other values kept), finds the cut entry holds each time and
reads no other rule played its own way, the cut entry runs (with the round's result, how
it ended and who went out): the round's scores, the totals and the winners stay the rule's
own. Whether the match is over is not (MATCH-1 counts rounds): it stays judged, as written
or as the winners say it (`over_of`; session 64: it was dropped with the winners).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Set

from mtrain.conformance.divergence import ROUND_END, TOTAL_FIELDS, WORTH
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.partition import notation_only
from mtrain.conformance.traced import logged_run, with_table
from mtrain.spec.notation import is_next_round
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Region, Space


def only_round_end(why: str) -> bool:
    """Whether `applies`'s reason names round-end options of one's own, and nothing else."""
    named = re.findall(r"(\w+) \(played its own way\)", why)
    return bool(named) and set(named) <= ROUND_END


def worth_aside(exp: Expectation, own: Iterable[str] = ROUND_END) -> Expectation:
    """`exp` without what a round's end is worth under `own` (the round-end options
    played their own way): its round scores, the totals and who wins (how the round
    ended, and who went out, stay); under a tie rule of one's own alone, the winners
    only: the scores and totals are the scoring's (SCORE-*, MATCH-1), whatever breaks a
    tie. Whether the match is over stays (`over_of`): the match's length counts rounds
    (MATCH-1), whatever they are worth."""
    over = over_of(exp, own)
    if not WORTH & set(own):
        return dataclasses.replace(exp, winners=None, match_over=over)
    result = exp.result
    if isinstance(result, dict):
        result = {k: v for k, v in result.items() if k != "scores"} or ...
    return dataclasses.replace(
        exp, result=result, winners=None, match_over=over,
        state={k: v for k, v in exp.state.items() if k not in TOTAL_FIELDS})


def over_of(exp: Expectation, own: Iterable[str]) -> bool | None:
    """Whether the match is over after `exp`'s table, where it says so: as written, or as
    its winners say (some named: over; none: rounds remain), the part of the winners no
    worth decides (it was dropped with them before session 64: an engine ending the
    match a round early, or naming nobody at its end, passed under a scoring of its own).
    Not from the winners where a tie rule of one's own may break a tie some other way
    (another round), nor where the match's length is the engine's own
    (`winners_unless_going_on`: match_end_alone.py)."""
    if exp.match_over is not None or exp.winners is None or exp.winners_unless_going_on:
        return exp.match_over
    if exp.winners and "tie_rule" in set(own):
        return None
    return bool(exp.winners)


def round_end_entry(exp: Expectation, fx: Fixture, rs: Ruleset,
                    space: Space) -> Expectation | None:
    """`exp` without its round scores, totals, winners and match end, where no known value of
    the round-end options `rs` plays its own way changes the rest; None where that cannot
    be shown or nothing is left to check."""
    own = set(rs.unknown)
    if not own & ROUND_END or not fx.steps or exp.refused_setup is not None:
        return None
    cut = worth_aside(exp, own)
    carried = carried_entry(exp, cut, fx, own)
    for tried in ((carried, cut) if carried is not None else (cut,)):
        if tried.checks and holds_under_each_value(fx, tried, rs, space, own & ROUND_END,
                                                   own - ROUND_END):
            return tried
    return None


def carried_entry(exp: Expectation, cut: Expectation, fx: Fixture,
                  own: Set[str]) -> Expectation | None:
    """`cut` (`exp` without its round's worth) judging the totals all the same, as MATCH-1
    says whatever a round is worth: the table's totals plus the implementation's own round
    scores (Expectation.own_totals), where `exp` expects totals other than the table's
    (its last step ends the round) after steps within one round; None otherwise. match-003
    (totals [150, 100, 106] + [0, 22, 16]) was not applicable whole under a scoring of
    one's own: nothing else is left of it."""
    totals = exp.state.get("scores")
    if (not WORTH & set(own) or fx.table is None or not isinstance(totals, list)
            or any(is_next_round(step) for step in fx.steps) or "scores" in cut.state):
        return None
    start = fx.table.get("scores")
    players = len(totals)
    carried = [0] * players if start is None else start
    if (not isinstance(carried, list) or len(carried) != players
            or not all(type(v) is int for v in carried) or carried == totals):
        return None
    return dataclasses.replace(cut, own_totals=tuple(carried))


def holds_under_each_value(fx: Fixture, cut: Expectation, rs: Ruleset, space: Space,
                           options: Set[str], others: Set[str]) -> bool:
    """Whether `cut` holds under each known value of each of `options` in turn (`rs`'s
    other known rules kept) without reading `others`: it fails under none, and runs
    under two at least (one value alone would show nothing about the others)."""
    own = set(rs.unknown)
    known: Region = {o: frozenset((v,)) for o, v in space.point(rs).items() if o not in own}
    tried = 0
    for option in sorted(options):
        for value in space.options[option]:
            passed = passes_under(fx, cut, rs, space, {**known, option: frozenset((value,))},
                                  others)
            if passed is False:
                return False
            tried += passed is True
    return tried >= 2


def passes_under(fx: Fixture, cut: Expectation, rs: Ruleset, space: Space, region: Region,
                 others: Set[str]) -> bool | None:
    """Whether the entry `cut` holds under a known rule set of `region` (its table as
    `rs`'s) without reading any of `others` (options `rs` plays its own way; a table's
    default starter aside, as `applies` reads it: partition.notation_only); None where
    the other rules allow no rule set there."""
    sample = space.complete(region)
    if sample is None:
        return None
    stand_in = space.ruleset(sample)
    if rs.custom_table:  # the reference plays the table itself
        stand_in = with_table(stand_in, rs.hand_table)
    run, log = logged_run(fx, stand_in, [cut], dict(sample))
    read = others & log.decides
    if "starting_seat" in read and notation_only(fx, cut, stand_in, sample):
        read -= {"starting_seat"}  # a table's default starter, as `applies` reads it
    return run.outcomes == ("pass",) and not read
