"""Situations that tell two rule sets apart, found by z3 and written as fixtures.

For every pair of shipped variants, and for every pair of values of every option, z3
searches for the smallest well-formed situation in which the two rule sets disagree.
Most options change which actions are legal, and for them the situation is a table
whose legal-action sets differ (spec/legality.py is the formalisation). The others act
elsewhere, and each has its own small question:

=====================  =======================================================
kind                   options, and what differs
=====================  =======================================================
``legal``              tile_set, first_turn, mexican_first_turn, own_train_first,
                       follow_up, double_order, uncoverable_double, draw_rule:
                       the legal actions of one table
``marker``             marker_removal: the markers after one legal play
``blocked``            blocked_round: whether a pass on an empty boneyard ends
                       the round
``score``              scoring, blank_values: the scores when a player goes out
``tie``                tie_rule: the match winners when the last round ends
``deal``               hand_sizes, engine_procedure, starting_seat: the table
                       right after the deal
=====================  =======================================================

A pair of values is asked under two rule sets that can be written as a variant plus
overlays (fixtures name rule sets that way), chosen to differ in as few options as
possible besides the one asked about, among the options that can matter to the kind.

Every z3 question runs in a fresh solver with a fixed random seed and a resource limit
(`rlimit`, deterministic) rather than a wall-clock timeout; an ``unknown`` answer is an
error. The witness is realised as a concrete table in the fixture notation (real tiles
reaching the required open ends, `rest` for the others), and the expectations of both
sides are computed by evaluating the same formalisation on that table (for the legal
kind, z3's own evaluation of the abstract model is checked against it).

    python -m mtrain.spec.distinguish --write     regenerate conformance/fixtures/generated/
    python -m mtrain.spec.distinguish --check     exit 1 if the files are stale
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import z3

from mtrain.spec import tiles as T
from mtrain.spec.catalog import Catalog, RulesetError, catalog
from mtrain.spec.legality import (
    MEX,
    MEXICAN,
    NO_SLOT,
    SPLIT,
    START,
    And,
    Count,
    If,
    Legal,
    Opts,
    Slot,
    Symbolic,
    Train,
    View,
    action_text,
    legal,
    legal_table,
    model_value,
)
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.tilesets import highest
from mtrain.spec.yamlload import SpecError

__all__ = [
    "GENERATED_DIR",
    "KIND",
    "DistinguishError",
    "Question",
    "Situation",
    "generate",
    "questions",
    "render_files",
    "situation_for",
]

SEED: Final = 0
RLIMIT: Final = 10_000_000
"""Resource limit of one z3 question: deterministic (the largest here uses under 1M units)."""
SLOTS: Final = 3
"""Tiles in the mover's hand, at most, in a legal-kind situation."""
MAX_OVERLAYS: Final = 3
GENERATED_DIR: Final = (Path(__file__).resolve().parent.parent
                         / "conformance" / "fixtures" / "generated")
"""Where the generated fixtures live (the source tree, not the editable install's links)."""

LEGAL_OPTIONS: Final = ("tile_set", "first_turn", "mexican_first_turn", "own_train_first",
                        "follow_up", "double_order", "uncoverable_double", "draw_rule")
KIND: Final[dict[str, str]] = {
    **{o: "legal" for o in LEGAL_OPTIONS},
    "marker_removal": "marker",
    "blocked_round": "blocked",
    "scoring": "score",
    "blank_values": "score",
    "tie_rule": "tie",
    "hand_sizes": "deal",
    "engine_procedure": "deal",
    "starting_seat": "deal",
}
"""Which question tells apart the values of each option."""
RELEVANT: Final[dict[str, tuple[str, ...]]] = {
    "legal": LEGAL_OPTIONS,
    "marker": (*LEGAL_OPTIONS, "marker_removal"),
    "blocked": (*LEGAL_OPTIONS, "blocked_round", "scoring", "blank_values"),
    "score": (*LEGAL_OPTIONS, "scoring", "blank_values"),
    "tie": (*LEGAL_OPTIONS, "scoring", "blank_values", "tie_rule"),
    "deal": ("tile_set", "hand_sizes", "engine_procedure", "starting_seat"),
}
"""The options that can change the answer of each kind of question."""


class DistinguishError(RuntimeError):
    """z3 answered unknown, or a witness could not be realised as a table."""


# -- z3 ---------------------------------------------------------------------------------


def _optimize(ctx: Any) -> Any:
    """A fresh optimiser in the question's own context, seeded and resource-bounded."""
    z3.set_param("smt.random_seed", SEED)
    opt = z3.Optimize(ctx=ctx)
    opt.set("rlimit", RLIMIT)
    return opt


QUERY_LOG: list[tuple[str, int]] = []
"""(question, rlimit units used) of every z3 query asked in this process."""


def _check(opt: Any, what: str) -> Any:
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


_val = model_value


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


def _two_sided(q: Question, slots: int) -> TwoSided:
    """A well-formed abstract table under both sides' options, and its legal actions."""
    a, b = q.options("a"), q.options("b")
    top = common_top(a, b)
    sym = Symbolic(slots, 3, max_number=top)
    oa, ob = Opts(values=a), Opts(values=b)
    opt = _optimize(sym.ctx)
    opt.add(*sym.structure(wide_top(top)), *sym.well_formed(oa), *sym.well_formed(ob))
    return TwoSided(sym, oa, ob, opt, legal(sym.view, oa), legal(sym.view, ob), top)


# -- rule sets that fixtures can name ----------------------------------------------------


@functools.cache
def expressible() -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """Every rule set written as a shipped variant plus up to MAX_OVERLAYS overlays.

    Overlays that change nothing, or two overlays on the same option, are left out.
    Ordered: fewer overlays first, then variant order, then overlay order.
    """
    cat = catalog()
    out = []
    names = list(cat.overlays)
    for k in range(MAX_OVERLAYS + 1):
        for base in cat.variants:
            base_rs = cat.ruleset(base)
            for combo in itertools.combinations(names, k):
                touched = [o for ov in combo for o in cat.overlays[ov].options]
                if len(touched) != len(set(touched)):
                    continue
                if any(all(base_rs[o] == v for o, v in cat.overlays[ov].options.items())
                       for ov in combo):
                    continue
                name = "+".join((base, *combo))
                try:
                    rs = cat.ruleset(name)
                except (RulesetError, SpecError):
                    continue
                out.append((name, tuple(rs.items())))
    return tuple(out)


