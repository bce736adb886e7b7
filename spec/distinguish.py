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

from . import tiles as T
from .catalog import Catalog, RulesetError, catalog
from .legality import (
    MEX,
    MEXICAN,
    NO_SLOT,
    START,
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
)
from .ruleset import Ruleset
from .yamlload import SpecError

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
RLIMIT: Final = 40_000_000
"""Resource limit of one z3 question (the largest here takes a few million units)."""
SLOTS: Final = 3
"""Tiles in the mover's hand, at most, in a legal-kind situation."""
MAX_OVERLAYS: Final = 3
GENERATED_DIR: Final = Path(__file__).resolve().parent.parent / "conformance" / "fixtures" / "generated"

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


def _optimize() -> Any:
    z3.set_param("smt.random_seed", SEED)
    opt = z3.Optimize()
    opt.set("rlimit", RLIMIT)
    return opt


def _check(opt: Any, what: str) -> Any:
    """The model, or None when unsat; unknown is an error."""
    r = opt.check()
    if r == z3.sat:
        return opt.model()
    if r == z3.unsat:
        return None
    raise DistinguishError(f"z3 answered {r} for {what}: {opt.reason_unknown()}")


def _val(model: Any, x: Any) -> Any:
    if isinstance(x, bool | int):
        return x
    r = model.eval(x, model_completion=True)
    if z3.is_bool(r):
        return bool(z3.is_true(r))
    return r.as_long()


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

    def to_json(self) -> dict[str, Any]:
        q = self.question
        return {"option": q.option, "kind": self.kind, "a": q.a, "b": q.b, **self.start,
                "steps": self.steps, "expect": {q.a: self.expect_a, q.b: self.expect_b},
                "summary": self.summary, "clauses": self.clauses,
                "seconds": round(self.seconds, 3)}


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
    return found


# -- the legal kind ---------------------------------------------------------------------


def _differ(la: Legal, lb: Legal) -> Any:
    return z3.Or(*(z3.Xor(_b(x), _b(y)) for x, y in zip(la.atoms(), lb.atoms(), strict=True)))


def _same(la: Legal, lb: Legal) -> Any:
    return z3.And(*(_b(x) == _b(y) for x, y in zip(la.atoms(), lb.atoms(), strict=True)))


