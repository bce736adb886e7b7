"""The model's one logic library: each connective takes plain values or z3 terms.

Plain values (bools and ints) in give plain values out, so the model evaluates a concrete
table fast; any z3 term among the arguments gives a z3 term, so the same formula asks z3
about every situation at once.

On z3 terms the caller chooses how the terms are built, once per module:

* folded (`And`, `Or`, `If`, `Count`, ...): plain constants fold away (`And(True, x)` is
  `x`, `Or(x, True)` is True), so a rule the rule set decides costs nothing. Legality,
  the decisions and scoring use these: their terms are asked of z3 a few at a time;
* as built (`AsBuilt`): z3's own n-ary constructors over every argument, plain constants
  included. The round model of spec/model/transitions.py builds the proofs' terms with
  these: the proofs' search (the bounded model checking's above all) depends on the
  terms' shape, so they stay as written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import z3

Bool = Any
"""A Python bool or a z3 BoolRef."""
Int = Any
"""A Python int or a z3 ArithRef."""


def is_term(x: Any) -> bool:
    return isinstance(x, z3.ExprRef)


# -- folded ------------------------------------------------------------------------------


def And(*xs: Bool) -> Bool:
    out = []
    for x in xs:
        if x is True:
            continue
        if x is False:
            return False
        out.append(x)
    if not out:
        return True
    if len(out) == 1:
        return out[0]
    if all(isinstance(x, z3.BoolRef) for x in out):
        return _nary(z3.Z3_mk_and, out)
    if not any(is_term(x) for x in out):
        return all(out)
    return z3.And(*out)


def Or(*xs: Bool) -> Bool:
    out = []
    for x in xs:
        if x is False:
            continue
        if x is True:
            return True
        out.append(x)
    if not out:
        return False
    if len(out) == 1:
        return out[0]
    if all(isinstance(x, z3.BoolRef) for x in out):
        return _nary(z3.Z3_mk_or, out)
    if not any(is_term(x) for x in out):
        return any(out)
    return z3.Or(*out)


def Not(x: Bool) -> Bool:
    return z3.Not(x) if is_term(x) else not x


def Implies(a: Bool, b: Bool) -> Bool:
    return Or(Not(a), b)


def Xor(a: Bool, b: Bool) -> Bool:
    if is_term(a) or is_term(b):
        ctx = (a if is_term(a) else b).ctx
        return z3.Xor(a if is_term(a) else z3.BoolVal(a, ctx),
                      b if is_term(b) else z3.BoolVal(b, ctx))
    return bool(a) != bool(b)


def If(c: Bool, a: Any, b: Any) -> Any:
    if c is True:
        return a
    if c is False:
        return b
    if not is_term(c):
        return a if c else b
    return z3.If(c, a, b)


def Count(xs: Iterable[Bool]) -> Int:
    """How many of xs hold."""
    items = list(xs)
    if not any(is_term(x) for x in items):
        return sum(1 for x in items if x)
    return z3.Sum([If(x, 1, 0) for x in items]) if items else 0


def at(values: Sequence[Any], index: Int) -> Any:
    """values[index] for an index that may be a term (the last value when out of range)."""
    out = values[-1]
    for i in range(len(values) - 2, -1, -1):
        out = If(index == i, values[i], out)
    return out


class Folded:
    """The folded connectives as one namespace, for code that serves both kinds of term
    (spec/model/decisions.py's END-2 test): the caller passes `Folded` or `AsBuilt`."""

    And = staticmethod(And)
    Or = staticmethod(Or)
    Not = staticmethod(Not)
    If = staticmethod(If)
    Count = staticmethod(Count)
    at = staticmethod(at)


# -- as built ----------------------------------------------------------------------------


def _nary(mk: Callable[..., Any], xs: Sequence[Any]) -> Any:
    """z3's n-ary And or Or of z3 Booleans, without z3.And's coercion of each argument
    (the same term; building the END-1 test of every play and the per-action queries of
    spec/proofs/assumptions.py on double-18 spent most of their time there, and the
    folded connectives a fifth of the distinguishing situations' search)."""
    ctx = xs[0].ctx
    args = (z3.Ast * len(xs))(*[x.as_ast() for x in xs])
    return z3.BoolRef(mk(ctx.ref(), len(xs), args), ctx)


class AsBuilt(Folded):
    """The connectives that keep a z3 term's shape: nothing folds once a term is among the
    arguments (plain values still give plain values)."""

    @staticmethod
    def And(*xs: Bool) -> Bool:
        if xs and all(isinstance(x, z3.BoolRef) for x in xs):
            return _nary(z3.Z3_mk_and, xs)
        return z3.And(*xs) if any(is_term(x) for x in xs) else all(xs)

    @staticmethod
    def Or(*xs: Bool) -> Bool:
        if xs and all(isinstance(x, z3.BoolRef) for x in xs):
            return _nary(z3.Z3_mk_or, xs)
        return z3.Or(*xs) if any(is_term(x) for x in xs) else any(xs)

    @staticmethod
    def If(c: Bool, a: Any, b: Any) -> Any:
        if is_term(c):
            return z3.If(c, a, b)
        return a if c else b

    @staticmethod
    def Count(bools: Iterable[Bool]) -> Int:
        bools = list(bools)
        if any(is_term(b) for b in bools):
            return z3.Sum([z3.If(b, 1, 0) for b in bools])
        return sum(1 for b in bools if b)

    @staticmethod
    def at(values: Sequence[Any], index: Int) -> Any:
        """values[index] for an index that may be a term (the last value when out of range)."""
        out = values[-1]
        for i in range(len(values) - 2, -1, -1):
            out = AsBuilt.If(index == i, values[i], out)
        return out


# -- z3 values ---------------------------------------------------------------------------


def as_term(x: Bool, ctx: Any) -> Any:
    """A z3 Bool, from a z3 term or a plain bool."""
    return x if is_term(x) else z3.BoolVal(bool(x), ctx)


def model_value(model: Any, x: Any) -> Any:
    """A term's value in a z3 model as a plain bool or int (plain values pass through)."""
    if isinstance(x, bool | int):
        return x
    r = model.eval(x, model_completion=True)
    if z3.is_bool(r):
        return bool(z3.is_true(r))
    return r.as_long()
