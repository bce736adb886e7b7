"""A round's scores under a scoring rule of one's own: judged against the
implementation's own result.

Where the round's worth is a rule of one's own (round_end_alone.py sets its scores aside),
nothing asked whether an engine scores alike the two ways the protocol asks it: the result
of the step that ends the round, and a `score` request about the table it ended on
(computed again from the hands). Whatever a rule counts, both are the scores of that one
table: coaling (tests/examples/coaling_engine.py) with its `score` forgetting its own
bare doubles passed conform and fuzz (tests/test_house58.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mtrain.conformance.adapter import JSON, Implementation, Unsupported
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.spec.notation import is_next_round


def ended_by_a_step(fx: Fixture, trace: Sequence[JSON]) -> bool:
    """Whether the last of `fx`'s steps ended the round: `trace` (the implementation's
    states, the start then one after each step) has it going on before and over after."""
    if not fx.steps or is_next_round(fx.steps[-1]) or len(trace) < 2:
        return False
    before, after = trace[-2], trace[-1]
    return (isinstance(before, dict) and before.get("result") is None
            and isinstance(after, dict) and isinstance(after.get("result"), dict))


def own_score_asked(exp: Expectation, state: JSON, ended_here: bool) -> bool:
    """Whether check_own_score asks: the entry expects the round's end but not its scores
    (its worth a rule of one's own: round_end_alone.py) nor a blocked round's, and the
    implementation's own step ended the round with scores."""
    if not ended_here or exp.result is None or exp.blocked_scores is not None:
        return False
    if isinstance(exp.result, dict) and exp.result.get("scores") is not None:
        return False  # check_score judges them
    result = state.get("result")
    return isinstance(result, dict) and _int_list(result.get("scores"))


def _int_list(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool)
                                       for x in v)


def check_own_score(exp: Expectation, rj: JSON, state: JSON, impl: Implementation,
                    ended_here: bool, asked: list[Any] | None = None) -> list[str]:
    """Whatever a scoring rule counts, a round's scores are those of the table it ended
    on: where the implementation's own step ended the round and the entry judges no
    scores (its scoring played its own way), its `score` request about that table must
    give its own result's scores (the protocol: computed again from the hands)."""
    scorer = getattr(impl, "score", None)
    if not own_score_asked(exp, state, ended_here) or not callable(scorer):
        return []
    result = state["result"]
    winner = result.get("winner")
    try:
        got = scorer(rj, state, winner if isinstance(winner, int) else None)
    except Unsupported:
        return []
    if asked is not None:
        asked.append(got)
    mine = result["scores"]
    if not isinstance(got, list) or list(got) != list(mine):
        return [f"score request (winner {winner}): round scores {got}, but its own result "
                f"on the same table scores {mine}"]
    return []
