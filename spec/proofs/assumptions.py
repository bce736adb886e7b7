"""What spec/proofs/parametric.py assumes of the round, proved on the round model at full size.

spec/proofs/parametric.py proves termination and deadlock freedom for symbolic sizes, over an
abstract state of counts (B tiles in the boneyard, H in hands, F first turns pending, the
passes, and d: the turns until somebody plays if everybody passes until then). It
assumes how each action changes those counts and a few facts of reachable states. Here
each is proved on the round model of spec/model/transitions.py (whose effects
`effects-vs-engine` checks against the engine) for one rule set, one tile set and one
table size, as z3 queries that must all be unsat:

* ``deal``, ``init`` and ``step:<kind>``: some deal exists (sat: else the rest would hold
  of nothing), the facts of reachable states, J below, hold at every deal and are kept by
  every action; each action in the phases parametric.py covers (start,
  chain, follow) changes the counts as parametric.py's step says (play: B' = B,
  H' = H - 1; draw: B' = B - 1, H' = H + 1, F' = F; pass: B and H kept, F' = F - pending,
  passes counted on an empty boneyard; end-chain: F' = F - 1; pass and end-chain start the
  next turn with nothing drawn unless the round ended), and under END-2 a round that goes
  on to a turn's start was not found blocked. J, the invariant sliced to what the counts
  read: the ranges of the fields, passes >= 0 and none on a boneyard with tiles, under
  END-3 fewer than P passes in a running round, a chain is the mover's first turn with
  nothing drawn (FIRST-1, FIRST-3), doubles of this turn only mid-turn, and while players
  draw for the engine its double is in the boneyard (ENG-4; under ENG-6 in a hand too,
  mid-lap, with tiles left);
* under END-2 (d, read at a turn's start: spec/model/transitions.py's blocked test reads the same
  state): ``d-bound``, a round not found blocked on an empty boneyard has d < 2P;
  ``d-pass``, a pass at the start of a turn on an empty boneyard, not a first turn, that
  does not end the round brings the next play one turn closer (d' = d - 1);
  ``d-mover``, a mover who cannot play at the start of a turn is at least a turn from the
  next play (d >= 1).

Why this scales to the shipped sets: one query per action (a play of each tile on each
train, a draw of each tile: a disjunction is unsat when each disjunct is), and the
successor's counts are written as the state's counts plus the change at the tiles the
action moves (the other tiles' places are the very same terms in both states, so their
part of each count cancels exactly). An action's query assumes only its guard's shape
(`Model.shape`: the phase, and where the tile is), not what the clauses answer: a weaker
premise, so the step holds of every action of that shape, legal or not. The queries share
one solver, J asserted once. The END-2 test is a free Boolean in ``step:*`` (the effects
are proved for either outcome). In the d lemmas each seat's start-of-turn test is a free
Boolean too (`abstracted`: the tests of states with the same fields are the very same
term, so z3 reasons about how they combine), but for d-mover's own seat, whose test is
compared with the legal plays; d-mover and d-pass are asked per seat to move, with the
seat put in the state, so that only that seat's turns are built.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

import z3

from mtrain.spec import tiles as T
from mtrain.spec.model import decisions as D
from mtrain.spec.model.logic import AsBuilt
from mtrain.spec.model.round_state import (
    CHAIN,
    ENGINE,
    FOLLOW,
    OVER,
    RUNNING,
    START,
    Expr,
    Sym,
    seats_to_move,
)
from mtrain.spec.model.transitions import And, Model, at, count
from mtrain.spec.proofs.termination import KINDS, Prover, QueryResult

SIZES: Final = ((3, 2),)
"""(max pip, players) of the default run, on every distinct shipped variant."""
FULL_SIZES: Final = ((3, 2), (3, 3))
"""`--full`: every distinct rule set on these small sizes, and the shipped sets below."""
DETAIL: Final = 6
"""Failing actions named per query."""


def turns_to_play(model: Model, s: Sym) -> Expr:
    """d (spec/model/decisions.py `turns_to_play`, 2P: none within two rounds of passes),
    read at a turn's start: on `model.view(s)`, the state the END-2 test reads (no double
    of this turn)."""
    v = model.view(s)
    key = ("turns_to_play",)
    if key not in v.memo:
        d = D.turns_to_play(model.plays_after(v), v.seat, seats_to_move(v, model.P), model.P,
                            AsBuilt)
        v.memo[key] = d if isinstance(d, z3.ExprRef) else z3.IntVal(d)
    return v.memo[key]


# -- counts, written as a change from the state before -----------------------------------


def _moved(s: Sym, t: Sym) -> list[int]:
    """The tiles whose place in t is not the very term it is in s."""
    return [u for u, (a, b) in enumerate(zip(s.loc, t.loc, strict=True)) if a is not b]


def _delta(s: Sym, t: Sym, where: Callable[[Expr], Expr], items: Iterable[int]) -> Expr:
    terms = [z3.If(where(t.loc[u]), 1, 0) - z3.If(where(s.loc[u]), 1, 0) for u in items]
    return z3.Sum(terms) if terms else z3.IntVal(0)


@dataclass
class Counts:
    """B, H and F of a state, and of a successor as the change from it."""

    B: Expr
    H: Expr
    F: Expr


def counts(model: Model, s: Sym) -> Counts:
    return Counts(model.boneyard(s), model.in_hands(s), count(s.first))


def successor_counts(model: Model, s: Sym, c: Counts, t: Sym) -> Counts:
    moved = _moved(s, t)
    P = model.P
    changed = [q for q in range(P) if t.first[q] is not s.first[q]]
    dF = z3.Sum([z3.If(t.first[q], 1, 0) - z3.If(s.first[q], 1, 0) for q in changed]) \
        if changed else z3.IntVal(0)
    return Counts(c.B + _delta(s, t, lambda x: x == P, moved),
                  c.H + _delta(s, t, lambda x: x < P, moved), c.F + dF)


# -- J: the facts of reachable states that the counts read -------------------------------


def no_bones(model: Model, s: Sym, before: Sym | None = None) -> Expr:
    """No tile in the boneyard, as one test per tile (z3 then needs no sum to see that a
    boneyard holding the tile drawn is not empty). A successor's is built from `before`'s,
    the tiles it moved apart."""
    if before is None:
        return And(*[z3.Not(model.bone(s, u)) for u in model.tiles])
    moved = tuple(_moved(before, s))
    key = ("no_bones_but", moved)
    if key not in before.memo:
        each = before.memo.setdefault(("no_bone",), [z3.Not(model.bone(before, u))
                                                    for u in model.tiles])
        before.memo[key] = And(*[e for u, e in enumerate(each) if u not in moved])
    return And(before.memo[key], *[s.loc[u] != model.P for u in moved])


def sliced_invariant(model: Model, s: Sym, empty: Expr, tiles: Iterable[int] | None = None
                     ) -> dict[str, Expr]:
    """J(s), by name; `empty`: s's boneyard is empty (`no_bones`). `tiles`: the tiles whose
    range to state (default all; a successor states only the tiles the action moved, the
    others being the same terms)."""
    P = model.P
    places = [s.loc[u] for u in (model.tiles if tiles is None else tiles)]
    j = {"ranges": z3.And(*[z3.And(x >= 0, x <= P + 1) for x in places],
                          s.seat >= 0, s.seat < P, s.phase >= ENGINE, s.phase <= OVER,
                          s.drawn >= -1, s.drawn < len(model.tiles)),
         "running until over": (s.res == RUNNING) == (s.phase != OVER),
         "passes >= 0": s.passes >= 0,
         "passes > 0 => B = 0": z3.Implies(s.passes > 0, empty),  # END-3 counts only then
         "turn doubles only mid-turn": z3.Implies(  # DBL-1
             z3.Not(z3.Or(s.phase == CHAIN, s.phase == FOLLOW)), z3.Not(z3.Or(s.tdbl)))}
    if model.is_("blocked_round", "full-round-of-passes"):
        j["END-3: passes < P while running"] = z3.Implies(s.phase != OVER, s.passes < P)
    j["a chain is a first turn, nothing drawn"] = (  # FIRST-1, FIRST-3
        z3.Implies(s.phase == CHAIN, z3.And(at(s.first, s.seat), s.drawn == -1))
        if model.is_("first_turn", "chain", "chain-anywhere", "chain-no-double-end")
        else s.phase != CHAIN)
    sought = s.loc[model.E] == P
    if model.is_("engine_procedure", "everyone-draws"):  # ENG-6: kept to the lap's end
        sought = z3.Or(sought, z3.And(s.loc[model.E] < P, z3.Not(empty),
                                      s.seat != model.lead))
    j["the engine in the boneyard while drawn for"] = (  # ENG-4
        z3.Implies(s.phase == ENGINE, sought)
        if not model.is_("engine_procedure", "set-aside") else s.phase != ENGINE)
    return j


# -- the queries ---------------------------------------------------------------------------


@dataclass
class AssumptionReport:
    label: str
    players: int
    max_pip: int
    queries: list[QueryResult] = field(default_factory=list)
    actions: int = 0
    """Action queries (one per action of the model)."""

    @property
    def ok(self) -> bool:
        return all(q.ok for q in self.queries)


def _answer(r: Any) -> str:
    return "unsat" if r == z3.unsat else "sat" if r == z3.sat else "unknown"


def _broken(m: Any, claims: dict[str, Expr]) -> list[str]:
    return [c for c, e in claims.items() if not z3.is_true(m.eval(e, model_completion=True))]


class Session:
    """One solver for many queries over one state: facts shared by all are asserted once,
    each query in a push/pop of its own."""

    def __init__(self, prover: Prover, label: str, shared: list[Expr]) -> None:
        self.prover, self.label = prover, label
        self.solver = prover.solver()
        self.solver.add(*shared)

    def ask(self, name: str, facts: list[Expr], claims: dict[str, Expr]
            ) -> tuple[str, list[str], str | None]:
        """(answer, the claims a model breaks, why unknown) of facts and not every claim."""
        sv = self.solver
        sv.push()
        sv.add(*facts, z3.Not(z3.And(list(claims.values()))))
        if self.prover.dump is not None:
            safe = "".join(c if c.isalnum() or c in "-_.+" else "_" for c in name)
            (self.prover.dump / f"{self.label}_{safe}.smt2").write_text(
                f"; {self.label}:{name}: expected unsat\n{sv.sexpr()}(check-sat)\n",
                encoding="utf-8")
        r = sv.check()
        answer = _answer(r)
        broken = _broken(sv.model(), claims) if r == z3.sat else []
        why = sv.reason_unknown() if answer == "unknown" else None
        sv.pop()
        return answer, broken, why


def _group(name: str, asked: list[tuple[str, str, list[str], str | None]], seconds: float
           ) -> QueryResult:
    """One result for the queries of one kind of action: unsat if each is; else the first
    answer that is not, and the claims broken, each with the first actions breaking it."""
    bad = [a for a in asked if a[1] != "unsat"]
    if not bad:
        return QueryResult(name, "unsat", "unsat", seconds, f"{len(asked)} queries")
    answer = next((a[1] for a in bad if a[1] == "sat"), bad[0][1])
    by_claim: dict[str, list[str]] = {}
    for label, ans, broken, why in bad:
        for c in broken or [f"{ans}: {why}"]:
            by_claim.setdefault(c, []).append(label)
    detail = [f"{c} ({', '.join(ls[:DETAIL])}{' ...' if len(ls) > DETAIL else ''})"
              for c, ls in by_claim.items()]
    return QueryResult(name, "unsat", answer, seconds, detail)


def _pending(model: Model, s: Sym) -> Expr:
    """The mover's first turn is still to come."""
    key = ("pending",)
    if key not in s.memo:
        s.memo[key] = z3.Or([z3.And(s.seat == q, s.first[q]) for q in range(model.P)])
    return s.memo[key]


