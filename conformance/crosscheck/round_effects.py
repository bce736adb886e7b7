"""The round model (spec/model/transitions.py) against the engine, on concrete engine states.

* ``compare_states``: the invariant holds and the model's guards enable exactly the
  engine's legal actions;
* ``compare_effects``: for every legal action, the engine's successor equals the model's,
  field by field (see its docstring).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from mtrain.spec import tiles as T
from mtrain.spec.model import scoring
from mtrain.spec.model.legality import Opts
from mtrain.spec.model.round_state import (
    BLOCKED,
    CHAIN,
    DOMINO,
    ENGINE,
    FOLLOW,
    OVER,
    RUNNING,
    START,
    Expr,
    ProofError,
    Sym,
)
from mtrain.spec.model.steps import result
from mtrain.spec.model.transitions import Model
from mtrain.spec.ruleset import Ruleset


def engine_values(model: Model, state: Any) -> dict[str, Any]:
    """An engine state as the model's fields: lists per tile, train and seat, ints and
    bools; ages as each open double's place in the engine's list (the clock its length)."""
    from mtrain.reference import engine as E

    P = model.P
    where = {}
    for q, h in enumerate(state.hands):
        for t in T.tiles_of(h):
            where[t] = q
    for t in state.boneyard:
        where[t] = P
    od = state.open_doubles
    return {
        "loc": [where.get(t, P + 1) for t in model.tiles],
        "end": [state.ends[k] for k in model.trains],
        "started": [bool(state.trains[k]) for k in model.trains],
        "odbl": [k in od for k in model.trains],
        "tdbl": [k in state.turn_doubles for k in model.trains],
        "age": [od.index(k) if k in od else 0 for k in model.trains],
        "clock": len(od),
        "marker": [state.marked(q) for q in range(P)],
        "first": [bool(state.first_pending >> q & 1) for q in range(P)],
        "seat": state.seat, "starter": state.starter,
        "phase": {E.ENGINE: ENGINE, E.START: START, E.CHAIN: CHAIN, E.FOLLOW: FOLLOW,
                  E.OVER: OVER}[state.phase],
        "drawn": state.drawn, "passes": state.passes,
        "res": RUNNING if state.result is None else (
            DOMINO if state.result.end == E.DOMINO else BLOCKED)}


def concrete(model: Model, s: Sym, state: Any) -> list[tuple[Expr, Expr]]:
    """The substitution that gives the variables of `s` the values of an engine state."""
    pairs: list[tuple[Expr, Expr]] = []
    for name, value in engine_values(model, state).items():
        var = getattr(s, name)
        for x, v in zip(var, value, strict=True) if isinstance(value, list) else [(var, value)]:
            pairs.append((x, z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v)))
    return pairs


def assignment(pairs: list[tuple[Expr, Expr]]) -> Any:
    """A z3 model giving the variables these values (to evaluate expressions in)."""
    solver = z3.Solver()
    solver.add(*[a == b for a, b in pairs])
    if solver.check() != z3.sat:
        raise ProofError("a concrete state did not give a model")
    return solver.model()


def evaluate(expr: Expr, values: Any) -> bool:
    if isinstance(expr, bool):  # decided by the rule set alone
        return expr
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


# -- effects: the engine's successor against the model's ---------------------------------


@dataclass
class EffectDifference:
    """One field on which the engine's successor and the model's differ."""

    action: str
    field: str
    clause: str
    engine: Any
    model: Any
    state: dict[str, Any]

    def message(self) -> str:
        return (f"{self.action}: {self.field} is {self.engine} after the engine, "
                f"{self.model} in the model [{self.clause}]; state "
                f"{json.dumps(self.state, separators=(',', ':'))}")


def action_label(model: Model, a: Any) -> str:
    if a.kind != "play":
        return str(a.kind)
    return f"play {T.name(a.tile)} on {'mexican' if a.train == model.mex else a.train}"


def _phase_clause(model: Model, values: Sequence[int]) -> str:
    """The clause that puts a round in each phase, most specific first."""
    if OVER in values:
        return "END-1" if DOMINO in values else _end_clause(model)
    if CHAIN in values:
        return "FIRST-1"
    if FOLLOW in values:
        return _applying(model, "DBL-1", "DBL-11")  # a double opens; or ends the turn
    return "TURN-6"


def _applying(model: Model, *clauses: str) -> str:
    """The first of `clauses` that applies under the model's rule set (by their `when`)."""
    from mtrain.spec.catalog import catalog

    cat = catalog()
    return next((c for c in clauses if cat.clauses[c].applies(model.values)), clauses[-1])