def _b(x: Any) -> Any:
    return x if isinstance(x, z3.ExprRef) else z3.BoolVal(bool(x))


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
    a, b = q.options("a"), q.options("b")
    sym = Symbolic(SLOTS, 3)
    oa, ob = Opts(values=a), Opts(values=b)
    opt = _optimize()
    all_d12 = a["tile_set"] == b["tile_set"] == "double-12"
    opt.add(*sym.structure(all_d12), *sym.well_formed(oa), *sym.well_formed(ob))
    la, lb = legal(sym.view, oa), legal(sym.view, ob)
    opt.add(_differ(la, lb))
    if q.attribute:
        opt.add(_same(la, legal(sym.view, Opts(values=_flip(q)))))
    _minimise_view(opt, sym)
    model = _check(opt, f"{q.a} / {q.b} ({q.option})")
    if model is None:
        return None
    w = sym.decode(model)
    table = realise(w, top=12 if all_d12 else 9)
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
        self.finals = {T.tile_id(t["end"], t["end"]) for t in w["trains"] if t["dbl"]}
        self.used: set[int] = set()
        self.banned_numbers: set[int] = {t["end"] for t in w["trains"] if t["ex_lo"]}

    def free(self, tile: int) -> bool:
        return (tile not in self.used and tile not in self.hand and tile not in self.finals
                and tile != T.DOUBLE[self.engine])

    def walks(self, start: int, target: int, top: int = 9, max_len: int = 5
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
        numbers = [x for x in range(10) if x != n]
        if d["ex_hi"]:
            numbers += [10, 11, 12]
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
                    self._use(walk + [n])
                    out[int(s["index"])] = walk + [n]
                if ok:
                    pairs = self._pairs(rest, n)
                    if pairs is not None:
                        walk = [e, n]
                        for y, x in pairs:
                            walk += [y, x, n]
                        self._use(walk)
                        walk.append(n)  # the open double [n-n]
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
            d = ex[0]
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
    taken = on_table | r.hand
    spare = [x for x in range(T.set_size(9)) if x not in taken
             and not ({T.HIGH[x], T.LOW[x]} & r.banned_numbers)]
    others = [j for j in range(n) if j != seat]
    for k, j in enumerate(others):
        hands[j] = [T.name(spare[k])]
    if w["bone_empty"]:
        hands[others[-1]].append("rest")
    table: dict[str, Any] = {"engine": r.engine, "seat": seat, "starter": int(w["starter"])}
    if w["phase"] != "start":
        table["phase"] = w["phase"]
    table["hands"] = {j: hands[j] for j in range(n)}
    order = [MEXICAN if k == MEX else k for k in
             sorted((t for t in w["trains"] if not t["empty"]),
                    key=lambda t: (t["index"] == MEX, t["index"]))]
    table["trains"] = {k: trains[k] for k in
                       [MEXICAN if t["index"] == MEX else int(t["index"]) for t in order]}
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
    _check_exhaustion(w, table, top)
    return table


def _train_key(t: Mapping[str, Any]) -> Any:
    return MEXICAN if t["index"] == MEX else int(t["index"])


def _check_exhaustion(w: Mapping[str, Any], table: Mapping[str, Any], top: int) -> None:
    """Every double's number is on the table exactly when the witness says so."""
    on: set[int] = set()
    for tiles in table["trains"].values():
        on |= {T.parse(x) for x in tiles}
    for t in w["trains"]:
        if not t["dbl"]:
            continue
        n = int(t["end"])
        lo = all(T.tile_id(n, x) in on for x in range(10))
        hi = all(T.tile_id(n, x) in on for x in range(10, 13))
        if lo != t["ex_lo"] or (top == 12 and hi != t["ex_hi"]):
            raise DistinguishError(f"number {n}: tiles on the table do not match the witness")


# -- the marker kind --------------------------------------------------------------------


def _marked_after(v: View, o: Opts, slot_train: Train, u: Train) -> Any:
    """MARK-3/4/5: train u's marker after the mover lays a tile on slot_train."""
    if u.is_mex:
        return False
    removed = z3.Or(
        z3.And(_b(o.is_("marker_removal", "owner-plays-own")), _b(v.own(u)),
               z3.BoolVal(slot_train is u)),
        z3.And(_b(o.is_("marker_removal", "anyone-plays-on")), z3.BoolVal(slot_train is u)),
        z3.And(_b(o.is_("marker_removal", "owner-plays-anywhere")), _b(v.own(u))))
    return z3.And(_b(u.marked), z3.Not(removed))


def solve_marker(q: Question) -> Situation | None:
    a, b = q.options("a"), q.options("b")
    sym = Symbolic(2, 3)
    v = sym.view
    oa, ob = Opts(values=a), Opts(values=b)
    opt = _optimize()
    all_d12 = a["tile_set"] == b["tile_set"] == "double-12"
    opt.add(*sym.structure(all_d12), *sym.well_formed(oa), *sym.well_formed(ob))
    la, lb = legal(v, oa), legal(v, ob)
    opt.add(v.hand[1].present)  # the play does not go out (END-1 would end the round)
    # slot 0 is laid on one train j, legal under both; the markers after it differ
    j = z3.Int("play_train")
    opt.add(j >= 0, j < len(v.trains))
    choices = []
    for k, t in enumerate(v.trains):
        after_a = [_marked_after(v, oa, t, u) for u in v.trains]
        after_b = [_marked_after(v, ob, t, u) for u in v.trains]
        differs = z3.Or(*(z3.Xor(_b(x), _b(y)) for x, y in zip(after_a, after_b, strict=True)))
        choices.append(z3.And(j == k, _b(la.plays[0][k]), _b(lb.plays[0][k]), differs))
    opt.add(z3.Or(*choices))
    opt.add(v.phase == START, v.drawn == NO_SLOT)
    _minimise_view(opt, sym)
    opt.minimize(j)
    model = _check(opt, f"{q.a} / {q.b} (markers)")
    if model is None:
        return None
    w = sym.decode(model)
    table = realise(w, top=12 if all_d12 else 9)
    k = _val(model, j)
    train = v.trains[k]
    step = action_text("play", tuple(w["hand"][0]), train.name)  # type: ignore[arg-type]
    marks = {}
    for side, o in (("a", oa), ("b", ob)):
        marks[side] = sorted(int(u.index) for u in v.trains
                             if not u.is_mex and _val(model, _marked_after(v, o, train, u)))
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


SOLVERS: dict[str, Callable[[Question], Situation | None]] = {
    "legal": solve_legal,
    "marker": solve_marker,
}
