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
"""

from __future__ import annotations

from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.round_end_alone import holds_under_each_value
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space

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
