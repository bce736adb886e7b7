"""Where a fixture's expectations hold: its outcome over the whole option space.

The reference engine reads a rule set only through its flags (reference/rules.py) and the
Ruleset; a traced run records which options it read, in order. The engine is
deterministic, so every rule set that agrees with the run on the options it read plays the
fixture identically: the run decides a whole region of the option space at once. Exploring
the other values of each option read, one region after another, partitions the option
space into regions of equal outcome (usually a few dozen runs per fixture, against
172,800 valid rule sets). The partition is exact, not a sample; `Space.complete` proves a
region holds no valid rule set before it is skipped.

From the partition: `check` lists every region inside an entry's written scope where its
expectation does not hold; `propose` writes the widest scope where it does. The engine
only decides where an expectation holds; what it expects comes from the rule text.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mtrain.conformance.adapter import (
    JSON,
    Answers,
    DecodedStates,
    ReferenceImplementation,
    RefusedSetup,
    ruleset_json,
)
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.runmemo import Question, RunMemo
from mtrain.conformance.runner import Outcome, check, in_force, play, setup_problems
from mtrain.reference import codec
from mtrain.reference.engine import refusals
from mtrain.reference.rules import EXISTENCE_FLAGS, FLAG_OPTIONS, Rules
from mtrain.spec.catalog import Catalog, catalog
from mtrain.spec.notation import FixtureError, action_json, max_pip_of
from mtrain.spec.ruleset import CUSTOM, OTHER, Ruleset
from mtrain.spec.scope import (
    KEPT_COMPLETIONS,
    PROBE_TABLE,
    Product,
    Region,
    Scope,
    Space,
    values_of,
)
from mtrain.spec.tilesets import highest

# --- traced runs ---------------------------------------------------------------------


class Log:
    __slots__ = ("asked", "counts", "decides", "read", "rows", "sizes")

    def __init__(self) -> None:
        self.read: dict[str, None] = {}  # options, in the order first read
        self.decides: set[str] = set()  # of those, the ones read for more than existence
        self.sizes: set[int] = set()  # player counts whose hand size was read
        self.rows: set[int] = set()  # player counts asked whether the table lists them
        self.counts = False  # the whole list of counts read
        self.asked: dict[Question, None] = {}  # what the run asked the rules, in order

    def add(self, options: Sequence[str], decides: bool = True) -> None:
        """Log `options` read; `decides` False for a read that only says whether the
        table exists in the rule set's match (EXISTENCE_FLAGS)."""
        for o in options:
            self.read.setdefault(o)
        if decides:
            self.decides.update(options)


_RULESET_FIELDS = tuple(f.name for f in dataclasses.fields(Ruleset))
"""Every field of a Ruleset, those its __post_init__ sets included."""


class TracedRuleset(Ruleset):
    """A Ruleset that logs each option looked up (the hand table logs hand_sizes)."""

    _log: Log

    @staticmethod
    def wrap(rs: Ruleset, log: Log) -> TracedRuleset:
        # rs's fields taken as they are, its index included (a frozen rule set's, never
        # written): built anew, each of a scope check's 145,000 traced runs indexed its
        # choices again
        t = object.__new__(TracedRuleset)
        for name in _RULESET_FIELDS:
            object.__setattr__(t, name, getattr(rs, name))
        object.__setattr__(t, "_log", log)
        return t

    def __getitem__(self, option: str) -> str:
        self._log.add((option,))
        self._log.asked.setdefault(("option", option))
        return super().__getitem__(option)

    def says(self, option: str, value: str) -> bool:
        # the option read as by `rs[option]`; the question asked only whether it is
        # `value`: the other values play alike here, so the memo of runs need not tell them
        self._log.add((option,))
        self._log.asked.setdefault(("says", (option, value)))
        return super().__getitem__(option) == value

    def hand_size(self, players: int) -> int:
        self._log.add(("hand_sizes",))
        self._log.sizes.add(players)
        self._log.asked.setdefault(("size", players))
        return super().hand_size(players)

    @property
    def player_counts(self) -> tuple[int, ...]:
        self._log.add(("hand_sizes",))  # which counts it deals: not a size
        self._log.counts = True
        self._log.asked.setdefault(("counts", 0))
        return super().player_counts

    def deals(self, players: int) -> bool:
        self._log.add(("hand_sizes",))
        self._log.rows.add(players)
        self._log.asked.setdefault(("deals", players))
        return super().deals(players)

    def __iter__(self) -> Iterator[str]:
        self._log.add(tuple(self._index))  # reading them all: every option decides
        self._log.asked.setdefault(("every", 0))
        return super().__iter__()

    # Asked by the harness (DEAL-7's check) and never an option read of the engine: for
    # the memo of runs (RunMemo) only.
    @property
    def custom_table(self) -> bool:
        self._log.asked.setdefault(("custom", 0))
        return super().custom_table

    @property
    def unknown(self) -> tuple[str, ...]:
        self._log.asked.setdefault(("unknown", 0))
        return super().unknown


