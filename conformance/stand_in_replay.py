"""The reference's replay of an entry under a rule set of one's own, where an entry is
cut to what such a rule leaves (release_alone.py, blocked_alone.py): the rule set the
implementation is sent in its place, or a known one of a region, and the states of the
replay under it."""

from __future__ import annotations

from dataclasses import dataclass

from mtrain.conformance.adapter import JSON
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.partition import stand_in
from mtrain.conformance.runner import REFERENCE, Outcome, play
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Region, Space


@dataclass(frozen=True)
class Replay:
    """The reference's play of an entry's steps under the rule set `sent`: the state after
    them, that rule set as the protocol sends it, and the states before each step (the
    start, then after each)."""

    sent: Ruleset
    state: JSON
    rj: JSON
    trace: list[JSON]


def stand_in_replay(fx: Fixture, exp: Expectation, rs: Ruleset, space: Space,
                    sent: Ruleset | None = None) -> Replay | None:
    """`fx`'s steps as the reference plays them under `sent` (by default the stand-in
    inside `exp`'s scope for `rs`'s rules of its own, as conform sends it); None where
    no known rule set stands in, or the reference refuses a step or the setup."""
    if sent is None:
        try:
            sent = stand_in(rs, exp, space)
        except ValueError:  # no known rule set of the scope stands in for it
            return None
    trace: list[JSON] = []
    played = play(fx, sent, REFERENCE, None, trace)
    if isinstance(played, Outcome):
        return None
    state, rj = played
    return Replay(sent, state, rj, trace)


def known_ruleset(rs: Ruleset, space: Space, region: Region) -> Ruleset | None:
    """A known rule set of `region` (its table as `rs`'s), or None where there is none."""
    sample = space.complete(region)
    if sample is None:
        return None
    known = space.ruleset(sample)
    if rs.custom_table:  # the reference plays the table itself
        known = Ruleset(known.name, known.choices, rs.hand_table)
    return known