def choose_pair(option: str, v1: str, v2: str) -> list[tuple[str, str]]:
    """Pairs of nameable rule sets taking v1 and v2, best first (a short list).

    Best: fewest other differences among the options relevant to the option's kind,
    then fewest other differences at all, then fewest overlays, then catalog order.
    """
    relevant = [o for o in RELEVANT[KIND[option]] if o != option]
    every = expressible()
    side_a = [(i, n, dict(c)) for i, (n, c) in enumerate(every) if dict(c)[option] == v1]
    side_b = [(i, n, dict(c)) for i, (n, c) in enumerate(every) if dict(c)[option] == v2]
    scored = []
    by_key: dict[tuple[str, ...], list[tuple[int, str, dict[str, str]]]] = {}
    for entry in side_b:
        by_key.setdefault(tuple(entry[2][o] for o in relevant), []).append(entry)
    for ia, na, ca in side_a:
        for ib, nb, cb in by_key.get(tuple(ca[o] for o in relevant), []):
            other = sum(ca[o] != cb[o] for o in ca if o != option)
            scored.append(((0, other, na.count("+") + nb.count("+"), ia + ib, ia), na, nb))
    if not scored:  # no pair agrees on every relevant option: the nearest ones
        for ia, na, ca in side_a[:300]:
            for ib, nb, cb in side_b[:300]:
                near = sum(ca[o] != cb[o] for o in relevant)
                other = sum(ca[o] != cb[o] for o in ca if o != option)
                scored.append(((near, other, na.count("+") + nb.count("+"), ia + ib, ia),
                               na, nb))
    scored.sort()
    return [(na, nb) for _, na, nb in scored[:8]]


# -- questions and answers ---------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    """Tell rule set `a` from rule set `b`; `option` names the option asked about (if any).

    With `attribute`, the situation must owe the difference to `option` alone: `b` with
    `option` set back to `a`'s value answers as `a` does.
    """

    a: str
    b: str
    option: str | None = None
    attribute: bool = False
    a_options: tuple[tuple[str, str], ...] = ()
    b_options: tuple[tuple[str, str], ...] = ()

    @property
    def kind(self) -> str:
        return KIND[self.option] if self.option else "legal"

    def options(self, side: str) -> dict[str, str]:
        return dict(self.a_options if side == "a" else self.b_options)


@dataclass
class Situation:
    """A distinguishing situation, ready to be written as a fixture."""

    question: Question
    kind: str
    start: dict[str, Any]
    """{"table": ...} or {"deal": ...}."""
    steps: list[str]
    expect_a: dict[str, Any]
    expect_b: dict[str, Any]
    clauses: list[str]
    summary: str
    """One line: what differs."""
    seconds: float = 0.0
    witness: dict[str, Any] = field(default_factory=dict)
    attributed: bool | None = None
    """With attribution asked: whether the situation owes the difference to the option
    alone (None: not asked)."""

    def to_json(self) -> dict[str, Any]:
        q = self.question
        return {"option": q.option, "kind": self.kind, "a": q.a, "b": q.b, **self.start,
                "steps": self.steps, "expect": {"a": self.expect_a, "b": self.expect_b},
                "summary": self.summary, "clauses": self.clauses,
                "attributed": self.attributed, "seconds": round(self.seconds, 3)}


def make_question(a: str | Ruleset, b: str | Ruleset, option: str | None = None,
                  attribute: bool = False, cat: Catalog | None = None) -> Question:
    cat = cat or catalog()
    ra = a if isinstance(a, Ruleset) else cat.ruleset(a)
    rb = b if isinstance(b, Ruleset) else cat.ruleset(b)
    return Question(ra.name, rb.name, option, attribute, tuple(ra.items()), tuple(rb.items()))


def situation_for(q: Question) -> Situation | None:
    """The smallest situation of the question's kind, or None when there is none."""
    t0 = time.perf_counter()
    solver = SOLVERS[q.kind]
    found = solver(q)
    if found is not None:
        found.seconds = time.perf_counter() - t0
        if found.attributed is None and q.attribute:
            found.attributed = True
    return found


# -- the legal kind ---------------------------------------------------------------------


def _differ(la: Legal, lb: Legal, ctx: Any) -> Any:
    return z3.Or(*(z3.Xor(_b(x, ctx), _b(y, ctx))
                   for x, y in zip(la.atoms(), lb.atoms(), strict=True)))


def _same(la: Legal, lb: Legal, ctx: Any) -> Any:
    return z3.And(*(_b(x, ctx) == _b(y, ctx)
                    for x, y in zip(la.atoms(), lb.atoms(), strict=True)))


def _b(x: Any, ctx: Any) -> Any:
    """A z3 Bool in the context `ctx`, from a z3 term or a plain bool."""
    return x if isinstance(x, z3.ExprRef) else z3.BoolVal(bool(x), ctx)


def _flip(q: Question) -> dict[str, str]:
    """Rule set b with the asked option set back to a's value."""
    assert q.option is not None
    c = q.options("b")
    c[q.option] = q.options("a")[q.option]
    return c


def _minimise_view(opt: Any, sym: Symbolic) -> None:
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


def _legal_texts(model: Any, v: View, lg: Legal, hand: list[tuple[int, int]]) -> set[str]:
    out = set()
    for i, row in enumerate(lg.plays):
        if i >= len(hand):
            continue
        for t, ok in zip(v.trains, row, strict=True):
            if _val(model, t.exists) and _val(model, ok):
                out.add(action_text("play", hand[i], t.name))
    for kind, ok in (("draw", lg.draw), ("pass", lg.pass_), ("end-chain", lg.end_chain)):
        if _val(model, ok):
            out.add(kind)
    return out


def solve_legal(q: Question) -> Situation | None:
    two = _two_sided(q, SLOTS)
    sym, opt, la, lb, top = two.sym, two.opt, two.la, two.lb, two.top
    ctx = sym.ctx
    opt.add(_differ(la, lb, ctx))
    if q.attribute:
        opt.add(_same(la, legal(sym.view, Opts(values=_flip(q))), ctx))
    _minimise_view(opt, sym)
    model = _check(opt, f"{q.a} / {q.b} ({q.option})")
    if model is None:
        return None
    w = sym.decode(model)
    table = realise(w, top=top)
    ra, rb = _rs(q, "a"), _rs(q, "b")
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


def _rs(q: Question, side: str) -> Ruleset:
    """A Ruleset for one side: its name and options as the question gives them."""
    name = q.a if side == "a" else q.b
    return Ruleset(name=name, choices=tuple(q.options(side).items()), hand_table=((2, 1),))


def _legal_summary(q: Question, only_a: list[str], only_b: list[str]) -> str:
    parts = []
    if only_a:
        parts.append(f"{', '.join(only_a)} legal only under {_side_label(q, 'a')}")
    if only_b:
        parts.append(f"{', '.join(only_b)} legal only under {_side_label(q, 'b')}")
    return "; ".join(parts)