class TracedRules:
    """Stands in for the engine's Rules and logs the option behind each flag read."""

    def __init__(self, rules: Rules, ruleset: TracedRuleset, log: Log) -> None:
        object.__setattr__(self, "_rules", rules)
        object.__setattr__(self, "_ruleset", ruleset)
        object.__setattr__(self, "_log", log)

    def __getattr__(self, name: str) -> Any:
        if name == "ruleset":
            return self._ruleset
        self._log.add(FLAG_OPTIONS[name], name not in EXISTENCE_FLAGS)
        self._log.asked.setdefault(("flag", name))
        value = getattr(self._rules, name)
        # Logged now, in order; reading it again would log nothing new, so later reads
        # find the value itself, without coming here.
        object.__setattr__(self, name, value)
        return value


KEPT_RULES = KEPT_COMPLETIONS
"""Rule sets whose flags `_rules_of` keeps: as many as the space keeps points (Space.ruleset),
whose rule sets come back fixture after fixture (with fewer, the memo was emptied every
few fixtures and half the Rules of a cold lint were built again)."""
_kept_rules: dict[int, tuple[Ruleset, Rules, dict[Question, Any]]] = {}


def _kept(rs: Ruleset) -> tuple[Ruleset, Rules, dict[Question, Any]]:
    """The rule set, its flags, and what it answered so far to the questions of traced
    runs (runmemo.answer: a function of the rule set alone), kept by the rule set's
    identity (Space.ruleset hands out one object per point, and the points of one
    fixture's exploration come back in the next ones; hashing a Ruleset's choices cost
    more than the lookup). The rule set is kept in the entry, so that its id is not
    reused while the entry lives."""
    kept = _kept_rules.get(id(rs))
    if kept is not None and kept[0] is rs:
        return kept
    if len(_kept_rules) >= KEPT_RULES:
        _kept_rules.clear()
    kept = _kept_rules[id(rs)] = (rs, Rules.of(rs), {})
    return kept


def _rules_of(rs: Ruleset) -> Rules:
    """The engine's flags of a rule set, read once: an exploration plays the same rule
    sets over and over (reading them through TracedRules logs each read all the same)."""
    return _kept(rs)[1]


def _answers_of(rs: Ruleset, memo: RunMemo | None) -> dict[Question, Any] | None:
    """What `rs` answered so far to the questions of the runs in `memo`'s trees (None
    without a memo)."""
    return None if memo is None else _kept(rs)[2]


_NO_ANSWERS = Answers(0)
"""The memo of answers of a TracedReference: never asked (its rules are a traced view)."""
MEMO_TRACED = 4096
"""States the traced runs keep read (TracedReference)."""


class TracedReference(ReferenceImplementation):
    """The reference engine playing one rule set, whatever a request names, traced."""

    _shared_states = DecodedStates(MEMO_TRACED, traced=True)
    """States read and checked, shared by every traced run (a scope check plays each
    fixture's states under hundreds of rule sets)."""

    def __init__(self, rs: Ruleset) -> None:
        # (not the base's: its memos of rules by request and of answers serve no traced
        # view, which `rules` gives for every request, and a scope check makes a
        # TracedReference per run)
        self._rules, self._seen = {}, {}
        self._answers = _NO_ANSWERS
        self._own_state = type(self).state is not ReferenceImplementation.state
        self._states = self._shared_states
        self.log = Log()
        self.ruleset = TracedRuleset.wrap(rs, self.log)
        self._traced: Any = TracedRules(_rules_of(rs), self.ruleset, self.log)

    def rules(self, ruleset: JSON) -> Rules:
        traced: Rules = self._traced
        return traced


