"""How a z3 question is asked: a fresh optimiser, seeded and resource-bounded, whose
`unknown` is an error; and the abstract table both sides of a question are asked about.

Every question runs with a fixed random seed and a resource limit (`rlimit`,
deterministic) rather than a wall-clock timeout, so the answers never depend on the machine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import z3

from mtrain.spec.distinguish.question import DistinguishError, Question
from mtrain.spec.model.legality import (
    NO_SLOT,
    SPLIT,
    START,
    Count,
    If,
    Legal,
    Opts,
    legal,
)
from mtrain.spec.model.logic import as_term
from mtrain.spec.model.symbolic import Symbolic
from mtrain.spec.tilesets import highest

SEED: Final = 0
RLIMIT: Final = 10_000_000
"""Resource limit of one z3 question: deterministic (the largest here uses under 1M units)."""
SLOTS: Final = 3
"""Tiles in the mover's hand, at most, in a legal-kind situation."""


def new_optimizer(ctx: Any) -> Any:
    """A fresh optimiser in the question's own context, seeded and resource-bounded."""
    z3.set_param("smt.random_seed", SEED)
    opt = z3.Optimize(ctx=ctx)
    opt.set("rlimit", RLIMIT)
    return opt


QUERY_LOG: list[tuple[str, int]] = []
"""(question, rlimit units used) of every z3 query asked in this process."""


def checked_model(opt: Any, what: str) -> Any:
    """The model, or None when unsat; unknown is an error."""
    r = opt.check()
    stats = opt.statistics()
    names = list(stats.keys())
    used = int(stats.get_key_value("rlimit count")) if "rlimit count" in names else 0
    QUERY_LOG.append((what, used))
    if r == z3.sat:
        return opt.model()
    if r == z3.unsat:
        return None
    raise DistinguishError(f"z3 answered {r} for {what}: {opt.reason_unknown()}")


as_bool = as_term
"""A z3 Bool in the context `ctx`, from a z3 term or a plain bool (the model's logic)."""


@dataclass
class TwoSided:
    """One abstract table asked about under both rule sets of a question."""

    sym: Symbolic
    oa: Opts
    ob: Opts
    opt: Any  # z3.Optimize
    la: Legal
    lb: Legal
    top: int  # the set a realised table is written for (common_top)


def common_top(*options: Mapping[str, str]) -> int:
    """The highest number of the set a table serving every one of these rule sets is
    written in: the smallest of their sets, whose tiles every set of them holds (a larger
    set's other tiles are `rest`, never on the table)."""
    return min(highest(o["tile_set"]) for o in options)


def wide_top(top: int) -> int | None:
    """Symbolic.structure's argument for a table written in a double-`top` set."""
    return top if top > SPLIT else None


def two_sided(q: Question, slots: int) -> TwoSided:
    """A well-formed abstract table under both sides' options, and its legal actions."""
    a, b = q.options("a"), q.options("b")
    top = common_top(a, b)
    sym = Symbolic(slots, 3, max_number=top)
    oa, ob = Opts(values=a), Opts(values=b)
    opt = new_optimizer(sym.ctx)
    opt.add(*sym.structure(wide_top(top)), *sym.well_formed(oa), *sym.well_formed(ob))
    return TwoSided(sym, oa, ob, opt, legal(sym.view, oa), legal(sym.view, ob), top)


def minimise_view(opt: Any, sym: Symbolic) -> None:
    """Smallest first: hand, players, exhausted numbers, open doubles, trains, markers..."""
    v = sym.view
    opt.minimize(Count(s.present for s in v.hand))
    opt.minimize(v.players)
    opt.minimize(Count(t.ex_lo for t in v.trains))
    opt.minimize(Count(t.dbl for t in v.trains))
    opt.minimize(Count(z3.And(t.exists, z3.Not(t.empty)) for t in v.trains))
    opt.minimize(Count(t.marked for t in v.trains))
    opt.minimize(If(v.phase == START, 0, 1))
    opt.minimize(If(v.first_pending, 1, 0))
    opt.minimize(If(v.drawn == NO_SLOT, 0, 1))
    opt.minimize(If(v.bone_empty, 1, 0))
    opt.minimize(v.seat)
    opt.maximize(sym.engine)
