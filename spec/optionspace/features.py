"""The option space as a feature model, analysed with z3.

The classic analyses of feature models (FeatureIDE, flamapy) over the options of
spec/data/options.yaml, with the constraints of spec/data/clauses.yaml:

* every option is a z3 integer ranging over the indexes of its values (domain bounds are
  hard constraints, not tracked);
* every clause with a `requires` is the implication ``when -> requires`` (a clause
  without `when` always applies), tracked under the clause id;
* DEAL-8 (a table must be dealable) becomes one tracked row per hand-size table and
  player count: ``hand_sizes = table -> n*h + [engine set aside] <= tiles(tile_set)``,
  tracked as ``DEAL-8:<table>:<n>p``;
* `hand_sizes` has one value more than options.yaml lists: ``custom``, a table a rule-set
  file gives of its own. Like the catalogue, it satisfies every `requires` on hand_sizes
  (DEAL-10, DEAL-11) and has no DEAL-8 row here: its rows are checked when the file is
  loaded. It is what makes the sets without a published table (double-6, double-18) live.

Tracking uses assumption literals, so an unsat answer comes with an unsat core naming
clause ids; every core reported here is minimised by deletion (each literal, last
declared first, is dropped while the rest stays unsat), so it is minimal and, among
several minimal cores, the one keeping the earliest declared literals.

Determinism: a fixed random seed, an `rlimit` on every query (an ``unknown`` answer is an
error, never read as sat or unsat) and a fresh solver for every property asked.

`checks.run_all(space())` runs every analysis and returns a JSON-able report.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Final

import z3

from mtrain.spec import tiles
from mtrain.spec.catalog import Catalog, RulesetError, catalog
from mtrain.spec.data_folder import data_dir
from mtrain.spec.ruleset import CUSTOM
from mtrain.spec.tilesets import highest
from mtrain.spec.yamlload import SpecError

__all__ = [
    "AnalysisError",
    "ClauseFinding",
    "ClauseUsage",
    "Combination",
    "Component",
    "Constraint",
    "Contradiction",
    "DealRow",
    "ModelCount",
    "OptionSpace",
    "Redundancy",
    "RedundancyReport",
    "SatResult",
    "ValueFinding",
    "ValueReport",
    "space",
]

RLIMIT: Final = 5_000_000
"""Resource limit of every query; the largest query here uses a few thousand units."""

SEED: Final = 0

_CLAUSE_ID: Final = re.compile(r"\b[A-Z]+-\d+\b")


class AnalysisError(RuntimeError):
    """z3 could not decide a query within its resource limit (or answered oddly)."""


def ov(option: str, value: str) -> str:
    """The text form of an option value, as findings name it: ``tile_set=double-9``."""
    return f"{option}={value}"


def clause_ids(names: Iterable[str]) -> tuple[str, ...]:
    """The clause literals of a core: ``DEAL-8:pagat:4p`` and ``SEAT-2`` stay, groups go."""
    return tuple(n for n in names if _CLAUSE_ID.fullmatch(n.split(":", 1)[0]))


# -- results ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Constraint:
    """One tracked constraint: a clause's `requires`, or one DEAL-8 row."""

    name: str
    """The literal's name: a clause id, or ``DEAL-8:<table>:<n>p``."""
    clause: str
    options: frozenset[str]
    """The options it mentions (for splitting the space into independent parts)."""
    text: str
    expr: Any  # z3.BoolRef


@dataclass(frozen=True)
class SatResult:
    """Whether a (partial) rule set can be completed to a valid one."""

    name: str
    sat: bool
    core: tuple[str, ...] = ()
    """Minimised unsat core: clause literals and the named parts of the rule set."""

    @property
    def clauses(self) -> tuple[str, ...]:
        return clause_ids(self.core)


@dataclass(frozen=True)
class Combination:
    """A base variant with one or two overlays: the catalog's verdict and z3's."""

    base: str
    overlays: tuple[str, ...]
    catalog_ok: bool
    catalog_kind: str
    """``ok``, ``applies-to``, ``conflict``, ``clause`` (requires or DEAL-8), ``other``."""
    catalog_message: str
    catalog_clauses: tuple[str, ...]
    z3: SatResult

    @property
    def name(self) -> str:
        return "+".join((self.base, *self.overlays))

    @property
    def comparable(self) -> bool:
        """An `applies_to` refusal is about file scope, which the option space cannot see."""
        return self.catalog_kind != "applies-to"

    @property
    def agree(self) -> bool:
        """Same verdict, and when both refuse over a clause, the core names that clause."""
        if not self.comparable:
            return True
        if self.catalog_ok != self.z3.sat:
            return False
        if self.catalog_kind == "clause":
            named = {c.split(":", 1)[0] for c in self.z3.clauses}
            return bool(named & set(self.catalog_clauses))
        return True