def _ask_again(asked: Sequence[Question], impl: TracedReference) -> None:
    """Each question through the traced view, in order: the log a run asking them gets."""
    traced, rs = impl._traced, impl.ruleset
    for kind, arg in asked:
        if kind == "flag":
            getattr(traced, arg)
        elif kind == "option":
            rs[arg]
        elif kind == "says":
            rs.says(*arg)
        elif kind == "size":
            with contextlib.suppress(ValueError):
                rs.hand_size(arg)
        elif kind == "deals":
            rs.deals(arg)
        elif kind == "counts":
            rs.player_counts  # noqa: B018 (a property read for its log)
        elif kind == "custom":
            rs.custom_table  # noqa: B018
        elif kind == "unknown":
            rs.unknown  # noqa: B018
        else:
            list(rs)


@dataclass(frozen=True)
class Run:
    """One traced play of a fixture: an outcome per entry and the options read."""

    values: dict[str, str]
    outcomes: tuple[str, ...]  # per entry: pass | fail | error
    read: tuple[str, ...]
    messages: tuple[tuple[str, ...], ...] = ()
    unlisted: tuple[tuple[str, ...], ...] = ()
    """Per entry that passes: refusing clauses it leaves out (unlisted_refusals), which
    lint reports inside its scope; the outcome does not count them (identify reads
    outcomes over the whole space)."""


def traced_run(fx: Fixture, rs: Ruleset, entries: Sequence[Expectation] | None = None,
               point: Mapping[str, str] | None = None, memo: RunMemo | None = None) -> Run:
    """Play `fx` under `rs` with the traced reference and check every entry. `point`: the
    point of the option space `rs` stands for (default: the one it is, `values_of`);
    `memo`: the fixture's runs so far (all of the same entries), one of which may serve.

    Under `custom` (any table of one's own, played with PROBE_TABLE) a run that reads a
    hand size depends on the table: every entry fails there, saying so."""
    entries = fx.expect if entries is None else entries
    values = dict(point) if point is not None else values_of(catalog(), rs)
    _, rules, asked = _kept(rs)  # (one lookup for both: made once per cell)
    answers = None if memo is None else asked
    found = None if memo is None else memo.runs.find(rules, rs, answers)[0]
    run: Run
    if found is not None:
        kept_run: Run = found[0]  # (built, not dataclasses.replace: a third of a hit's time)
        run = Run(values, kept_run.outcomes, kept_run.read, kept_run.messages,
                  kept_run.unlisted)
        sizes = found[1]
    else:
        run, log = _traced_run(fx, rs, entries, values, memo)
        sizes = frozenset(log.sizes)
        if memo is not None:
            memo.runs.keep(log.asked, rules, rs, (run, sizes), answers)
    probe = values.get("hand_sizes") == CUSTOM and rs.hand_table == PROBE_TABLE
    if probe and sizes:
        said = (f"the outcome reads the hand size for {', '.join(map(str, sorted(sizes)))} "
                "players, which a table of one's own sets: name the rule-set files it holds "
                "for (spec/data/rulesets/) instead of hand_sizes=custom",)
        return Run(values, tuple("fail" for _ in entries), run.read,
                   tuple(said for _ in entries))
    return run


def _play(fx: Fixture, traced: TracedRuleset, impl: TracedReference, rj: JSON,
          resume: tuple[int, JSON] | None = None,
          reached: Callable[[int, JSON], None] | None = None) -> tuple[JSON, JSON] | Outcome:
    try:
        return play(fx, traced, impl, rj, resume=resume, reached=reached)
    except ValueError as e:  # the reference cannot deal or read this table (DEAL-7, ...)
        return Outcome(fx, traced.name, "error", [str(e)])