def _end_clause(model: Model) -> str:
    return _applying(model, "END-3", "END-2")


def field_clause(model: Model, state: Any, kind: str, name: str,
                 values: Sequence[Any], train: int = -1) -> str:
    """The clause that decides field `name` (e.g. ``marker``) after an action of `kind` (a
    play: on `train`) in `state` (an engine state before it); `values`: the engine's and
    the model's values."""
    from mtrain.reference import engine as E

    engine_phase = state.phase == E.ENGINE
    search = _applying(model, "ENG-6", "ENG-4")  # the search for a missing engine
    if name in ("phase", "res"):  # both as the model's codes
        if engine_phase:
            return search
        if name == "phase":
            return _phase_clause(model, values)
        return ("END-1" if DOMINO in values else _end_clause(model) if BLOCKED in values
                else "TURN-6")
    if name in ("seat", "starter"):
        if engine_phase and _places(state):  # placed: who starts
            return _applying(model, "SEAT-2", "SEAT-4", "SEAT-5", "SEAT-3")
        return search if engine_phase else "SEAT-1"
    if name == "first":
        return "FIRST-6"
    if name == "scores":  # SCORE-7 speaks of a blocked round only: not one gone out
        out = kind == "play" and state.hands[state.seat].bit_count() == 1
        return _applying(model, "SCORE-6", *(() if out else ("SCORE-7",)), "SCORE-5")
    if name == "winners":  # two seats tied: the tie rule decides (else the best total)
        return _applying(model, "MATCH-5", "MATCH-4") if len(values[0]) != len(
            values[1]) or len(values[0]) > 1 else _applying(model, "MATCH-3", "MATCH-2")
    if name == "match_over":  # the round just ended was the last, or not
        return _applying(model, "MATCH-7", "MATCH-1")
    if name == "passes":
        return "END-3"
    if kind == "play":
        if name == "marker":
            return _applying(model, "MARK-3", "MARK-4", "MARK-5")
        if name in ("open doubles", "turn doubles"):  # covered (one tile), or laid
            return ("TRAIN-3" if train in state.open_doubles
                    else _applying(model, "DBL-1", "DBL-11"))
        return "TURN-3" if name == "drawn" else "TRAIN-2"
    if kind == "draw":
        if engine_phase:
            return search
        return "TURN-3" if name == "drawn" else (
            "TURN-5" if state.drawn >= 0 else "TURN-2")
    if kind == "pass" and name == "marker":
        return "TURN-4"
    return "FIRST-1" if kind == "end-chain" else "TURN-6"


def _fields(model: Model, read: Callable[[Expr], Any], s: Sym) -> dict[str, Any]:
    """A successor as comparable values: where each tile is, the open doubles in the order
    they were laid (the model's ages are a clock, the engine's a list), the rest as is."""
    out: dict[str, Any] = {}
    for t in model.tiles:
        out[f"loc[{T.name(t)}]"] = read(s.loc[t])
    for k in model.trains:
        for name in ("end", "started"):
            out[f"{name}[{k}]"] = read(getattr(s, name)[k])
    open_ = [k for k in model.trains if read(s.odbl[k])]
    out["open doubles"] = sorted(open_, key=lambda k: read(s.age[k]))
    out["turn doubles"] = [k for k in out["open doubles"] if read(s.tdbl[k])] + sorted(
        k for k in model.trains if read(s.tdbl[k]) and k not in open_)
    for q in range(model.P):
        out[f"marker[{q}]"] = read(s.marker[q])
        out[f"first[{q}]"] = read(s.first[q])
    for name in ("seat", "starter", "phase", "drawn", "passes", "res"):
        out[name] = read(getattr(s, name))
    return out


