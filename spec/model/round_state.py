"""The state of the round model (spec/model/transitions.py): a symbolic state `Sym`, whose
fields are z3 terms for the proofs or an engine state's plain values for the comparison
with the engine, the phases and round endings as numbers, and the few operations on whole
states (select, equal, a memo per state)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import z3

from mtrain.spec.model.logic import AsBuilt

If = AsBuilt.If


def K(s: Any, v: int | bool) -> Any:
    """A constant an effect writes: a z3 value in a state of z3 terms (each its own object,
    so that `select` shares a field only where both sides are the same term), else plain."""
    if not isinstance(s.seat, z3.ExprRef):
        return v
    return z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v)


ENGINE, START, CHAIN, FOLLOW, OVER = range(5)
PHASE_NAMES: Final = ("engine", "start", "chain", "follow", "over")
RUNNING, DOMINO, BLOCKED = range(3)

Expr = Any  # a z3 expression


class ProofError(RuntimeError):
    """z3 answered unknown (resource limit) or something unexpected."""


# -- the state --------------------------------------------------------------------------


@dataclass
class Sym:
    """A symbolic state: every field a z3 expression (variables, or terms over them)."""

    loc: list[Expr]
    end: list[Expr]
    started: list[Expr]
    odbl: list[Expr]
    tdbl: list[Expr]
    age: list[Expr]
    clock: Expr
    marker: list[Expr]
    first: list[Expr]
    seat: Expr
    starter: Expr
    phase: Expr
    drawn: Expr
    passes: Expr
    res: Expr
    tag: str | None = None
    """The name of a state of variables; None for a state built of terms."""
    memo: dict[tuple[Any, ...], Expr] = field(default_factory=dict, repr=False, compare=False)

    def fields(self) -> list[tuple[str, Expr]]:
        out: list[tuple[str, Expr]] = []
        for name in ("loc", "end", "started", "odbl", "tdbl", "age", "marker", "first"):
            out += [(f"{name}[{i}]", e) for i, e in enumerate(getattr(self, name))]
        out += [(n, getattr(self, n)) for n in
                ("clock", "seat", "starter", "phase", "drawn", "passes", "res")]
        return out

    def replace(self, **kw: Any) -> Sym:
        data = {n: getattr(self, n) for n in FIELDS}
        data.update(kw)
        return Sym(**data)


FIELDS: Final = ("loc", "end", "started", "odbl", "tdbl", "age", "clock", "marker", "first",
                 "seat", "starter", "phase", "drawn", "passes", "res")


def cached(method: Callable[..., Expr]) -> Callable[..., Expr]:
    """Memoise a Model method (or a function of a model) of (state, *args) on the state."""
    name = method.__name__

    def wrapper(self: Any, s: Sym, *args: Any) -> Expr:
        key = (name, *args)
        if key not in s.memo:
            s.memo[key] = method(self, s, *args)
        return s.memo[key]

    wrapper.__name__ = name
    wrapper.__doc__ = method.__doc__
    return wrapper


def select(cond: Expr, a: Sym, b: Sym) -> Sym:
    """Field by field: `a` where `cond` holds, else `b`."""
    def pick(x: Any, y: Any) -> Any:
        if isinstance(x, list):
            return [pick(p, q) for p, q in zip(x, y, strict=True)]
        return x if x is y else If(cond, x, y)
    return Sym(**{n: pick(getattr(a, n), getattr(b, n)) for n in FIELDS})


def equal(a: Sym, b: Sym) -> Expr:
    eqs = [x == y for (_, x), (_, y) in zip(a.fields(), b.fields(), strict=True)]
    # z3's n-ary And without z3.And's coercion of each equality (the same term: the
    # bounded model checking's frames spent a third of their building there)
    return AsBuilt.And(*eqs) if eqs and all(isinstance(e, z3.BoolRef) for e in eqs) \
        else z3.And(eqs)


def seats_to_move(s: Sym, players: int) -> range:
    """The seats s may have to move: all, or the one its seat term is a constant for (a
    test built for each seat, `seat == q and ...`, needs only that one)."""
    seat = s.seat
    if isinstance(seat, z3.ExprRef):
        seat = z3.simplify(seat)
        if not z3.is_int_value(seat):
            return range(players)
        seat = seat.as_long()
    return range(seat, seat + 1) if 0 <= seat < players else range(0)


START_READS: Final = frozenset(
    {"loc", "end", "started", "odbl", "tdbl", "age", "marker", "first", "starter"})
"""The fields a seat's start-of-turn test reads (`Model.can_play_start` asserts it)."""
