"""The questions about how a round ends: the `score` kind (the scores when a player goes
out), the `tie` kind (the match winners when the last round ends), the `match` kind
(whether the match is over when round 1 ends) and the `blocked` kind (whether a pass on an
empty boneyard ends the round)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import z3

from mtrain.spec.distinguish.question import (
    DistinguishError,
    Question,
    Situation,
    option_clauses,
    side_label,
    side_ruleset,
)
from mtrain.spec.distinguish.realise import realise
from mtrain.spec.distinguish.z3_harness import (
    as_bool,
    checked_model,
    common_top,
    minimise_view,
    new_optimizer,
    two_sided,
)
from mtrain.spec.model.legality import (
    MEX,
    SPLIT,
    If,
    Opts,
    Slot,
    View,
    action_text,
    legal_table,
    model_value,
)
from mtrain.spec.model.scoring import (
    hand_counts,
    hand_values,
    match_over,
    match_winners,
    round_scores,
    tile_value,
)
from mtrain.spec.model.symbolic import Symbolic
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.tilesets import highest

# -- the score and tie kinds: a player goes out -----------------------------------------


def _going_out(q: Question, last_round: bool) -> tuple[Any, Symbolic, list[Slot], Any, Opts,
                                                       Opts]:
    """A situation where the mover's only tile is legal under both: it goes out.

    Every other seat holds one tile (a slot of its own); the boneyard is not empty.
    """
    two = two_sided(q, 1)
    sym, opt, oa, ob, la, lb = two.sym, two.opt, two.oa, two.ob, two.la, two.lb
    v, ctx = sym.view, sym.ctx
    j = z3.Int("play_train", ctx)
    opt.add(j >= 0, j < len(v.trains))
    opt.add(z3.Or(*(z3.And(j == k, as_bool(la.plays[0][k], ctx), as_bool(lb.plays[0][k], ctx))
                    for k in range(len(v.trains)))))
    opt.add(z3.Not(v.bone_empty), z3.Not(v.first_pending), *(z3.Not(t.ex_lo) for t in v.trains))
    if last_round:
        opt.add(sym.engine == 0)
    others = [Slot(z3.BoolVal(True, ctx), z3.Int(f"o{p}_a", ctx), z3.Int(f"o{p}_b", ctx))
              for p in range(sym.max_players)]
    mine = v.hand[0]
    for p, s in enumerate(others):
        opt.add(s.a >= 0, s.a <= sym.max_number, s.b >= 0, s.b <= s.a,
                z3.Not(z3.And(s.a == sym.engine, s.b == sym.engine)),
                z3.Or(s.a != mine.a, s.b != mine.b))
        for t in v.trains:
            opt.add(z3.Implies(t.dbl, z3.Not(z3.And(s.a == t.end, s.b == t.end))))
        for s2 in others[:p]:
            opt.add(z3.Or(s.a != s2.a, s.b != s2.b))
    return opt, sym, others, j, oa, ob


def _finish_going_out(q: Question, model: Any, sym: Symbolic, others: list[Slot], j: Any,
                      extra: Mapping[str, Any]) -> tuple[dict[str, Any], str, dict[str, Any]]:
    w = sym.decode(model)
    seat = w["seat"]
    w["other_hands"] = {p: [(model_value(model, others[p].a), model_value(model, others[p].b))]
                        for p in range(w["players"]) if p != seat}
    w.update(extra)
    a, b = q.options("a"), q.options("b")
    table = realise(w, top=common_top(a, b))
    step = action_text("play", tuple(w["hand"][0]), v_name(sym.view, model_value(model, j)))
    for side in ("a", "b"):
        if step not in legal_table(table, side_ruleset(q, side)):
            raise DistinguishError(f"{step} is not legal on the realised table ({side})")
    return table, step, w


def v_name(v: View, k: int) -> str:
    return v.trains[k].name


def _side_scores(table: Mapping[str, Any], rs: Ruleset, seat: int) -> list[int]:
    values = hand_values(table, rs)
    values[seat] = 0
    o = Opts(values=dict(rs.items()))
    return [int(x) for x in round_scores(values, seat, o)]


def solve_score(q: Question) -> Situation | None:
    opt, sym, others, j, oa, ob = _going_out(q, last_round=False)
    v = sym.view
    diffs = []
    for p in range(sym.max_players):
        vals_a = [If(v.seat == r, 0, tile_value(others[r].a, others[r].b, oa))
                  for r in range(sym.max_players)]
        vals_b = [If(v.seat == r, 0, tile_value(others[r].a, others[r].b, ob))
                  for r in range(sym.max_players)]
        present = [z3.And(v.players > r, v.seat != r) for r in range(sym.max_players)]
        vals_a = [If(present[r], vals_a[r], 0) for r in range(sym.max_players)]
        vals_b = [If(present[r], vals_b[r], 0) for r in range(sym.max_players)]
        sa = round_scores(vals_a, v.seat, oa)[p]
        sb = round_scores(vals_b, v.seat, ob)[p]
        diffs.append(z3.And(v.players > p, sa != sb))
    opt.add(z3.Or(*diffs))
    minimise_view(opt, sym)
    for s in others:
        opt.minimize(s.a + s.b)
    model = checked_model(opt, f"{q.a} / {q.b} (scores)")
    if model is None:  # rule sets that score a round gone out alike: a blocked one (SCORE-7)
        return _blocked(q, scores=True)
    table, step, w = _finish_going_out(q, model, sym, others, j, {})
    seat = w["seat"]
    res = {side: {"end": "domino", "winner": seat,
                  "scores": _side_scores(table, side_ruleset(q, side), seat)}
           for side in ("a", "b")}
    if res["a"] == res["b"]:
        raise DistinguishError(f"{q.a} / {q.b}: the realised scores do not differ")
    summary = (f"after {step} goes out: scores {res['a']['scores']} under "
               f"{side_label(q, 'a')}, {res['b']['scores']} under {side_label(q, 'b')}")
    return Situation(q, "score", {"table": table}, [step], {"result": res["a"]},
                     {"result": res["b"]}, option_clauses(q, q.option or "scoring"), summary,
                     witness=w)


def solve_tie(q: Question) -> Situation | None:
    opt, sym, others, j, oa, ob = _going_out(q, last_round=True)
    v, ctx = sym.view, sym.ctx
    n_max = sym.max_players
    # MATCH-1: before the last round a seat has won at most the rounds before it, N of them
    won_before = min(highest(q.options(side)["tile_set"]) for side in ("a", "b"))
    before = [z3.Int(f"total{p}", ctx) for p in range(n_max)]
    outs = [z3.Int(f"outs{p}", ctx) for p in range(n_max)]
    present = [z3.And(v.players > r, v.seat != r) for r in range(n_max)]
    won: dict[str, list[Any]] = {}
    for side, o in (("a", oa), ("b", ob)):
        vals = [If(present[r], tile_value(others[r].a, others[r].b, o), 0) for r in range(n_max)]
        won_round = round_scores(vals, v.seat, o)
        totals = [before[p] + won_round[p] for p in range(n_max)]
        after = [outs[p] + If(v.seat == p, 1, 0) for p in range(n_max)]
        best, most = z3.Int(f"best_{side}", ctx), z3.Int(f"most_{side}", ctx)
        exists = [z3.And(v.players > p) for p in range(n_max)]
        low = o.is_("scoring", "penalty", "penalty-blocked-winner")  # MATCH-2
        for p in range(n_max):
            opt.add(z3.Implies(exists[p], (best <= totals[p]) if low else (best >= totals[p])))
        opt.add(z3.Or(*(z3.And(exists[p], best == totals[p]) for p in range(n_max))))
        tied = [z3.And(exists[p], totals[p] == best) for p in range(n_max)]
        for p in range(n_max):
            opt.add(z3.Implies(tied[p], most >= after[p]))
        opt.add(z3.Or(*(z3.And(tied[p], most == after[p]) for p in range(n_max))))
        most_outs = as_bool(o.is_("tie_rule", "most-outs"), ctx)
        lowest_seat = as_bool(o.is_("tie_rule", "lowest-seat"), ctx)
        # MATCH-6: no lower seat on the winning total
        below = [z3.Or(z3.BoolVal(False, ctx), *tied[:p]) for p in range(n_max)]
        won[side] = [z3.And(tied[p], z3.Or(z3.Not(most_outs), after[p] == most),
                            z3.Or(z3.Not(lowest_seat), z3.Not(below[p])))
                     for p in range(n_max)]
    for p in range(n_max):
        opt.add(before[p] >= 0, before[p] <= 200, outs[p] >= 0,
                outs[p] <= won_before)
    opt.add(z3.Or(*(z3.Xor(x, y) for x, y in zip(won["a"], won["b"], strict=True))))
    minimise_view(opt, sym)
    opt.minimize(z3.Sum(*before))
    opt.minimize(z3.Sum(*outs))
    model = checked_model(opt, f"{q.a} / {q.b} (tie)")
    if model is None:
        return None
    n = model_value(model, v.players)
    extra = {"scores": [model_value(model, before[p]) for p in range(n)],
             "outs": [model_value(model, outs[p]) for p in range(n)]}
    table, step, w = _finish_going_out(q, model, sym, others, j, extra)
    seat = w["seat"]
    winners, outs_after = {}, {}
    for side in ("a", "b"):
        rs = side_ruleset(q, side)
        o = Opts(values=dict(rs.items()))
        scores = _side_scores(table, rs, seat)
        totals = [x + y for x, y in zip(extra["scores"], scores, strict=True)]
        after = [x + (1 if p == seat else 0) for p, x in enumerate(extra["outs"])]
        winners[side] = match_winners(totals, after, o)
        outs_after[side] = after
    if winners["a"] == winners["b"]:
        raise DistinguishError(f"{q.a} / {q.b}: the realised winners do not differ")
    summary = (f"last round, after {step}: winners {winners['a']} under "
               f"{side_label(q, 'a')}, {winners['b']} under {side_label(q, 'b')}")
    return Situation(q, "tie", {"table": table}, [step],
                     {"state": {"outs": outs_after["a"]}, "winners": winners["a"]},
                     {"state": {"outs": outs_after["b"]}, "winners": winners["b"]},
                     option_clauses(q, "tie_rule"), summary,
                     witness=w)


# -- the match kind: round 1 ends ------------------------------------------------------


def solve_match(q: Question) -> Situation | None:
    """A player goes out in round 1 (engine [N-N], ENG-1): the match goes on under a full
    match (MATCH-1) and is over under a single round (MATCH-7), whose winners the round's
    scores name (MATCH-2..6)."""
    if common_top(q.options("a"), q.options("b")) > SPLIT:
        return None  # round 1's engine is above the numbers a situation is written in
    opt, sym, others, j, _, _ = _going_out(q, last_round=False)
    opt.add(sym.engine == sym.max_number)  # round 1 (ENG-1)
    for s in others:  # every other hand worth something: one winner under penalty
        opt.add(s.a > 0)
    minimise_view(opt, sym)
    model = checked_model(opt, f"{q.a} / {q.b} (match)")
    if model is None:
        return None
    table, step, w = _finish_going_out(q, model, sym, others, j, {})
    seat = w["seat"]
    expect: dict[str, dict[str, Any]] = {}
    for side in ("a", "b"):
        rs = side_ruleset(q, side)
        o = Opts(values=dict(rs.items()))
        scores = _side_scores(table, rs, seat)
        if match_over(1, True, o):
            outs = [1 if p == seat else 0 for p in range(len(scores))]
            expect[side] = {"winners": match_winners(scores, outs, o)}
        else:
            expect[side] = {"match_over": False}
    if expect["a"] == expect["b"]:
        raise DistinguishError(f"{q.a} / {q.b}: the match ends alike after round 1")
    said = {side: (f"winners {expect[side]['winners']}" if "winners" in expect[side]
                   else "the match goes on") for side in ("a", "b")}
    summary = (f"round 1, after {step}: {said['a']} under {side_label(q, 'a')}, "
               f"{said['b']} under {side_label(q, 'b')}")
    return Situation(q, "match", {"table": table}, [step], expect["a"], expect["b"],
                     option_clauses(q, "match_length"), summary, witness=w)


# -- the blocked kind: a pass on an empty boneyard --------------------------------------


def solve_blocked(q: Question) -> Situation | None:
    """END-2 against END-3 after a pass on an empty boneyard."""
    return _blocked(q, scores=False)


def _blocked(q: Question, scores: bool) -> Situation | None:
    """END-2 against END-3 after a pass on an empty boneyard; with `scores`, a pass that
    blocks the round under both rule sets, for scores that differ (SCORE-7).

    z3 chooses the players; the table is one where every train ends on a number whose
    tiles are all on the table (so nobody could play, with or without markers), which
    needs as many trains ending there as the set's parity. The mover has just drawn the
    boneyard's last tile, which fits nowhere: a table where nobody can play at the start
    of a turn is one END-2 would already have ended, and after a draw no pass is counted.
    """
    a, b = q.options("a"), q.options("b")
    top = common_top(a, b)
    ctx = z3.Context()
    opt = new_optimizer(ctx)
    n, passes = z3.Int("players", ctx), z3.Int("passes", ctx)
    opt.add(z3.Or(n == 2, n == 3), passes == 0)
    # every seat's train and the Mexican end on m: n + 1 trains, parity of the set
    opt.add((n + 1) % 2 == top % 2)
    stuck = z3.BoolVal(True, ctx)  # nobody holds a tile bearing m: END-2 finds no play
    ends = {}
    for side, o in (("a", Opts(values=a)), ("b", Opts(values=b))):
        end2 = as_bool(o.is_("blocked_round", "nobody-can-play"), ctx)
        ends[side] = z3.If(end2, stuck, passes + 1 == n)  # END-2 / END-3
    opt.add(z3.And(ends["a"], ends["b"]) if scores else z3.Xor(ends["a"], ends["b"]))
    opt.minimize(n)
    opt.minimize(passes)
    model = checked_model(opt, f"{q.a} / {q.b} (blocked)")
    if model is None:
        return None
    players, done = model_value(model, n), model_value(model, passes)
    engine, m = min(SPLIT, top), 0
    seat = done % players
    trains = [{"index": i if i < players else MEX, "empty": False, "end": m, "marked": False,
               "dbl": False, "order": 0, "turn": False, "ex_lo": True,
               "ex_hi": top > SPLIT}
              for i in range(players + 1)]
    for k in range(1, done + 1):  # the seats that passed before this one are marked
        trains[(seat - k) % players]["marked"] = True
    w = {"players": players, "engine": engine, "seat": seat, "starter": 0, "phase": "start",
         "first_pending": False, "bone_empty": True, "drawn": 0, "hand": [(5, 3)],
         "trains": trains, "passes": done}
    table = realise(w, top=top)
    for side in ("a", "b"):
        if legal_table(table, side_ruleset(q, side)) != {"pass"}:
            raise DistinguishError(f"{q.a} / {q.b}: the mover should only pass ({side})")
    res: dict[str, Any] = {}
    for side in ("a", "b"):
        rs = side_ruleset(q, side)
        if model_value(model, ends[side]):
            o = Opts(values=dict(rs.items()))
            res[side] = {"end": "blocked", "winner": None,
                         "scores": [int(x) for x in round_scores(
                             hand_values(table, rs), -1, o, hand_counts(table, rs))]}
        else:
            res[side] = None
    if scores:
        if res["a"] == res["b"]:
            return None
        summary = (f"a pass after drawing the last tile blocks the round: scores "
                   f"{res['a']['scores']} under {side_label(q, 'a')}, {res['b']['scores']} "
                   f"under {side_label(q, 'b')}")
        return Situation(q, "score", {"table": table}, ["pass"], {"result": res["a"]},
                         {"result": res["b"]}, option_clauses(q, q.option or "scoring"),
                         summary, witness=w)
    summary = (f"a pass after drawing the last tile: {_result_text(res['a'])} under "
               f"{side_label(q, 'a')}, {_result_text(res['b'])} under {side_label(q, 'b')}")
    # the pass after the last draw is the first on an empty boneyard (END-3)
    return Situation(q, "blocked", {"table": table}, ["pass"],
                     {"result": res["a"], "state": {"passes": 1}},
                     {"result": res["b"], "state": {"passes": 1}},
                     option_clauses(q, "blocked_round"), summary,
                     witness=w)


def _result_text(r: Any) -> str:
    return "the round goes on" if r is None else f"the round ends {r['end']}"
