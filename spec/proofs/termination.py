"""Proofs on the round model (spec/model/transitions.py): termination, no deadlock, witness traces.

Properties, each a query in a fresh solver (random seed 0, deterministic ``rlimit``):

* **init**: every deal satisfies the invariant ``Inv`` (one-state);
* **inductive**: ``Inv(s) and T(s, s') => Inv(s')`` (two-state, one query per action kind);
* **ranking**: ``Inv(s) and T(s, s') => rank(s') <lex rank(s)`` with
  ``rank = (2*boneyard + tiles in hands, first turns pending + unmarked trains,
  mid-turn weight + distance to the next productive seat)``; a seat is *productive* when
  its next turn must change the first two components (it can play, or its first turn or
  marker is still to come). Lexicographic decrease on bounded components proves that
  every round ends; it also bounds the longest round (`rank_bound`);
* **deadlock**: ``Inv(s) and s not over and no action enabled`` is unsat (one-state);
* **uncoverable**: under ``stays-open``, a binding duty on a double whose number is all on
  the table is absorbing: no tile is ever played again (two-state), so such a round can
  only end blocked; under ``released`` the double stops binding;
* **BMC**: the shortest trace from a deal to the uncoverable double (``bmc``), unrolled
  step by step (a few steps: deep unrolling does not scale).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import z3

from mtrain.spec import tiles as T
from mtrain.spec.model.round_state import BLOCKED, DOMINO, FOLLOW, OVER, Expr, Sym, cached
from mtrain.spec.model.transitions import Model, count

SEED: Final = 0
RLIMIT: Final = 60_000_000
"""Resource limit of one query (z3's deterministic work counter, not seconds)."""


# -- running queries ----------------------------------------------------------------------


@dataclass
class QueryResult:
    name: str
    expect: str
    answer: str
    seconds: float
    detail: Any = None
    file: str | None = None

    @property
    def ok(self) -> bool:
        return self.answer == self.expect

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "expect": self.expect, "answer": self.answer,
                               "ok": self.ok, "seconds": round(self.seconds, 4)}
        if self.detail is not None:
            out["detail"] = self.detail
        if self.file:
            out["smt2"] = self.file
        return out


class Prover:
    """Runs each property in a fresh solver (seed 0, rlimit) and optionally dumps SMT-LIB."""

    def __init__(self, dump: str | Path | None = None, rlimit: int = RLIMIT) -> None:
        self.dump = Path(dump) if dump is not None else None
        self.rlimit = rlimit
        if self.dump is not None:
            self.dump.mkdir(parents=True, exist_ok=True)

    def solver(self, ctx: Any = None) -> Any:
        s = z3.Solver(ctx=ctx)
        s.set("random_seed", SEED)
        s.set("rlimit", self.rlimit)
        return s

    def run(self, name: str, assertions: Sequence[Expr], expect: str
            ) -> tuple[QueryResult, Any]:
        """One query, in a fresh solver in a fresh z3 context: the assertions are copied
        into it, so neither the answer nor the model depends on earlier queries."""
        t0 = time.perf_counter()
        ctx = z3.Context()
        s = self.solver(ctx)
        # (a model term can be a plain bool where the rule set decides it)
        s.add(*[z3.BoolVal(a, ctx) if isinstance(a, bool) else a.translate(ctx)
                for a in assertions])
        path = None
        if self.dump is not None:
            safe = "".join(c if c.isalnum() or c in "-_.+" else "_" for c in name)
            path = self.dump / f"{safe}.smt2"
            path.write_text(f"; {name}: expected {expect}\n"
                            f"(set-option :random-seed {SEED})\n"
                            f"(set-option :rlimit {self.rlimit})\n"
                            f"{s.sexpr()}(check-sat)\n", encoding="utf-8")
        r = s.check()
        answer = "sat" if r == z3.sat else "unsat" if r == z3.unsat else "unknown"
        detail = None if answer != "unknown" else s.reason_unknown()
        model = s.model().translate(z3.main_ctx()) if r == z3.sat else None
        return (QueryResult(name, expect, answer, time.perf_counter() - t0, detail,
                            str(path) if path else None), model)


KINDS: Final = ("play", "draw", "pass", "end-chain")


# -- the ranking function, on the round model's states ------------------------------------


@cached
def r1(model: Model, s: Sym) -> Expr:
    return 2 * model.boneyard(s) + model.in_hands(s)


@cached
def r2(model: Model, s: Sym) -> Expr:
    return count(s.first) + count([z3.Not(m) for m in s.marker])


