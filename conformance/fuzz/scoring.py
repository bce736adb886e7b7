"""The `score` question at a round's end: the round's scores of the hands it ended with.

A round's end under a rule of one's own (a blocked round of one's own: viaduct's two laps
of passes) is not judged, and with it went what the round is worth: an engine that scores
a blocked round's hands at face value under positive scoring (SCORE-6 gives nobody
anything) was found by conform's `blocked_scores` entries and never by fuzz. Yet what the
hands are worth is the scoring's, whatever ends the round: at each round end it reaches,
fuzz asks the implementation's `score` of the reference's final state (the winner who
went out, or none for a blocked round) and compares it with the reference's, judged only
where the reference's scoring read no option played its own way (as other answers).

Where the scoring does read a rule of one's own, whatever that rule counts, a round's
scores are those of the table it ended on: the implementation's `score` of the round's end
it returned must give its own result's scores, asked as conform asks it (own_score.py:
coaling's `score` forgetting its own bare doubles passed conform and fuzz, session 58).

An implementation without `score` is not asked (it is optional: adapter.Scoring).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mtrain.conformance.adapter import JSON, Implementation, Unsupported
from mtrain.conformance.blocked_alone import OPTION
from mtrain.conformance.divergence import ROUND_END
from mtrain.conformance.fuzz import own_rules
from mtrain.conformance.fuzz.judge import Disagreement, failure
from mtrain.conformance.fuzz.judge_apply import compare_apply
from mtrain.conformance.fuzz.rulesets import Context
from mtrain.conformance.own_score import own_result, score_again
from mtrain.conformance.process import NotApplicable
from mtrain.conformance.score_charges import TILE_VALUES, values_only
from mtrain.reference import codec
from mtrain.reference.engine import OVER, State, _finish, hand_value
from mtrain.spec.catalog import catalog

NO_SCORE: Any = object()
"""What the reference gives where the state is no round's end to score."""


def end_of(state: JSON) -> tuple[str, int | None] | None:
    """(how the round ended, the seat that went out or None) of a finished state."""
    result = state.get("result")
    if state.get("phase") != OVER or not isinstance(result, dict):
        return None
    winner = result.get("winner")
    return str(result.get("end")), winner if isinstance(winner, int) and winner >= 0 else None


def _scores(st: State, winner: int | None) -> list[int]:
    """SCORE-1..7 on the hands of `st`, as adapter.ReferenceImplementation.score has them
    (on flags that may be traced)."""
    done = st.copy()
    done.result = None
    _finish(done, "blocked" if winner is None else "domino", -1 if winner is None else winner)
    assert done.result is not None
    return list(done.result.scores)


def reference_scores(ctx: Context, state: JSON) -> tuple[list[int], tuple[str, ...]] | None:
    """The reference's scores of the finished `state`, and the options of one's own the
    scoring read (then they are not the rules' scores); None when it is no round's end."""
    end = end_of(state)
    if end is None:
        return None
    st = codec.state_from_json(ctx.rules, state)
    return own_rules.on_state(ctx, st, lambda s: _scores(s, end[1]))


def round_worth(ctx: Context, st: State, text: str, after: JSON, got: Any) -> list[Disagreement]:
    """What the round's end `got` (the implementation's state after `text` from `st`) is
    worth, where rules of one's own decided the step: whether it was a move, whether the
    round ended there (a blocked end of its own, END-2's look at who can still play).
    Where `got` ends the round as the reference's `after` does (how, and who went out) and
    the reference's scoring of the hands left reads no rule of one's own, the round's scores,
    the totals they are added to (MATCH-1) and the rounds gone out are the rules' whatever
    those rules are: they are judged, the rest of `got` taken as it is (what a round's
    end is worth, against worth_aside, which judges all but that). Such a round's end was
    left unjudged as a whole, its scores with it, though they read no rule of its own."""
    if not isinstance(got, dict) or not isinstance(got.get("result"), dict):
        return []
    mine = end_of(after)
    if mine is None or end_of(got) != mine:
        return []  # another end than the reference's: its own rules may decide it
    ref = reference_scores(ctx, after)
    if ref is None or ref[1]:
        return []
    aside = {**got, "scores": after["scores"], "outs": after["outs"],
             "result": {**got["result"], "scores": ref[0]}}
    return compare_apply(ctx, st, text, aside, got, None, [], judged=True)