def _side_label(q: Question, side: str) -> str:
    if q.option is None:
        return q.a if side == "a" else q.b
    return q.options(side)[q.option]


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


# -- realising an abstract situation as a table -----------------------------------------


class _Realiser:
    """Real tiles for an abstract witness: trains reaching their open ends, hands, boneyard."""

    def __init__(self, w: Mapping[str, Any], top: int) -> None:
        self.w = w
        self.top = top
        self.engine = int(w["engine"])
        self.hand = {T.tile_id(a, b) for a, b in w["hand"]}
        for tiles in w.get("other_hands", {}).values():
            self.hand |= {T.tile_id(a, b) for a, b in tiles}
        self.finals = {T.tile_id(t["end"], t["end"]) for t in w["trains"] if t["dbl"]}
        self.used: set[int] = set()
        self.banned_numbers: set[int] = {t["end"] for t in w["trains"] if t["ex_lo"]}

    def free(self, tile: int) -> bool:
        return (tile not in self.used and tile not in self.hand and tile not in self.finals
                and tile != T.DOUBLE[self.engine])

    def walks(self, start: int, target: int, top: int = SPLIT, max_len: int = 5
              ) -> Iterator[list[int]]:
        """Walks of numbers from start to target over free tiles, shortest first."""
        min_len = 3 if start == target else 1

        def dfs(path: list[int], used: set[int], length: int) -> Iterator[list[int]]:
            cur = path[-1]
            if len(path) - 1 == length:
                if cur == target:
                    yield list(path)
                return
            for nxt in range(top + 1):
                if nxt == cur or (nxt in self.banned_numbers):
                    continue
                tile = T.tile_id(cur, nxt)
                if tile in used or not self.free(tile):
                    continue
                used.add(tile)
                path.append(nxt)
                yield from dfs(path, used, length)
                path.pop()
                used.discard(tile)

        for length in range(min_len, max_len + 1):
            yield from dfs([start], set(), length)

    def exhausted(self, d: Mapping[str, Any], others: list[Mapping[str, Any]]
                  ) -> dict[int, list[int]] | None:
        """Walks that put every tile bearing d's number on the table: d's and others'."""
        n, e = int(d["end"]), self.engine
        numbers = [x for x in range(min(self.top, SPLIT) + 1) if x != n]
        if d["ex_hi"]:
            numbers += list(range(SPLIT + 1, self.top + 1))
        bans = self.banned_numbers
        self.banned_numbers = bans | {n}
        try:
            for entries in itertools.permutations([x for x in numbers if x != e], len(others)):
                rest = [x for x in numbers if x != e and x not in entries]
                saved = set(self.used)
                ok = True
                out: dict[int, list[int]] = {}
                for s, x in zip(others, entries, strict=True):
                    if not self.free(T.tile_id(x, n)):
                        ok = False
                        break
                    walk = next(self.walks(e, x), None)
                    if walk is None:
                        ok = False
                        break
                    self._use([*walk, n])
                    out[int(s["index"])] = [*walk, n]
                if ok:
                    pairs = self._pairs(rest, n)
                    if pairs is not None:
                        # the double [n-n]: open at the end of d, or covered inside it
                        walk = [e, n] if d["dbl"] else [e, n, n]
                        for y, x in pairs:
                            walk += [y, x, n]
                        self._use(walk)
                        if d["dbl"]:
                            walk.append(n)
                        out[int(d["index"])] = walk
                        return out
                self.used = saved
            return None
        finally:
            self.banned_numbers = bans

    def _pairs(self, rest: list[int], n: int) -> list[tuple[int, int]] | None:
        """Pair the numbers into excursions n -> y -> x -> n over free connectors [y-x]."""
        if not rest:
            return []
        if any(not self.free(T.tile_id(n, x)) for x in rest):
            return None
        y = rest[0]
        for x in rest[1:]:
            tile = T.tile_id(y, x)
            if not self.free(tile):
                continue
            self.used.add(tile)
            more = self._pairs([z for z in rest[1:] if z != x], n)
            if more is not None:
                return [(y, x), *more]
            self.used.discard(tile)
        return None

    def _use(self, walk: list[int]) -> None:
        for u, v in itertools.pairwise(walk):
            self.used.add(T.tile_id(u, v))

    def trains(self) -> dict[int, list[int]]:
        """Walks (lists of numbers from the engine) for every non-empty train."""
        w = self.w
        out: dict[int, list[int]] = {}
        live = [t for t in w["trains"] if not t["empty"]]
        ex = [t for t in live if t["ex_lo"]]
        if ex:
            d = next((t for t in ex if t["dbl"]), ex[0])
            others = [t for t in live if t is not d and t["end"] == d["end"]]
            found = self.exhausted(d, others)
            if found is None:
                raise DistinguishError(f"cannot lay every tile of {d['end']} on the table")
            out.update(found)
        rest = [t for t in live if int(t["index"]) not in out]
        if not self._place(rest, out):
            raise DistinguishError(f"cannot lay trains reaching {[t['end'] for t in rest]}")
        return out

    def _place(self, todo: list[Mapping[str, Any]], out: dict[int, list[int]]) -> bool:
        if not todo:
            return True
        t, more = todo[0], todo[1:]
        end = int(t["end"])
        for count, walk in enumerate(self.walks(self.engine, end)):
            if count >= 30:
                break
            tiles = [T.tile_id(u, v) for u, v in itertools.pairwise(walk)]
            self.used |= set(tiles)
            if self._place(more, out):
                out[int(t["index"])] = walk + ([end] if t["dbl"] else [])
                return True
            self.used -= set(tiles)
        return False


