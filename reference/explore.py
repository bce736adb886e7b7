"""Whole rounds on small sets, explored exhaustively with the reference engine.

The engine is parametric in the set: `small_rules(ruleset, 3)` keeps every rule of a rule
set but plays it with a double-3 set (10 tiles) and small hands, so every state a round can
reach is few enough to enumerate. From each deal, `explore` walks the whole game graph by
depth-first search with a visited table keyed by the full state (hands, boneyard in order,
trains, markers, open doubles, seat, phase, ...), and checks:

* no non-final state without a legal action (a *deadlock*), and no action that fails;
* no cycle: a state reachable from itself shows up as a back edge to a state still on the
  DFS stack;
* every invariant of spec/data/invariants.yaml (`invariants.violations`) in every state;
* the longest round (actions from the deal to the end), by dynamic programming over the
  acyclic graph, with one longest line of play kept as a witness.

Deals are every ordering of the pool up to the order inside each hand (`all_deals`) when
there are few enough, a deterministic sample (`sample_deals`) otherwise.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from mtrain.reference.deal import deal, deal_pool, last_seat_draw
from mtrain.reference.engine import OVER, Action, State, legal_actions, perform
from mtrain.reference.invariants import hand_sizes, violations
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T
from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.yamlload import SpecError

Key = tuple[Any, ...]


def small_rules(rs: Ruleset, max_pip: int, hands: dict[int, int]) -> Rules:
    """`rs` played with a double-`max_pip` set and the hand sizes `hands` {players: tiles}.

    The rule set keeps its name with ``@d<N>`` appended; every other option is unchanged.
    """
    table = tuple(sorted(hands.items()))
    small = dataclasses.replace(rs, name=f"{rs.name}@d{max_pip}", hand_table=table)
    mask = T.set_mask(max_pip)
    return dataclasses.replace(
        Rules.of(small), max_pip=max_pip, set_mask=mask,
        number_mask=tuple(m & mask for m in T.NUMBER_MASK), hand_table=dict(table))


def state_key(s: State) -> Key:
    """Everything that decides a state's future and its invariants (not the scores)."""
    return (s.seat, s.phase, s.drawn, s.first_pending, s.passes, s.starter, s.engine_placed,
            tuple(s.hands), tuple(s.boneyard), tuple(s.trains), s.markers,
            tuple(s.open_doubles), tuple(s.turn_doubles))


# -- deals ------------------------------------------------------------------------------


def deal_count(pool: int, players: int, hand: int) -> int:
    """Distinct deals: hands are sets, the boneyard is an ordered list."""
    rest = pool - players * hand
    return math.factorial(pool) // math.factorial(hand) ** players if rest >= 0 else 0


def all_deals(rules: Rules, players: int, round_no: int = 1) -> Iterator[list[int]]:
    """Every distinct deal order: each seat's hand in ascending order, then the boneyard."""
    pool = sorted(deal_pool(rules, round_no))
    hand = rules.ruleset.hand_size(players)

    def rec(left: list[int], seat: int) -> Iterator[list[int]]:
        if seat == players:
            for rest in itertools.permutations(left):
                yield list(rest)
            return
        for chosen in itertools.combinations(left, hand):
            remaining = [t for t in left if t not in chosen]
            for tail in rec(remaining, seat + 1):
                yield [*chosen, *tail]

    yield from rec(pool, 0)


def sample_deals(rules: Rules, players: int, count: int, seed: int = 0,
                 round_no: int = 1) -> list[list[int]]:
    """`count` distinct deal orders drawn with `random.Random(seed)`: the same every run."""
    pool = sorted(deal_pool(rules, round_no))
    hand = rules.ruleset.hand_size(players)
    rng = random.Random(seed)
    seen: set[tuple[int, ...]] = set()
    out: list[list[int]] = []
    limit = deal_count(len(pool), players, hand)
    while len(out) < min(count, limit):
        order = pool[:]
        rng.shuffle(order)
        canon = [t for s in range(players) for t in sorted(order[s * hand:(s + 1) * hand])]
        canon += order[players * hand:]
        k = tuple(canon)
        if k not in seen:
            seen.add(k)
            out.append(canon)
    return out


# -- the exploration --------------------------------------------------------------------


@dataclass
class Finding:
    """A problem found: kind is deadlock, cycle, invariant, crash or deal."""

    kind: str
    message: str
    clauses: tuple[str, ...] = ()
    trace: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "clauses": list(self.clauses),
                "trace": list(self.trace)}


