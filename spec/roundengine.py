"""The round model (spec/roundmodel.py) against the engine, on concrete engine states.

* ``compare_states``: the invariant holds and the model's guards enable exactly the
  engine's legal actions;
* ``compare_effects``: for every legal action, the engine's successor equals the model's,
  field by field (see its docstring).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3

from . import tiles as T
from .roundmodel import (
    BLOCKED,
    CHAIN,
    DOMINO,
    ENGINE,
    FOLLOW,
    OVER,
    RUNNING,
    START,
    Expr,
    Model,
    ProofError,
    Sym,
)


def concrete(model: Model, s: Sym, state: Any) -> list[tuple[Expr, Expr]]:
    """The substitution that gives the variables of `s` the values of an engine state."""
    from mtrain.reference import engine as E

    P = model.P
    pairs: list[tuple[Expr, Expr]] = []
    where = {}
    for q, h in enumerate(state.hands):
        for t in T.tiles_of(h):
            where[t] = q
    for t in state.boneyard:
        where[t] = P
    for t in model.tiles:
        pairs.append((s.loc[t], z3.IntVal(where.get(t, P + 1))))
    for k in model.trains:
        pairs += [(s.end[k], z3.IntVal(state.ends[k])),
                  (s.started[k], z3.BoolVal(bool(state.trains[k]))),
                  (s.odbl[k], z3.BoolVal(k in state.open_doubles)),
                  (s.tdbl[k], z3.BoolVal(k in state.turn_doubles)),
                  (s.age[k], z3.IntVal(state.open_doubles.index(k)
                                       if k in state.open_doubles else 0))]
    pairs.append((s.clock, z3.IntVal(len(state.open_doubles))))
    for q in range(P):
        pairs += [(s.marker[q], z3.BoolVal(state.markers[q])),
                  (s.first[q], z3.BoolVal(bool(state.first_pending >> q & 1)))]
    phase = {E.ENGINE: ENGINE, E.START: START, E.CHAIN: CHAIN, E.FOLLOW: FOLLOW,
             E.OVER: OVER}[state.phase]
    res = RUNNING if state.result is None else (
        DOMINO if state.result.end == E.DOMINO else BLOCKED)
    pairs += [(s.seat, z3.IntVal(state.seat)), (s.starter, z3.IntVal(state.starter)),
              (s.phase, z3.IntVal(phase)), (s.drawn, z3.IntVal(state.drawn)),
              (s.passes, z3.IntVal(state.passes)), (s.res, z3.IntVal(res))]
    return pairs


def assignment(pairs: list[tuple[Expr, Expr]]) -> Any:
    """A z3 model giving the variables these values (to evaluate expressions in)."""
    solver = z3.Solver()
    solver.add(*[a == b for a, b in pairs])
    if solver.check() != z3.sat:
        raise ProofError("a concrete state did not give a model")
    return solver.model()


def evaluate(expr: Expr, values: Any) -> bool:
    return bool(z3.is_true(values.eval(expr, model_completion=True)))


def compare_states(model: Model, states: Sequence[Any]) -> list[str]:
    """For engine states: the abstract invariant holds, and the actions the model enables
    are exactly the engine's legal actions (every draw of the model is the engine's draw)."""
    from mtrain.reference import engine as E

    s = model.state("c")
    inv = model.invariant(s)
    guards = model.guards(s)
    problems = []
    for state in states:
        pairs = assignment(concrete(model, s, state))
        if not evaluate(inv, pairs):
            problems.append(f"an engine state breaks the abstract invariant: {state!r}")
        mine = {("draw" if label.startswith("draw ") else label)
                for _, label, g in guards if evaluate(g, pairs)}
        theirs = set()
        for a in E.legal_actions(state):
            if a.kind == "play":
                theirs.add(f"play {T.name(a.tile)} on "
                           f"{'mexican' if a.train == model.mex else a.train}")
            else:
                theirs.add(a.kind)
        if mine != theirs:
            problems.append(f"{state!r}: model {sorted(mine - theirs)} only, engine "
                            f"{sorted(theirs - mine)} only")
    return problems
