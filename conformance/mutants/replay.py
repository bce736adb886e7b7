"""A run asked again: the requests the harness made of the reference on one run, put to a
mutant without the harness.

The harness (runner.run_one and its checks) decides each request from the answers before
it, so an implementation that answers every request of a run as the reference answered
it is asked exactly what the reference was asked, and the run ends as under the
reference: it passes (only runs that pass under the reference are played). Such a run
need not be played through the harness again. Nor need a request be asked whose answer
under the reference reached none of the functions the mutant swaps: its answer is the
reference's. A mutant whose answers are built by a hook of its own (a deal or the winners
post-processed) is always played: only the codec writes the others' answers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import orjson

from mtrain.conformance.adapter import fingerprint
from mtrain.conformance.mutants.implementation import Mutant, MutantImplementation

Outcome = tuple[Any, ...]
"""An answer as compared: ("answer", its type, its exact JSON text) or ("raised", the
exception's type, its arguments, its clause)."""
Asked = tuple[str, tuple[Any, ...], dict[str, Any], Outcome, frozenset[str]]
"""A request (the method, its arguments), what came of it, and the hooks of the mutants
(runs.touches) the reference's answer reached."""
_T = TypeVar("_T")


def answered(answer: Any) -> Outcome | None:
    """An answer as compared; None for one JSON cannot hold (never the same as another)."""
    text = fingerprint(answer)
    return None if text is None else ("answer", type(answer), text)


def raised(error: Exception) -> Outcome:
    return ("raised", type(error), error.args, getattr(error, "clause", None))


class Recorder:
    """The requests made of an implementation, each with its arguments as sent (a copy:
    the harness may build on what it sent) and its outcome."""

    def __init__(self) -> None:
        self.asked: list[Asked] | None = []
        self._copies: dict[bytes, Any] = {}

    def clear(self) -> None:
        self.asked = []
        self._copies.clear()

    def _copy(self, value: Any) -> Any:
        if value is None or type(value) in (int, str, bool):
            return value
        text = orjson.dumps(value)
        found = self._copies.get(text)
        if found is None:  # equal arguments are one object: the rule set, a state asked again
            found = self._copies[text] = orjson.loads(text)
        return found

    def ask(self, method: str, reached: set[str], call: Callable[..., _T], *args: Any,
            **kwargs: Any) -> _T:
        """`call(*args, **kwargs)`, noted as a request `method`, with the hooks it adds to
        `reached` (empty before it)."""
        try:
            sent = (tuple(self._copy(a) for a in args),
                    {k: self._copy(v) for k, v in kwargs.items()})
        except (TypeError, orjson.JSONEncodeError):
            sent = None  # arguments JSON cannot hold: the run is not asked again
        try:
            answer = call(*args, **kwargs)
        except Exception as e:
            self._note(method, sent, raised(e), reached)
            raise
        self._note(method, sent, answered(answer), reached)
        return answer

    def _note(self, method: str, sent: tuple[tuple[Any, ...], dict[str, Any]] | None,
              outcome: Outcome | None, reached: set[str]) -> None:
        if self.asked is None:
            return
        if sent is None or outcome is None:
            self.asked = None
            return
        self.asked.append((method, sent[0], sent[1], outcome, frozenset(reached)))


def asked_again(m: Mutant) -> bool:
    """Whether `m` may be asked a run's requests instead of playing it: the codec writes
    its every answer (no hook of its own builds a deal or the winners)."""
    return m.post_deal is None and m.winners is None


def answers_alike(impl: MutantImplementation, hooks: frozenset[str] | None,
                  asked: Sequence[Asked]) -> bool:
    """Whether `impl`, acting through `hooks` (None: anywhere), answers every request of a
    run as the reference did (then the run passes under it: it is the reference's run)."""
    for method, args, kwargs, outcome, reached in asked:
        if hooks is not None and hooks.isdisjoint(reached):
            continue  # up to a call of a swapped function it runs as the reference: none came
        try:
            answer = getattr(impl, method)(*args, **kwargs)
        except Exception as e:  # a crash, a refusal: compared as the reference's were
            if raised(e) != outcome:
                return False
            continue
        if answered(answer) != outcome:
            return False
    return True