def _traced_run(fx: Fixture, rs: Ruleset, entries: Sequence[Expectation],
                values: dict[str, str], memo: RunMemo | None = None) -> tuple[Run, Log]:
    impl = TracedReference(rs)
    traced = impl.ruleset
    rj = ruleset_json(rs)
    played: tuple[JSON, JSON] | Outcome
    if memo is None:
        played = _play(fx, traced, impl, rj)
    else:
        _, rules, said = _kept(rs)
        done, node = memo.plays.find(rules, rs, said)
        if done is not None:
            _ask_again(done[0], impl)
            played = done[1] if isinstance(done[1], Outcome) else (done[1][0], rj)
        else:
            resume: tuple[int, JSON] | None = None
            cursor: list[Any] = [memo.plays.root, 0]
            if node is not None and node.at is not None:
                resume = node.at[:2]
                _ask_again(node.at[2], impl)
                cursor = [node, len(node.at[2])]

            def reached(k: int, state: JSON) -> None:
                asked = tuple(impl.log.asked)
                here = memo.plays.extend(cursor[0], asked[cursor[1]:], rules, rs, said)
                if here.at is None:
                    here.at = (k, state, asked)
                cursor[:] = [here, len(asked)]

            played = _play(fx, traced, impl, rj, resume, reached)
            asked = tuple(impl.log.asked)
            memo.plays.extend(cursor[0], asked[cursor[1]:], rules, rs,
                              said).found = (asked, played)
    never = never_reached(fx, traced)
    if never is not None:  # no answer there is the rules' (reachable.SHAPES): none holds
        return Run(values, tuple("fail" for _ in entries), tuple(impl.log.read),
                   tuple((never,) for _ in entries)), impl.log
    if isinstance(played, Outcome) and played.refusal is not None:  # a refused setup
        judged = [setup_problems(exp, played.refusal) for exp in entries]
        return Run(values, tuple("fail" if p else "pass" for p in judged),
                   tuple(impl.log.read), tuple(tuple(p) for p in judged)), impl.log
    if isinstance(played, Outcome):
        status = played.status
        return Run(values, tuple(status for _ in entries), tuple(impl.log.read),
                   tuple(tuple(played.messages) for _ in entries)), impl.log
    state, rj = played
    outcomes, messages, unlisted = [], [], []
    for exp in entries:
        left_out: list[str] = []
        try:
            shown = in_force(exp, rs)
            problems = check(shown, rj, state, impl, max_pip_of(traced))
            if not problems:
                left_out = unlisted_refusals(shown, rj, state, impl, max_pip_of(traced))
        except ValueError as e:  # a check the table cannot answer (a bad tile name, ...)
            problems = [str(e)]
        except RefusedSetup as e:  # the table, first read by a check (DEAL-7)
            problems = setup_problems(exp, e)
        outcomes.append("fail" if problems else "pass")
        messages.append(tuple(problems))
        unlisted.append(tuple(left_out))
    return (Run(values, tuple(outcomes), tuple(impl.log.read), tuple(messages),
                tuple(unlisted)), impl.log)


UNREACHED = "its table is one these rules never reach"
"""The start of the message of an entry whose table the rule set's rounds never have."""


def never_reached(fx: Fixture, rs: Ruleset) -> str | None:
    """Why no round under `rs` has `fx`'s table, whatever its history: a phase or an open
    double the rules never have (the model's reachable.SHAPES), as `UNREACHED (REACH-...:
    what)`; None where some round may. A traced `rs` logs the one option each reads."""
    if fx.table is None:
        return None
    from mtrain.spec.model.reachable import shape_problems, shaped
    kept = _shaped.get(id(fx))
    if kept is None or kept[0] is not fx:
        if len(_shaped) > 20000:
            _shaped.clear()
        kept = _shaped[id(fx)] = (fx, {})
    tile_set = rs["tile_set"]  # (read first by fx.start too: the table is built by set)
    if kept[1].get(tile_set) is False:
        return None  # no phase or open double a rule set may lack (a select asks often)
    try:
        table = fx.start(rs)
    except (FixtureError, ValueError, KeyError):
        return None  # a table that does not build: the run says so
    kept[1][tile_set] = shaped(table)
    shapes = shape_problems(table, rs) if kept[1][tile_set] else []
    return f"{UNREACHED} ({shapes[0]})" if shapes else None


_shaped: dict[int, tuple[Fixture, dict[str, bool]]] = {}
"""Whether a fixture's table, by tile set, is one reachable.SHAPES ask about at all: kept
by the fixture's identity (the fixture is kept in the entry, so that its id is not reused
while the entry lives)."""


def unlisted_refusals(exp: Expectation, rj: JSON, state: JSON, impl: TracedReference,
                      max_pip: int) -> list[str]:
    """Where an entry's refusal leaves out a clause that also refuses the action: an
    implementation citing that one is right too (docs/protocol.md), so the entry must
    list it. Read through the traced rules, so the clauses found decide the scope."""
    out = []
    for text, listed in exp.refused.items():
        st = impl.state(rj, state)
        try:
            act = codec.action_from_json(st, action_json(text, max_pip))
        except (codec.StateError, FixtureError):
            continue  # not an action on this table: the reference cites TURN-7 alone
        every = [r.clause for r in refusals(st, act)]
        missing = [c for c in every if c not in listed]
        if missing:
            out.append(f"`{text}` is refused by {', '.join(every)} here, the entry lists "
                       f"{', '.join(listed)}: list every clause that refuses it (an "
                       "implementation may cite any)")
    return out