@cached
def r3(model: Model, s: Sym) -> Expr:
    P = model.P
    if model.is_("blocked_round", "full-round-of-passes"):
        base: Expr = P - s.passes
    else:
        base = z3.IntVal(P)
        prod = [model.productive(s, q) for q in range(P)]
        # distance from the seat to move to the nearest productive seat (cyclic)
        for seat in range(P):
            dist: Expr = z3.IntVal(P)
            for d in range(P - 1, -1, -1):
                dist = z3.If(prod[(seat + d) % P], d, dist)
            base = z3.If(s.seat == seat, dist, base)
    mid = z3.Or(s.drawn >= 0, s.phase == FOLLOW)
    return z3.If(s.phase == OVER, 0, z3.If(mid, P + 1, 0) + base)


def rank(model: Model, s: Sym) -> tuple[Expr, Expr, Expr]:
    return r1(model, s), r2(model, s), r3(model, s)


def rank_bound(model: Model) -> int:
    """The most actions a round can take, from the ranking function.

    With r2 <= 2P (first turns and unmarked trains) and r3 <= 2P+1, the number
    ``(r1*M2 + r2)*M3 + r3`` with M2 = 2P+1 and M3 = 2P+2 drops by at least 1 whenever
    (r1, r2, r3) drops lexicographically, and is never negative; its largest value at a
    deal bounds the length of every round.
    """
    assert model.hand is not None
    P = model.P
    pool = len(model.tiles) - (1 if model.is_("engine_procedure", "set-aside") else 0)
    first = 2 * (pool - P * model.hand) + P * model.hand
    m2, m3 = 2 * P + 1, 2 * P + 2
    return (first * m2 + 2 * P) * m3 + 2 * P + 1


def lex_decrease(model: Model, s: Sym, s2: Sym) -> Expr:
    a1, a2, a3 = rank(model, s)
    b1, b2, b3 = rank(model, s2)
    return z3.And(b3 >= 0, z3.Or(b1 < a1, z3.And(b1 == a1, z3.Or(
        b2 < a2, z3.And(b2 == a2, b3 < a3)))))


@dataclass
class ModelReport:
    """Every property of one rule set on one small game."""

    label: str
    players: int
    max_pip: int
    hand: int | None
    queries: list[QueryResult] = field(default_factory=list)
    rank_bound: int | None = None
    absorbing: bool | None = None
    """Under stays-open: proved that a binding uncoverable double stops all play."""

    @property
    def ok(self) -> bool:
        return all(q.ok for q in self.queries)

    def to_json(self) -> dict[str, Any]:
        return {"model": self.label, "players": self.players, "max_pip": self.max_pip,
                "hand": self.hand, "ok": self.ok, "rank_bound": self.rank_bound,
                "uncoverable_absorbing": self.absorbing,
                "queries": [q.to_json() for q in self.queries]}


def prove(model: Model, label: str, prover: Prover) -> ModelReport:
    """init, inductive, ranking, deadlock and the uncoverable double, for one model."""
    rep = ModelReport(label, model.P, model.N, model.hand)
    s, s2 = model.state("s"), model.state("t")
    inv, inv2 = model.invariant(s), model.invariant(s2)

    def ask(name: str, assertions: Sequence[Expr], expect: str = "unsat",
            explain: Callable[[Any], Any] | None = None) -> QueryResult:
        q, m = prover.run(f"{label}:{name}", assertions, expect)
        if m is not None and not q.ok and explain is not None:
            q.detail = explain(m)
        rep.queries.append(q)
        return q

    def cex(m: Any) -> Any:
        return {"state": model.describe(m, s), "next": model.describe(m, s2),
                "action": model.step_label(m, s, s2)}

    if model.hand is not None:
        ask("init", [model.init(s), z3.Not(inv)],
            explain=lambda m: {"state": model.describe(m, s)})
        rep.rank_bound = rank_bound(model)
    chains = model.is_("first_turn", "chain", "chain-anywhere", "chain-no-double-end")
    kinds = [k for k in KINDS if k != "end-chain" or chains]
    first = r1(model, s)
    for kind in kinds:
        step = model.transition(s, s2, [kind])
        ask(f"inductive:{kind}", [inv, step, z3.Not(inv2)], explain=cex)
        if kind in ("play", "draw"):
            # a play or a draw lowers the first component, whatever the state
            # (r1 reads only where tiles are, so s' is the effect itself, not a copy)
            worse = [z3.And(g, r1(model, nxt) >= first)
                     for k, _, g, nxt in model.actions(s, s2) if k == kind]
            ask(f"ranking:{kind}", [model.domains(s), z3.Or(worse)],
                explain=lambda m: {"state": model.describe(m, s)})
        else:
            ask(f"ranking:{kind}", [inv, step, z3.Not(lex_decrease(model, s, s2))],
                explain=cex)
    ask("deadlock", [inv, s.phase != OVER, z3.Not(model.enabled(s))],
        explain=lambda m: {"state": model.describe(m, s)})
    released = model.is_("uncoverable_double", "released")
    if model.is_("doubles", "ordinary"):
        pass  # DBL-11: no double is ever open, so none is left uncoverable
    elif not released and model.is_("double_order", "oldest-first"):
        escape = z3.And(s2.phase != OVER, z3.Not(model.stuck(s2)))
        if model.is_("uncoverable_double", "released-when-boneyard-empty"):
            escape = z3.And(escape, model.boneyard(s2) > 0)  # DBL-12: binding until then
        q = ask("uncoverable-absorbing", [
            inv, model.stuck(s), model.transition(s, s2),
            z3.Or(model.table_count(s2) > model.table_count(s), s2.res == DOMINO, escape)],
            explain=cex)
        rep.absorbing = q.ok
    elif released:
        # DBL-9: the released double closes nothing: a play elsewhere is possible
        ask("uncoverable-released", [
            inv, model.released(s), model.transition(s, s2, ["play"])], expect="sat")
    return rep


