"""The reference engine against the model, on states of random full-size games.

For every rule set (each shipped variant, each variant with one overlay that composes:
`reference.explore.rule_set_names`, and each rule-set file), the random rounds of the
driver (driver.py: on the rule set's own set, every player count it allows, rounds 1 to
N+1) are played with the engine, and on every state met:

* the legal actions: spec/model/legality.py's set equals `engine.legal_actions`;
* the clauses: for every legal action the model's permitting clause equals
  `refusals.permission`, and for every illegal candidate (each tile in the mover's hand on
  each train, one tile not held, draw, pass, end-chain) the model's refusing clause
  (spec/model/decisions.py) equals the clause of `refusals.refusal`;
* the ranking function of spec/proofs/parametric.py decreases on every transition between the
  phases start, chain and follow (what the parametric proof assumes of the engine);
* the end of the round: at the start of a turn on an empty boneyard the model's END-2/END-3
  test says the round goes on, and on a round the engine ended blocked it says blocked.

A difference is a finding naming the clause, the rule set and the state (canonical JSON).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mtrain.conformance.crosscheck.driver import random_rounds
from mtrain.reference import engine as E
from mtrain.reference import refusals
from mtrain.reference.codec import state_to_json
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T
from mtrain.spec.model import decisions as D
from mtrain.spec.model import legality as L
from mtrain.spec.model.alike import play_key
from mtrain.spec.model.symbolic import Symbolic
from mtrain.spec.proofs import parametric as P
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.tilesets import highest

DEFAULT_STATES = 60
"""States per rule set in the default `mtrain check` (and CI); `--full` compares FULL_STATES."""
FULL_STATES = 10_000


@dataclass
class Difference:
    ruleset: str
    clause: str
    what: str
    state: dict[str, Any]

    def message(self) -> str:
        return (f"{self.ruleset}: {self.clause}: {self.what}; state "
                f"{json.dumps(self.state, separators=(',', ':'))}")


@dataclass
class Comparison:
    ruleset: str
    states: int = 0
    actions: int = 0
    """Actions whose legality and clause were compared."""
    ends: int = 0
    """States where the END-2/END-3 verdicts were compared."""
    blocked: int = 0
    """Of those, the ones both call blocked."""
    ranked: int = 0
    """Transitions on which spec/proofs/parametric.py's ranking function was seen to decrease."""
    seconds: float = 0.0
    differences: list[Difference] = field(default_factory=list)
    same_as: str | None = None
    """The rule set whose games this one plays exactly (not compared again)."""

    def to_json(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "same_as": self.same_as, "states": self.states,
                "actions": self.actions,
                "ends": self.ends, "blocked": self.blocked, "ranked": self.ranked,
                "seconds": round(self.seconds, 3),
                "differences": [d.message() for d in self.differences[:5]]}


def _text(state: E.State, a: E.Action) -> tuple[str, tuple[int, int] | None, str]:
    if a.kind != "play":
        return a.kind, None, ""
    train = "mexican" if a.train == state.players else str(a.train)
    return "play", (T.HIGH[a.tile], T.LOW[a.tile]), train


def candidates(state: E.State) -> list[E.Action]:
    """The actions whose clause is compared: each held tile on each train, one tile the
    mover does not hold (on its own train), draw, pass, end-chain."""
    out: list[E.Action] = [E.DRAW, E.PASS, E.END_CHAIN]
    if state.phase in (E.OVER, E.ENGINE):
        return out
    held = T.tiles_of(state.hands[state.seat])
    for tile in held:
        out += [E.PLAY[k][tile] for k in range(state.players + 1)]
    other = [t for t in T.tiles_of(state.rules.set_mask) if t not in held]
    if other:
        out.append(E.PLAY[state.seat][other[len(held) % len(other)]])
    return out