# --- the partition -------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """A region of the option space where the fixture plays the same: `run` is one of
    its rule sets, and every valid rule set in `region` has the same outcomes."""

    region: Region
    run: Run


@dataclass
class Partition:
    fixture: Fixture
    cells: list[Cell] = field(default_factory=list)

    @property
    def runs(self) -> int:
        return len(self.cells)


REGION_LIMIT = 10000
"""The most regions one fixture's partition may have: a match's winners read the tile set,
the scoring, the blank values and the tie rule (about 5,200 regions since scoring has
three values); a fixture past it reads too much to explore."""


def explore(fx: Fixture, space: Space | None = None, limit: int = REGION_LIMIT,
            start: Region | None = None,
            ruleset: Callable[[dict[str, str]], Ruleset | None] | None = None) -> Partition:
    """Partition the option space (or the region `start`) by the fixture's outcome (see
    the module docstring); `ruleset`: the rule set a point is played with (default
    space.ruleset; None from it: the point is skipped, as one no rule set has)."""
    space = space or Space()
    part = Partition(fx)
    pending: list[Region] = [dict(start) if start is not None else space.full()]
    prefer = _written_values(fx, space.cat)
    memo = RunMemo()
    while pending:
        region = pending.pop()
        values = space.complete(region, prefer, memo=False)  # (each region is asked once)
        if values is None:
            continue  # no valid rule set here
        rs = space.ruleset(values) if ruleset is None else ruleset(values)
        if rs is None:
            continue
        run = traced_run(fx, rs, point=values, memo=memo)
        cell = dict(region)
        for option in run.read:
            rest = cell[option] - {values[option]}
            if rest:
                pending.append({**cell, option: rest})
            cell[option] = frozenset((values[option],))
        part.cells.append(Cell(cell, run))
        if len(part.cells) > limit:
            raise RuntimeError(f"{fx.id}: more than {limit} regions; the outcome reads "
                               "too many options to explore")
    return part


def _written_values(fx: Fixture, cat: Catalog) -> dict[str, str]:
    """The first written rule set's values: explored first, so its cell is found at once."""
    for exp in fx.expect:
        for name in exp.variants:
            return values_of(cat, cat.ruleset(name))
    return {}


# --- checking and proposing scopes ---------------------------------------------------


@dataclass(frozen=True)
class Breach:
    """A region inside an entry's scope where its expectation does not hold."""

    entry: int
    region: Region
    example: str  # a rule set of the region, by name
    outcome: str
    messages: tuple[str, ...]


def breaches(part: Partition, space: Space) -> list[Breach]:
    """Every region inside an entry's written scope where the entry does not hold."""
    out = []
    full = space.full()
    for i, exp in enumerate(part.fixture.expect):
        for cell in part.cells:
            left_out = cell.run.unlisted[i] if cell.run.unlisted else ()
            if cell.run.outcomes[i] == "pass" and not left_out:
                continue
            region = cell.region
            for product in exp.scope.products:
                # (most cells lie apart from most products: told at once, no region built;
                # a loop, not any() over a generator: asked of every failing cell)
                apart = False
                for o, vs in product.allowed:
                    if region.get(o, full[o]).isdisjoint(vs):
                        apart = True
                        break
                if apart:
                    continue
                both = space.intersect(region, product.region())
                if both is None:
                    continue
                example = space.complete(both, cell.run.values)
                if example is None:
                    continue
                passed = cell.run.outcomes[i] == "pass"
                out.append(Breach(i, both, space.cat.describe(example),
                                  "incomplete" if passed else cell.run.outcomes[i],
                                  left_out if passed else cell.run.messages[i]))
    return out


def overlaps(part: Partition, space: Space) -> list[tuple[int, int, str]]:
    """Pairs of entries whose written scopes share a valid rule set (named)."""
    out = []
    entries = part.fixture.expect
    for i in range(len(entries)):
        for j in range(i + 1, len(entries)):
            for p in entries[i].scope.products:
                for q in entries[j].scope.products:
                    both = space.intersect(p.region(), q.region())
                    example = None if both is None else space.complete(both)
                    if example is not None:
                        out.append((i, j, space.cat.describe(example)))
                        break
                else:
                    continue
                break
    return out


