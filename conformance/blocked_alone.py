"""A blocked round's scores under a blocked round of one's own.

A fixture whose steps end a round blocked reads the blocked rule (END-2, END-3) at its
last step, so under `blocked_round: other` the whole entry was not applicable, and with it
what the round is worth: an engine that scores a blocked round wrong (its hands at face
value under positive scoring, where SCORE-6 gives nobody anything) was asked about it
nowhere. Yet what a blocked round is worth is the scoring's (SCORE-5..7), whatever ends
it: a `score` request naming no winner asks exactly that, of the hands the steps leave.
Only an entry of one step: a blocked rule of one's own may end the round at any step
before the last (turntable's, once nobody can play on the table as it stands), and the
steps after it are then no moves of its game. So where the reference, playing the entry
of one step cut down to that request under every known blocked rule in turn (the rule
set's other values kept), gives those scores each time and reads no other rule played
its own way, the cut entry runs: the step, then the `score` request; the round's end
itself (whether it is over) stays the rule's own.

Any other entry the rule decides was set aside whole, and with it what no blocked rule can
change: brakeman (tests/examples/rust/brakeman.rs, bug 2: a pass on an empty boneyard
raises no marker, MARK-1) failed 27 results under its declared rules and 0 under a file
with `blocked_round: other`, every such pass being the rule's (now 32: the 27 but one, a
second pass after which a known rule ends the round first, and six whose doubles rule of
its own set them aside under the declared file). What the rule decides is
one thing: at the start of each turn with the boneyard empty (the reference reads it
there and nowhere else: engine._check_blocked), whether the round is over (END-2, END-3).
So a rule of one's own may end the round at any such moment, or at none, and can change:
whether the round is over after the steps and what follows from that (the result, the
phase, the seat to move, the legal set and refusals of a table that is over, the totals,
the winners, whether the match is over: divergence.end_aside), and whether a step taken at
such a moment is a move at all. It cannot change what a step did before that moment: the
hands, trains, boneyard, markers, open doubles and passes. Asked of the reference, not
assumed: the entry cut down to those holds under every known blocked rule in turn (the
rule set's other values kept), else the entry stays set aside. The cut entry runs knowing
which way the rules end it (`Expectation.own_end`): where the implementation's state
agrees, everything is judged as written (a round that goes on is the rules' round);
where it does not, the end is its rule's and only the cut is judged, and a departure of
its states is sought past it (divergence.OWN_END); a step taken at such a moment that it
refuses, its round over before it, is not applicable (`Expectation.own_steps`,
step_alone.own_step_refused), and refused while its round goes on, fails. A known rule
that ends the round before the last step says nothing of the cut (`holds_where_played`).
Where other rules of one's own decide the entry too, each is asked alike and the cut is
judged whatever the implementation's end.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Set

from mtrain.conformance.adapter import JSON
from mtrain.conformance.divergence import end_aside, ended_blocked
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.round_end_alone import holds_under_each_value, passes_under
from mtrain.conformance.runner import REFERENCE, Outcome, play
from mtrain.conformance.stand_in_replay import known_ruleset, stand_in_replay
from mtrain.spec.notation import is_next_round
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Region, Space

OPTION = "blocked_round"
ONLY_BLOCKED = f"its outcome depends on {OPTION} (played its own way)"
"""`applies`'s answer for an entry that only a blocked round of one's own decides."""


def blocked_scores_entry(exp: Expectation, fx: Fixture, rs: Ruleset,
                         space: Space) -> Expectation | None:
    """`exp` cut down to the scores of the blocked round its one step ends, where every
    known blocked rule gives them; None where the entry ends no round blocked in one
    step, or that cannot be shown."""
    result = exp.result
    if (OPTION not in rs.unknown or len(fx.steps) != 1 or exp.refused_setup is not None
            or not isinstance(result, dict) or result.get("end") != "blocked"
            or not isinstance(result.get("scores"), list)):
        return None
    cut = Expectation(exp.variants, exp.scope, blocked_scores=tuple(result["scores"]),
                      line=exp.line)
    own = set(rs.unknown)
    return cut if holds_under_each_value(fx, cut, rs, space, {OPTION}, own - {OPTION}) else None


def blocked_entry(exp: Expectation, fx: Fixture, rs: Ruleset,
                  space: Space) -> Expectation | None:
    """An entry only a blocked round of one's own decides, cut to what that rule leaves:
    what the steps did, and the round's end where the implementation's agrees
    (`blocked_end_entry`), with the scores of the blocked round one step ends
    (`blocked_scores_entry`); None where neither cut can be shown."""
    scores = blocked_scores_entry(exp, fx, rs, space)
    ended = blocked_end_entry(exp, fx, rs, space, {OPTION})
    if ended is None or scores is None:
        return ended or scores
    return dataclasses.replace(ended, blocked_scores=scores.blocked_scores)


def blocked_end_entry(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space,
                      named: Set[str]) -> Expectation | None:
    """`exp` with whether the round is over after its steps left to `rs`'s blocked rule of
    its own (the module docstring), where the rest holds under every known value of each
    of `named` (the rules of its own the entry reads, the blocked rule among them); None
    otherwise. Where `named` holds other rules of one's own besides, what only the end
    decides is set aside whatever the implementation's end (they may decide it too)."""
    own = set(rs.unknown)
    if (OPTION not in named or not set(named) <= own or not fx.steps
            or exp.refused_setup is not None):
        return None
    cut = end_aside(exp)
    if cut.checks == 0 or not holds_where_played(fx, cut, rs, space, named, own - set(named)):
        return None
    replay = stand_in_replay(fx, exp, rs, space)
    if replay is None:
        return None
    steps = dict(exp.own_steps)
    for k, (step, before) in enumerate(zip(fx.steps, replay.trace, strict=False), 1):
        if not is_next_round(step) and dry_turn_start(replay.rj, before):
            steps[k] = tuple(dict.fromkeys((*steps.get(k, ()), OPTION)))
    own_steps = tuple(sorted(steps.items()))
    if set(named) != {OPTION}:
        return dataclasses.replace(cut, own_steps=own_steps)
    return dataclasses.replace(exp, own_end=ended_blocked(replay.state), own_steps=own_steps)


