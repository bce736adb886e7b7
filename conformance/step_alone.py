"""An entry under a rule of one's own that decides only whether its steps are moves.

A step is asked in two parts (traced.TracedReference.apply): whether it is legal, then what
it does. A rule read only in the first (traced.Log: in `decides`, not in `effects`) decides
whether the step is a move at all, never the state it leaves nor what the checks ask. So
under that rule played its own way the entry was not applicable as a whole, though the
rule's own answer leaves only two cases: the implementation plays the step, and what the
step does and what is asked after it are the reference's under any value of that rule
(the run read it nowhere else); or it refuses the step, its own rule forbidding it, and
there is nothing to judge. trestle (tests/examples/trestle_engine.py: a drawn tile goes on
any train where it fits, `draw_rule: other`) had every pass after a draw in vain and every
drawn double laid set aside so, since whether a drawn tile may be played (TURN-3) reads
the draw rule, and with them the passes it counts (END-3) and the double's follow-up
(DBL-1), which no draw rule decides.

So where the reference, playing the entry under the rule set's stand-in (a known value in
place of each rule of one's own, inside the entry's scope: what conform sends), finds it
holds and every rule of one's own it reads is read only judging a step's legality, the
entry runs, knowing those steps (`Expectation.own_steps`): the implementation's refusal of
one of them is not applicable (`own_step_refused`), any other answer is judged as written.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Set

from mtrain.conformance.adapter import JSON
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.partition import stand_in
from mtrain.conformance.runner import REFERENCE, Outcome, play
from mtrain.conformance.traced import legality_reads, logged_run
from mtrain.reference.rules import Rules
from mtrain.spec.notation import is_next_round
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space

OWN_STEP = ("the implementation refused a step whose legality a rule it plays its own way "
            "decides (not what the step does): its own rule forbids that move, so the entry "
            "has nothing to judge")
"""The reason a refused step of `Expectation.own_steps` is not applicable: the same for
every step, so that the report counts them under one reason (the step, its rules and the
implementation's words follow it in the result's messages)."""


def named_options(why: str, rs: Ruleset) -> frozenset[str]:
    """The options `applies`'s reason names as played their own way (all of them `rs`'s
    rules of its own; none where the reason names a table of its own as well)."""
    if "hand_sizes" in why:
        return frozenset()
    named = frozenset(re.findall(r"(\w+) \(played its own way\)", why))
    return named if named <= set(rs.unknown) else frozenset()


def own_steps_entry(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space,
                    named: Set[str]) -> Expectation | None:
    """`exp`, knowing the steps whose legality `named` (the rules of its own `rs` plays
    that the entry reads) decides, where under the stand-in conform sends it holds and no
    rule of its own is read but to judge a step's legality; None otherwise."""
    own = set(rs.unknown)
    if not fx.steps or not named or exp.refused_setup is not None:
        return None
    try:
        sent = stand_in(rs, exp, space)
    except ValueError:  # no known rule set of the scope stands in for it
        return None
    run, log = logged_run(fx, sent, [exp], space.point(sent))
    if run.outcomes != ("pass",) or own & log.effects or not named <= log.decides:
        return None
    steps = judged_steps(fx, sent, own)
    if not steps or not named <= {o for _, read in steps for o in read}:
        return None
    return dataclasses.replace(exp, own_steps=steps)


def judged_steps(fx: Fixture, sent: Ruleset, own: Set[str]
                 ) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """(k, the options of `own` it reads) for each step k of `fx` whose legality, on the
    table the reference's replay under `sent` reaches before it, reads one of them."""
    trace: list[JSON] = []
    played = play(fx, sent, REFERENCE, None, trace)
    if isinstance(played, Outcome):
        return ()
    rj = played[1]
    rules = Rules.of(sent)
    out = []
    for k, (step, before) in enumerate(zip(fx.steps, trace, strict=False), 1):
        if is_next_round(step):
            continue
        read = legality_reads(REFERENCE.state(rj, before), sent, rules)
        found = tuple(o for o in read if o in own)
        if found:
            out.append((k, found))
    return tuple(out)


BLOCKED = "blocked_round"
"""A blocked rule of one's own decides no step's legality, only whether the round is over
before it (blocked_alone.py): its refused step is its rule's where the implementation's
round is over there."""


def over_before(outcome: Outcome) -> bool:
    """Whether the implementation's state before the step `outcome` refused says its
    round is over."""
    k = outcome.step
    before = outcome.states[k - 1] if 0 < k <= len(outcome.states) else None
    return isinstance(before, dict) and before.get("result") is not None


def own_step_refused(outcome: Outcome, exp: Expectation) -> list[str] | None:
    """The not-applicable messages of `outcome` (a run of `exp`), where the implementation
    refused one of the steps whose legality its own rules decide; else None."""
    if outcome.status != "fail" or not outcome.step or not exp.own_steps:
        return None
    options = dict(exp.own_steps).get(outcome.step)
    if options is None:
        return None
    if set(options) == {BLOCKED} and not over_before(outcome):
        return None  # its round goes on: a blocked rule of its own made no step illegal
    return [OWN_STEP, f"step {outcome.step} ({', '.join(options)} played its own way): "
            + "; ".join(outcome.messages)]
