"""Termination and deadlock freedom for any tile set, any table size, every rule set.

spec/proofs/termination.py proves both on small sets by unrolling every tile of the round model
(spec/model/transitions.py). Here the sizes are z3 integers: P players (any P >= 2), a set of
any number of tiles, B tiles in the boneyard, H in hands, F first turns still to take;
the option values are z3 integers over every value of every option
(spec/data/options.yaml), so one proof covers every rule set, valid or not. What the
legal actions are comes from spec/model/legality.py (`turn_actions`:
draw, pass and end-chain, with "some play is legal" and "the chain must cover" left free),
so nothing here restates a clause.

The ranking function, lexicographic and bounded below::

    rank = (2*B + H,  F,  2P if mid-turn else (d if B = 0 else 0))

where mid-turn means a chain, a follow-up or a drawn tile, and d (boneyard empty, at the
start of a turn) is the number of turns until somebody plays if everybody passes until
then. Under END-2 the round goes on only if such a turn exists within two rounds of passes
(spec/model/decisions.py `blocked`), so 1 <= d < 2P whenever the mover cannot play; a pass then
changes no hand and no train, so the next turn has d - 1. Under END-3 the third component
is P - passes (the round ends once it reaches 0).

What z3 checks (each query must be unsat):

* ``lemma:chain-cover`` (for 2, 3 and 4 players; the own train's play in a chain reads no
  other train): in a chain, a held tile that fits the mover's own train is a legal play,
  so FIRST-4's "must cover" implies some play is legal;
* ``deadlock``: in phases start, chain and follow, some action is legal (play, draw, pass,
  end-chain), given the chain facts below; in the engine phase drawing is legal (ENG-4);
* ``ranking:<action>``: play (a tile leaves a hand), draw (a tile from the boneyard to a
  hand), pass and end-chain, each enabled by legality's guards, lower the rank.

What it assumes (facts about reachable states, not proved here): a chain is the mover's
first turn and never draws (FIRST-1, FIRST-2, FIRST-3); the effects of the four actions
on B, H, F, passes and d are as above (d bounded where the rank reads it: at the start of
a turn on an empty boneyard, under END-2); in the engine phase the engine's double is in
the boneyard. spec/proofs/assumptions.py proves each of these on the round model
(spec/model/transitions.py, whose effects `effects-vs-engine` checks against the engine), one
z3 query per action of the model, for one rule set on one set at one table size: by
default the shipped variants on double-3 with 2 players; under `--full` every rule set on
double-3 with 2 and 3 players, and every shipped rule set on its own set (double-6 to
double-18) at every table size it deals, in round 1. So the whole argument is a proof for
those sets and tables, and for the counts' abstraction of any other; a set or table no
rule set ships is covered by this module's symbolic proof only.

The longest round is at most (2S + 1) * (P + 1) * (2P + 1) actions for a set of S tiles.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import z3

from mtrain.spec.model import legality as L
from mtrain.spec.model.symbolic import Symbolic

RLIMIT = 5_000_000


@dataclass
class Proof:
    name: str
    answer: str
    seconds: float
    expect: str = "unsat"

    @property
    def ok(self) -> bool:
        return self.answer == self.expect


def _domain(ctx: Any) -> tuple[L.Opts, list[Any]]:
    from mtrain.spec.catalog import catalog

    cat = catalog()
    domain = {o: list(opt.values) for o, opt in cat.options.items()}
    var = {o: z3.Int(f"opt.{o}", ctx) for o in domain}
    bounds = [z3.And(var[o] >= 0, var[o] < len(vs)) for o, vs in domain.items()]
    return L.Opts(var=var, domain=domain), bounds


def _ask(name: str, ctx: Any, facts: list[Any], expect: str = "unsat") -> Proof:
    s = z3.Solver(ctx=ctx)
    s.set("random_seed", 0)
    s.set("rlimit", RLIMIT)
    s.add(*facts)
    t0 = time.perf_counter()
    r = s.check()
    answer = "sat" if r == z3.sat else "unsat" if r == z3.unsat else "unknown"
    return Proof(name, answer, time.perf_counter() - t0, expect)


def chain_cover_lemma(players: int) -> Proof:
    """In a chain, a held tile that fits the own train is legal there (any numbers)."""
    ctx = z3.Context()
    o, bounds = _domain(ctx)
    sym = Symbolic(1, max_players=max(players, 2), prefix="c.", ctx=ctx)
    v = sym.view
    own = v.trains[0]
    slot = v.hand[0]
    lg = L.legal(v, o)
    facts = [*bounds, v.players == players, v.seat == 0, v.phase == L.CHAIN,
             v.first_pending, v.drawn == L.NO_SLOT, slot.present, L.as_term(L.fits(slot, own), ctx),
             z3.Not(L.as_term(lg.plays[0][0], ctx))]
    return _ask(f"lemma:chain-cover:{players}p", ctx, facts)


def chain_cover_premises(players: int) -> Proof:
    """The lemma is not vacuous: its premises hold in some situation."""
    ctx = z3.Context()
    _, bounds = _domain(ctx)
    sym = Symbolic(1, max_players=max(players, 2), prefix="c.", ctx=ctx)
    v = sym.view
    facts = [*bounds, v.players == players, v.seat == 0, v.phase == L.CHAIN,
             v.first_pending, v.drawn == L.NO_SLOT, v.hand[0].present,
             L.as_term(L.fits(v.hand[0], v.trains[0]), ctx)]
    return _ask(f"premises:chain-cover:{players}p", ctx, facts, "sat")


class Counts:
    """The abstract state: sizes and counts as z3 integers."""

    def __init__(self, ctx: Any, tag: str) -> None:
        def i(n: str) -> Any:
            return z3.Int(f"{tag}.{n}", ctx)

        self.B, self.H, self.F, self.d, self.passes = i("B"), i("H"), i("F"), i("d"), i("passes")
        self.phase = i("phase")
        self.drawn = z3.Bool(f"{tag}.drawn", ctx)
        self.pending = z3.Bool(f"{tag}.pending", ctx)

    def mid(self) -> Any:
        return z3.Or(self.phase == L.CHAIN, self.phase == L.FOLLOW, self.drawn)

    def rank(self, P: Any, end3: Any) -> tuple[Any, Any, Any]:
        third = z3.If(self.mid(), 2 * P,
                      z3.If(end3, P - self.passes, z3.If(self.B == 0, self.d, 0)))
        return 2 * self.B + self.H, self.F, third


def _lex_less(a: tuple[Any, ...], b: tuple[Any, ...]) -> Any:
    out = z3.BoolVal(False, a[0].ctx)
    for x, y in reversed(list(zip(a, b, strict=True))):
        out = z3.Or(x < y, z3.And(x == y, out))
    return out


def parametric_proofs() -> list[Proof]:
    """The lemma, deadlock freedom and the ranking, for symbolic sizes and rule sets."""
    out = [q for p in (2, 3, 4) for q in (chain_cover_lemma(p), chain_cover_premises(p))]
    ctx = z3.Context()
    o, bounds = _domain(ctx)
    P = z3.Int("P", ctx)
    s, t = Counts(ctx, "s"), Counts(ctx, "t")
    any_play, must_cover = z3.Bool("any_play", ctx), z3.Bool("must_cover", ctx)
    v = L.View(players=P, seat=0, starter=0, phase=s.phase, first_pending=s.pending,
               firsts_left=s.F >= 1, bone_empty=s.B == 0,
               drawn=z3.If(s.drawn, 0, L.NO_SLOT), hand=[], trains=[])
    draw, pass_, end_chain = (L.as_term(x, ctx) for x in L.turn_actions(v, o, any_play, must_cover))
    end3 = L.as_term(o.is_("blocked_round", "full-round-of-passes"), ctx)
    inv = [*bounds, P >= 2, s.B >= 0, s.H >= 0, s.F >= 0, s.F <= P,
           z3.Implies(s.pending, s.F >= 1),
           s.phase >= L.START, s.phase <= L.FOLLOW,
           # a chain is the mover's first turn and never draws (FIRST-1, FIRST-3)
           z3.Implies(s.phase == L.CHAIN, z3.And(s.pending, z3.Not(s.drawn))),
           # the chain-cover lemma: a double the chain must cover can be covered
           z3.Implies(z3.And(s.phase == L.CHAIN, must_cover), any_play),
           # END-2: the round went on, so somebody plays within two rounds of passes, and
           # not the mover now when it cannot play; END-3: fewer than P passes so far
           # (d is read only at the start of a turn on an empty boneyard, under END-2)
           s.d >= 0, z3.Implies(z3.And(z3.Not(end3), s.B == 0, z3.Not(s.mid())), s.d < 2 * P),
           z3.Implies(z3.And(z3.Not(end3), s.B == 0, s.phase == L.START, z3.Not(s.drawn),
                             z3.Not(any_play)), s.d >= 1),
           # passes are counted on an empty boneyard only (END-3)
           s.passes >= 0, z3.Implies(s.B > 0, s.passes == 0),
           z3.Implies(z3.And(end3, s.B == 0), s.passes < P)]
    out.append(_ask("deadlock", ctx, [*inv, z3.Not(z3.Or(any_play, draw, pass_, end_chain))]))
    r, r2 = s.rank(P, end3), t.rank(P, end3)
    # the counts the next state keeps, unless the action changes them
    keep = [t.F <= s.F, t.F >= 0, t.d >= 0,
            z3.Implies(z3.And(z3.Not(end3), t.B == 0, z3.Not(t.mid())), t.d < 2 * P),
            t.passes >= 0,
            z3.Implies(t.B > 0, t.passes == 0)]
    next_turn = [t.phase == L.START, z3.Not(t.drawn)]
    steps = {
        # TURN-1: a tile leaves the mover's hand; anything else may change
        "play": [any_play, t.B == s.B, t.H == s.H - 1, t.F >= 0],
        # TURN-2, TURN-5: a tile from the boneyard to the mover's hand
        "draw": [draw, t.B == s.B - 1, t.H == s.H + 1, *keep, t.F == s.F],
        # TURN-4, FIRST-3, DBL-5: no tile moves; the mover's first turn ends (FIRST-6);
        # the next turn is one pass closer to the play to come (END-2) or counts it (END-3)
        "pass": [pass_, t.B == s.B, t.H == s.H, *keep, *next_turn,
                 s.F - z3.If(s.pending, 1, 0) == t.F,
                 z3.Implies(z3.And(s.B == 0, z3.Not(s.mid()), z3.Not(s.pending)),
                            t.d == s.d - 1),
                 z3.Implies(s.B == 0, t.passes == s.passes + 1)],
        "end-chain": [end_chain, t.B == s.B, t.H == s.H, *keep, *next_turn,
                      t.F == s.F - 1],
    }
    for name, step in steps.items():
        out.append(_ask(f"ranking:{name}", ctx,
                        [*inv, *step, z3.Not(_lex_less(r2, r))]))
        # not vacuous: the action is enabled in some abstract state
        out.append(_ask(f"enabled:{name}", ctx, [*inv, *step], "sat"))
    out.append(_ask("ranking:bounded", ctx, [*inv, z3.Or(r[0] < 0, r[1] < 0, r[2] < 0,
                                                          r[1] > P, r[2] > 2 * P)]))
    return out


def rank_of(state: Mapping[str, Any], options: Mapping[str, str]) -> tuple[int, int, int]:
    """The ranking function on a canonical JSON state (phases start, chain, follow)."""
    from mtrain.spec.model.decisions import turns_to_play_json

    n = len(state["hands"])
    b = len(state["boneyard"])
    h = sum(len(x) for x in state["hands"])
    f = len(state.get("first_turns", []))
    mid = state["phase"] in ("chain", "follow") or state.get("drawn") is not None
    if mid:
        third = 2 * n
    elif options["blocked_round"] == "full-round-of-passes":
        third = n - int(state["passes"])
    elif b == 0:
        d = turns_to_play_json(state, options)
        third = 2 * n if d is None else d
    else:
        third = 0
    return 2 * b + h, f, third