def step_claims(model: Model, kind: str, s: Sym, c: Counts, t: Sym, flag: Expr | None
                ) -> dict[str, Expr]:
    """What parametric.py's step for the action says of the successor t (the counts as
    changes from s), in the phases it covers; with `flag`, the END-2 test of t."""
    c2 = successor_counts(model, s, c, t)
    pending = _pending(model, s)
    keep = {"passes >= 0": t.passes >= 0,
            "B' > 0 => passes' = 0": z3.Implies(c2.B > 0, t.passes == 0)}
    next_turn = {"the next turn starts, nothing drawn": z3.Implies(
        t.res == RUNNING, z3.And(t.phase == START, t.drawn == -1))}
    effects: dict[str, dict[str, Expr]] = {
        "play": {"B' = B": c2.B == c.B, "H' = H - 1": c2.H == c.H - 1},  # TURN-1
        "draw": {"B' = B - 1": c2.B == c.B - 1, "H' = H + 1": c2.H == c.H + 1,  # TURN-2
                 "F' = F": c2.F == c.F},
        # TURN-4, FIRST-3, DBL-5; FIRST-6; END-3 counts passes on an empty boneyard
        "pass": {"B' = B": c2.B == c.B, "H' = H": c2.H == c.H,
                 "F' = F - pending": c.F - z3.If(pending, 1, 0) == c2.F, **next_turn,
                 "B = 0 => passes' = passes + 1": z3.Implies(c.B == 0,
                                                             t.passes == s.passes + 1)},
        "end-chain": {"B' = B": c2.B == c.B, "H' = H": c2.H == c.H,  # FIRST-1, FIRST-6
                      "F' = F - 1": c2.F == c.F - 1, **next_turn},
    }
    claims = {**effects[kind], **keep}
    if flag is not None:  # END-2: a round that goes on to a turn's start was not blocked
        start = z3.And(t.res == RUNNING, t.phase != CHAIN, t.phase != FOLLOW, t.drawn < 0)
        claims["running at a turn's start: not blocked"] = z3.Implies(start, z3.Not(flag))
    return claims