@dataclass
class ExploreReport:
    ruleset: str
    max_pip: int
    players: int
    hand: int
    round_no: int = 1
    deals: int = 0
    deals_total: int = 0
    states: int = 0
    transitions: int = 0
    final_states: int = 0
    endings: Counter[str] = field(default_factory=Counter)
    longest: int = 0
    longest_trace: tuple[str, ...] = ()
    longest_deal: tuple[str, ...] = ()
    witness_depth: int | None = None
    witness_deal: tuple[str, ...] = ()
    witness_trace: tuple[str, ...] = ()
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.findings

    @property
    def exhaustive(self) -> bool:
        return self.deals == self.deals_total

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset, "max_pip": self.max_pip, "players": self.players,
            "hand": self.hand, "round": self.round_no, "deals": self.deals,
            "deals_total": self.deals_total, "exhaustive": self.exhaustive,
            "states": self.states, "transitions": self.transitions,
            "final_states": self.final_states, "endings": dict(sorted(self.endings.items())),
            "longest_round": self.longest, "longest_deal": list(self.longest_deal),
            "longest_trace": list(self.longest_trace),
            **({"witness_depth": self.witness_depth, "witness_deal": list(self.witness_deal),
                "witness_trace": list(self.witness_trace)}
               if self.witness_depth is not None else {}),
            "findings": [f.to_json() for f in self.findings], "seconds": round(self.seconds, 4),
        }


def action_text(state: State, a: Action) -> str:
    if a.kind == "play":
        train = "mexican" if a.train == state.players else str(a.train)
        return f"play {T.name(a.tile)} on {train}"
    return a.kind


Visitor = Callable[[State, Action, State], None]
"""Called on every transition (state, action, next state) the first time it is explored."""

Target = Callable[[State, Action, State], bool]
"""A transition that a witness search looks for."""

_ON_STACK = -1
_FAR = 1 << 30