@dataclass(frozen=True)
class Contradiction:
    """Two option values that no valid rule set takes together."""

    a: str
    b: str
    core: tuple[str, ...]


@dataclass(frozen=True)
class ValueFinding:
    """A dead value (in no valid rule set) or a forced one (in all), with its core."""

    option: str
    value: str
    core: tuple[str, ...]

    @property
    def text(self) -> str:
        return ov(self.option, self.value)


@dataclass(frozen=True)
class ValueReport:
    dead: tuple[ValueFinding, ...]
    backbone: tuple[ValueFinding, ...]


@dataclass(frozen=True)
class ClauseFinding:
    clause: str
    core: tuple[str, ...]


@dataclass(frozen=True)
class ClauseUsage:
    """Clauses with a `when`: applying in every valid rule set, or in none."""

    checked: tuple[str, ...]
    false_optional: tuple[ClauseFinding, ...]
    dead: tuple[ClauseFinding, ...]


@dataclass(frozen=True)
class Redundancy:
    """A constraint implied by the others: `implied_by` is a minimal set of them."""

    name: str
    implied_by: tuple[str, ...]

    @property
    def tautology(self) -> bool:
        """It holds over the whole domain: nothing else is needed to imply it."""
        return not self.implied_by


@dataclass(frozen=True)
class RedundancyReport:
    redundant: tuple[Redundancy, ...]
    """Each constraint that the others imply, taken one at a time."""
    basis: tuple[str, ...]
    """An irredundant subset equivalent to all of them (greedy, last declared dropped first)."""


@dataclass(frozen=True)
class Component:
    """Options that constraints tie together, and the valid assignments of just them."""

    options: tuple[str, ...]
    count: int
    size: int
    """The size of their Cartesian product."""


@dataclass(frozen=True)
class ModelCount:
    total: int
    components: tuple[Component, ...]


@dataclass(frozen=True)
class DealRow:
    table: str
    tile_set: str
    engine_procedure: str
    players: int
    hand: int
    needed: int
    available: int
    dealable: bool

    @property
    def literal(self) -> str:
        return f"DEAL-8:{self.table}:{self.players}p"


# -- the encoding -----------------------------------------------------------------------


