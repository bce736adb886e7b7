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
    if not ended_here or not isinstance(exp.result, dict) or exp.blocked_scores is not None:
        return False  # (a round's end the entry does not expect is judged as that)
    if exp.result.get("scores") is not None:
        return False  # check_score judges them
    return own_result(state)


def _int_list(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool)
                                       for x in v)


def check_own_score(exp: Expectation, rj: JSON, state: JSON, impl: Implementation,
                    ended_here: bool, asked: list[Any] | None = None) -> list[str]:
    """Whatever a scoring rule counts, a round's scores are those of the table it ended
    on: where the implementation's own step ended the round and the entry judges no
    scores (its scoring played its own way), its `score` request about that table must
    give its own result's scores (the protocol: computed again from the hands)."""
    if not own_score_asked(exp, state, ended_here) or not callable(getattr(impl, "score",
                                                                           None)):
        return []
    try:
        got, problem = score_again(impl, rj, state)
    except Unsupported:
        return []
    if asked is not None:
        asked.append(got)
    return [] if problem is None else [problem]


def own_result(state: Any) -> bool:
    """Whether `state` is a round's end carrying round scores of its own (a list of
    integers): what score_again asks about."""
    result = state.get("result") if isinstance(state, dict) else None
    return isinstance(result, dict) and _int_list(result.get("scores"))


def score_again(impl: Implementation, rj: JSON, state: JSON) -> tuple[Any, str | None]:
    """The implementation's `score` of the finished `state` it returned (own_result), its
    winner named as its result names it, and what is wrong with that answer: None where it
    gives the result's own scores (conform's check_own_score and fuzz ask alike; an
    `unsupported` answer and a failure are raised as the adapter raises them)."""
    result = state["result"]
    winner = result.get("winner")
    got = impl.score(rj, state, winner if isinstance(winner, int) else None)  # type: ignore[attr-defined]
    mine = result["scores"]
    if not isinstance(got, list) or list(got) != list(mine):
        return got, (f"score request (winner {winner}): round scores {got}, but its own "
                     f"result on the same table scores {mine}")
    return got, None