def realise(w: Mapping[str, Any], top: int) -> dict[str, Any]:
    """The fixture table of an abstract witness."""
    r = _Realiser(w, top)
    walks = r.trains()
    n = int(w["players"])
    seat = int(w["seat"])
    on_table = {T.DOUBLE[r.engine]}
    trains: dict[Any, list[str]] = {}
    for t in w["trains"]:
        idx = int(t["index"])
        if idx not in walks:
            continue
        walk = walks[idx]
        tiles = [f"{u}-{v}" for u, v in itertools.pairwise(walk)]
        on_table |= {T.tile_id(u, v) for u, v in itertools.pairwise(walk)}
        trains[MEXICAN if idx == MEX else idx] = tiles
    hands: dict[int, list[str]] = {seat: [f"{a}-{b}" for a, b in w["hand"]]}
    given = {int(j): [f"{a}-{b}" for a, b in tiles]
             for j, tiles in w.get("other_hands", {}).items()}
    taken = on_table | r.hand
    spare = [x for x in range(T.set_size(min(top, SPLIT))) if x not in taken
             and not ({T.HIGH[x], T.LOW[x]} & r.banned_numbers)]
    others = [j for j in range(n) if j != seat]
    for k, j in enumerate(others):
        hands[j] = given.get(j) or [T.name(spare[k])]
    if w["bone_empty"]:
        hands[others[-1]].append("rest")
    table: dict[str, Any] = {"engine": r.engine, "seat": seat}
    if w["first_pending"]:  # else the loader's default: SEAT-3's seat, or the mover
        table["starter"] = int(w["starter"])
    if w["phase"] != "start":
        table["phase"] = w["phase"]
    table["hands"] = {j: hands[j] for j in range(n)}
    laid = sorted((t for t in w["trains"] if not t["empty"]),
                  key=lambda t: (t["index"] == MEX, t["index"]))
    if laid:
        table["trains"] = {_train_key(t): trains[_train_key(t)] for t in laid}
    marked = sorted(int(t["index"]) for t in w["trains"] if t["marked"])
    if marked:
        table["marked"] = marked
    if w["bone_empty"]:
        table["boneyard"] = []
    dbl = sorted((t for t in w["trains"] if t["dbl"]), key=lambda t: t["order"])
    if dbl:
        table["open_doubles"] = [_train_key(t) for t in dbl]
    turn = [t for t in dbl if t["turn"]]
    if turn:
        table["turn_doubles"] = [_train_key(t) for t in turn]
    if w["first_pending"]:
        start = int(w["starter"])
        pending = [seat]
        j = (seat + 1) % n
        while j != start and j != seat:
            pending.append(j)
            j = (j + 1) % n
        if seat == start:
            pending = list(range(n))
        table["first_turns"] = sorted(pending)
    if w["drawn"] != NO_SLOT:
        a, b = w["hand"][w["drawn"]]
        table["drawn"] = f"{a}-{b}"
    for key in ("passes", "scores", "outs"):
        if key in w:
            table[key] = w[key]
    _check_exhaustion(w, table, top)
    return table


def _train_key(t: Mapping[str, Any]) -> Any:
    return MEXICAN if t["index"] == MEX else int(t["index"])


def _check_exhaustion(w: Mapping[str, Any], table: Mapping[str, Any], top: int) -> None:
    """Every double's number is on the table exactly when the witness says so."""
    on: set[int] = set()
    for tiles in table.get("trains", {}).values():
        on |= {T.parse(x) for x in tiles}
    for t in w["trains"]:
        if not (t["dbl"] or t["ex_lo"]):
            continue
        n = int(t["end"])
        lo = all(T.tile_id(n, x) in on for x in range(min(top, SPLIT) + 1))
        hi = all(T.tile_id(n, x) in on for x in range(SPLIT + 1, top + 1))
        if lo != t["ex_lo"] or (top > SPLIT and hi != t["ex_hi"]):
            raise DistinguishError(f"number {n}: tiles on the table do not match the witness")


# -- the marker kind --------------------------------------------------------------------


def _marked_after(v: View, o: Opts, slot_train: Train, u: Train, ctx: Any) -> Any:
    """MARK-3/4/5: train u's marker after the mover lays a tile on slot_train."""
    if u.is_mex:
        return False
    here = _b(slot_train is u, ctx)
    removed = z3.Or(
        z3.And(_b(o.is_("marker_removal", "owner-plays-own"), ctx), _b(v.own(u), ctx), here),
        z3.And(_b(o.is_("marker_removal", "anyone-plays-on"), ctx), here),
        z3.And(_b(o.is_("marker_removal", "owner-plays-anywhere"), ctx), _b(v.own(u), ctx)))
    return z3.And(_b(u.marked, ctx), z3.Not(removed))


def solve_marker(q: Question) -> Situation | None:
    two = _two_sided(q, 2)
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
        differs = z3.Or(*(z3.Xor(_b(x, ctx), _b(y, ctx))
                          for x, y in zip(after_a, after_b, strict=True)))
        choices.append(z3.And(j == k, _b(la.plays[0][k], ctx), _b(lb.plays[0][k], ctx),
                              differs))
    opt.add(z3.Or(*choices))
    opt.add(v.phase == START, v.drawn == NO_SLOT)
    _minimise_view(opt, sym)
    opt.minimize(j)
    model = _check(opt, f"{q.a} / {q.b} (markers)")
    if model is None:
        return None
    w = sym.decode(model)
    table = realise(w, top=top)
    k = _val(model, j)
    train = v.trains[k]
    step = action_text("play", tuple(w["hand"][0]), train.name)
    marks = {}
    for side, o in (("a", oa), ("b", ob)):
        marks[side] = sorted(int(u.index) for u in v.trains
                             if not u.is_mex
                             and _val(model, _marked_after(v, o, train, u, ctx)))
    for side in ("a", "b"):
        if step not in legal_table(table, _rs(q, side)):
            raise DistinguishError(f"{step} is not legal on the realised table ({side})")
    summary = (f"after {step}: markers {marks['a']} under {_side_label(q, 'a')}, "
               f"{marks['b']} under {_side_label(q, 'b')}")
    clauses = _option_clauses(q, "marker_removal")
    return Situation(q, "marker", {"table": table}, [step], {"state": {"marked": marks["a"]}},
                     {"state": {"marked": marks["b"]}}, clauses, summary, witness=w)


def _option_clauses(q: Question, option: str) -> list[str]:
    cat = catalog()
    out: list[str] = []
    for v in (q.options("a")[option], q.options("b")[option]):
        out += [c.id for c in cat.clauses_for(option, v) if c.id not in out]
    return out


# -- scoring, from the clauses ----------------------------------------------------------


def tile_value(a: Any, b: Any, o: Opts) -> Any:
    """SCORE-1..4: what a tile [a-b] (a >= b) is worth under the rule set's blank values."""
    pips = a + b
    blanks = If(a == 0, 2, If(b == 0, 1, 0))
    double_blank = And(a == 0, b == 0)
    return If(o.is_("blank_values", "blank-25"), pips + 25 * blanks,
              If(o.is_("blank_values", "double-blank-50"), If(double_blank, 50, pips),
                 If(o.is_("blank_values", "double-blank-25"), If(double_blank, 25, pips),
                    pips)))


def round_scores(values: Sequence[Any], winner: Any, o: Opts) -> list[Any]:
    """SCORE-5 (penalty: what each hand holds) and SCORE-6 (positive: the winner collects).

    `values[p]` is the value of seat p's hand; `winner` the seat that went out, or -1 for
    a blocked round (SCORE-6: a blocked round scores 0 under positive scoring).
    """
    total = sum(values[1:], values[0]) if values else 0
    out = []
    for p, value in enumerate(values):
        out.append(If(o.is_("scoring", "penalty"), If(winner == p, 0, value),
                      If(winner == p, total - value, 0)))
    return out