# -- bounded model checking -------------------------------------------------------------


@dataclass
class Trace:
    """A witness from bounded model checking, concretised as a deal and actions."""

    target: str
    depth: int
    hands: list[list[str]]
    boneyard: list[str]
    actions: list[str]
    final: dict[str, Any]
    order: list[int]

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "depth": self.depth, "hands": self.hands,
                "boneyard": self.boneyard, "actions": self.actions, "final": self.final}


def bmc(model: Model, target: str, prover: Prover, depths: Iterable[int] = range(1, 13),
        label: str = "") -> tuple[list[QueryResult], Trace | None]:
    """A trace from a deal reaching `target` in one of `depths` steps (asked in order: with
    1, 2, 3, ... the first found is a shortest one, and each unsat answer is a proof).

    Targets: ``blocked-uncoverable`` (the round ends blocked with an open double whose
    number is all on the table) and ``released-play`` (a tile is played on another train
    while an earlier turn's double that nobody can cover is open).
    """
    results: list[QueryResult] = []
    states = [model.state("s0")]
    cons = [model.init(states[0])]
    for depth in depths:
        while len(states) <= depth:
            prev, cur = states[-1], model.state(f"s{len(states)}")
            states.append(cur)
            cons.append(model.transition(prev, cur))
        prev, cur = states[depth - 1], states[depth]
        if target == "blocked-uncoverable":
            goal = z3.And(cur.res == BLOCKED, z3.Or(
                [z3.And(cur.odbl[k], z3.Not(model.live(cur, k))) for k in model.trains]))
        elif target == "released-play":
            goal = z3.And(model.released(prev),
                          model.table_count(cur) > model.table_count(prev))
        else:
            raise ValueError(f"unknown BMC target {target!r}")
        q, m = prover.run(f"{label}:bmc:{target}:{depth}", [*cons, goal], "sat")
        results.append(q)
        if q.answer == "unknown":
            break
        if m is None:
            continue
        return results, _concretise(model, m, states[:depth + 1], target, depth)
    return results, None


def _concretise(model: Model, m: Any, states: list[Sym], target: str, depth: int) -> Trace:
    P = model.P
    loc0 = {t: model.value(m, z3.Int(f"deal.{T.name(t)}")) for t in model.tiles}
    dealt = [t for t in model.tiles  # the engine is dealt unless set aside (ENG-2)
             if t != model.E or not model.is_("engine_procedure", "set-aside")]
    hands = [[T.name(t) for t in dealt if loc0[t] == q] for q in range(P)]
    actions, drawn = [], []
    for a, b in itertools.pairwise(states):
        label = model.step_label(m, a, b)
        if label.startswith("draw "):
            drawn.append(T.parse(label[5:]))
            label = "draw"
        actions.append(label)
    rest = [t for t in model.tiles if loc0[t] == P and t not in drawn]
    boneyard = drawn + rest
    order = [t for q in range(P) for t in dealt if loc0[t] == q] + boneyard
    return Trace(target, depth, hands, [T.name(t) for t in boneyard], actions,
                 model.describe(m, states[-1]), order)