def clauses(ctx: Context, blocked: bool, want: Any = None, got: Any = None,
            winner: int | None = None, unscored: Sequence[int] = ()) -> tuple[str, ...]:
    """The scoring clauses in force (read from the catalogue, so a new value's joins), the
    one conform charges first (attribution.Referee.scoring): where round scores `got` are
    off the rules' `want` only by some tiles' values, the clause that values tiles;
    else SCORE-7 for a blocked round under the low hand's rule, else the scoring's own."""
    r = ctx.rules
    first = ("SCORE-7" if blocked and r.blocked_low_wins and not r.positive_scoring
             else "SCORE-6" if r.positive_scoring else "SCORE-5")
    rest = [c.id for c in catalog().clauses.values()
            if c.id.startswith("SCORE-") and c.applies(ctx.rs)]
    if isinstance(want, list) and type(got) is list and all(
            type(v) is int for v in [*want, *got]) and values_only(
            got, want, blocked, "SCORE-7" in rest, winner, "SCORE-5" in rest, unscored):
        first = next((c for c in TILE_VALUES if c in rest), first)
    return tuple(dict.fromkeys([first, *rest]))


def marks(read: Sequence[str]) -> tuple[str, ...]:
    """Of the options of one's own a finishing step and its legality read, those that keep
    conform from running its one-step reproducer: all but the blocked round's, whose
    entry conform cuts to the scores alone (blocked_alone.py)."""
    return tuple(dict.fromkeys(o for o in read if o != OPTION))


def own_marks(read: Sequence[str]) -> tuple[str, ...]:
    """marks(read) less what a round's end is worth (ROUND_END): of a step that ends the
    round, conform runs the entry without it (round_end_alone.py), and asks the
    implementation's `score` against its own result there (own_score.py)."""
    return tuple(o for o in marks(read) if o not in ROUND_END)


def own_end(after: JSON, mine: Any) -> bool:
    """Whether the implementation's state `mine` after a step ends the round as the
    reference's `after` does (how, and who went out), with round scores of its own: its
    `score` is then asked against them (compare_own_score)."""
    return own_result(mine) and end_of(mine) is not None and end_of(mine) == end_of(after)


def ask_own_score(impl: Implementation, ctx: Context, mine: JSON) -> tuple[Any, str | None]:
    """The implementation's `score` of its own finished state `mine`, and what is wrong
    with it (own_score.score_again), raised as ask_score raises."""
    try:
        return score_again(impl, ctx.rj, mine)
    except NotApplicable:
        raise
    except Unsupported as e:
        raise NotApplicable(str(e) or "score is not supported") from e


OWN_SCORE = "score (against its own result)"
"""The signature of a `score` answer off the implementation's own result (run.py counts
it among a round's scores)."""


def compare_own_score(ctx: Context, text: str, after: JSON, mine: JSON,
                      answer: tuple[Any, str | None] | None,
                      error: BaseException | None) -> list[Disagreement]:
    """The `answer` of ask_own_score about the implementation's finished `mine` (after the
    step `text`; the reference's `after` ends the round alike). The expectation is the
    reference's result, which conform cuts to how the round ended and who went out under a
    scoring of one's own (round_end_alone.py) and then asks `score` against the
    implementation's own result (own_score.py); charged as conform charges it: the
    implementation's own scores are what the answer must give."""
    end = end_of(mine)
    assert end is not None
    expect = {"result": after["result"]}
    want = mine["result"]["scores"]
    got = answer[0] if answer is not None else None
    charged = clauses(ctx, end[1] is None, want, got, end[1], unscored(ctx, mine, want))
    if error is not None:
        sig, message = failure("score", error)
        return [Disagreement(sig, (message,), expect, (text,), charged)]
    if answer is None or answer[1] is None:
        return []
    return [Disagreement(OWN_SCORE, (answer[1],), expect, (text,), charged)]