def _reader(model: Model, values: Any) -> Callable[[Expr], Any]:
    return lambda e: model.value(values, e)


def engine_fields(model: Model, state: Any) -> dict[str, Any]:
    """The same values read off an engine state."""
    out = _fields(model, lambda v: v, Sym(**engine_values(model, state)))  # plain values
    out["open doubles"] = list(state.open_doubles)  # the engine's own order
    out["turn doubles"] = list(state.turn_doubles)
    return out


@dataclass
class EffectReport:
    states: int = 0
    actions: int = 0
    """Successors compared, field by field."""
    fields: int = 0
    scored: int = 0
    """Round ends whose scores were compared (on plain values)."""
    winners: int = 0
    """Round ends whose match winners were compared (under the totals reached and made-up
    ties)."""
    differences: list[EffectDifference] = field(default_factory=list)


def _plain(x: Any) -> Any:
    """A model term on plain values: a plain value (a z3 constant left over is folded)."""
    if not isinstance(x, z3.ExprRef):
        return x
    v = z3.simplify(x)
    if z3.is_true(v) or z3.is_false(v):
        return bool(z3.is_true(v))
    if z3.is_int_value(v):
        return v.as_long()
    raise ProofError(f"a model term on a concrete state is not a constant: {v}")


def compare_effects(model: Model, states: Sequence[Any], report: EffectReport | None = None,
                    symbolic: bool = False) -> EffectReport:
    """For every legal action of each engine state: the model enables it, and the engine's
    successor (`refusals.apply`) equals the model's (`Model.effect`) field by field: where
    every tile is, every train's end and whether it is started, the open doubles in the
    order laid and this turn's, every marker and first turn, the seat, starter, phase,
    drawn tile, passes and result, and on plain values the scores of a round that ends
    (spec/model/scoring.py on the model's successor). A draw is compared with the tile the
    engine drew (the model's draw takes any boneyard tile). Not compared: the tiles' order
    along a train (the model has none).

    By default the model runs on the state's plain values (its helpers work on plain
    values and z3 alike, as spec/model/legality.py's do): the same code, fast enough for
    full-size sets. With `symbolic`, the successor is the z3 term the proofs reason about,
    over variables, evaluated in a z3 model of the state: the END-2/END-3 test after a turn
    is then read on the engine's successor, as the proofs read it on the next state
    (`Model.check_blocked` with a target); it reads no field but those compared, so a
    successor that passes every other field is tested as the model's own.
    """
    from mtrain.reference import engine as E
    from mtrain.reference import refusals
    from mtrain.reference.codec import state_to_json

    rep = report if report is not None else EffectReport()
    s, t = (model.state("e"), model.state("f")) if symbolic else (None, None)
    for state in states:
        rep.states += 1
        before = concrete(model, s, state) if s is not None else None
        plain = Sym(**engine_values(model, state))  # one per state: its memo is shared
        for a in E.legal_actions(state):
            after = refusals.apply(state, a)
            tile = state.boneyard[0] if a.kind == "draw" else a.tile
            if s is not None and t is not None and before is not None:
                values = assignment(before + concrete(model, t, after))
                enabled = evaluate(model.guard(s, a.kind, tile, a.train), values)
                mine = _fields(model, _reader(model, values),
                               model.effect(s, a.kind, tile, a.train, t))
            else:
                enabled = _plain(model.guard(plain, a.kind, tile, a.train))
                succ = model.effect(plain, a.kind, tile, a.train)
                mine = _fields(model, _plain, succ)
            label = action_label(model, a) + (f" ({T.name(tile)})" if a.kind == "draw" else "")
            rep.actions += 1
            found: list[tuple[str, Any, Any]] = [] if enabled else [("guard", True, False)]
            theirs = engine_fields(model, after)
            rep.fields += len(mine)
            found += [(k, theirs[k], v) for k, v in mine.items() if theirs[k] != v]
            if s is None and after.result is not None and state.result is None:
                # the round ends: its scores by the model (spec/model/scoring.py)
                scores = result(model, succ)["scores"] if mine["res"] != RUNNING else None
                rep.scored += 1
                if list(after.result.scores) != scores:
                    found.append(("scores", list(after.result.scores), scores))
                rep.winners += 1
                found += winners_differences(model, after)
            for name, eng, mod in found:
                clause = (refusals.permission(state, a) if name == "guard"
                          else field_clause(model, state, a.kind, name.split("[")[0],
                                            (eng, mod), a.train))
                rep.differences.append(EffectDifference(
                    label, name, clause, eng, mod, state_to_json(state)))
    return rep


