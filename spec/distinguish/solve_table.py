"""The questions about one table: the `legal` kind (its legal-action sets differ), the
`marker` kind (the markers after one legal play differ) and the `doubles` kind (a double
laid keeps the turn, or ends it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.distinguish.question import (
    DistinguishError,
    Question,
    Situation,
    flipped,
    option_clauses,
    side_label,
    side_ruleset,
)
from mtrain.spec.distinguish.realise import realise
from mtrain.spec.distinguish.z3_harness import (
    SLOTS,
    as_bool,
    checked_model,
    minimise_view,
    two_sided,
)
from mtrain.spec.model.legality import (
    MEXICAN,
    NO_SLOT,
    START,
    Legal,
    Opts,
    Train,
    View,
    action_text,
    chain_turn,
    legal,
    legal_table,
    model_value,
)
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.yamlload import SpecError

# -- the legal kind ---------------------------------------------------------------------


def _differ(la: Legal, lb: Legal, ctx: Any) -> Any:
    return z3.Or(*(z3.Xor(as_bool(x, ctx), as_bool(y, ctx))
                   for x, y in zip(la.atoms(), lb.atoms(), strict=True)))


def _same(la: Legal, lb: Legal, ctx: Any) -> Any:
    return z3.And(*(as_bool(x, ctx) == as_bool(y, ctx)
                    for x, y in zip(la.atoms(), lb.atoms(), strict=True)))


def _legal_texts(model: Any, v: View, lg: Legal, hand: list[tuple[int, int]]) -> set[str]:
    out = set()
    for i, row in enumerate(lg.plays):
        if i >= len(hand):
            continue
        for t, ok in zip(v.trains, row, strict=True):
            if model_value(model, t.exists) and model_value(model, ok):
                out.add(action_text("play", hand[i], t.name))
    for kind, ok in (("draw", lg.draw), ("pass", lg.pass_), ("end-chain", lg.end_chain)):
        if model_value(model, ok):
            out.add(kind)
    return out


def solve_legal(q: Question) -> Situation | None:
    two = two_sided(q, SLOTS)
    sym, opt, la, lb, top = two.sym, two.opt, two.la, two.lb, two.top
    ctx = sym.ctx
    opt.add(_differ(la, lb, ctx))
    if q.attribute:
        opt.add(_same(la, legal(sym.view, Opts(values=flipped(q))), ctx))
    minimise_view(opt, sym)
    model = checked_model(opt, f"{q.a} / {q.b} ({q.option})")
    if model is None:
        return None
    w = sym.decode(model)
    table = realise(w, top=top)
    ra, rb = side_ruleset(q, "a"), side_ruleset(q, "b")
    got_a, got_b = legal_table(table, ra), legal_table(table, rb)
    want_a = _legal_texts(model, sym.view, la, w["hand"])
    want_b = _legal_texts(model, sym.view, lb, w["hand"])
    if (got_a, got_b) != (want_a, want_b):
        raise DistinguishError(
            f"{q.a} / {q.b}: the table does not realise z3's situation: z3 {sorted(want_a)} / "
            f"{sorted(want_b)}, table {sorted(got_a)} / {sorted(got_b)}: {table}")
    only_a, only_b = sorted(got_a - got_b), sorted(got_b - got_a)
    clauses = _clauses_for(q, lambda c: legal_table(table, c) != got_a)
    summary = _legal_summary(q, only_a, only_b)
    return Situation(q, "legal", {"table": table}, [],
                     {"legal": _sorted_actions(got_a)}, {"legal": _sorted_actions(got_b)},
                     clauses, summary, witness=w)


def _legal_summary(q: Question, only_a: list[str], only_b: list[str]) -> str:
    parts = []
    if only_a:
        parts.append(f"{', '.join(only_a)} legal only under {side_label(q, 'a')}")
    if only_b:
        parts.append(f"{', '.join(only_b)} legal only under {side_label(q, 'b')}")
    return "; ".join(parts)


def _sorted_actions(actions: set[str]) -> list[str]:
    def key(text: str) -> tuple[int, str, int, int]:
        if not text.startswith("play "):
            return (1, text, 0, 0)
        _, tile, _, train = text.split(" ")
        hi, lo = (int(x) for x in tile.split("-"))
        return (0, "~" if train == MEXICAN else f"{int(train):02d}", -hi, -lo)
    return sorted(actions, key=key)


def _clauses_for(q: Question, matters: Callable[[Ruleset], bool]) -> list[str]:
    """The clauses whose `when` names a value of an option that makes the difference.

    With an option asked: that option's two values. Without (two variants): each
    differing option that alone changes a's answer when set to b's value.
    """
    cat = catalog()
    a, b = q.options("a"), q.options("b")
    if q.option is not None:
        options = [q.option]
    else:
        options = []
        base = next(iter(cat.variants))
        for o in cat.options:
            if a[o] == b[o]:
                continue
            c = dict(a)
            c[o] = b[o]
            try:
                rs = cat.ruleset(base, overrides=c)
            except (RulesetError, SpecError):
                rs = Ruleset(name="probe", choices=tuple(c.items()), hand_table=((2, 1),))
            if matters(rs):
                options.append(o)
    out: list[str] = []
    for o in options:
        for v in (a[o], b[o]):
            out += [c.id for c in cat.clauses_for(o, v) if c.id not in out]
    return out


# -- the marker kind --------------------------------------------------------------------


def _marked_after(v: View, o: Opts, slot_train: Train, u: Train, ctx: Any) -> Any:
    """MARK-3/4/5: train u's marker after the mover lays a tile on slot_train."""
    if u.is_mex:
        return False
    here, own = as_bool(slot_train is u, ctx), as_bool(v.own(u), ctx)
    removed = z3.Or(
        z3.And(as_bool(o.is_("marker_removal", "owner-plays-own"), ctx), own, here),
        z3.And(as_bool(o.is_("marker_removal", "anyone-plays-on"), ctx), here),
        z3.And(as_bool(o.is_("marker_removal", "owner-plays-anywhere"), ctx), own))
    return z3.And(as_bool(u.marked, ctx), z3.Not(removed))


