"""The Mexican-Train cut combined with the cut of whether one's own train comes first.

mexican_alone.py runs an entry that reads a Mexican opening rule of one's own, and
bracket_alone.bracket_cut one that reads whether one's own train comes first, each where
that rule alone (a round-end rule besides) is played its own way. An entry reading both
stayed set aside whole: hump and flagstop (tests/examples/hump_engine.py,
flagstop_engine.py) play both their own way, and 47 of hump's fixtures were not
applicable so (benchmarks/house_not_applicable.py, session 62).

Both cuts hold together, each deciding its own part of the table:
- The plays that open the empty Mexican Train are the Mexican rule's whatever the known
  values say (mexican_alone): left to the engine on both sides.
- Every other play is open or not whatever the Mexican rule (open_trains adds the
  Mexican Train alone), and whether one's own train comes first is bracketed by its known
  values (bracket_alone.BRACKETS): a play every known value offers, or every one refuses,
  the house rule offers or refuses too. So the other plays the known values (of both
  options, every pair) disagree on are left to the engine, the rest judged.
- The draw, the pass and the end of a chain are tied by TURN-1 to whether any play
  exists. Where a play that opens no Mexican Train is offered under every known value,
  the house rules offer it too: they are refused, and the legal set is judged. Where the
  mover holds no tile for the empty Mexican Train, whether a play exists is the known
  values' bracket alone: judged where they agree. Otherwise (the only plays some value
  offers are openings) whether the mover draws is the rules' own: the draw, the pass and
  the end of a chain are left out of the legal set with those plays, and such a refusal
  is not judged; the rest of the legal set is (it was dropped whole before session 64,
  as mexican_alone's was before session 63).
- A refusal stands where every known pair refuses the action and it is no opening (and,
  for a draw, a pass or the end of a chain, where the legal set is judged), naming any
  clause one of them refuses it by.
- A step whose legality reads either rule is not applicable where refused, but a play
  the Mexican rule alone reads that opens nothing (mexican_alone.judged_action).

The cut runs where it holds under every known pair that plays its steps (two at least),
reading no other rule of one's own; where the entry reads a round-end rule of one's own
besides, what the round's end is worth is set aside, and each of those options is asked
in turn alike. fuzz asks this same cut of an answer that read both rules
(fuzz/own_release.py).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Sequence, Set

from mtrain.conformance.bracket_alone import CUT
from mtrain.conformance.divergence import ROUND_END
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.mexican_alone import (
    NO_PLAY,
    OPTION,
    decoded,
    judged_action,
    mexican,
    mexican_plays,
)
from mtrain.conformance.release_alone import Answer, answer_under, known_regions
from mtrain.conformance.round_end_alone import carried_entry, passes_under, worth_aside
from mtrain.conformance.runner import REFERENCE
from mtrain.conformance.stand_in_replay import stand_in_replay
from mtrain.conformance.step_alone import judged_steps
from mtrain.conformance.traced import legality_reads
from mtrain.reference.engine import legal_actions
from mtrain.reference.rules import Rules
from mtrain.reference.state import State
from mtrain.spec.notation import action_json
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Region, Space

PAIR = frozenset((OPTION, CUT))
"""The two rules of one's own this module cuts together."""


def pair_options(why: str) -> frozenset[str]:
    """The options `applies`'s reason names, where they are PAIR and perhaps round-end
    options (ROUND_END), played their own way; else none."""
    named = frozenset(re.findall(r"(\w+) \(played its own way\)", why))
    return named if named >= PAIR and named <= PAIR | ROUND_END else frozenset()


def pair_regions(rs: Ruleset, space: Space) -> list[Region]:
    """Every pair of known values of PAIR, `rs`'s other known values kept."""
    base = known_regions(rs, space, OPTION)[0]
    return [{**base, OPTION: frozenset((m,)), CUT: frozenset((t,))}
            for m, t in itertools.product(space.options[OPTION], space.options[CUT])]


def _play(text: str) -> bool:
    return text.startswith("play ")