def explore(rules: Rules, players: int, orders: Iterable[Sequence[int]], *, round_no: int = 1,
            deals_total: int | None = None, check_invariants: bool = True,
            visit: Visitor | None = None, target: Target | None = None,
            max_findings: int = 20) -> ExploreReport:
    """Every state reachable from the deals `orders`; see the module docstring.

    With `target`, also the fewest actions from a deal to a transition it accepts, and one
    such line of play (`witness_depth`, `witness_deal`, `witness_trace`).
    """
    t0 = time.perf_counter()
    hand = rules.ruleset.hand_size(players)
    report = ExploreReport(rules.ruleset.name, rules.max_pip, players, hand, round_no)
    # longest[key]: the most actions from that state to the end of the round, or
    # _ON_STACK while the state is on the DFS stack; best[key]: the first action of it.
    # nearest[key]: the fewest actions from that state to a target transition.
    longest: dict[Key, int] = {}
    best: dict[Key, tuple[Action, Key]] = {}
    nearest: dict[Key, int] = {}
    toward: dict[Key, tuple[Action, Key]] = {}

    def problem(kind: str, message: str, clauses: tuple[str, ...] = (),
                trace: tuple[str, ...] = ()) -> None:
        if len(report.findings) < max_findings:
            report.findings.append(Finding(kind, message, clauses, trace))

    def path_of(stack: list[list[Any]]) -> tuple[str, ...]:
        return tuple(action_text(fr[1], fr[2][fr[3] - 1]) for fr in stack if fr[3] > 0)

    def enter(state: State, stack: list[list[Any]]) -> list[Any] | None:
        """First visit of a state: check it; return its DFS frame (None for a final state)."""
        key = state_key(state)
        report.states += 1
        if check_invariants:
            for inv, msg in violations(state):
                problem("invariant", f"{inv}: {msg}", (), path_of(stack))
        if state.phase == OVER:
            longest[key] = 0
            report.final_states += 1
            report.endings[state.result.end if state.result else "none"] += 1
            return None
        actions = legal_actions(state)
        if not actions:
            problem("deadlock", f"no legal action in phase {state.phase}", ("TURN-1",),
                    path_of(stack))
            longest[key] = 0
            return None
        longest[key] = _ON_STACK
        # key, state, actions, next action, longest so far, nearest so far, edge is a target
        return [key, state, actions, 0, -1, _FAR, False]

    def edge(fr: list[Any], child_key: Key) -> None:
        """The edge fr -> child (the action just taken) is finished: update fr's values."""
        action = fr[2][fr[3] - 1]
        length = longest[child_key] + 1
        if length > fr[4]:
            fr[4] = length
            best[fr[0]] = (action, child_key)
        if target is not None:
            near = 1 if fr[6] else nearest.get(child_key, _FAR) + 1
            if near < fr[5]:
                fr[5] = near
                toward[fr[0]] = (action, child_key)

    for order in orders:
        report.deals += 1
        try:
            # SEAT-5: a small game's draw for the start is won by the last seat
            draw = last_seat_draw(rules, players) if rules.highest_draw_starts else None
            root = deal(rules, players, round_no, order=order, draw=draw)
        except Exception as exc:  # a deal the engine refuses is a finding, not a crash
            problem("deal", f"{type(exc).__name__}: {exc}")
            continue
        if check_invariants:
            for inv, msg in hand_sizes(root):
                problem("invariant", f"{inv}: {msg}")
        root_key = state_key(root)
        if root_key not in longest:
            stack: list[list[Any]] = []
            frame = enter(root, stack)
            if frame is not None:
                stack.append(frame)
            while stack:
                fr = stack[-1]
                state, actions, i = fr[1], fr[2], fr[3]
                if i == len(actions):
                    longest[fr[0]] = max(fr[4], 0)
                    if fr[5] < _FAR:
                        nearest[fr[0]] = fr[5]
                    stack.pop()
                    if stack:  # the parent resumes: its edge to this state is done
                        edge(stack[-1], fr[0])
                    continue
                fr[3] = i + 1
                action = actions[i]
                child = state.copy()
                try:
                    perform(child, action)
                except Exception as exc:
                    problem("crash", f"{action_text(state, action)}: {type(exc).__name__}: "
                            f"{exc}", (), path_of(stack))
                    fr[6] = False
                    continue
                report.transitions += 1
                if visit is not None:
                    visit(state, action, child)
                fr[6] = target is not None and target(state, action, child)
                ck = state_key(child)
                done = longest.get(ck)
                if done is None:
                    cframe = enter(child, stack)
                    if cframe is not None:
                        stack.append(cframe)
                        continue
                    done = longest[ck]
                if done == _ON_STACK:
                    problem("cycle", f"a state is reachable from itself (phase {child.phase})",
                            (), path_of(stack))
                    continue
                edge(fr, ck)
        length = longest.get(root_key, 0)
        if length > report.longest:
            report.longest = length
            report.longest_deal = tuple(T.name(t) for t in order)
            report.longest_trace = _trace(root, best, longest)
        near = nearest.get(root_key, _FAR)
        if near < _FAR and (report.witness_depth is None or near < report.witness_depth):
            report.witness_depth = near
            report.witness_deal = tuple(T.name(t) for t in order)
            report.witness_trace = _trace(root, toward, nearest, near)
    report.deals_total = deals_total if deals_total is not None else report.deals
    report.seconds = time.perf_counter() - t0
    return report


def _trace(root: State, best: dict[Key, tuple[Action, Key]], value: dict[Key, int],
           steps: int | None = None) -> tuple[str, ...]:
    """Replay the line of play that `best` records from the root (`steps` actions, or
    until a state whose value is 0)."""
    out: list[str] = []
    state, key = root, state_key(root)
    while (len(out) < steps if steps is not None else value.get(key, 0) > 0) and key in best:
        action, key = best[key]
        out.append(action_text(state, action))
        state = state.copy()
        perform(state, action)
    return tuple(out)


# -- the small games `mtrain check` plays ------------------------------------------------


@dataclass(frozen=True)
class Size:
    """A small game: a double-`max_pip` set, `players` seats of `hand` tiles each.

    `deals`: how many deals to explore (a deterministic sample), or None for all of them.
    """

    max_pip: int
    players: int
    hand: int
    deals: int | None = None

    @property
    def label(self) -> str:
        return f"d{self.max_pip} {self.players}p x{self.hand}"


QUICK_SIZES: tuple[Size, ...] = (
    Size(2, 2, 2), Size(3, 2, 3, 40), Size(3, 3, 2, 40), Size(4, 3, 3, 4))
"""What `mtrain check` explores for each distinct rule set (a few seconds in all)."""

SCORING_SIZES: tuple[Size, ...] = (Size(2, 2, 2), Size(3, 2, 3, 10))
"""Rule sets that differ from an explored one only in scoring: the invariants, briefly."""

