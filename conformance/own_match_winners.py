"""Who wins at a round's end from play, under a match length of one's own.

Under `match_length: other` the round ends from play (situations.end_situations) asked
nothing of the match, since whether it goes on after the round is the rule's own, and so
an engine with a match of its own had its winners judged only by the few corpus fixtures
that end a match (match_end_alone.py). Yet who wins a match that is over does not depend on
when it ends: the totals after the round (the start's totals and the round's scores,
MATCH-1) and the outs decide, under the scoring and the tie rule (MATCH-2..6). So at every
such round end an implementation that names winners must name the model's; and at the
last round its own match deals at that player count (own_rounds: it refuses the deal of
the next), the match is over there, so it must name them (docs/protocol.md, `winners`).
A tie rule of one's own speaks only of players level on the winning total: where one seat
holds it alone, that seat wins under any tie rule, and is judged so; a tie is left to it.
"""

from __future__ import annotations

import dataclasses

from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.own_rounds import LastRounds
from mtrain.spec.ruleset import OTHER, Ruleset

DECIDES = ("scoring", "tie_rule")
"""The options that say who wins once the match is over (MATCH-2..6)."""


def own_match_winners(exp: Expectation, fx: Fixture, rs: Ruleset, sent: Ruleset | None,
                      last: LastRounds | None) -> Expectation:
    """`exp`, a round's end from play under `rs` (played as `sent`), with the match's
    winners after it: required where the round is the last `last` says the match deals
    at its count, else checked only where the implementation names some. `exp` as it is
    where the match length is known, where a scoring of its own says who wins, where a
    tie rule of its own does (the winning total shared), or where the entry gives no
    round scores or outs to add up."""
    if (sent is None or rs["match_length"] != OTHER or "scoring" in rs.unknown
            or fx.table is None or exp.winners is not None or exp.match_over is not None
            or not isinstance(exp.result, dict)):
        return exp
    scores, outs = exp.result.get("scores"), exp.state.get("outs")
    if not isinstance(scores, list) or not isinstance(outs, list):
        return exp
    start = fx.start(sent)
    totals = [int(a) + int(b) for a, b in zip(start["scores"], scores, strict=True)]
    # the model's rule (z3 is imported with it: only where a match of one's own is run)
    from mtrain.spec.model.legality import Opts
    from mtrain.spec.model.scoring import match_winners

    own_tie = "tie_rule" in rs.unknown
    winners = match_winners(totals, [int(x) for x in outs], Opts(values={
        o: "shared" if o == "tie_rule" and own_tie else rs[o] for o in DECIDES}))
    if own_tie and len(winners) != 1:
        return exp  # a tie on the winning total: the tie rule of one's own decides it
    # (one seat alone on the winning total wins under any tie rule: MATCH-2 or MATCH-3)
    over = last is not None and last.rounds.get(len(start["hands"])) == int(start["round"])
    return dataclasses.replace(exp, winners=tuple(winners), winners_unless_going_on=not over)