def compare_state(name: str, state: E.State, options: dict[str, str],
                  limit: int = 5) -> tuple[int, int, list[Difference]]:
    """One engine state against the model: (actions compared, END verdict compared: 0 no,
    1 goes on, 2 blocked, differences)."""
    js = state_to_json(state)
    acts = candidates(state)
    texts = [_text(state, a) for a in acts]
    model_legal, model_clause = D.answers(js, options, texts)
    by_text = {L.action_text(*x): a for x, a in zip(texts, acts, strict=True)}
    engine_legal = {L.action_text(*_text(state, a)) for a in E.legal_actions(state)}
    diffs: list[Difference] = []
    for text in sorted(model_legal ^ engine_legal):
        # charged to the clause that permits the action on the side that allows it
        if text in model_legal:
            who, clause = "model", model_clause[text]
        else:
            who, clause = "engine", refusals.permission(state, by_text[text])
        diffs.append(Difference(name, clause, f"{text!r} legal for the {who} only", js))
    for text, a in by_text.items():
        if (text in model_legal) != (text in engine_legal):
            continue  # reported above
        mine = model_clause[text]
        theirs = (refusals.permission(state, a) if text in engine_legal
                  else refusals.refusal(state, a).clause)
        if mine != theirs:
            diffs.append(Difference(name, theirs, f"{text!r}: the engine names {theirs}, "
                                    f"the model {mine}", js))
    end = 0
    if (state.phase == E.START and state.drawn < 0) or (
            state.phase == E.OVER and state.result is not None
            and state.result.end == E.BLOCKED):
        # the test runs when a turn ends: at the start of a turn (nothing drawn yet), or
        # on a round it ended; on a boneyard not yet empty, on the same table with the
        # boneyard handed out to the players (so that the test has something to decide)
        probe = state
        if state.boneyard:
            probe = state.copy()
            for i, tile in enumerate(probe.boneyard):
                probe.hands[(probe.seat + i) % probe.players] |= T.BIT[tile]
            probe.boneyard = []
        engine_says = probe.phase == E.OVER
        if not engine_says:
            after = probe.copy()
            E._check_blocked(after)  # END-2, END-3: the engine's own test, as a turn ends
            engine_says = after.phase == E.OVER
        pj = js if probe is state else state_to_json(probe)
        model_says = D.blocked(pj, options)
        end = 2 if model_says and engine_says else 1
        if engine_says != model_says:
            clause = "END-3" if state.rules.passes_end_round else "END-2"
            diffs.append(Difference(
                name, clause, f"the engine {'ends' if engine_says else 'goes on with'} the "
                f"round, the model says {'blocked' if model_says else 'not blocked'}", pj))
    return len(acts), end, diffs[:limit]


def _rank_step(name: str, s: E.State, a: E.Action, t: E.State,
               options: dict[str, str]) -> list[Difference]:
    """The parametric proof's ranking function decreases on this engine transition."""
    if s.phase in (E.ENGINE, E.OVER) or t.phase in (E.ENGINE, E.OVER):
        return []
    sj = state_to_json(s)
    r1, r2 = P.rank_of(sj, options), P.rank_of(state_to_json(t), options)
    if r2 < r1:  # tuples compare lexicographically
        return []
    clause = "END-3" if s.rules.passes_end_round else "END-2"
    return [Difference(name, clause, f"{L.action_text(*_text(s, a))!r}: the rank goes "
                       f"from {r1} to {r2}, not down (spec/proofs/parametric.py)", sj)]


def compare_ruleset(name: str, rs: Ruleset, states: int, seed: int = 0) -> Comparison:
    """`states` states of random rounds under `rs` (the driver's) against the model."""
    options = dict(rs.items())
    rep = Comparison(name)
    t0 = time.perf_counter()
    for step in random_rounds(rs, seed):
        if rep.states >= states:
            break
        n, end, diffs = compare_state(name, step.state, options)
        rep.states += 1
        rep.actions += n
        rep.ends += end > 0
        rep.blocked += end == 2
        rep.differences += diffs
        if len(rep.differences) >= 20:
            break
        before, action, after = step.state, step.action, step.after
        if action is not None and after is not None:
            rep.differences += _rank_step(name, before, action, after, options)
            rep.ranked += before.phase not in (E.ENGINE, E.OVER) and after.phase not in (
                E.ENGINE, E.OVER)
    rep.seconds = time.perf_counter() - t0
    return rep


def compare_all(states: int, names: Sequence[str] | None = None,
                seed: int = 0) -> list[Comparison]:
    """Every rule set (each variant, alone and with each single overlay, and each rule-set
    file); one that plays the very same games as an earlier one (the same option values
    but scoring, the same hand sizes and set: the random rounds are identical, and scores
    are no part of the comparison) is reported with the earlier one's numbers."""
    from mtrain.reference.explore import rule_set_names
    from mtrain.spec.catalog import catalog

    cat = catalog()
    out: list[Comparison] = []
    seen: dict[Any, Comparison] = {}
    for n in names if names is not None else [*rule_set_names(), *cat.examples]:
        rs = cat.ruleset(n)
        key = play_key(rs, sized=True)
        if key in seen:
            twin = seen[key]
            out.append(Comparison(n, twin.states, twin.actions, twin.ends, twin.blocked,
                                  twin.ranked, 0.0, [], same_as=twin.ruleset))
            continue
        seen[key] = rep = compare_ruleset(n, rs, states, seed)
        out.append(rep)
    return out


# -- a z3 search on double-12 with 4 players ----------------------------------------------