def _actions(model: Model) -> Iterator[tuple[str, str, int, int]]:
    """(kind, label, tile, train) of every action of the model."""
    for t in model.tiles:
        for k in model.trains:
            yield "play", f"play {T.name(t)} on {'mexican' if k == model.mex else k}", t, k
    for t in model.tiles:
        yield "draw", f"draw {T.name(t)}", t, -1
    yield "pass", "pass", -1, -1
    if model.is_("first_turn", "chain", "chain-anywhere", "chain-no-double-end"):
        yield "end-chain", "end-chain", -1, -1


def prove_steps(model: Model, label: str, prover: Prover, rep: AssumptionReport) -> None:
    """``init`` and ``step:<kind>``: J at every deal, J kept and the counts' step by every
    action, one query per action."""
    end2 = not model.is_("blocked_round", "full-round-of-passes")
    s = model.state("s")
    c = counts(model, s)
    j_s = sliced_invariant(model, s, no_bones(model, s))
    if model.hand is not None:  # one query per fact: all at once, z3 tires on double-18
        t0 = time.perf_counter()
        d = model.state("d")
        deal = Session(prover, label, [model.init(d)])
        # some deal exists: else every query below would hold of nothing (J too)
        exists = _answer(deal.solver.check())
        rep.queries.append(QueryResult(f"{label}:deal", "sat", exists,
                                       time.perf_counter() - t0))
        t0 = time.perf_counter()
        facts = [(fact, *deal.ask(f"init:{fact}", [], {fact: e}))
                 for fact, e in sliced_invariant(model, d, no_bones(model, d)).items()]
        rep.queries.append(_group(f"{label}:init", facts, time.perf_counter() - t0))
    # END-2's test of the successor as a free Boolean (check_blocked reads it on the target)
    flag = z3.Bool(f"{label}.blocked") if end2 else None
    target = None
    if flag is not None:
        target = model.state("u")
        model.blocked_as(target, flag)
    turn = z3.Or(s.phase == START, s.phase == CHAIN, s.phase == FOLLOW)
    session = Session(prover, label, list(j_s.values()))
    asked: dict[str, list[tuple[str, str, list[str], str | None]]] = {k: [] for k in KINDS}
    spent = dict.fromkeys(KINDS, 0.0)
    for kind, name, tile, train in _actions(model):
        t0 = time.perf_counter()
        t = model.effect(s, kind, tile, train, target)
        moved = _moved(s, t)
        claims = dict(sliced_invariant(model, t, no_bones(model, t, s), moved))
        claims.update({k: z3.Implies(turn, e) for k, e in
                       step_claims(model, kind, s, c, t, flag).items()})
        # the guard's shape, not the clauses' answer: what the claims need of the guard
        # (a weaker premise, so a stronger result; `Model.guard` is the shape and more)
        answer, broken, why = session.ask(f"{kind}:{name}", [model.shape(s, kind, tile)],
                                          claims)
        asked[kind].append((name, answer, broken, why))
        spent[kind] += time.perf_counter() - t0
        rep.actions += 1
    for kind in KINDS:
        if asked[kind]:
            rep.queries.append(_group(f"{label}:step:{kind}", asked[kind], spent[kind]))


