"""The engine under identification, every answer it could not give counted."""

from __future__ import annotations

from collections import Counter
from typing import Any

from mtrain.conformance.adapter import Implementation, RefusedSetup, Unsupported
from mtrain.conformance.answers import (
    Problem,
    action_key,
    actions_problems,
    table_trains,
    winners_problems,
)
from mtrain.conformance.process import (
    FAILURES,
    HarnessError,
    ImplementationError,
    ProtocolViolation,
)
from mtrain.spec.errors import InputError

MAX_FAILED = 5
"""Requests that may fail (a crash, a timeout, an answer that is not one) before identify
stops: each failure makes the fixture it was asked for say nothing, and one engine that
keeps failing would be played against every table and fixture for minutes to give an
answer nothing supports."""

FLAKES = 2
"""Failures while the deals are measured that the same request, asked again, does not
repeat, before identify stops. A deterministic engine fails a request every time it is
asked (a bug on that table, counted against MAX_FAILED); one whose failures come and go
(it exits every few requests, it stalls) leaves holes in the measurement, and later in
every fixture: one such failure is asked past, a second stops identify before the minutes
of the fixtures (an engine that exited every 7 requests cost 190 s, 72 CPU s, to reach
MAX_FAILED in the fixtures)."""


class EngineFailed(InputError):
    """The engine failed too often (or stopped starting): no identification is given."""