FULL_SIZES: tuple[Size, ...] = (
    Size(2, 2, 2), Size(2, 3, 1), Size(3, 2, 3, 200), Size(3, 3, 2, 200), Size(4, 3, 3, 20))
"""`mtrain check --full`, for each distinct rule set: every deal of two double-2 games,
larger samples of the others."""

FULL_SHIPPED_SIZES: tuple[Size, ...] = (Size(3, 2, 4), Size(3, 2, 5))
"""`mtrain check --full`, for the shipped variants also: every deal of two double-3 games
(a size whose hands do not fit in the set is skipped)."""

_SCORING_FIELDS = frozenset({"value", "positive_scoring", "blocked_low_wins",
                             "tie_most_outs"})
_IGNORED_FIELDS = frozenset({"ruleset", "hand_table", "max_pip", "set_mask", "number_mask"})


def fingerprint(rules: Rules, scoring: bool = True) -> tuple[Any, ...]:
    """The flags that decide a small game (its set and hands aside); with or without scoring."""
    skip = _IGNORED_FIELDS | (frozenset() if scoring else _SCORING_FIELDS)
    return tuple((f.name, getattr(rules, f.name)) for f in dataclasses.fields(rules)
                 if f.name not in skip)


def rule_set_names() -> list[str]:
    """Every shipped variant, then every variant with one overlay that composes."""
    cat = catalog()
    names = list(cat.variants)
    for v in cat.variants:
        for o in cat.overlays:
            try:
                cat.ruleset(v, [o])
            except (RulesetError, SpecError):
                continue
            names.append(f"{v}+{o}")
    return names


@dataclass
class GameReport:
    """One rule set's small games, or the name of an equal rule set already explored."""

    name: str
    same_as: str | None = None
    sizes: list[ExploreReport] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.sizes)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ruleset": self.name}
        if self.same_as:
            out["same_small_game_as"] = self.same_as
        out["games"] = [r.to_json() for r in self.sizes]
        return out


def explore_size(rs: Ruleset, size: Size, seed: int = 0, visit: Visitor | None = None,
                 target: Target | None = None) -> ExploreReport:
    rules = small_rules(rs, size.max_pip, {size.players: size.hand})
    pool = len(deal_pool(rules, 1))
    total = deal_count(pool, size.players, size.hand)
    orders: Iterable[Sequence[int]]
    if size.deals is None or size.deals >= total:
        orders = all_deals(rules, size.players)
    else:
        orders = sample_deals(rules, size.players, size.deals, seed)
    return explore(rules, size.players, orders, deals_total=total, visit=visit, target=target)


def _fits(rules: Rules, size: Size) -> bool:
    """The hands of a small game fit in its set (the engine set aside or not)."""
    pool = T.set_size(size.max_pip) - (0 if rules.holder_lays else 1)
    return size.players * size.hand <= pool


def explore_all(full: bool = False, names: Sequence[str] | None = None) -> list[GameReport]:
    """Every rule set of `rule_set_names()` (or `names`), each distinct small game once."""
    cat = catalog()
    sizes = FULL_SIZES if full else QUICK_SIZES
    shipped = set(cat.variants)
    seen: dict[tuple[Any, ...], str] = {}
    graphs: set[tuple[Any, ...]] = set()
    out = []
    for name in names if names is not None else rule_set_names():
        rs = cat.ruleset(name)
        rules = Rules.of(rs)
        fp = fingerprint(rules)
        if fp in seen:
            out.append(GameReport(name, same_as=seen[fp]))
            continue
        seen[fp] = name
        graph = fingerprint(rules, scoring=False)
        chosen = SCORING_SIZES if graph in graphs and not full else sizes
        if full and name in shipped:
            chosen = (*chosen, *FULL_SHIPPED_SIZES)
        graphs.add(graph)
        chosen = tuple(s for s in chosen if _fits(rules, s))
        out.append(GameReport(name, sizes=[explore_size(rs, s) for s in chosen]))
    return out


def shipped_names() -> list[str]:
    """The shipped rule sets on their own sets: the variants, each with the double-15
    overlay where it composes, and the rule-set files of spec/data/rulesets/."""
    cat = catalog()
    known = set(rule_set_names())
    return [*cat.variants, *(f"{v}+double-15" for v in cat.variants
                             if f"{v}+double-15" in known), *cat.examples]