def holds_where_played(fx: Fixture, cut: Expectation, rs: Ruleset, space: Space,
                       options: Set[str], others: Set[str]) -> bool:
    """round_end_alone.holds_under_each_value, but a known value under which the round is
    over before the last step (its blocked rule ending it there: the steps after it are no
    moves of its game) says nothing: it neither fails the cut nor counts among the two."""
    known: Region = {o: frozenset((v,)) for o, v in space.point(rs).items()
                     if o not in rs.unknown}
    tried = 0
    for option in sorted(options):
        for value in space.options[option]:
            region = {**known, option: frozenset((value,))}
            if ends_early(fx, rs, space, region):
                continue
            passed = passes_under(fx, cut, rs, space, region, others)
            if passed is False:
                return False
            tried += passed is True
    return tried >= 2


def ends_early(fx: Fixture, rs: Ruleset, space: Space, region: Region) -> bool:
    """Whether under a known rule set of `region` (its table as `rs`'s) the reference's
    replay stops at a step taken when the round is already over."""
    known = known_ruleset(rs, space, region)
    if known is None:
        return False
    trace: list[JSON] = []
    played = play(fx, known, REFERENCE, None, trace)
    return (isinstance(played, Outcome) and played.status == "fail"
            and len(trace) <= len(fx.steps) and bool(trace)
            and trace[-1].get("result") is not None)


def dry_turn_start(rj: JSON, state: JSON) -> bool:
    """Whether `state` (under the rule set sent as `rj`) is the start of a turn with the
    boneyard empty: where a blocked rule decides whether the round is over (END-2, END-3),
    so one of one's own may have ended it before the step taken there."""
    st = REFERENCE.state(rj, state)
    return state.get("phase") == "start" and not st.boneyard