def propose(part: Partition, space: Space) -> list[Scope]:
    """For each entry, the widest scope where it holds: few products, few options each.

    A cell that passes several entries goes to the one whose written scope holds it (else
    the first). Each product grows, option by option and value by value, while it meets
    no valid rule set of a cell assigned elsewhere; options left with every value are
    dropped from it.
    """
    entries = part.fixture.expect
    owner: list[int | None] = []
    for cell in part.cells:
        passing = [i for i, o in enumerate(cell.run.outcomes) if o == "pass"
                   and not (cell.run.unlisted and cell.run.unlisted[i])]  # holds in full
        written = [i for i in passing if entries[i].scope.contains(cell.run.values)]
        chosen = written or passing
        owner.append(chosen[0] if chosen else None)
    out = []
    full = space.full()
    # the options each cell pins (the others it holds whole), found once for every _grow
    pins = [tuple(o for o, vs in full.items()
                  if (f := c.region.get(o, vs)) is not vs and f != vs) for c in part.cells]
    for i, exp in enumerate(entries):
        mine = [c for c, w in zip(part.cells, owner, strict=True) if w == i]
        others = [c.region for c, w in zip(part.cells, owner, strict=True) if w != i]
        pinned = [p for p, w in zip(pins, owner, strict=True) if w != i]
        products: list[Product] = []
        for cell in mine:
            # skipped only when a product holds its whole region, not just its sample:
            # a cell whose run read fewer options spans more than the sample's cell
            if any(all(cell.region[o] <= vs for o, vs in p.region().items())
                   for p in products):
                continue
            products.append(_grow(cell.region, others, space, pinned))
        products = [p for k, p in enumerate(products) if not any(
            k != m and _within(p, q, space) and (not _within(q, p, space) or m < k)
            for m, q in enumerate(products))]
        own = list(exp.scope.products[:len(exp.scope.variants)])
        out.append(Scope(tuple(own + [p for p in products if p not in own]),
                         exp.scope.variants))
    return out


def _grow(seed: Region, forbidden: Sequence[Region], space: Space,
          pinned: Sequence[tuple[str, ...]] | None = None) -> Product:
    """`seed` widened, option by option and value by value, while it meets no valid
    rule set of `forbidden`.

    Whether a wider region meets a forbidden one is asked of `space.meets` only where it
    can: each forbidden region keeps the options on which the region and it share no
    value. One with two or more such options stays apart whatever value is added; one
    with a single such option meets the wider region only if the value added is one of
    its own there. So most of the forbidden regions are never looked at again.
    `pinned`: per forbidden region, the options where it lacks a value of the space (on
    the others it holds them all, so the seed and it share a value there)."""
    region = dict(seed)
    full = space.full()
    if pinned is None:
        pinned = [tuple(o for o in full if f.get(o, full[o]) != full[o])
                  for f in forbidden]
    apart: list[set[str]] = []  # per forbidden region: the options they share no value on
    # those apart on this option alone, by each value they hold there (the ones a value
    # added to the option can bring to meet the region: looked up, not filtered)
    only: dict[str, dict[str, set[int]]] = {o: {} for o in full}
    touching: set[int] = set()  # those apart on none (they meet no valid rule set yet)
    # those apart on this option, by each value they hold there
    on: dict[str, dict[str, set[int]]] = {o: {} for o in full}
    for k, (f, pins) in enumerate(zip(forbidden, pinned, strict=True)):
        gap = {o for o in pins if region[o].isdisjoint(f[o])}
        apart.append(gap)
        for o in gap:
            for v in f[o]:
                on[o].setdefault(v, set()).add(k)
        if len(gap) == 1:
            o = next(iter(gap))
            for v in f[o]:
                only[o].setdefault(v, set()).add(k)
        elif not gap:
            touching.add(k)
    for option, values in space.options.items():
        for v in values:
            if v in region[option]:
                continue
            wider = {**region, option: region[option] | {v}}
            near = only[option].get(v, ())
            if any(space.meets(wider, forbidden[k]) for k in [*sorted(touching), *near]):
                continue
            region = wider
            for k in list(on[option].get(v, ())):
                gap = apart[k]
                if len(gap) == 1:
                    for w in forbidden[k][option]:
                        only[option][w].discard(k)
                    touching.add(k)
                elif len(gap) == 2:
                    o = next(o for o in gap if o != option)
                    for w in forbidden[k][o]:
                        only[o].setdefault(w, set()).add(k)
                gap.discard(option)
                for w in forbidden[k][option]:
                    on[option][w].discard(k)
    return Product.of({o: vs for o, vs in region.items() if vs != full[o]})


