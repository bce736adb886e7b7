"""Whether an implementation that names no winner at the end of the match's last round
holds the match over all the same.

`winners` answers `[]` while the match goes on (docs/protocol.md), so an empty answer
where the rules end the match reads as a longer match, and was charged to MATCH-1 (how many
rounds a match has) whatever the engine's fault. An engine that compares its totals wrong
and finds nobody on the lowest (tests/examples/java/Drover.java compares boxed Integers
by identity, equal only up to 127) answers `[]` too, though its match is over: the fault
is who wins (MATCH-2 and after), not the length. The deal of the round after tells them
apart: an engine whose match goes on deals it; one that refuses it (refused-setup, naming
the match's length or no clause) holds the match over. Anything else (a deal it cannot
make for another reason, an error, no answer) tells nothing, and MATCH-1 stays.

Only what an implementation answers is read so: a refusal (RefusedSetup, Refused), an
`unsupported` answer, an error answer or a failed request (HarnessError: an error, a crash,
a timeout, a broken answer, an adapter that raised), an impossible state (AnswerError).
An implementation called in process (the mutants, blame's and identify's engines) answers
by what it raises: any exception out of its `deal` is its answer and tells nothing, as a
hosted adapter's raised exception (an AdapterError) does. The pool is made before the
request, outside it: a fault of the suite's there is raised, never read as the engine
holding its match open.
"""

from __future__ import annotations

from typing import Any

from mtrain.conformance.adapter import JSON, Implementation, RefusedSetup
from mtrain.spec.notation import deal_order, max_pip_of
from mtrain.spec.ruleset import Ruleset

__all__ = ["LENGTH_CLAUSES", "holds_match_over"]

LENGTH_CLAUSES = (None, "MATCH-1", "MATCH-7")
"""The clauses a refusal of the round after the last may name to say the match is over:
the match's length (MATCH-1; MATCH-7 for a single round), or none."""


def holds_match_over(impl: Implementation, rj: JSON, rs: Ruleset, state: Any) -> bool:
    """Whether `impl` refuses to deal the round after the finished round `state` (its
    seats, the pool of the round after: what decides is the round number), naming the
    match's length or no clause. False for a deal made and for anything that tells
    nothing: a refusal for another clause (a draw for the start it was not sent, SEAT-5),
    an error, a timeout, an impossible state, an in-process implementation's own
    exception. A fault of the suite's before the request (the pool) is raised."""
    if not isinstance(state, dict) or not isinstance(state.get("hands"), list) \
            or type(state.get("round")) is not int or type(state.get("engine")) is not int \
            or not 0 <= state["engine"] <= max_pip_of(rs):  # the engine's answer: no round
        return False
    # the pool of the round asked for: round r + 1's engine where the set has that round
    # (ENG-1; a deal that picks its own engine, ENG-7 and ENG-8, sets none aside), else the
    # finished round's, as no round follows the set's last
    after = max_pip_of(rs) - state["round"]
    engine = after if after >= 0 else state["engine"]
    order = deal_order(rs, engine, "sorted")  # the suite's: its faults are raised
    try:
        impl.deal(rj, len(state["hands"]), state["round"] + 1, order)
    except RefusedSetup as e:
        return e.clause in LENGTH_CLAUSES
    except Exception:
        # whatever the implementation answers but a deal: a refusal of another kind,
        # `unsupported`, an error answer or failed request (HarnessError), a deal that is
        # no table (AnswerError), or, called in process, its own exception (a mutant of
        # the reference raises the engine's ValueError for a round past the match's last),
        # as a hosted adapter's is an AdapterError: it tells nothing, the charge stays
        return False
    return False
