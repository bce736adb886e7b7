"""The answer to a move judged: the state after an action against the reference's (its
round's end, its totals, a state broken whatever the rules), a move that failed, and an
action listed as legal and then refused. judge.py holds what is asked and the questions
put to a table (a deal, the legal set, a refusal, the winners); this, what comes of a
step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mtrain.conformance.adapter import JSON, Refused
from mtrain.conformance.answers import Problem, state_problems
from mtrain.conformance.fuzz import own_rules
from mtrain.conformance.fuzz.judge import (
    END_FIELDS,
    STATE_FIELDS,
    Disagreement,
    _forbids,
    _kind,
    _minimal,
    _problems,
    as_action,
    differences,
    failure,
    forbidding,
    permitting,
    primary,
)
from mtrain.conformance.fuzz.named_clauses import action_clauses, known_clauses, state_clauses
from mtrain.conformance.fuzz.rulesets import Context
from mtrain.conformance.state_compare import compare_result, state_view
from mtrain.reference import codec
from mtrain.reference.engine import ENGINE, OVER, State, legal_actions, perform
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import FixtureError, action_text


def compare_apply(ctx: Context, st: State, text: str, want: JSON, got: Any,
                  error: BaseException | None, problems: list[Problem] | None = None,
                  judged: bool = True) -> list[Disagreement]:
    """The state after `text` from `st`: the reference's `want`, the implementation's `got`
    (or Refused, or another failure, in `error`); `problems`: got's, if known. Not
    `judged` (rules of one's own decide the step): only a failure or a broken state is a
    finding."""
    over = want["phase"] == OVER
    # a round ended on one side only is a round-end finding, whichever action ended it
    ended = over or (isinstance(got, dict) and got.get("phase") == OVER)
    label = "round end" if ended else f"after {_label(st, text)}"
    if isinstance(error, Refused) and not judged:
        return []
    if isinstance(error, Refused):
        before = codec.state_to_json(st)
        expect, _ = differences(want, before, ctx.max_pip)
        clause = f" [{error.clause}]" if error.clause else ""
        return [Disagreement(_forbids(text, permitting(ctx, st, text, error.clause)),
                             (f"`{text}` was refused: {error.reason}{clause}",),
                             expect or {"result": want["result"]}, (text,),
                             tuple(action_clauses(ctx, st, text, expect)))]
    if error is not None:
        sig, message = failure("apply", error)
        return [Disagreement(sig, (message,), _minimal(want), (text,),
                             tuple(action_clauses(ctx, st, text, {})))]
    if problems is None:
        problems = state_problems(ctx.rules, got)
    expect, messages = differences(want, got, ctx.max_pip, END_FIELDS if over else STATE_FIELDS)
    if problems:
        # a state that cannot be read as a table is wrong in how it is written, whatever
        # the action (a train written far end first after a draw as after a play): one
        # finding, named by the place
        # nor by the round's end, unless the result is what breaks (INV-ROUND-SCORE): a
        # covered double left open is one bug whether or not its cover went out
        sig, texts = _problems(_broken_where(st, text, label, problems), problems)
        found = [Disagreement(sig, texts, expect or _minimal(want), (text,),
                              tuple(action_clauses(ctx, st, text, expect)))]
        # a round's result is judged apart from its table: a table broken elsewhere (a
        # train written far end first) must not hide wrong scores, another bug
        result = compare_result(want.get("result"), got.get("result")) if (
            over and judged and isinstance(got, dict)
            and not any(_about_result(p) for p in problems)) else []
        if result:
            only = {"result": want["result"]}
            name = primary(only, want, got)
            if name == "result.scores" and _same_hands(want, got):
                # the scores are not what the hands left give: the invariant a readable
                # table is checked by, so that the bug keeps its one signature
                name = "INV-ROUND-SCORE"
            found.append(Disagreement(f"{label}: {name}", tuple(result), only, (text,),
                                      tuple(action_clauses(ctx, st, text, only))))
        carried = _carried(st, got) if over and judged else None
        if carried is not None:
            # nor must it hide the totals: the round's scores, right or wrong, are added to
            # those carried in (MATCH-1). layover's totals replaced by a later round's
            # scores went unseen wherever its miscounted pips broke INV-ROUND-SCORE
            totals = {"state": {"scores": want["scores"]}}
            found.append(Disagreement(f"{label}: scores", (carried,), totals, (text,),
                                      tuple(action_clauses(ctx, st, text, totals))))
        return found
    if not messages or not judged:
        return []
    return [Disagreement(f"{label}: {primary(expect, want, got)}", tuple(messages), expect,
                         (text,), tuple(action_clauses(ctx, st, text, expect)))]


def _carried(st: State, got: Any) -> str | None:
    """What is wrong with the match totals of a round's end `got`, its round scores taken
    as it gives them: each seat's total before the round (`st`) plus its score (MATCH-1);
    None where they add up, or `got` says too little to tell."""
    if not isinstance(got, dict) or not isinstance(got.get("result"), dict):
        return None
    scores, totals = got["result"].get("scores"), got.get("scores")
    if not (isinstance(scores, list) and isinstance(totals, list)
            and len(scores) == len(totals) == len(st.scores)
            and all(type(v) is int for v in [*scores, *totals])):
        return None
    added = [a + b for a, b in zip(st.scores, scores, strict=True)]
    if added == totals:
        return None
    return (f"scores: the totals {totals} are not those before the round {list(st.scores)} "
            f"plus its scores {scores}: {added}")


def broken_state(ctx: Context, st: State, text: str, got: JSON, problems: Sequence[Problem],
                 own: Sequence[str]) -> Disagreement:
    """The finding for a state `got` broken by `problems` after `text`, a move only the
    rules of one's own (`own`) allow: the reference refuses it, so nothing is compared, but
    an invariant holds whatever the rules. Named and charged as compare_apply names and
    charges a broken state; it has no reproducer (the reference cannot play the move)."""
    label = "round end" if got.get("phase") == OVER else f"after {_label(st, text)}"
    sig, texts = _problems(_broken_where(st, text, label, problems), problems)
    try:
        clauses = tuple(action_clauses(ctx, st, text, {}))
    except (codec.StateError, FixtureError, ValueError, KeyError):
        clauses = tuple(state_clauses(ctx, st, []))
    return Disagreement(sig, texts, {}, (text,), clauses, tuple(own),
                        no_reproducer=f"the reference refuses `{text}` (only its own rules "
                        f"allow it: {', '.join(own)}), so no fixture can ask it again")


def failed_move(ctx: Context, st: State, text: str, error: BaseException,
                own: Sequence[str]) -> Disagreement:
    """The finding for a crash, a timeout or an answer that is no answer on `text`, a move
    only the rules of one's own (`own`) allow: a failure whatever the rules, named as
    compare_apply names one; no reproducer (the reference cannot play the move)."""
    sig, message = failure("apply", error)
    try:
        clauses = tuple(action_clauses(ctx, st, text, {}))
    except (codec.StateError, FixtureError, ValueError, KeyError):
        clauses = tuple(state_clauses(ctx, st, []))
    return Disagreement(sig, (message,), {}, (text,), clauses, tuple(own),
                        no_reproducer=f"the reference refuses `{text}` (only its own rules "
                        f"allow it: {', '.join(own)}), so no fixture can ask it again")


def contradiction(ctx: Context, st: State, text: str, error: Refused) -> Disagreement:
    """The finding for `text`, an action the implementation listed as legal in `st` and
    then refused when asked to apply it (`error`): whatever the rules, an engine whose
    answers contradict each other is wrong in one of them, so it is a finding even where
    its own rules decide the step. Charged to the clause its refusal names (the engine's
    own account of what forbids the move; under rules of its own the reference's clause
    is only the stand-in's); where it names none, as a listed action the reference refuses
    is charged (the clause that refuses it) or a refused one it allows (the clause that
    allows it). The expectation is the reference's: the legal set it lists, or the state
    after the move where it allows it; marked with the rules of one's own those read."""
    legal, own = own_rules.on_state(ctx, st, legal_actions)
    act = as_action(ctx, st, text)
    allowed = act is not None and act in legal
    question: tuple[str, ...] = ()
    if allowed:
        assert act is not None
        nxt, read = own_rules.step(ctx, st, act, perform)
        want = codec.state_to_json(nxt)
        expect, _ = differences(want, codec.state_to_json(st), ctx.max_pip)
        expect, question = expect or {"result": want["result"]}, (text,)
        own = (*own, *(o for o in read if o not in own))
        reference = permitting(ctx, st, text, error.clause)
    else:
        expect = {"legal": sorted(action_text(codec.action_to_json(st, a)) for a in legal)}
        reference = forbidding(ctx, st, text)
    named = error.clause if error.clause in catalog().clauses else None
    clause = named or reference
    cited = f" [{error.clause}]" if error.clause else ""
    return Disagreement(
        f"lists {_kind(text)} it refuses" + (f" ({clause})" if clause else ""),
        (f"`{text}` is in its legal answer, and was refused: {error.reason}{cited}",),
        expect, question, tuple(known_clauses([c for c in (named, reference) if c])), own)


def _broken_where(st: State, text: str, label: str, problems: Sequence[Problem]) -> str:
    """Where a broken state is named: its writing (whatever the action), the round's end
    when the result may be what breaks, else the action."""
    return ("returned state" if all(p.kind == "state" for p in problems)
            else label if any(_about_result(p) for p in problems)
            else f"after {_label(st, text)}")


def _same_hands(want: JSON, got: JSON) -> bool:
    """Whether `got` leaves the hands `want` leaves (as a fixture compares them)."""
    try:
        return bool(state_view(want, ("hands",)) == state_view(got, ("hands",)))
    except (KeyError, TypeError, ValueError, AttributeError):
        return False


def _about_result(p: Problem) -> bool:
    """Whether a problem with a returned state may be the result's own (then the result is
    not judged apart): a schema break, the result or its scores, a finished round's turn."""
    return p.kind == "schema" or p.key.startswith(("state.result", "INV-ROUND-SCORE",
                                                   "INV-TURN", "state.scores", "state.outs"))


def _label(st: State, text: str) -> str:
    kind = _kind(text)
    return "engine draw" if st.phase == ENGINE and kind == "draw" else kind