def tied_totals(players: int) -> list[tuple[list[int], list[int]]]:
    """Totals and rounds won that put ties before the tie rules (MATCH-4, MATCH-5): two
    seats level on the best total under either scoring, then level on outs too."""
    out = []
    for low in (True, False):
        best, worse = (10, 30) if low else (30, 10)
        totals = [best, best, *([worse] * (players - 2))]
        for outs in ([2, 1], [1, 2], [1, 1]):
            out.append((totals, [*outs, *([0] * (players - 2))]))
    return out


def winners_differences(model: Model, after: Any) -> list[tuple[str, Any, Any]]:
    """The match winners of a finished round, the engine's (reference/deal.py) against
    the model's (spec/model/scoring.py), on its totals and on tied_totals."""
    from mtrain.reference.deal import match_winners as engine_winners

    o = Opts(values=model.values)
    found: list[tuple[str, Any, Any]] = []
    over = bool(scoring.match_over(after.round, True, o, model.N))  # MATCH-1, MATCH-7
    if after.match_over != over:
        found.append(("match_over", after.match_over, over))
    for totals, outs in [(list(after.scores), list(after.outs)),
                         *tied_totals(after.players)]:
        st = after.copy()
        st.scores, st.outs = list(totals), list(outs)
        theirs, mine = engine_winners(st), scoring.match_winners(totals, outs, o)
        if sorted(theirs) != sorted(mine):
            found.append((f"winners{totals}/{outs}", sorted(theirs), sorted(mine)))
    return found


SMALL_STATES = 60
"""Explored small-game states per rule set and size in the default `mtrain check`."""
GAME_STATES = 150
"""States of random full-size rounds per rule set in the default run (`--full`: more)."""


def _places(state: Any) -> bool:
    """Whether the next draw of the search places the engine: it is the engine (ENG-4), or
    it ends the lap in which the engine was drawn (ENG-6)."""
    engine = T.DOUBLE[state.engine]
    if not state.rules.everyone_draws:
        return bool(state.boneyard[0] == engine)
    first = (state.starter if state.rules.highest_draw_starts  # SEAT-5: the draw's seat
             else (state.round - 1) % state.players)
    lap_over = (state.seat + 1) % state.players == first or len(state.boneyard) == 1
    return lap_over and (state.boneyard[0] == engine or any(
        h >> engine & 1 for h in state.hands))


def game_effects(rs: Ruleset, states: int, seed: int = 0,
                 report: EffectReport | None = None) -> EffectReport:
    """`compare_effects` on `states` states of the driver's random rounds under `rs` (the
    rounds' last states aside: no action leaves them), each round its own model (the
    engine number and the first seat change)."""
    from mtrain.conformance.crosscheck.driver import random_rounds

    rep = report if report is not None else EffectReport()
    stop = rep.states + states
    model, game = None, None
    for step in random_rounds(rs, seed):
        if rep.states >= stop:
            break
        if step.action is None:
            continue
        if step.game is not game:
            game, model = step.game, step.game.model()
        assert model is not None
        compare_effects(model, [step.state], rep)
    return rep