def abstracted(model: Model, exprs: list[Expr], keep: Iterable[Expr] = ()) -> list[Expr]:
    """`exprs` with every seat's start-of-turn test (`Model.start_atoms`) but those of
    `keep` made a free Boolean, one per distinct test. A query unsat for every value of
    those Booleans is unsat for the tests' own values; what is left for z3 is how the
    tests combine (the END-2 test, d), not what each says."""
    kept = {e.get_id() for e in keep}
    pairs = [(a, z3.Bool(f"start#{i}")) for i, a in model.start_atoms.items() if i not in kept]
    return [z3.substitute(e, *pairs) if pairs and isinstance(e, z3.ExprRef) else e
            for e in exprs]


def prove_distance(model: Model, label: str, prover: Prover, rep: AssumptionReport) -> None:
    """END-2's d lemmas: bounded where the rank reads it, a mover who cannot play at least
    one turn away, a pass one turn nearer. One query per seat to move for the last two,
    with that seat put in the state, so that the tests of the states after the same passes
    are the very same terms."""
    P = model.P

    def ask(name: str, shown: str, facts: list[Expr], claims: dict[str, Expr],
            keep: Iterable[Expr] = ()) -> tuple[str, str, list[str], str | None]:
        names = list(claims)
        both = abstracted(model, [*facts, *claims.values()], keep)
        facts, read = both[:len(facts)], both[len(facts):]
        q, m = prover.run(f"{label}:{name}", [*facts, z3.Not(z3.And(read))], "unsat")
        broken = _broken(m, dict(zip(names, read, strict=True))) if m is not None else []
        return shown, q.answer, broken, q.detail

    def report(name: str, asked: list[tuple[str, str, list[str], str | None]], t0: float
               ) -> None:
        rep.queries.append(_group(f"{label}:{name}", asked, time.perf_counter() - t0))

    t0 = time.perf_counter()
    u = model.state("u")
    report("d-bound", [ask("d-bound", "any seat", [
        sliced_invariant(model, u, no_bones(model, u))["ranges"], model.boneyard(u) == 0,
        z3.Not(model.blocked(model.view(u)))], {"d < 2P": turns_to_play(model, u) < 2 * P})],
        t0)
    movers, passes = [], []
    t_mover, t_pass = 0.0, 0.0
    base = model.state("s")
    for seat in range(P):
        t0 = time.perf_counter()
        # at a turn's start nothing is drawn and no double is of this turn (J)
        s = base.replace(seat=z3.IntVal(seat), phase=z3.IntVal(START), drawn=z3.IntVal(-1),
                         tdbl=[z3.BoolVal(False)] * len(model.trains))
        c = counts(model, s)
        j_s = list(sliced_invariant(model, s, no_bones(model, s)).values())
        first_here = model.can_play_start(model.view(s), seat)  # d = 0
        cannot = z3.Not(model.found(s))
        movers.append(ask(f"d-mover:{seat}", f"seat {seat}", [*j_s, c.B == 0, cannot],
                          {"d >= 1": turns_to_play(model, s) >= 1}, keep=[first_here]))
        t_mover += time.perf_counter() - t0
        t0 = time.perf_counter()
        t = model.effect(s, "pass")
        passes.append(ask(f"d-pass:{seat}", f"seat {seat}", [
            *j_s, c.B == 0, z3.Not(s.first[seat]), model.guard(s, "pass"), t.phase != OVER,
            z3.Implies(cannot, z3.Not(first_here))],  # d-mover
            {"d' = d - 1": turns_to_play(model, t) == turns_to_play(model, s) - 1}))
        t_pass += time.perf_counter() - t0
    rep.queries.append(_group(f"{label}:d-mover", movers, t_mover))
    rep.queries.append(_group(f"{label}:d-pass", passes, t_pass))