def match_winners(totals: Sequence[int], outs: Sequence[int], o: Opts) -> list[int]:
    """MATCH-2..5 on plain values: the lowest (penalty) or highest (positive) total wins."""
    best = min(totals) if o.is_("scoring", "penalty") else max(totals)
    tied = [p for p, v in enumerate(totals) if v == best]
    if o.is_("tie_rule", "most-outs") and len(tied) > 1:
        most = max(outs[p] for p in tied)
        tied = [p for p in tied if outs[p] == most]
    return tied


def _hand_values(table: Mapping[str, Any], rs: Ruleset) -> list[int]:
    from mtrain.conformance.fixture import table_state

    state = table_state(table, rs)
    o = Opts(values=dict(rs.items()))
    return [sum(int(tile_value(T.HIGH[t], T.LOW[t], o)) for t in (T.parse(x) for x in hand))
            for hand in state["hands"]]


# -- the score and tie kinds: a player goes out -------------------------------------------


def _going_out(q: Question, last_round: bool) -> tuple[Any, Symbolic, list[Slot], Any, Opts,
                                                       Opts]:
    """A situation where the mover's only tile is legal under both: it goes out.

    Every other seat holds one tile (a slot of its own); the boneyard is not empty.
    """
    two = _two_sided(q, 1)
    sym, opt, oa, ob, la, lb = two.sym, two.opt, two.oa, two.ob, two.la, two.lb
    v, ctx = sym.view, sym.ctx
    j = z3.Int("play_train", ctx)
    opt.add(j >= 0, j < len(v.trains))
    opt.add(z3.Or(*(z3.And(j == k, _b(la.plays[0][k], ctx), _b(lb.plays[0][k], ctx))
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
    w["other_hands"] = {p: [(_val(model, others[p].a), _val(model, others[p].b))]
                        for p in range(w["players"]) if p != seat}
    w.update(extra)
    a, b = q.options("a"), q.options("b")
    table = realise(w, top=common_top(a, b))
    step = action_text("play", tuple(w["hand"][0]), v_name(sym.view, _val(model, j)))
    for side in ("a", "b"):
        if step not in legal_table(table, _rs(q, side)):
            raise DistinguishError(f"{step} is not legal on the realised table ({side})")
    return table, step, w


def v_name(v: View, k: int) -> str:
    return v.trains[k].name


def _side_scores(table: Mapping[str, Any], rs: Ruleset, seat: int) -> list[int]:
    values = _hand_values(table, rs)
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
    _minimise_view(opt, sym)
    for s in others:
        opt.minimize(s.a + s.b)
    model = _check(opt, f"{q.a} / {q.b} (scores)")
    if model is None:
        return None
    table, step, w = _finish_going_out(q, model, sym, others, j, {})
    seat = w["seat"]
    res = {side: {"end": "domino", "winner": seat,
                  "scores": _side_scores(table, _rs(q, side), seat)} for side in ("a", "b")}
    if res["a"] == res["b"]:
        raise DistinguishError(f"{q.a} / {q.b}: the realised scores do not differ")
    summary = (f"after {step} goes out: scores {res['a']['scores']} under "
               f"{_side_label(q, 'a')}, {res['b']['scores']} under {_side_label(q, 'b')}")
    return Situation(q, "score", {"table": table}, [step], {"result": res["a"]},
                     {"result": res["b"]}, _option_clauses(q, q.option or "scoring"), summary,
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
        low = o.is_("scoring", "penalty")
        for p in range(n_max):
            opt.add(z3.Implies(exists[p], (best <= totals[p]) if low else (best >= totals[p])))
        opt.add(z3.Or(*(z3.And(exists[p], best == totals[p]) for p in range(n_max))))
        tied = [z3.And(exists[p], totals[p] == best) for p in range(n_max)]
        for p in range(n_max):
            opt.add(z3.Implies(tied[p], most >= after[p]))
        opt.add(z3.Or(*(z3.And(tied[p], most == after[p]) for p in range(n_max))))
        most_outs = _b(o.is_("tie_rule", "most-outs"), ctx)
        won[side] = [z3.And(tied[p], z3.Or(z3.Not(most_outs), after[p] == most))
                     for p in range(n_max)]
    for p in range(n_max):
        opt.add(before[p] >= 0, before[p] <= 200, outs[p] >= 0,
                outs[p] <= won_before)
    opt.add(z3.Or(*(z3.Xor(x, y) for x, y in zip(won["a"], won["b"], strict=True))))
    _minimise_view(opt, sym)
    opt.minimize(z3.Sum(*before))
    opt.minimize(z3.Sum(*outs))
    model = _check(opt, f"{q.a} / {q.b} (tie)")
    if model is None:
        return None
    n = _val(model, v.players)
    extra = {"scores": [_val(model, before[p]) for p in range(n)],
             "outs": [_val(model, outs[p]) for p in range(n)]}
    table, step, w = _finish_going_out(q, model, sym, others, j, extra)
    seat = w["seat"]
    winners, outs_after = {}, {}
    for side in ("a", "b"):
        rs = _rs(q, side)
        o = Opts(values=dict(rs.items()))
        scores = _side_scores(table, rs, seat)
        totals = [x + y for x, y in zip(extra["scores"], scores, strict=True)]
        after = [x + (1 if p == seat else 0) for p, x in enumerate(extra["outs"])]
        winners[side] = match_winners(totals, after, o)
        outs_after[side] = after
    if winners["a"] == winners["b"]:
        raise DistinguishError(f"{q.a} / {q.b}: the realised winners do not differ")
    summary = (f"last round, after {step}: winners {winners['a']} under "
               f"{_side_label(q, 'a')}, {winners['b']} under {_side_label(q, 'b')}")
    return Situation(q, "tie", {"table": table}, [step],
                     {"state": {"outs": outs_after["a"]}, "winners": winners["a"]},
                     {"state": {"outs": outs_after["b"]}, "winners": winners["b"]},
                     _option_clauses(q, "tie_rule"), summary,
                     witness=w)


# -- the blocked kind: a pass on an empty boneyard ----------------------------------------


def solve_blocked(q: Question) -> Situation | None:
    """END-2 against END-3 after a pass on an empty boneyard.

    z3 chooses the players; the table is one where every train ends on a number whose
    tiles are all on the table (so nobody could play, with or without markers), which
    needs as many trains ending there as the set's parity. The mover has just drawn the
    boneyard's last tile, which fits nowhere: a table where nobody can play at the start
    of a turn is one END-2 would already have ended, and after a draw no pass is counted.
    """
    a, b = q.options("a"), q.options("b")
    top = common_top(a, b)
    ctx = z3.Context()
    opt = _optimize(ctx)
    n, passes = z3.Int("players", ctx), z3.Int("passes", ctx)
    opt.add(z3.Or(n == 2, n == 3), passes == 0)
    # every seat's train and the Mexican end on m: n + 1 trains, parity of the set
    opt.add((n + 1) % 2 == top % 2)
    stuck = z3.BoolVal(True, ctx)  # nobody holds a tile bearing m: END-2 finds no play
    ends = {}
    for side, o in (("a", Opts(values=a)), ("b", Opts(values=b))):
        end2 = _b(o.is_("blocked_round", "nobody-can-play"), ctx)
        ends[side] = z3.If(end2, stuck, passes + 1 == n)  # END-2 / END-3
    opt.add(z3.Xor(ends["a"], ends["b"]))
    opt.minimize(n)
    opt.minimize(passes)
    model = _check(opt, f"{q.a} / {q.b} (blocked)")
    if model is None:
        return None
    players, done = _val(model, n), _val(model, passes)
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
        if legal_table(table, _rs(q, side)) != {"pass"}:
            raise DistinguishError(f"{q.a} / {q.b}: the mover should only pass ({side})")
    res: dict[str, Any] = {}
    for side in ("a", "b"):
        rs = _rs(q, side)
        if _val(model, ends[side]):
            o = Opts(values=dict(rs.items()))
            res[side] = {"end": "blocked", "winner": None,
                         "scores": [int(x) for x in round_scores(_hand_values(table, rs), -1,
                                                                  o)]}
        else:
            res[side] = None
    summary = (f"a pass after drawing the last tile: {_result_text(res['a'])} under "
               f"{_side_label(q, 'a')}, {_result_text(res['b'])} under {_side_label(q, 'b')}")
    # the pass after the last draw is the first on an empty boneyard (END-3)
    return Situation(q, "blocked", {"table": table}, ["pass"],
                     {"result": res["a"], "state": {"passes": 1}},
                     {"result": res["b"], "state": {"passes": 1}},
                     _option_clauses(q, "blocked_round"), summary,
                     witness=w)


def _result_text(r: Any) -> str:
    return "the round goes on" if r is None else f"the round ends {r['end']}"


# -- the deal kind ---------------------------------------------------------------------------


def deal_view(options: Mapping[str, str], table: Mapping[int, int], players: int,
              engine: int, order: str) -> dict[str, Any] | None:
    """DEAL-1, ENG-1..4, SEAT-2, SEAT-3: the table right after the deal, or None (DEAL-7)."""
    top = highest(options["tile_set"])
    if players not in table or engine > top:
        return None
    size = table[players]
    round_no = top - engine + 1
    pool = list(range(T.set_size(top)))
    aside = options["engine_procedure"] == "set-aside"
    if aside:
        pool.remove(T.DOUBLE[engine])
    if order == "reversed":
        pool.reverse()
    if players * size > len(pool):
        return None
    hands = [pool[p * size:(p + 1) * size] for p in range(players)]
    rotate = (round_no - 1) % players
    holder = next((p for p, h in enumerate(hands) if T.DOUBLE[engine] in h), None)
    sizes = [len(h) for h in hands]
    if aside:
        return {"hand_sizes": sizes, "engine_placed": True, "phase": "start", "seat": rotate,
                "starter": rotate}
    if holder is None:  # ENG-4: the search starts at the rotating seat
        return {"hand_sizes": sizes, "engine_placed": False, "phase": "engine", "seat": rotate,
                "starter": rotate}
    sizes[holder] -= 1  # ENG-3: placed at once
    start = holder if options["starting_seat"] == "engine-holder" else rotate
    return {"hand_sizes": sizes, "engine_placed": True, "phase": "start", "seat": start,
            "starter": start}


DEAL_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "hand_sizes": ("hand_sizes",),
    "engine_procedure": ("engine_placed",),
    "starting_seat": ("seat", "starter"),
    "tile_set": ("hand_sizes", "engine_placed", "seat", "starter"),
}
"""What each option changes in the table right after the deal."""

DEAL_CHECKED: Final = ("phase", "seat")
"""Checked after every deal as well: where play stands (ENG-2, ENG-4, SEAT-2, SEAT-3)."""


def solve_deal(q: Question) -> Situation | None:
    """The smallest deal (players, then round) after which the two rule sets differ.

    The space is finite and tiny (player counts of the tables, engines of the set, two
    pool orders), so it is searched exhaustively, smallest first. Only the fields the
    option acts on are compared. With attribution, b with the option set back to a's
    value must give a's fields; when no deal allows that (two options that every
    nameable rule set changes together), the search runs again without it.
    """
    found = _solve_deal(q, q.attribute)
    if found is None and q.attribute:
        found = _solve_deal(q, False)
        if found is not None:
            found.attributed = False
    return found


def _solve_deal(q: Question, attribute: bool) -> Situation | None:
    cat = catalog()
    a, b = q.options("a"), q.options("b")
    tables = {side: dict(cat.options["hand_sizes"].values[o["hand_sizes"]].table)
              for side, o in (("a", a), ("b", b))}
    fields = DEAL_FIELDS[q.option or "tile_set"]
    flip = _flip(q) if attribute else None
    flip_table = (dict(cat.options["hand_sizes"].values[flip["hand_sizes"]].table)
                  if flip else {})
    top = min(highest(a["tile_set"]), highest(b["tile_set"]))
    for players in range(2, max(*tables["a"], *tables["b"]) + 1):
        for order in ("sorted", "reversed"):
            for engine in range(top, -1, -1):
                va = _fields(deal_view(a, tables["a"], players, engine, order), fields)
                vb = _fields(deal_view(b, tables["b"], players, engine, order), fields)
                if va is None or vb is None or va == vb:
                    continue
                if flip is not None and _fields(deal_view(flip, flip_table, players, engine,
                                                          order), fields) != va:
                    continue
                deal = {"players": players, "engine": engine, "order": order}
                keys = [k for k in va if va[k] != vb[k]]
                summary = "; ".join(f"{k} {va[k]} under {_side_label(q, 'a')}, {vb[k]} under "
                                    f"{_side_label(q, 'b')}" for k in keys)
                clauses = _option_clauses(q, q.option or "hand_sizes")
                shown = [*fields, *(k for k in DEAL_CHECKED if k not in fields)]
                sa = _fields(deal_view(a, tables["a"], players, engine, order), shown)
                sb = _fields(deal_view(b, tables["b"], players, engine, order), shown)
                return Situation(q, "deal", {"deal": deal}, [], {"state": sa}, {"state": sb},
                                 clauses, f"{players}-player {order} deal, engine {engine}: "
                                 + summary)
    return None


def _fields(view: dict[str, Any] | None, fields: Sequence[str]) -> dict[str, Any] | None:
    return None if view is None else {k: view[k] for k in fields}


SOLVERS: dict[str, Callable[[Question], Situation | None]] = {
    "legal": solve_legal,
    "marker": solve_marker,
    "score": solve_score,
    "tie": solve_tie,
    "blocked": solve_blocked,
    "deal": solve_deal,
}


# -- the generated corpus -----------------------------------------------------------------


def questions(cat: Catalog | None = None) -> list[Question]:
    """Every question the generated corpus answers, in the order of its ids.

    Each pair of values of each option (options.yaml order), asked under the best pair
    of nameable rule sets that has an answer; then each pair of shipped variants.
    """
    cat = cat or catalog()
    out = []
    for option, opt in cat.options.items():
        for v1, v2 in itertools.combinations(opt.values, 2):
            for a, b in choose_pair(option, v1, v2)[:1]:
                q = make_question(a, b, option, cat=cat)
                others = [o for o in RELEVANT[q.kind] if o != option
                          and q.options("a")[o] != q.options("b")[o]]
                if others:
                    q = make_question(a, b, option, attribute=True, cat=cat)
                out.append(q)
    for a, b in itertools.combinations(cat.variants, 2):
        out.append(make_question(a, b, None, cat=cat))
    return out


def answer(q: Question) -> Situation | None:
    """The situation for a corpus question: the best pair first, then the next ones."""
    found = situation_for(q)
    if found is not None or q.option is None:
        return found
    v1, v2 = q.options("a")[q.option], q.options("b")[q.option]
    for a, b in choose_pair(q.option, v1, v2)[1:]:
        found = situation_for(make_question(a, b, q.option, attribute=q.attribute))
        if found is not None:
            return found
    return None


@dataclass
class Generated:
    files: dict[str, str]
    situations: list[Situation]
    missing: list[Question]
    seconds: float


def generate(cat: Catalog | None = None) -> Generated:
    """Every generated fixture file (name -> text), deterministic."""
    cat = cat or catalog()
    t0 = time.perf_counter()
    found: list[Situation] = []
    missing: list[Question] = []
    for q in questions(cat):
        s = answer(q)
        if s is None:
            missing.append(q)
        else:
            found.append(s)
    files = render_files(found)
    return Generated(files, found, missing, time.perf_counter() - t0)


def _file_of(s: Situation) -> str:
    return f"{s.question.option.replace('_', '-')}.yaml" if s.question.option else "variants.yaml"


def render_files(situations: Sequence[Situation]) -> dict[str, str]:
    files: dict[str, list[str]] = {}
    for number, s in enumerate(situations, 1):
        name = _file_of(s)
        files.setdefault(name, [HEADER.format(what=_file_title(s))])
        files[name].append(render_fixture(s, f"generated-{number:03d}"))
    return {name: "\n".join(parts) for name, parts in sorted(files.items())}


HEADER = ("# Generated by z3 " + z3.get_version_string()
          + """: python -m mtrain.spec.distinguish --write
# (do not edit by hand; the z3-solver version is pinned in pyproject.toml).
# {what}
# Each fixture is the smallest situation z3 found where two rule sets disagree; the
# expectations of both sides come from spec/legality.py (and, for scores, deals and
# markers, the small formalisations in spec/distinguish.py), not from the engine.
# The scopes (`when:`) are added by `mtrain lint --write-scopes`.
""")


def _file_title(s: Situation) -> str:
    if s.question.option is None:
        return "Pairs of shipped variants."
    return f"Pairs of values of the option {s.question.option} ({s.kind} situations)."


def _description(s: Situation) -> str:
    q = s.question
    if q.option is None:
        head = f"z3: {q.a} vs {q.b}"
    else:
        v1, v2 = q.options("a")[q.option], q.options("b")[q.option]
        head = f"z3: {q.option} {v1} vs {v2}"
    text = f"{head}: {s.summary}"
    if len(text) > 120:
        text = text[:117].rstrip(" ,;") + "..."
    return text


def _note(s: Situation) -> str:
    q = s.question
    if q.option is None:
        what = f"the shipped variants {q.a} and {q.b}"
    else:
        o = q.option
        va = q.options("a")[o]
        what = f"{o}={va} ({q.a}) and {o}={q.options('b')[o]} ({q.b})"
        others = [p for p in q.options("a") if p != o
                  and q.options("a")[p] != q.options("b")[p]]
        near = [p for p in others if p in RELEVANT[s.kind]]
        far = [p for p in others if p not in RELEVANT[s.kind]]
        if far:
            what += f"; they also differ in {', '.join(far)}, which cannot change it"
        if near and s.attributed:
            what += (f"; they also differ in {', '.join(near)}, but {q.b} with {o}={va} "
                     f"answers as {q.a} does, so the difference is {o}'s alone")
        elif near:
            what += (f"; they also differ in {', '.join(near)}, which every nameable pair "
                     f"changes together with {o}: only what {o} acts on is compared")
    return (f"Generated by z3 (spec/distinguish.py, {s.kind} question): the smallest "
            f"situation found that tells apart {what}. {s.summary[0].upper()}"
            f"{s.summary[1:]}.")


def render_fixture(s: Situation, fixture_id: str) -> str:
    q = s.question
    lines = [f"- id: {fixture_id}",
             f"  description: {json.dumps(_description(s))}",
             f"  clauses: [{', '.join(s.clauses)}]",
             "  source: [computation]",
             "  note: >-"]
    lines += ["    " + line for line in _wrap(_note(s), 88)]
    key, body = next(iter(s.start.items()))
    lines.append(f"  {key}:")
    lines += _emit_mapping(body, 4)
    if s.steps:
        lines.append(f"  steps: {_flow(s.steps)}")
    lines.append("  expect:")
    for name, exp in ((q.a, s.expect_a), (q.b, s.expect_b)):
        lines.append(f"    - variants: [{name}]")
        lines += _emit_mapping(exp, 6)
    return "\n".join(lines) + "\n"


def _wrap(text: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width, break_on_hyphens=False)


_PLAIN = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-+. ")


def _scalar(x: Any) -> str:
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    text = str(x)
    if (text and set(text) <= _PLAIN and text[0].isalnum() and text[-1] != " "
            and text not in ("null", "true", "false", "yes", "no", "on", "off")
            and not text.replace(".", "", 1).isdigit()):
        return text
    return json.dumps(text)


def _flow(x: Any) -> str:
    if isinstance(x, Mapping):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in x.items()) + "}"
    if isinstance(x, list | tuple):
        return "[" + ", ".join(_flow(v) for v in x) + "]"
    return _scalar(x)


def _emit_mapping(body: Mapping[Any, Any], indent: int) -> list[str]:
    pad = " " * indent
    out = []
    for k, v in body.items():
        if isinstance(v, Mapping) and k != "result" and v:
            out.append(f"{pad}{k}:")
            out += _emit_mapping(v, indent + 2)
        else:
            out.append(f"{pad}{k}: {_flow(v)}")
    return out


def without_scopes(text: str) -> str:
    """A fixture file without its `when:` scopes: `mtrain lint --write-scopes` writes
    those (checking them with the reference engine), the generator does not."""
    out: list[str] = []
    skipping: int | None = None
    for line in text.splitlines(keepends=True):
        indent = len(line) - len(line.lstrip(" "))
        if skipping is not None and line.strip() and indent > skipping:
            continue
        skipping = None
        if line.lstrip(" ").startswith("when:"):
            skipping = indent
            continue
        out.append(line)
    return "".join(out)


def stale_files(generated: Mapping[str, str], written: Mapping[str, str]) -> list[str]:
    """Generated files that differ from the written ones (scopes aside)."""
    return sorted(n for n in set(generated) | set(written)
                  if generated.get(n) != without_scopes(written.get(n, "")))


def written_files(folder: Path = GENERATED_DIR) -> dict[str, str]:
    if not folder.is_dir():
        return {}
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.yaml"))}


def write(files: Mapping[str, str], folder: Path = GENERATED_DIR) -> list[str]:
    """Write the files; remove generated files that are no longer produced."""
    folder.mkdir(parents=True, exist_ok=True)
    for p in folder.glob("*.yaml"):
        if p.name not in files:
            p.unlink()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return sorted(files)


def check_job() -> dict[str, Any]:
    """For `mtrain check`: regenerate, compare with the written files; one check.

    In the shape of spec/check.py's jobs: {"checks": [...], "summary": {...}}. The check
    fails when a generated file is stale or a pair of values has no situation.
    """
    t0 = time.perf_counter()
    start = len(QUERY_LOG)
    gen = generate()
    written = written_files()
    stale = stale_files(gen.files, written)
    findings = [{"message": f"{s.question.option or 'variants'}: {s.question.a} / "
                            f"{s.question.b}: {s.summary}", "clauses": s.clauses}
                for s in gen.situations]
    findings += [{"message": f"{q.option}: {q.a} / {q.b}: NO situation found", "clauses": []}
                 for q in gen.missing]
    findings += [{"message": f"stale generated file {n}: run python -m "
                             "mtrain.spec.distinguish --write", "clauses": []} for n in stale]
    queries = QUERY_LOG[start:]
    largest = max((u for _, u in queries), default=0)
    status = "fail" if stale or gen.missing else "pass"
    check = {"name": "distinguishing-situations", "status": status,
             "seconds": round(time.perf_counter() - t0, 4), "findings": findings}
    return {"checks": [check], "summary": {"distinguishing": {
        "situations": len(gen.situations), "missing": len(gen.missing), "stale": stale,
        "z3_queries": len(queries), "largest_rlimit": largest, "rlimit": RLIMIT}}}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--write", action="store_true", help="write the generated fixtures")
    parser.add_argument("--check", action="store_true", help="exit 1 if the files are stale")
    parser.add_argument("--json", action="store_true", help="print the situations as JSON")
    args = parser.parse_args(argv)
    gen = generate()
    if args.json:
        json.dump({"situations": [s.to_json() for s in gen.situations],
                   "missing": [{"option": q.option, "a": q.a, "b": q.b} for q in gen.missing],
                   "seconds": round(gen.seconds, 3), "z3_version": z3.get_version_string()},
                  sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for s in gen.situations:
            label = s.question.option or "variants"
            print(f"{s.seconds:6.2f}s  {label}: {s.question.a} / {s.question.b}: {s.summary}")
        for q in gen.missing:
            print(f"   none  {q.option}: {q.a} / {q.b}: no single situation tells them apart")
        most = max(QUERY_LOG, key=lambda x: x[1], default=("-", 0))
        print(f"{len(gen.situations)} situations, {len(gen.missing)} without one, "
              f"{gen.seconds:.1f}s; {len(QUERY_LOG)} z3 queries, the largest {most[1]:,} "
              f"rlimit units of {RLIMIT:,} ({most[0]})")
    if args.write:
        names = write(gen.files)
        print(f"wrote {len(names)} files under {GENERATED_DIR}")
    if args.check:
        stale = bool(stale_files(gen.files, written_files()))
        print("generated fixtures are " + ("STALE" if stale else "up to date"))
        return 1 if stale else 0
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


# -- probes: situations with chosen features, to compare an engine with the formalisation --


PROBE_FEATURES: Final = ("duty", "drawn", "first", "exhausted", "bone_empty", "marked",
                         "own_empty", "two_doubles")


def probe(options: Mapping[str, str], phase: str, features: Mapping[str, bool],
          seed: int = 0) -> tuple[dict[str, Any], set[str]] | None:
    """A well-formed table under `options` with the given phase and features, and its
    legal actions by the formalisation; None when no such situation exists.

    Features (each true or false): ``duty`` an open double binds the mover (DBL-6),
    ``drawn`` a tile was just drawn, ``first`` the mover's first turn, ``exhausted`` some
    open double's number is all on the table, ``bone_empty``, ``marked`` some train is
    marked, ``own_empty`` the mover's train is empty, ``two_doubles`` two open doubles.
    """
    from mtrain.spec.legality import PHASE_NAMES, duty

    o = Opts(values=options)
    top = common_top(options)
    sym = Symbolic(SLOTS, 3, max_number=top)
    v, ctx = sym.view, sym.ctx
    s = z3.SimpleSolver(ctx=ctx)
    s.set("random_seed", seed)
    s.set("rlimit", RLIMIT)
    s.add(*sym.structure(wide_top(top)), *sym.well_formed(o))
    s.add(v.phase == PHASE_NAMES.index(phase))
    has = {
        "duty": _b(duty(v, o), ctx),
        "drawn": v.drawn != NO_SLOT,
        "first": v.first_pending,
        "exhausted": z3.Or(*(t.ex_lo for t in v.trains)),
        "bone_empty": v.bone_empty,
        "marked": z3.Or(*(t.marked for t in v.trains)),
        "own_empty": _b(v.own_field("empty"), ctx),
        "two_doubles": Count(t.dbl for t in v.trains) >= 2,
    }
    for name, want in features.items():
        s.add(has[name] if want else z3.Not(has[name]))
    r = s.check()
    if r == z3.unsat:
        return None
    if r != z3.sat:
        raise DistinguishError(f"z3 answered {r} for a probe: {s.reason_unknown()}")
    w = sym.decode(s.model())
    table = realise(w, top=top)
    rs = Ruleset(name="probe", choices=tuple(options.items()), hand_table=((2, 1),))
    return table, legal_table(table, rs)
