"""Asking the implementation: the Session (one implementation, asked game after game),
a step's questions (a program behind the protocol gets the step's state encoded once),
and its answers counted (a failure is an answer, an `unsupported` one is counted by its
reason)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from mtrain.conformance.adapter import JSON, Implementation, Refused
from mtrain.conformance.fuzz.rejudge import Judge
from mtrain.conformance.fuzz.results import GameResult
from mtrain.conformance.fuzz.rulesets import Context
from mtrain.conformance.process import AS_EXPECTED, NotApplicable, ProcessImplementation
from mtrain.conformance.protocol import encode_value
from mtrain.conformance.runner import deal_with_draw
from mtrain.reference.engine import Action, State
from mtrain.spec import tiles as T

T_ = TypeVar("T_")

REASON_LENGTH = 120
"""Of an `unsupported` reason, what is counted (the rest may name a tile or a seat)."""
MAX_FAILED = 20
"""Failed requests (process.FAILURES) after which a run stops playing: an engine that
fails at every restart (a line that never ends, a crash at its second request) would
otherwise be restarted for every question of every game, for hours."""


class Asker:
    """The questions of one step, put to the implementation. A program behind the protocol
    gets the step's state encoded once for all its questions, and the rule set encoded
    once for the run."""

    def __init__(self, impl: Implementation) -> None:
        self.impl = impl
        self.wire = impl if isinstance(impl, ProcessImplementation) else None
        self.state: JSON = {}
        self._encoded: bytes | None = None
        self._next: tuple[JSON, bytes] | None = None

    def begin(self, state: JSON) -> None:
        known = self._next
        self.state, self._encoded = state, known[1] if known and known[0] is state else None
        self._next = None

    def encoded(self, state: JSON) -> bytes:
        """`state` as JSON text, kept for the step that asks about it next."""
        self._next = (state, codec_bytes(state))
        return self._next[1]

    def _state(self) -> bytes:
        if self._encoded is None:
            self._encoded = codec_bytes(self.state)
        return self._encoded

    def ahead(self, ctx: Context, actions: Sequence[JSON]) -> None:
        """Write the step's questions at once (the legal actions, then `actions` applied),
        to a program behind the protocol: one round trip for the step, not one each."""
        if self.wire is not None:
            common = {"ruleset": ctx.rj_bytes, "state": self._state()}
            self.wire.send_ahead([("legal", common)] + [
                ("apply", {**common, "action": _action_bytes(a)}) for a in actions])

    def deal(self, ctx: Context, players: int, round_no: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        return deal_with_draw(self.impl, ctx.rj, players, round_no, order, draw)

    def legal(self, ctx: Context) -> Any:
        if self.wire is None:
            return self.impl.legal(ctx.rj, self.state)
        return self.wire.call_encoded("legal", ruleset=ctx.rj_bytes, state=self._state())[
            "actions"]

    def apply(self, ctx: Context, action: JSON, want: JSON | None = None) -> Any:
        """The state after `action`; `want`, the reference's state, returned as it is when
        the answer is that state written exactly as the harness writes it."""
        if self.wire is None:
            return self.impl.apply(ctx.rj, self.state, action)
        expect = None if want is None else b'"state":' + self.encoded(want)
        answer = self.wire.call_encoded("apply", expect, ruleset=ctx.rj_bytes,
                                        state=self._state(), action=_action_bytes(action))
        if answer is AS_EXPECTED:
            return want
        if "refused" in answer:
            refused = answer["refused"]
            raise Refused(refused["reason"], refused.get("clause"))
        return answer["state"]

    def winners(self, ctx: Context, state: JSON) -> Any:
        return self.impl.winners(ctx.rj, state)

class Session:
    """One implementation, asked game after game (in one process of the run)."""

    def __init__(self, impl: Implementation, follow: str = "ref",
                 deadline: float | None = None, max_failed: int = MAX_FAILED) -> None:
        self.impl = impl
        self.asker = Asker(impl)
        self.judge = Judge(impl)
        self.follow = follow
        self.deadline = deadline
        self.max_failed = max_failed
        # rule set -> (why, games in which every question was answered `unsupported`)
        self.unsupported: dict[str, tuple[str, int]] = {}
        self.under_way: GameResult | None = None
        """The game being played, so far: what an interrupt found it had done."""
        self.ended: tuple[str, dict[str, Any], str] | None = None
        """The rule set, the table before the step that ended the last round played (in
        this game or one before) and that step: what a deal is asked after (Probe.before;
        an engine keeping a table between requests deals from it)."""

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline

    def broken(self) -> bool:
        """The implementation has failed MAX_FAILED requests (crashes, timeouts, broken
        answers: process.FAILURES, which it logs): play stops, since every failure costs
        a restart and more of them would only repeat the findings they make."""
        return len(getattr(self.impl, "failures", ())) >= self.max_failed


def codec_bytes(value: Any) -> bytes:
    return encode_value(value)


_ACTIONS: dict[tuple[Any, ...], bytes] = {}


def _action_bytes(action: JSON) -> bytes:
    """An action as JSON: there are few, each encoded once."""
    key = (action["type"], action.get("tile"), action.get("train"))
    found = _ACTIONS.get(key)
    if found is None:
        found = _ACTIONS[key] = codec_bytes(action)
    return found


def action_keys(st: State, legal: Sequence[Action]) -> set[tuple[Any, ...]]:
    n, names = st.players, T.NAMES
    return {("play", names[a.tile], a.train if a.train < n else "mexican")
            if a.kind == "play" else (a.kind,) for a in legal}


def same_actions(want: set[tuple[Any, ...]], got: Any) -> bool:
    """Whether `got` lists exactly the actions `want` holds, in their canonical form."""
    if type(got) is not list or len(got) != len(want):
        return False
    keys: set[tuple[Any, ...]] = set()
    for a in got:
        if type(a) is not dict:
            return False
        if len(a) == 3 and a.get("type") == "play":
            train = a.get("train")
            if type(a.get("tile")) is not str or not (type(train) is int or train == "mexican"):
                return False
            keys.add(("play", a["tile"], train))
        elif len(a) == 1 and type(a.get("type")) is str:
            keys.add((a["type"],))
        else:
            return False
    return keys == want


UNSUPPORTED: Any = object()
"""What a question answered `unsupported` gives: that one question is not applicable."""


def asked(res: GameResult, call: Callable[[], T_]) -> tuple[Any, BaseException | None]:
    """(the answer, None), (UNSUPPORTED, None) for an `unsupported` answer (counted by its
    reason), or (None, the failure)."""
    try:
        answer = call()
    except NotApplicable as e:
        reason = e.message[:REASON_LENGTH]
        res.unsupported[reason] = res.unsupported.get(reason, 0) + 1
        return UNSUPPORTED, None
    except Exception as e:
        res.answered += 1
        return None, e
    res.answered += 1
    return answer, None


def bound(call: Callable[..., T_], *args: Any) -> Callable[[], T_]:
    return lambda: call(*args)