def compare_score(ctx: Context, text: str, state: JSON, want: list[int], got: Any,
                  error: BaseException | None) -> list[Disagreement]:
    """The implementation's `score` of the finished `state` (after the step `text`)
    against the reference's `want`. The expectation is the round's result, which a
    reproducer of one step states (under a blocked round of one's own conform cuts it to
    the scores alone: blocked_alone.py)."""
    end = end_of(state)
    assert end is not None
    how = "blocked" if end[1] is None else "gone out"
    expect = {"result": state["result"]}
    charged = clauses(ctx, end[1] is None, want, got, end[1], unscored(ctx, state, want))
    if error is not None:
        sig, message = failure("score", error)
        return [Disagreement(sig, (message,), expect, (text,), charged)]
    if type(got) is list and got == want:
        return []
    who = "no winner" if end[1] is None else f"seat {end[1]} out"
    return [Disagreement(f"score ({how})",
                         (f"score request ({who}): reference {want}, implementation {got}",),
                         expect, (text,), charged)]


def unscored(ctx: Context, state: JSON, want: Sequence[int]) -> tuple[int, ...]:
    """The values of the hands of the finished `state` that the rules' round scores `want`
    score nothing (score_charges.common_offset reads a score short by one of them as who
    scores what, as conform charges it)."""
    try:
        st = codec.state_from_json(ctx.rules, state)
    except (codec.StateError, ValueError, KeyError, TypeError):
        return ()
    if len(want) != st.players:
        return ()
    return tuple(hand_value(st, s) for s in range(st.players) if want[s] == 0)


def table_scores(ctx: Context, state: JSON) -> tuple[list[int], tuple[str, ...]]:
    """The reference's scores of the hands of `state` (a round in play) as a blocked round
    (a `score` request naming no winner), and the options of one's own the scoring read."""
    st = codec.state_from_json(ctx.rules, state)
    return own_rules.on_state(ctx, st, lambda s: _scores(s, None))


def compare_table_score(ctx: Context, text: str, want: list[int], got: Any,
                        error: BaseException | None) -> list[Disagreement]:
    """A blocked end's scores asked of the table before its last step `text` (no step):
    where rules of one's own decide that step (the open double it leaves binds or not,
    viaduct's `uncoverable_double: other`), conform runs no entry with it, yet what the
    hands are worth as a blocked round is the scoring's (SCORE-5..7) whatever ends it, and
    an entry of the table alone with `blocked_scores` asks just that. Its signature is the
    blocked end's: the same finding, with a reproducer conform runs."""
    charged = clauses(ctx, True, want, got)
    expect = {"blocked_scores": want}
    if error is not None:
        sig, message = failure("score", error)
        return [Disagreement(sig, (message,), expect, (), charged)]
    if type(got) is list and got == want:
        return []
    return [Disagreement("score (blocked)",
                         (f"score request (no winner) of the table before `{text}`, the "
                          f"blocked end's last step: reference {want}, implementation "
                          f"{got}",), expect, (), charged)]


def ask_score(impl: Implementation, ctx: Context, state: JSON, blocked: bool = False) -> Any:
    """The implementation's `score` of the finished `state`, or with `blocked` of the
    hands of any state as a blocked round (NotApplicable, Unsupported or a failure raised
    as the adapter raises them)."""
    end = ("blocked", None) if blocked else end_of(state)
    assert end is not None
    try:
        return impl.score(ctx.rj, state, end[1])  # type: ignore[attr-defined]
    except NotApplicable:
        raise
    except Unsupported as e:  # an adapter's own word: counted as `unsupported` is
        raise NotApplicable(str(e) or "score is not supported") from e


def asks_scores(impl: Implementation) -> bool:
    """Whether the implementation has the optional `score` (adapter.Scoring)."""
    return callable(getattr(impl, "score", None))