def prove_assumptions(model: Model, label: str, prover: Prover) -> AssumptionReport:
    """Every assumption of spec/proofs/parametric.py on this model (see the module docstring)."""
    rep = AssumptionReport(label, model.P, model.N)
    prove_steps(model, label, prover, rep)
    if not model.is_("blocked_round", "full-round-of-passes"):
        prove_distance(model, label, prover, rep)
    return rep


# -- which models ----------------------------------------------------------------------------


def run(names: list[str], sizes: tuple[tuple[int, int], ...], prover: Prover
        ) -> tuple[list[AssumptionReport], float]:
    """The assumptions for each distinct rule set of `names` on each small size."""
    from mtrain.spec.model.alike import distinct_in_play

    t0 = time.perf_counter()
    out = []
    for name, rs in distinct_in_play(names):
        for n, p in sizes:
            model = Model(rs, p, hand=1, max_pip=n)
            out.append(prove_assumptions(model, f"{name}@d{n}x{p}", prover))
    return out, time.perf_counter() - t0


def run_shipped(names: list[str], prover: Prover, players: Iterable[int] | None = None
                ) -> tuple[list[AssumptionReport], float]:
    """The assumptions for each rule set of `names` on its own set, at each table size it
    deals (or those of `players` it deals), round 1."""
    from mtrain.spec.catalog import catalog

    cat = catalog()
    t0 = time.perf_counter()
    out = []
    for name in names:
        rs = cat.ruleset(name)
        for p in rs.player_counts:
            if players is None or p in players:
                model = Model(rs, p, hand=rs.hand_size(p))
                out.append(prove_assumptions(model, f"{name}@d{model.N}x{p}", prover))
    return out, time.perf_counter() - t0