def _within(p: Product, q: Product, space: Space) -> bool:
    """Every rule set of p lies in q (so p adds nothing to a union holding q)."""
    full, pr = space.full(), p.region()
    return all(pr.get(o, full[o]) <= vs for o, vs in q.region().items())


def beyond(scope: Scope, space: Space) -> bool:
    """True when the scope holds a valid rule set that none of its variants is."""
    points = [p.region() for p in scope.products[:len(scope.variants)]]
    for product in scope.products[len(scope.variants):]:
        todo = [product.region()]
        while todo:
            region = todo.pop()
            found = space.complete(region)
            if found is None:
                continue
            if not any(all(found[o] in vs for o, vs in pt.items()) for pt in points):
                return True
            full = space.full()
            for o in space.options:  # look for another rule set of the region
                rest = region.get(o, full[o]) - {found[o]}
                if rest:
                    todo.append({**region, o: rest})
                region = {**region, o: frozenset((found[o],))}
    return False


# --- applicability under a rule set with rules of its own -----------------------------


def applies(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space) -> str | None:
    """Whether `exp` speaks about `rs`: None if it does, else why not.

    A rule set of known values is its point of the option space, in the scope or not.
    Options played their own way (`other`) are judged by a traced run of the reference
    with a known value in place of each: if the outcome reads none of them, it is the
    same whatever they are, and the entry applies when some choice of them puts the rule
    set in its scope.

    A table of one's own is judged by the rows the outcome reads: the reference plays
    the table itself, and a run is the same under every table that gives the same sizes
    (and lists the same player counts) where the run looks (DEAL-1, DEAL-7). So the entry
    applies when some table of its scope, a named one or an example's, agrees with the
    table there: an expectation worked out for 16 tiles each at 2 players holds for
    every table that deals 2 players 16, whatever it deals to 3.
    """
    values = space.point(rs)
    unknown = list(rs.unknown)
    if not unknown and exp.scope.contains(values):
        return _deals_players(exp, fx, rs, values)
    refused = _deals_players(exp, fx, rs, values)
    if refused is not None:  # a run would only see its setup refused (DEAL-7)
        return refused
    if not unknown and not rs.custom_table:
        return "outside the expectation's scope"
    region: Region = {o: frozenset((v,)) for o, v in values.items() if o not in unknown}
    # an entry that no value of the options played its own way (nor any table) brings
    # the rule set into speaks about other rules, whatever the run reads: not applicable
    # "because it depends on" them would blame the house rule for a scope it never had
    known = {o: vs for o, vs in region.items() if not (rs.custom_table and o == "hand_sizes")}
    if not any(space.meets(known, p.region()) for p in exp.scope.products):
        return "outside the expectation's scope"
    if unknown:
        sample = space.complete(region)
        if sample is None:
            return "no known rule set stands in for its own rules here"
        stand_in = space.ruleset(sample)
        if rs.custom_table:  # the reference plays the table itself
            stand_in = Ruleset(stand_in.name, stand_in.choices, rs.hand_table)
    else:
        sample, stand_in = values, rs
    run, log = _traced_run(fx, stand_in, [exp], dict(sample))
    decided = [o for o in unknown if o in log.decides]
    if "starting_seat" in decided and _notation_only(fx, exp, stand_in, sample):
        decided.remove("starting_seat")
    if decided:
        return "its outcome depends on " + ", ".join(
            f"{o} (played its own way)" for o in decided)
    if rs.custom_table and "hand_sizes" in run.read:
        region["hand_sizes"] = frozenset(
            v for v in space.options["hand_sizes"] if _same_rows(space, v, rs, log))
    for product in exp.scope.products:
        inside = space.intersect(region, product.region())
        if inside is not None and space.complete(inside) is not None:
            return _deals_players(exp, fx, rs, values)
    if rs.custom_table and any(space.meets({**region, "hand_sizes": full}, p.region())
                               for p in exp.scope.products
                               for full in [frozenset(space.options["hand_sizes"])]):
        if run.outcomes == ("pass",):
            # No named table deals as this one does where the run looks, but the
            # reference, playing the table itself, checks the entry's expectation and
            # finds it holds (the check lint makes of a scope, at one more point): an
            # outcome the table does not change, such as a rotating start (SEAT-3)
            return _deals_players(exp, fx, rs, values)
        return ("its outcome depends on hand_sizes (played with a table of its own, the "
                "reference finds another outcome than the entry's)")
    return "outside the expectation's scope"