def pair_entry(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space,
               named: Set[str], sent: Ruleset | None = None) -> Expectation | None:
    """`exp` cut to what a Mexican opening rule and a rule of one's own train first, both
    of one's own, leave to judge (the module docstring), without its round's worth where
    `named` has round-end options; None where it cannot be shown or nothing is left to
    check. `sent`: the rule set the implementation is sent (by default the stand-in)."""
    own = set(rs.unknown)
    if not PAIR <= set(named) <= own or not set(named) <= PAIR | ROUND_END \
            or exp.refused_setup is not None:
        return None
    ends, whole = set(named) & ROUND_END, exp
    if ends:
        exp = worth_aside(exp, ends)
    replay = stand_in_replay(fx, exp, rs, space, sent)
    if replay is None:
        return None
    steps = dict(exp.own_steps)
    for k, read in judged_steps(fx, replay.sent, PAIR):
        before: State = REFERENCE.state(replay.rj, replay.trace[k - 1])
        if CUT in read or not judged_action(before, legal_actions(before),
                                            action_json(fx.steps[k - 1])):
            steps[k] = tuple(dict.fromkeys((*steps.get(k, ()), *read)))
    regions = pair_regions(rs, space)
    answers = [answer_under(fx, exp, rs, space, region, set(steps)) for region in regions]
    found = [a for a in answers if isinstance(a, Answer)]
    if False in answers or len(found) < 2:
        return None
    last: State = REFERENCE.state(replay.rj, replay.state)
    reads = set(legality_reads(last, replay.sent, Rules.of(replay.sent))) & PAIR
    openings = set(mexican_plays(last)) if OPTION in reads else set()
    every = frozenset.intersection(*(a.legal for a in found))
    some = frozenset.union(*(a.legal for a in found))
    # whether a play exists under the house rules: one that opens nothing offered by every
    # pair; or, with no opening to be had, the pairs agreeing on whether any play exists
    judged = any(_play(t) and t not in openings for t in every) or (not openings and (
        any(map(_play, every)) or not any(map(_play, some))))
    refused = {}
    for text, clauses in exp.refused.items():
        act = decoded(last, action_json(text))
        if reads and (act is None or mexican(last, act) or (act.kind != "play" and not judged)):
            continue
        named_by = [a.refusals.get(text) for a in found]
        if all(c is not None for c in named_by):  # every pair refuses it
            refused[text] = tuple(dict.fromkeys((*clauses, *(c for cs in named_by
                                                             for c in cs or ()))))
    # where whether a play exists is the rules' own, so is the draw, pass or end of a
    # chain standing for it (TURN-1): left out with the plays, the rest of the legal set
    # judged (an action every pair refuses is refused by the house rules too)
    own = {*exp.own_actions, *(some - every), *openings}
    if reads and not judged:
        own |= set(NO_PLAY)
    cut = dataclasses.replace(
        exp, refused=refused, own_steps=tuple(sorted(steps.items())),
        own_actions=tuple(sorted(own)) if exp.legal is not None else ())
    carried = carried_entry(whole, cut, fx, ends) if ends else None
    for entry in (cut,) if carried is None else (carried, cut):  # the totals' carry first
        if entry.checks and _holds(entry, fx, rs, space, regions, answers, ends):
            return entry
    return None  # every check the rules', or one that does not hold


def _holds(cut: Expectation, fx: Fixture, rs: Ruleset, space: Space,
           regions: Sequence[Region], answers: Sequence[Answer | bool | None],
           ends: Set[str]) -> bool:
    """Whether `cut` holds under every known pair of PAIR that plays its steps (two at
    least; `answers`, each pair's, None where it refuses a step the rules decide) and,
    where `ends` (round-end options of one's own) are read, under each of their known
    values in turn; reading no other option of one's own."""
    others = set(rs.unknown) - PAIR - set(ends)
    tried = 0
    for region, answer in zip(regions, answers, strict=True):
        if answer is None:
            continue  # a pair refusing a step the entry leaves to the rules says nothing
        passed = passes_under(fx, cut, rs, space, region, others)
        if passed is False:
            return False
        tried += passed is True
    played = [r for r, a in zip(regions, answers, strict=True) if isinstance(a, Answer)]
    for option in sorted(ends):  # each in turn, beside a pair that plays every step
        for value in space.options[option]:
            region = {**played[0], option: frozenset((value,))}
            if passes_under(fx, cut, rs, space, region, others) is False:
                return False
    return tried >= 2