class OptionSpace:
    """The options as z3 integers and the clauses as tracked constraints."""

    def __init__(self, cat: Catalog | None = None, rlimit: int = RLIMIT) -> None:
        z3.set_param("smt.random_seed", SEED)
        self.catalog = cat if cat is not None else catalog()
        self.rlimit = rlimit
        self.options: dict[str, tuple[str, ...]] = {
            name: tuple(opt.values) + ((CUSTOM,) if name == "hand_sizes" else ())
            for name, opt in self.catalog.options.items()}
        self.var: dict[str, Any] = {o: z3.Int(o) for o in self.options}
        self.domain = [z3.And(self.var[o] >= 0, self.var[o] < len(vs))
                       for o, vs in self.options.items()]
        self._eq = {(o, v): self.var[o] == i
                    for o, vs in self.options.items() for i, v in enumerate(vs)}
        self.tile_counts = {v: tiles.set_size(highest(v)) for v in self.options["tile_set"]}
        self.constraints: tuple[Constraint, ...] = tuple(self._encode())
        names = [c.name for c in self.constraints]
        if len(set(names)) != len(names):
            raise AnalysisError(f"tracked constraint names repeat: {names}")
        self._lits: dict[str, tuple[Any, Any]] = {}
        self._assigned: dict[frozenset[tuple[str, str]], Any] = {}
        self._all: Any = None
        self._valid: frozenset[str] | None = None
        self.queries = 0

    def add_constraint(self, name: str, expr: Any, text: str = "") -> None:
        """Track one more constraint (a what-if: tests and explorations use it)."""
        if any(c.name == name for c in self.constraints):
            raise AnalysisError(f"a constraint named {name!r} exists already")
        leaves = {str(x) for x in _leaves(expr)}
        used = frozenset(o for o in self.options if o in leaves)
        self.constraints += (Constraint(name, name.split(":", 1)[0], used, text, expr),)
        self._lits.clear()
        self._all = None
        self._valid = None

    # expressions

    def eq(self, option: str, value: str) -> Any:
        return self._eq[(option, value)]

    def holds(self, cond: Mapping[str, Iterable[str]]) -> Any:
        """Every listed option takes one of its listed values (True when nothing is listed)."""
        parts = [z3.Or([self.eq(o, v) for v in sorted(vs, key=self.options[o].index)])
                 for o, vs in cond.items()]
        return z3.And(parts) if parts else z3.BoolVal(True)

    def assign(self, values: Mapping[str, str]) -> Any:
        key = frozenset(values.items())
        if key not in self._assigned:
            self._assigned[key] = self.holds({o: (v,) for o, v in values.items()})
        return self._assigned[key]

    def _tiles(self) -> Any:
        expr: Any = z3.IntVal(0)
        for value, count in self.tile_counts.items():
            expr = z3.If(self.eq("tile_set", value), count, expr)
        return expr

    def _encode(self) -> Iterable[Constraint]:
        aside = z3.If(self.eq("engine_procedure", "set-aside"), 1, 0)
        available = self._tiles()
        for clause in self.catalog.clauses.values():
            if clause.requires:
                need = "; ".join(f"{o} in {sorted(v)}" for o, v in clause.requires.items())
                cond = "; ".join(f"{o} in {sorted(v)}" for o, v in clause.when.items())
                # a table of the file's own meets any hand_sizes requirement (see above)
                required = {o: vs | {CUSTOM} if o == "hand_sizes" else vs
                            for o, vs in clause.requires.items()}
                yield Constraint(
                    clause.id, clause.id, frozenset(clause.when) | frozenset(clause.requires),
                    f"{cond or 'always'} -> {need}",
                    z3.Implies(self.holds(clause.when), self.holds(required)))
            if clause.id == "DEAL-8":
                for table, value in self.catalog.options["hand_sizes"].values.items():
                    for n, h in value.table:
                        yield Constraint(
                            f"DEAL-8:{table}:{n}p", "DEAL-8",
                            frozenset({"hand_sizes", "engine_procedure", "tile_set"}),
                            f"hand_sizes={table} -> {n}*{h} + aside <= tiles(tile_set)",
                            z3.Implies(self.eq("hand_sizes", table),
                                       n * h + aside <= available))
        if "DEAL-8" not in self.catalog.clauses:
            raise AnalysisError("clause DEAL-8 is missing from clauses.yaml")

    def decode(self, model: Any) -> dict[str, str]:
        return {o: vs[model.eval(self.var[o], model_completion=True).as_long()]
                for o, vs in self.options.items()}

    # queries

    def solver(self) -> Any:
        """A fresh solver with the domain bounds, seeded and resource-bounded."""
        s = z3.SimpleSolver()
        s.set("random_seed", SEED)
        s.set("rlimit", self.rlimit)
        _assert(s, self.domain)
        return s

    def _run(self, s: Any, asts: Sequence[Any]) -> bool:
        """Is `s` satisfiable with these literals (their ASTs, `lit.as_ast()`) assumed?"""
        self.queries += 1
        # Solver.check(*lits) casts each literal to Bool in Python (sort comparisons
        # through the C API): for the ~45 tracked literals of a query that was most of
        # the check's time. The literals are Bool constants already: their ASTs go as
        # they are, in the same order, to the same call.
        array = (z3.Ast * len(asts))(*asts)
        r = z3.CheckSatResult(z3.Z3_solver_check_assumptions(
            s.ctx.ref(), s.solver, len(asts), array))
        if r == z3.sat:
            return True
        if r == z3.unsat:
            return False
        raise AnalysisError(f"z3 answered {r}: {s.reason_unknown()}")

    def _tracked(self, names: Iterable[str] | None) -> list[tuple[Any, Any]]:
        """The (literal, literal -> constraint) pairs of these constraints (default: all)."""
        if not self._lits:
            for c in self.constraints:
                lit = z3.Bool(c.name)
                self._lits[c.name] = (lit, z3.Implies(lit, c.expr))
        chosen = [c.name for c in self.constraints] if names is None else names
        return [self._lits[n] for n in chosen]

    def tautologies(self) -> frozenset[str]:
        """The constraints that no assignment of the domain violates (asked once)."""
        if self._valid is None:
            found = set()
            for c in self.constraints:
                s = self.solver()
                s.add(z3.Not(c.expr))
                if not self._run(s, []):
                    found.add(c.name)
            self._valid = frozenset(found)
        return self._valid

    def check(self, hard: Sequence[Any] = (), extra: Sequence[tuple[str, Any]] = (),
              constraints: Iterable[str] | None = None,
              name: str = "", model: bool = True) -> tuple[SatResult, dict[str, str] | None]:
        """Is `hard`, with the tracked constraints and the tracked `extra` parts, satisfiable?

        `constraints` names the tracked constraints to use (default: all). `extra` are
        more tracked literals (a variant's values, an overlay's ...), named as given.
        Returns the verdict, with a minimised core when unsat, and, when sat, the rule set
        z3 found (unless `model` is false: a caller that only wants the verdict). The core
        is minimised by deletion over every tracked literal, last declared first, so it
        does not depend on which core z3 happened to report.
        """
        chosen = None if constraints is None else list(constraints)
        tracked = self._tracked(chosen)
        names = [*([c.name for c in self.constraints] if chosen is None else chosen),
                 *(lit_name for lit_name, _ in extra)]  # each literal's name (no printer)
        for lit_name, expr in extra:
            lit = z3.Bool(lit_name)
            tracked.append((lit, z3.Implies(lit, expr)))
        s = self.solver()
        _assert(s, hard)
        if constraints is None:  # the usual case: one prebuilt conjunction
            if self._all is None:
                self._all = z3.And([imp for _, imp in tracked[:len(self.constraints)]])
            _assert(s, [self._all, *(imp for _, imp in tracked[len(self.constraints):])])
        else:
            _assert(s, [imp for _, imp in tracked])
        lits = [lit.as_ast() for lit, _ in tracked]
        if self._run(s, lits):
            return SatResult(name, True), self.decode(s.model()) if model else None
        # A constraint that holds over the whole domain is in no minimal core: skip it.
        valid = self.tautologies()
        keep = [i for i, n in enumerate(names) if n not in valid]
        for i in reversed(keep):
            trial = [j for j in keep if j != i]
            if not self._run(s, [lits[j] for j in trial]):
                keep = trial
        return SatResult(name, False, tuple(names[j] for j in keep)), None

    # -- analyses -----------------------------------------------------------------------

    def satisfiable(self, values: Mapping[str, str], name: str = "") -> SatResult:
        """Can these option values (all or some) be completed to a valid rule set?

        Each given value is a tracked literal ``option=value``, so a core also says which
        of the given values clash.
        """
        for o, v in values.items():
            if v not in self.options.get(o, ()):
                raise AnalysisError(f"unknown option value {ov(o, v)}")
        return self.check((), [(ov(o, v), self.eq(o, v)) for o, v in values.items()],
                          name=name, model=False)[0]

    def shipped_variants(self) -> tuple[SatResult, ...]:
        return tuple(self.satisfiable(dict(self.catalog.ruleset(name)), name)
                     for name in self.catalog.variants)

    def combination(self, base: str, overlays: Sequence[str]) -> Combination:
        """Base plus overlays as z3 sees them, next to the catalog's own verdict.

        The base's values (those no overlay sets) are one tracked literal
        ``variant:<base>``; each overlay's values are one more, ``overlay:<name>``, so two
        overlays setting one option differently show up as a core naming both.
        """
        try:
            self.catalog.ruleset(base, overlays)
            ok, kind, message, cited = True, "ok", "", ()
        except (RulesetError, SpecError) as exc:
            message = str(exc)
            cited = tuple(dict.fromkeys(
                c for c in _CLAUSE_ID.findall(message) if c in self.catalog.clauses))
            kind = ("applies-to" if "applies only to" in message
                    else "conflict" if " conflict: " in message
                    else "clause" if cited else "other")
            ok = False
        set_by = {o for name in overlays for o in self.catalog.overlays[name].options}
        base_values = {o: v for o, v in self.catalog.ruleset(base).choices if o not in set_by}
        parts = [(f"variant:{base}", self.assign(base_values))]
        parts += [(f"overlay:{name}", self.assign(self.catalog.overlays[name].options))
                  for name in overlays]
        verdict = self.check((), parts, name="+".join((base, *overlays)), model=False)[0]
        return Combination(base, tuple(overlays), ok, kind, message, cited, verdict)

    def overlay_combinations(self, pairs: bool = True) -> tuple[Combination, ...]:
        """Every shipped variant with every single overlay (and every pair of overlays).

        `mtrain check` decides every combination by enumeration (spec/optionspace/grid.py) and
        asks z3 only the singles, as a cross-check, and the failures, for their cores.
        """
        names = list(self.catalog.overlays)
        combos = [(o,) for o in names] + (list(combinations(names, 2)) if pairs else [])
        return tuple(self.combination(base, combo)
                     for base in self.catalog.variants for combo in combos)

    def values(self) -> ValueReport:
        """Dead values (per-value checks) and the backbone (z3 `consequences`).

        The backbone is cross-checked value by value; each forced value comes with the
        minimised core that forces it.
        """
        dead, forced = [], []
        for o, vs in self.options.items():
            for v in vs:
                res, _ = self.check([self.eq(o, v)], model=False)
                if not res.sat:
                    dead.append(ValueFinding(o, v, res.core))
                res, _ = self.check([z3.Not(self.eq(o, v))], model=False)
                if not res.sat:
                    forced.append(ValueFinding(o, v, res.core))
        s = self.solver()
        tracked = self._tracked(None)
        s.add(*(imp for _, imp in tracked))
        lits = [lit for lit, _ in tracked]
        self.queries += 1
        r, conseqs = s.consequences(lits, list(self.var.values()))
        if r != z3.sat:
            raise AnalysisError(f"consequences answered {r}: {s.reason_unknown()}")
        by_consequences = set()
        for imp in conseqs:
            equality = imp.arg(1)
            option = str(equality.arg(0))
            by_consequences.add(ov(option, self.options[option][equality.arg(1).as_long()]))
        if by_consequences != {f.text for f in forced}:
            raise AnalysisError(f"backbone: consequences give {sorted(by_consequences)}, "
                                f"per-value checks {sorted(f.text for f in forced)}")
        return ValueReport(tuple(dead), tuple(forced))

    def contradictory_pairs(self, dead: Iterable[str] = ()) -> tuple[Contradiction, ...]:
        """Every pair of values of two options that no valid rule set takes together.

        Pairs involving a dead value (given in `dead`, as ``option=value``) are left out:
        every pair with one is contradictory. A pair already seen together in a rule set
        that z3 found is known satisfiable and not asked again.
        """
        skip = set(dead)
        witnesses: list[dict[str, str]] = []
        out = []
        for o1, o2 in combinations(self.options, 2):
            for v1 in self.options[o1]:
                for v2 in self.options[o2]:
                    if ov(o1, v1) in skip or ov(o2, v2) in skip:
                        continue
                    if any(w[o1] == v1 and w[o2] == v2 for w in witnesses):
                        continue
                    res, model = self.check([self.eq(o1, v1), self.eq(o2, v2)])
                    if model is not None:
                        witnesses.append(model)
                    else:
                        out.append(Contradiction(ov(o1, v1), ov(o2, v2), res.core))
        return tuple(out)

    def clause_usage(self) -> ClauseUsage:
        """False-optional clauses (`when` holds in every valid rule set) and dead ones (none)."""
        checked, false_optional, dead = [], [], []
        for clause in self.catalog.clauses.values():
            if not clause.when:
                continue
            checked.append(clause.id)
            when = self.holds(clause.when)
            res, _ = self.check([when], model=False)
            if not res.sat:
                dead.append(ClauseFinding(clause.id, res.core))
            res, _ = self.check([z3.Not(when)], model=False)
            if not res.sat:
                false_optional.append(ClauseFinding(clause.id, res.core))
        return ClauseUsage(tuple(checked), tuple(false_optional), tuple(dead))

    def atomic_sets(self, dead: Iterable[str] = ()) -> tuple[tuple[str, ...], ...]:
        """Groups (two or more) of values of different options that always occur together.

        ``v1 <-> v2`` holds in every valid rule set when ``v1 xor v2`` is unsat. Pairs
        that some rule set found by z3 already separates are not asked again.
        """
        skip = set(dead)
        items = [(o, v) for o, vs in self.options.items() for v in vs if ov(o, v) not in skip]
        witnesses: list[dict[str, str]] = []
        parent = {ov(o, v): ov(o, v) for o, v in items}

        def find(x: str) -> str:
            while parent[x] != x:
                x = parent[x]
            return x

        for (o1, v1), (o2, v2) in combinations(items, 2):
            if o1 == o2:
                continue
            if any((w[o1] == v1) != (w[o2] == v2) for w in witnesses):
                continue
            _, model = self.check([z3.Xor(self.eq(o1, v1), self.eq(o2, v2))])
            if model is not None:
                witnesses.append(model)
            else:
                parent[find(ov(o2, v2))] = find(ov(o1, v1))
        groups: dict[str, list[str]] = {}
        for o, v in items:
            groups.setdefault(find(ov(o, v)), []).append(ov(o, v))
        return tuple(tuple(g) for g in groups.values() if len(g) > 1)

    def redundant_constraints(self) -> RedundancyReport:
        """Constraints implied by the others (``others and not c`` unsat), and a basis."""
        everything = [c.name for c in self.constraints]
        redundant = []
        for c in self.constraints:
            others = [n for n in everything if n != c.name]
            res, _ = self.check([z3.Not(c.expr)], constraints=others, model=False)
            if not res.sat:
                redundant.append(Redundancy(c.name, res.core))
        basis = list(everything)
        for c in reversed(self.constraints):
            others = [n for n in basis if n != c.name]
            if not self.check([z3.Not(c.expr)], constraints=others, model=False)[0].sat:
                basis = others
        return RedundancyReport(tuple(redundant), tuple(basis))

    def count_models(self) -> ModelCount:
        """The exact number of valid rule sets.

        Options that no constraint links are independent, so the count is the product,
        over the groups of linked options, of the valid assignments of each group, which
        z3 enumerates with blocking clauses (an unlinked option counts its values).
        """
        parent = {o: o for o in self.options}

        def find(x: str) -> str:
            while parent[x] != x:
                x = parent[x]
            return x

        for c in self.constraints:
            if not c.options:  # a closed formula: added to every group below
                continue
            first, *rest = sorted(c.options, key=list(self.options).index)
            for o in rest:
                parent[find(o)] = find(first)
        groups: dict[str, list[str]] = {}
        for o in self.options:
            groups.setdefault(find(o), []).append(o)
        components, total = [], 1
        for opts in groups.values():
            size = 1
            for o in opts:
                size *= len(self.options[o])
            s = self.solver()
            for c in self.constraints:
                if not c.options or c.options & set(opts):
                    s.add(c.expr)
            count = 0
            while self._run(s, []):
                count += 1
                if count > size:
                    raise AnalysisError(f"enumeration of {opts} exceeded {size} models")
                model = s.model()
                s.add(z3.Or([self.var[o] != model.eval(self.var[o], model_completion=True)
                             for o in opts]))
            components.append(Component(tuple(opts), count, size))
            total *= count
        return ModelCount(total, tuple(components))

    def deal_feasibility(self) -> tuple[DealRow, ...]:
        """Every row of every table on every tile set, with and without the engine aside.

        Each row's DEAL-8 literal is evaluated by z3 under that assignment.
        """
        rows = []
        for table, value in self.catalog.options["hand_sizes"].values.items():
            for tile_set, available in self.tile_counts.items():
                for engine in self.options["engine_procedure"]:
                    fixed = [(self.var[o], z3.IntVal(self.options[o].index(v)))
                             for o, v in (("hand_sizes", table), ("tile_set", tile_set),
                                          ("engine_procedure", engine))]
                    for n, h in value.table:
                        lit = next(c for c in self.constraints
                                   if c.name == f"DEAL-8:{table}:{n}p")
                        verdict = z3.simplify(z3.substitute(lit.expr, *fixed))
                        if not (z3.is_true(verdict) or z3.is_false(verdict)):
                            raise AnalysisError(f"{lit.name} did not evaluate: {verdict}")
                        aside = 1 if engine == "set-aside" else 0
                        rows.append(DealRow(table, tile_set, engine, n, h, n * h + aside,
                                            available, bool(z3.is_true(verdict))))
        return tuple(rows)


def _assert(s: Any, exprs: Iterable[Any]) -> None:
    """`s.add(*exprs)` for Boolean terms, straight to the C API: Solver.add casts each to
    Bool in Python (sort comparisons, a wrapper per sort), which was a third of a query's
    time; the solver gets the same assertions in the same order."""
    ctx, solver = s.ctx.ref(), s.solver
    for e in exprs:
        z3.Z3_solver_assert(ctx, solver, e.as_ast())


def _leaves(expr: Any) -> Iterable[Any]:
    """The uninterpreted constants of an expression."""
    if z3.is_const(expr) and expr.decl().kind() == z3.Z3_OP_UNINTERPRETED:
        yield expr
    for child in expr.children():
        yield from _leaves(child)


def space() -> OptionSpace:
    """The option space of the specification `catalog()` reads (shipped, or a copy)."""
    return _space(str(data_dir()))


@functools.cache
def _space(folder: str) -> OptionSpace:
    return OptionSpace()