def round_of_its_own(fx: Fixture, rs: Ruleset) -> str | None:
    """Why a refused setup is no failure: under a match length of one's own, a fixture
    set in a round after the first (its table's or its deal's) may ask for a round the
    implementation's match does not have. `applies` lets such an entry run (the match
    length decides whether the round exists, not what happens in it: EXISTENCE_FLAGS), so
    the implementation says which rounds it has. None when the refusal is a failure."""
    if rs["match_length"] != OTHER:
        return None
    start = fx.table if fx.table is not None else fx.deal
    top = highest(rs["tile_set"])
    engine = (start or {}).get("engine", top)  # the engine names the round (ENG-1)
    if not isinstance(engine, int) or not 0 <= engine < top:
        return None
    round_no = top - engine + 1
    return (f"the implementation refused round {round_no}'s setup: a match of its own "
            "length (match_length played its own way) need not have it [MATCH-1]")


def _notation_only(fx: Fixture, exp: Expectation, rs: Ruleset,
                   values: Mapping[str, str]) -> bool:
    """Whether a table's starting-seat read is only the notation's default for a table
    that names no starter (docs/fixture-format.md: the rotation's seat, else the mover).
    The rule itself (SEAT-2, SEAT-3) applies where an engine is placed; on a table, the
    starter decides only who may open the Mexican Train (FIRST-9). So with the starter
    written out as either default, a run that reads neither the starting seat nor the
    Mexican Train's first-turn rule plays the same whatever the rule is."""
    if fx.table is None or "starter" in fx.table:
        return False
    n = len(fx.table.get("hands") or {})
    engine = int(fx.table.get("engine", highest(rs["tile_set"])))
    defaults = {int(fx.table.get("seat", 0)), (highest(rs["tile_set"]) - engine) % max(n, 1)}
    for starter in defaults:
        table = {**fx.table, "starter": starter}
        run, _ = _traced_run(dataclasses.replace(fx, table=table), rs, [exp], dict(values))
        if {"starting_seat", "mexican_first_turn"} & set(run.read):
            return False
    return True


def _same_rows(space: Space, value: str, rs: Ruleset, log: Log) -> bool:
    """Whether the table `value` names agrees with `rs`'s where a run read it (`custom`
    stands for any table, so only where nothing was read)."""
    table = space.table_of(value)
    if table is None:
        return not (log.sizes or log.rows or log.counts)
    own = dict(rs.hand_table)
    return (all(table.get(n) == own.get(n) for n in log.sizes)
            and all((n in table) == (n in own) for n in log.rows)
            and (not log.counts or set(table) == set(own)))


def _deals_players(exp: Expectation, fx: Fixture, rs: Ruleset,
                   values: Mapping[str, str]) -> str | None:
    if values.get("hand_sizes") != CUSTOM or exp.refused_setup is not None:
        return None
    players = int(fx.deal["players"]) if fx.deal is not None else len((fx.table or {})["hands"])
    if players in rs.player_counts:
        return None
    return (f"its table of its own deals no {players} players (DEAL-7): the fixture's "
            "setup is refused under it")


def stand_in(rs: Ruleset, exp: Expectation, space: Space) -> Ruleset:
    """The known rule set the harness sends for `rs` when running `exp` (rs itself when
    every value is known): unknown values replaced by ones inside the scope."""
    if not rs.unknown:
        return rs
    values = space.point(rs)
    region: Region = {o: frozenset((v,)) for o, v in values.items() if v != OTHER}
    regions = [region]
    if rs.custom_table:
        # `applies` takes an entry for a table of one's own where some table of its scope
        # agrees with the rows the run reads (a deal fixture's scope names tables, never
        # `custom`): the table sent stays the rule set's own, any table stands in here
        regions.append({o: vs for o, vs in region.items() if o != "hand_sizes"})
    for where in regions:
        for product in exp.scope.products:
            inside = space.intersect(where, product.region())
            found = None if inside is None else space.complete(inside)
            if found is not None:
                if rs.custom_table:  # the table stays the rule set's own
                    found["hand_sizes"] = CUSTOM
                choices = tuple((o, found[o]) for o in values)
                return Ruleset(rs.name, choices, rs.hand_table, rs.overlays)
    raise ValueError(f"{rs.name}: no known rule set in the scope stands in for it")


def region_text(region: Mapping[str, frozenset[str]], space: Space) -> str:
    full = space.full()
    return Product.of({o: v for o, v in region.items() if v != full[o]}).text(space.cat)
