"""What spec/parametric.py assumes of the round, proved on the round model.

spec/parametric.py proves termination and deadlock freedom for symbolic sizes, over an
abstract state of counts (B tiles in the boneyard, H in hands, F first turns pending, the
passes, and d: the turns until somebody plays if everybody passes until then). It
assumes how each action changes those counts. Here each assumption is a query on the
round model of spec/roundmodel.py (whose effects `effects-vs-engine` checks against the
engine), for one rule set, one set and one table size, in the phases parametric.py
covers (start, chain, follow); each must be unsat:

* ``effect:<action>``: ``Inv(s) and T_action(s, s') and not effect(s, s')``, with the
  effect parametric.py's step for that action (play: B' = B, H' = H - 1; draw: B' = B - 1,
  H' = H + 1, F' = F; pass: B, H kept, F' = F - pending, the next turn starts with nothing
  drawn unless the round ended, passes counted on an empty boneyard; end-chain: F' = F - 1
  and the next turn starts) and the counts every action keeps (passes >= 0, no passes on a
  boneyard with tiles);
  and, under END-2, that after the action, at the start of a turn on an empty boneyard in
  a running round, somebody plays within two rounds of passes (d < 2P); a model of a
  failed query names the claims it breaks;
* ``d-pass`` (END-2): a pass at the start of a turn on an empty boneyard, not a first
  turn, that does not end the round brings the next play one turn closer (d' = d - 1);
* ``d-mover`` (END-2): at the start of a turn on an empty boneyard a mover who cannot play
  is at least one turn from the next play (d >= 1);
* ``passes``: passes are counted on an empty boneyard only, and under END-3 a running
  round has had fewer than P in a row;
* ``chain``: a chain is the mover's first turn and never follows a draw (FIRST-1, FIRST-3);
* ``engine-phase``: while players draw for the engine, its double is in the boneyard
  (ENG-4).

One-state lemmas (``d-mover``, ``passes``, ``chain``, ``engine-phase``) rest on ``Inv`` alone, which
spec/termination.py proves inductive (``init``, ``inductive:*``) on the same sizes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Final

import z3

from .roundmodel import CHAIN, ENGINE, FOLLOW, OVER, RUNNING, START, Expr, Model, Sym, count
from .termination import KINDS, Prover, QueryResult

SIZES: Final = ((3, 2),)
"""(max pip, players) of the default run."""
FULL_SIZES: Final = ((3, 2), (3, 3))
"""`--full`. The limit (pagat, measured on 2 shared cores): double-3 with 3 players
takes 6 s of z3; on double-4 with 2 players the draw's query exhausts its resource limit
(unknown after 25 s; the play's takes 12 s); double-4 with 3 players did not finish in
12 minutes. A query carries every tile and every train."""


def turns_to_play(model: Model, s: Sym) -> Expr:
    """d: how many turns until some seat can play, if every seat passes until then (2P:
    none within two rounds of passes; after one round every marker is up and every first
    turn over, so nothing changes any more)."""
    key = ("turns_to_play",)
    if key in s.memo:
        return s.memo[key]
    P = model.P
    out: Expr = z3.IntVal(2 * P)
    for start in range(P):
        order = [(start + j) % P for j in range(2 * P)]
        d: Expr = z3.IntVal(2 * P)
        for j in range(2 * P - 1, -1, -1):
            after = model.after_passes(s, order[:min(j, P)]) if j else s
            d = z3.If(model.can_play_start(after, order[j]), j, d)
        out = z3.If(s.seat == start, d, out)
    s.memo[key] = out
    return out


def _mid(s: Sym) -> Expr:
    return z3.Or(s.phase == CHAIN, s.phase == FOLLOW, s.drawn >= 0)


@dataclass
class AssumptionReport:
    label: str
    players: int
    max_pip: int
    queries: list[QueryResult] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(q.ok for q in self.queries)


def prove_assumptions(model: Model, label: str, prover: Prover) -> AssumptionReport:
    """Every assumption of spec/parametric.py on this model (see the module docstring)."""
    rep = AssumptionReport(label, model.P, model.N)
    s, t = model.state("s"), model.state("t")
    inv = model.invariant(s)
    P = model.P
    B, B2 = model.boneyard(s), model.boneyard(t)
    H, H2 = model.in_hands(s), model.in_hands(t)
    F, F2 = count(s.first), count(t.first)
    pending = z3.Or([z3.And(s.seat == q, s.first[q]) for q in range(P)])
    turn = z3.Or(s.phase == START, s.phase == CHAIN, s.phase == FOLLOW)
    end2 = not model.rules.passes_end_round

    def ask(name: str, facts: list[Any], claims: dict[str, Expr]) -> None:
        """One query: the facts and not every claim; a model names the claims it breaks."""
        q, m = prover.run(f"{label}:{name}", [*facts, z3.Not(z3.And(list(claims.values())))],
                          "unsat")
        if m is not None:
            q.detail = [c for c, e in claims.items()
                        if not z3.is_true(m.eval(e, model_completion=True))]
        rep.queries.append(q)

    keep = {"passes >= 0": t.passes >= 0,
            "B' > 0 => passes' = 0": z3.Implies(B2 > 0, t.passes == 0)}
    next_turn = {"the next turn starts, nothing drawn": z3.Implies(
        t.res == RUNNING, z3.And(t.phase == START, t.drawn == -1))}
    effects: dict[str, dict[str, Expr]] = {
        "play": {"B' = B": B2 == B, "H' = H - 1": H2 == H - 1},  # TURN-1
        "draw": {"B' = B - 1": B2 == B - 1, "H' = H + 1": H2 == H + 1,  # TURN-2, TURN-5
                 "F' = F": F2 == F, **keep},
        # TURN-4, FIRST-3, DBL-5; FIRST-6; END-3 counts passes on an empty boneyard
        "pass": {"B' = B": B2 == B, "H' = H": H2 == H,
                 "F' = F - pending": F - z3.If(pending, 1, 0) == F2, **next_turn, **keep,
                 "B = 0 => passes' = passes + 1": z3.Implies(B == 0,
                                                             t.passes == s.passes + 1)},
        "end-chain": {"B' = B": B2 == B, "H' = H": H2 == H,  # FIRST-1, FIRST-6
                      "F' = F - 1": F2 == F - 1, **next_turn, **keep},
    }
    kinds = [k for k in KINDS if k != "end-chain" or model.rules.chain_first_turn]
    for kind in kinds:
        claims = dict(effects[kind])
        if end2:  # END-2: the round went on, so somebody plays within two rounds
            claims["d' < 2P at a turn's start on an empty boneyard"] = z3.Implies(
                z3.And(t.res == RUNNING, B2 == 0, z3.Not(_mid(t))),
                turns_to_play(model, t) < 2 * P)
        ask(f"effect:{kind}", [inv, turn, model.transition(s, t, [kind])], claims)
    if end2:
        ask("d-pass", [inv, s.phase == START, s.drawn == -1, B == 0, z3.Not(pending),
                       model.transition(s, t, ["pass"]), t.phase != OVER],
            {"d' = d - 1": turns_to_play(model, t) == turns_to_play(model, s) - 1})
        ask("d-mover", [inv, s.phase == START, s.drawn == -1, B == 0,
                        z3.Not(model.found(s))], {"d >= 1": turns_to_play(model, s) >= 1})
    ask("passes", [inv, turn], {"passes >= 0": s.passes >= 0,
                                "B > 0 => passes = 0": z3.Implies(B > 0, s.passes == 0),
                                "END-3: passes < P": z3.BoolVal(end2) if end2 else
                                s.passes < P})
    ask("chain", [inv, s.phase == CHAIN], {"first turn, nothing drawn": z3.And(
        pending, s.drawn == -1)})
    ask("engine-phase", [inv, s.phase == ENGINE], {"the engine in the boneyard": model.bone(
        s, model.E)})
    return rep


def run(names: list[str], sizes: tuple[tuple[int, int], ...], prover: Prover
        ) -> tuple[list[AssumptionReport], float]:
    """The assumptions for each distinct rule set of `names` on each size."""
    from mtrain.reference.explore import distinct_in_play, small_rules

    t0 = time.perf_counter()
    out = []
    for name, rs in distinct_in_play(names):
        for n, p in sizes:
            model = Model(small_rules(rs, n, {p: 1}), p)
            out.append(prove_assumptions(model, f"{name}@d{n}x{p}", prover))
    return out, time.perf_counter() - t0