class Watched:
    """The implementation under identification. It counts what it could not see: answers
    `unsupported`, refused setups, and failures by kind (crash, timeout, error); past
    MAX_FAILED failures (or once it is not started again, as conform stops starting it)
    an EngineFailed, which no caller mistakes for one fixture's failure."""

    def __init__(self, impl: Implementation, limit: int = MAX_FAILED) -> None:
        self.impl = impl
        self.limit = limit
        self.failed: list[str] = []
        self.counts: Counter[str] = Counter()
        self.requests = 0
        self.measuring = False
        """Set while the deals are measured: a failed request is asked again (FLAKES)."""
        self.flakes: list[str] = []
        self.probing = False
        """Set while deals are asked that are meant to be refused (a pool of another set,
        or another engine procedure): their refusals are answers, not things unseen."""
        self.answered = 0
        """Requests answered with anything but `unsupported` (a state, a refusal, an error,
        a failure): none, and the engine plays nothing identify can ask (only_unsupported)."""
        self.breaches: dict[str, tuple[int, str]] = {}
        """Answers that broke the protocol's schema but still said what they meant (a legal
        or winners list naming one item twice): the rule broken -> (how many, the first)."""

    def _call(self, method: str, *args: Any) -> Any:
        try:
            return self._once(method, *args)
        except FAILURES as e:
            if not self.measuring:
                raise
            failure = f"{e.status}: {e.message}"
        answered: Exception | None = None
        try:  # failing again, it fails as the first time did: a bug on that table
            answer = self._once(method, *args, again=True)
        except (RefusedSetup, Unsupported, ImplementationError) as e:  # answers all the same
            answered = e
        self.flakes.append(failure)
        if len(self.flakes) >= FLAKES:
            raise EngineFailed(
                f"{len(self.flakes)} of the implementation's first {self.requests} requests "
                f"failed and were answered when asked again (the last: {failure}): it fails "
                "at random, not on what it is asked, so its deals cannot be measured and no "
                "fixture's answer trusted; identify stopped before playing the fixtures")
        if answered is not None:
            raise answered
        return answer

    def _once(self, method: str, *args: Any, again: bool = False) -> Any:
        """One request; `again`: one that failed, asked again (a failure counted once)."""
        self.requests += 1
        count = 0 if self.probing else 1
        answered = True  # anything but `unsupported` is an answer (only_unsupported)
        try:
            return getattr(self.impl, method)(*args)
        except RefusedSetup:
            self.counts["refused setup"] += count
            raise
        except Unsupported:  # NotApplicable, over the protocol, is one too
            answered = False
            self.counts["unsupported"] += count
            raise
        except HarnessError as e:
            if e.given_up:
                raise EngineFailed(f"the implementation stopped working: {e.message}"
                                   ) from None
            if again and isinstance(e, FAILURES):
                raise
            self.counts[e.status] += 1 if isinstance(e, FAILURES) else count
            if isinstance(e, FAILURES):
                self._failure(e)
            raise
        finally:
            self.answered += answered

    def _failure(self, e: HarnessError) -> None:
        """One failed request counted; past the limit, identify stops."""
        self.failed.append(f"{e.status}: {e.message}")
        if len(self.failed) >= self.limit:
            raise EngineFailed(
                f"{len(self.failed)} requests to the implementation failed (the "
                f"last: {self.failed[-1]}); a rule set found from what is left "
                "could not be trusted, so identify stopped") from None

    def only_unsupported(self) -> bool:
        """Every request asked so far (one at least) was answered `unsupported`."""
        return self.requests > 0 and self.answered == 0

    def info(self) -> Any:
        return self._call("info")

    def deal(self, ruleset: Any, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> Any:
        extra = (draw,) if draw is not None else ()  # SEAT-5: only where one is sent
        return self._call("deal", ruleset, players, round, order, *extra)

    def legal(self, ruleset: Any, state: Any) -> Any:
        actions = self._call("legal", ruleset, state)
        # each action once by what it means (answers.action_key: "5-12" is "12-5"), as
        # the schema check that found the breach counts them
        return self._schema_kept("legal", actions, actions_problems(actions, table_trains(state)),
                                 lambda: _each_once(actions))

    def apply(self, ruleset: Any, state: Any, action: Any) -> Any:
        return self._call("apply", ruleset, state, action)

    def score(self, ruleset: Any, state: Any, *winner: Any) -> Any:
        return self._call("score", ruleset, state, *winner)

    def winners(self, ruleset: Any, state: Any) -> Any:
        seats = self._call("winners", ruleset, state)
        hands = state.get("hands") if isinstance(state, dict) else None
        at_table = len(hands) if isinstance(hands, list) else None  # a seat past it: no reading
        return self._schema_kept("winners", seats, winners_problems(seats, at_table),
                                 lambda: list(dict.fromkeys(seats)))

    def _schema_kept(self, kind: str, answer: Any, problems: list[Problem],
                     each_once: Any) -> Any:
        """An answer that breaks the protocol's schema. A list naming an item twice still
        names the same actions (or seats), which is all a fixture compares: it is evidence,
        each item once, and the breach is counted for the report (conform charges it as an
        error). Any other breach (an item that is no action, a seat past the table) says
        nothing one can read: a failed request, unseen, as a malformed line is."""
        if not problems:
            return answer
        p = problems[0]
        rule = p.where.split(" ", 1)[-1].strip("[]")
        if p.message.endswith("is listed twice (each once)"):
            n, first = self.breaches.get(rule, (0, f"{kind}: {p.message}"))
            self.breaches[rule] = (n + 1, first)
            return each_once()
        failure = ProtocolViolation(f"a {kind} answer breaks the protocol's schema at "
                                    f"{p.where}: {p.message}")
        self.counts[failure.status] += 1
        self._failure(failure)
        raise failure

    def broke(self) -> list[str]:
        """The answers that broke the protocol yet were read, in words, one per rule."""
        return [f"{n} answer{'s' if n > 1 else ''} broke {rule} (the first: {first}); read "
                "with each item once, as the same actions; `mtrain conform` charges each "
                "as an error" for rule, (n, first) in sorted(self.breaches.items())]

    def summary(self) -> str:
        """What could not be seen, in words ("" when every request was answered)."""
        parts = [f"{n} {kind}" for kind, n in sorted(self.counts.items()) if n]
        return ", ".join(parts)


def _each_once(actions: list[Any]) -> list[Any]:
    """A legal list with each action once, as first written, by what it means."""
    kept: dict[tuple[Any, ...], Any] = {}
    for a in actions:
        kept.setdefault(action_key(a), a)
    return list(kept.values())