Z3_PLAYERS = 4
Z3_SLOTS = 3
Z3_RLIMIT = 20_000_000
ROLES = ("own", "other", "mexican")
"""The train a play goes on: the mover's (seat 0), seat 1's, the Mexican Train."""


@dataclass
class PathResult:
    ruleset: str
    action: str
    clause: str
    legal: bool
    answer: str
    """sat (a table was built and compared), unsat (no well-formed situation takes this
    path), unknown (resource limit), unrealised (z3's situation could not be written as a
    table that keeps the path)."""
    differences: list[Difference] = field(default_factory=list)
    seconds: float = 0.0
    state: E.State | None = field(default=None, repr=False)
    """The engine state of the table z3's situation was written as."""


def _targets(v: Any, o: Any) -> list[tuple[str, bool, str, Any]]:
    """(action, legal, clause, condition) for every decision path of the model."""
    lg = L.legal(v, o)
    out: list[tuple[str, bool, str, Any]] = []
    slot = v.hand[0]
    for role, train in zip(ROLES, (v.trains[0], v.trains[1], v.trains[-1]), strict=True):
        ok = lg.plays[0][v.trains.index(train)]
        for cond, clause in D.paths(D.permit_play(v, o, train)):
            out.append((f"play on {role}", True, clause, L.And(ok, cond)))
        for cond, clause in D.paths(D.refuse_play(v, o, True, slot, 0, train)):
            out.append((f"play on {role}", False, clause, L.And(L.Not(ok), cond)))
    for kind, ok in (("draw", lg.draw), ("pass", lg.pass_), ("end-chain", lg.end_chain)):
        for cond, clause in D.paths(D.permit_other(v, o, kind)):
            out.append((kind, True, clause, L.And(ok, cond)))
        for cond, clause in D.paths(D.refuse_other(v, o, kind, lg.any_play)):
            out.append((kind, False, clause, L.And(L.Not(ok), cond)))
    return [t for t in out if t[3] is not False]


def z3_search(name: str, rs: Ruleset) -> list[PathResult]:
    """For every decision path of the model (which clause permits or refuses a play of a
    held tile on each train role, a draw, a pass, an end-chain), z3 looks for a well-formed
    situation with 4 players on the rule set's set (numbers 0..9, up to 3 tiles in the
    mover's hand) that takes it; each one found is written as a table (spec/distinguish/
    `realise`), loaded into the engine, and compared like a sampled state."""
    import z3

    from mtrain.reference.codec import state_from_json
    from mtrain.spec.distinguish import realise, wide_top
    from mtrain.spec.notation import table_state

    rules = Rules.of(rs)
    options = dict(rs.items())
    top = highest(options["tile_set"])
    out: list[PathResult] = []
    sym = Symbolic(Z3_SLOTS, Z3_PLAYERS, max_number=top)
    v, ctx = sym.view, sym.ctx
    o = L.Opts(values=options)
    base = [*sym.structure(wide_top(top)), *sym.well_formed(o), v.players == Z3_PLAYERS,
            v.seat == 0]
    solver = z3.SimpleSolver(ctx=ctx)
    solver.set("random_seed", 0)
    solver.set("rlimit", Z3_RLIMIT)
    solver.add(*base)
    for action, legal, clause, cond in _targets(v, o):
        res = PathResult(name, action, clause, legal, "unknown")
        out.append(res)
        t0 = time.perf_counter()
        solver.push()
        solver.add(L.as_term(cond, ctx))
        r = solver.check()
        model = solver.model() if r == z3.sat else None
        solver.pop()
        res.seconds = time.perf_counter() - t0
        if r == z3.unsat:
            res.answer = "unsat"
            continue
        if model is None:
            continue
        w = sym.decode(model)
        try:
            table = realise(w, top=top)
            js = table_state(table, rs)
            state = state_from_json(rules, js)
        except Exception:  # a witness the realiser cannot write: reported, not hidden
            res.answer = "unrealised"
            continue
        a, b = w["hand"][0]
        act = _path_action(state, action, T.tile_id(a, b))
        _, mine = D.answers(js, options, [_text(state, act)])
        if next(iter(mine.values())) != clause:
            res.answer = "unrealised"  # the table does not keep z3's path
            continue
        res.answer, res.state = "sat", state
        res.differences = compare_state(name, state, options)[2]
    return out


def _path_action(state: E.State, action: str, tile: int) -> E.Action:
    """The engine action of a path: `tile` is the witness's first hand slot."""
    if action.startswith("play on "):
        k = {"own": 0, "other": 1, "mexican": state.players}[action.removeprefix("play on ")]
        return E.PLAY[k][tile]
    return {"draw": E.DRAW, "pass": E.PASS, "end-chain": E.END_CHAIN}[action]