def solve_marker(q: Question) -> Situation | None:
    two = two_sided(q, 2)
    sym, opt, oa, ob, la, lb = two.sym, two.opt, two.oa, two.ob, two.la, two.lb
    v, ctx, top = sym.view, sym.ctx, two.top
    opt.add(v.hand[1].present)  # the play does not go out (END-1 would end the round)
    # slot 0 is laid on one train j, legal under both; the markers after it differ
    j = z3.Int("play_train", ctx)
    opt.add(j >= 0, j < len(v.trains))
    choices = []
    for k, t in enumerate(v.trains):
        after_a = [_marked_after(v, oa, t, u, ctx) for u in v.trains]
        after_b = [_marked_after(v, ob, t, u, ctx) for u in v.trains]
        differs = z3.Or(*(z3.Xor(as_bool(x, ctx), as_bool(y, ctx))
                          for x, y in zip(after_a, after_b, strict=True)))
        choices.append(z3.And(j == k, as_bool(la.plays[0][k], ctx), as_bool(lb.plays[0][k], ctx),
                              differs))
    opt.add(z3.Or(*choices))
    opt.add(v.phase == START, v.drawn == NO_SLOT)
    minimise_view(opt, sym)
    opt.minimize(j)
    model = checked_model(opt, f"{q.a} / {q.b} (markers)")
    if model is None:
        return None
    w = sym.decode(model)
    table = realise(w, top=top)
    k = model_value(model, j)
    train = v.trains[k]
    step = action_text("play", tuple(w["hand"][0]), train.name)
    marks = {}
    for side, o in (("a", oa), ("b", ob)):
        marks[side] = sorted(int(u.index) for u in v.trains
                             if not u.is_mex
                             and model_value(model, _marked_after(v, o, train, u, ctx)))
    for side in ("a", "b"):
        if step not in legal_table(table, side_ruleset(q, side)):
            raise DistinguishError(f"{step} is not legal on the realised table ({side})")
    summary = (f"after {step}: markers {marks['a']} under {side_label(q, 'a')}, "
               f"{marks['b']} under {side_label(q, 'b')}")
    clauses = option_clauses(q, "marker_removal")
    return Situation(q, "marker", {"table": table}, [step], {"state": {"marked": marks["a"]}},
                     {"state": {"marked": marks["b"]}}, clauses, summary, witness=w)


# -- the doubles kind -------------------------------------------------------------------


def solve_doubles(q: Question) -> Situation | None:
    """A double legal under both sides, laid outside a first-turn chain and not as the last
    tile: an open double asks for another tile (DBL-1: the same seat, phase follow), an
    ordinary one ends the turn (DBL-11: the next seat, phase start)."""
    two = two_sided(q, 2)
    sym, opt, oa, ob, la, lb = two.sym, two.opt, two.oa, two.ob, two.la, two.lb
    v, ctx, top = sym.view, sym.ctx, two.top
    s = v.hand[0]
    opt.add(v.hand[1].present, s.a == s.b)  # a double, not the last tile (END-1)
    opt.add(v.phase == START, v.drawn == NO_SLOT)
    opt.add(z3.Not(as_bool(chain_turn(v, oa), ctx)), z3.Not(as_bool(chain_turn(v, ob), ctx)))
    j = z3.Int("play_train", ctx)
    opt.add(j >= 0, j < len(v.trains))
    opt.add(z3.Or(*(z3.And(j == k, as_bool(la.plays[0][k], ctx), as_bool(lb.plays[0][k], ctx))
                    for k in range(len(v.trains)))))
    minimise_view(opt, sym)
    opt.minimize(j)
    model = checked_model(opt, f"{q.a} / {q.b} (doubles)")
    if model is None:
        return None
    w = sym.decode(model)
    table = realise(w, top=top)
    train = v.trains[model_value(model, j)]
    step = action_text("play", tuple(w["hand"][0]), train.name)
    seat, players = int(model_value(model, v.seat)), int(model_value(model, v.players))
    laid: int | str = int(train.name) if str(train.name).isdigit() else train.name
    after = {}
    for side in ("a", "b"):
        rs = side_ruleset(q, side)
        if step not in legal_table(table, rs):
            raise DistinguishError(f"{step} is not legal on the realised table ({side})")
        # the table holds no open double (it is valid under ordinary doubles, DBL-11), so
        # the one laid is the only one open and laid this turn under open doubles (DBL-1)
        after[side] = ({"phase": "start", "seat": (seat + 1) % players, "open_doubles": [],
                        "turn_doubles": []}
                       if rs["doubles"] == "ordinary" else
                       {"phase": "follow", "seat": seat, "open_doubles": [laid],
                        "turn_doubles": [laid]})
    summary = (f"after {step}: seat {after['a']['seat']} in phase {after['a']['phase']} under "
               f"{side_label(q, 'a')}, seat {after['b']['seat']} in phase "
               f"{after['b']['phase']} under {side_label(q, 'b')}")
    return Situation(q, "doubles", {"table": table}, [step], {"state": after["a"]},
                     {"state": after["b"]}, ["DBL-1", "DBL-11"], summary, witness=w)
