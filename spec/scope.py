"""Scopes: the rule sets an expectation speaks about, written as option values.

A scope is a union of products. A product names, for some options, the values it allows;
an option it does not name may take any value. So `{follow_up: [anywhere, restricted]}`
is every rule set whose follow-up rule is one of those two, whatever its other options.
A variant name is shorthand for the product that fixes every option to that variant's
value. The option space itself (which assignments are valid rule sets) is the catalogue's:
`Space.complete` finds a valid rule set inside a region, or proves there is none, by a
backtracking search over the options that prunes on `Catalog.conflicts`.

A table of one's own (DEAL-10, DEAL-11) has no name, so the space gives `hand_sizes` values
beyond the named tables: `custom:NAME` for the table of each rule-set file of
spec/data/rulesets/ (`Catalog.examples`, which fixtures name as variants), and `custom` for
any other table. A rule set with a table of its own is the point `values_of` gives it.
The scope check plays `custom` with `PROBE_TABLE` and counts any reading of a hand size
as an outcome that depends on the table (conformance/partition.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mtrain.spec.catalog import Catalog, catalog
from mtrain.spec.catalog_entries import Clause
from mtrain.spec.errors import shown, written_otherwise
from mtrain.spec.ruleset import CUSTOM, MAX_PLAYERS, OTHER, Ruleset

Region = dict[str, frozenset[str]]
"""Option -> the values allowed; an option absent from the dict allows every value."""

PROBE_TABLE: tuple[tuple[int, int], ...] = tuple((n, 1) for n in range(2, MAX_PLAYERS + 1))
"""The table that stands for `custom`, any table of one's own: it lists every player count
(a table fixture speaks about the tables that deal its players), and the size it gives
is never trusted: a run that reads one depends on the table (conformance/partition.py).
One tile a hand is dealable from every set (20 + the engine <= 28, DEAL-8)."""


def example_value(name: str) -> str:
    """The hand_sizes value of the option space for the table of example rule set `name`."""
    return f"{CUSTOM}:{name}"


def option_values(cat: Catalog, option: str) -> tuple[str, ...]:
    """The values an option takes in the option space: the catalogue's, and for hand_sizes
    each example file's table and then `custom` (any other table of one's own)."""
    named = tuple(cat.options[option].values)
    if option != "hand_sizes":
        return named
    return (*named, *(example_value(n) for n in cat.examples), CUSTOM)


def values_of(cat: Catalog, rs: Ruleset) -> dict[str, str]:
    """The point of the option space a rule set is: its values, with a table of its own
    named by the example whose table it is (`custom:NAME`), else `custom`."""
    values = dict(rs.choices)
    if rs.custom_table:
        values["hand_sizes"] = next((example_value(n) for n, ex in cat.examples.items()
                                     if ex.hand_table == rs.hand_table), CUSTOM)
    return values


class ScopeError(ValueError):
    """A `when` that names an unknown option or value, or is not shaped as one; `at`: where
    in the `when` (its part, the option, the value's place in its list), for the line."""

    def __init__(self, message: str, at: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.at = at


@dataclass(frozen=True)
class Product:
    """Every rule set whose value of each named option is among the listed values."""

    allowed: tuple[tuple[str, frozenset[str]], ...]

    @staticmethod
    def of(region: Mapping[str, Iterable[str]]) -> Product:
        return Product(tuple(sorted((o, frozenset(v)) for o, v in region.items())))

    def region(self) -> Region:
        return dict(self.allowed)

    def contains(self, values: Mapping[str, str]) -> bool:
        get = values.get  # a loop, not all() over a generator: asked millions of times
        for o, vs in self.allowed:  # noqa: SIM110
            if get(o) not in vs:
                return False
        return True

    def to_data(self, cat: Catalog) -> dict[str, list[str]]:
        """The YAML form, values in catalogue order."""
        order = {o: list(option_values(cat, o)) for o in cat.options}
        return {o: [v for v in order[o] if v in vs]
                for o, vs in sorted(self.allowed, key=lambda kv: list(order).index(kv[0]))}

    def text(self, cat: Catalog) -> str:
        parts = []
        for o, vs in self.to_data(cat).items():
            parts.append(f"{o}={vs[0]}" if len(vs) == 1 else f"{o} in {{{', '.join(vs)}}}")
        return ", ".join(parts) or "every rule set"


@dataclass(frozen=True)
class Scope:
    """A union of products, plus the named rule sets an author wrote the expectation for."""

    products: tuple[Product, ...] = ()
    variants: tuple[str, ...] = ()

    def contains(self, values: Mapping[str, str]) -> bool:
        return any(p.contains(values) for p in self.products)

    def regions(self) -> Iterator[Region]:
        for p in self.products:
            yield p.region()

    def when_data(self, cat: Catalog) -> Any:
        """The `when:` value that writes the products beyond the variants' own."""
        own = {variant_product(cat, v) for v in self.variants}
        extra = [p.to_data(cat) for p in self.products if p not in own]
        return extra[0] if len(extra) == 1 else extra

    def text(self, cat: Catalog) -> str:
        own = {variant_product(cat, v) for v in self.variants}
        parts = [*self.variants, *(p.text(cat) for p in self.products if p not in own)]
        return " | ".join(parts) or "no rule set"


def variant_product(cat: Catalog, name: str) -> Product:
    """The product of one named rule set: every option fixed to its value."""
    rs = cat.ruleset(name)
    return Product.of({o: (v,) for o, v in values_of(cat, rs).items()})


def parse_when(cat: Catalog, data: Any) -> tuple[Product, ...]:
    """`when:` as written: one mapping option -> value or [values], or a list of them;
    `{}` is every rule set."""
    items = data if isinstance(data, list) else [data]
    out = []
    for w, item in enumerate(items):
        part: tuple[int, ...] = (w,) if isinstance(data, list) else ()
        if not isinstance(item, dict):
            raise ScopeError(f"`when` must map options to lists of values, got {item!r}", part)
        region: dict[str, frozenset[str]] = {}
        for option, values in item.items():
            if option not in cat.options:  # (a name in capitals is told the one it means)
                raise ScopeError(f"`when` names unknown option {shown(option)}"
                                 f"{written_otherwise(option, cat.options)}; known: "
                                 f"{', '.join(cat.options)}", (*part, option))
            vals = [values] if isinstance(values, str) else values
            if not isinstance(vals, list) or not vals:
                raise ScopeError(f"`when` {option}: expected a value or a list of values",
                                 (*part, option))
            known = option_values(cat, option)
            for k, v in enumerate(vals):
                if v == "other" and v not in known:  # a rule set's `other`, no rule at all
                    raise ScopeError(f"`when` {option}: `other` names no rule (a rule set "
                                     "plays it for a rule of its own, whose outcomes no "
                                     "fixture can know); name the known values the entry "
                                     f"holds under: {', '.join(known)}",
                                     (*part, option, *((k,) if vals is values else ())))
                if v not in known:
                    raise ScopeError(f"`when` {option}: unknown value {shown(v)}"
                                     f"{written_otherwise(v, known)}; known: "
                                     f"{', '.join(known)}",
                                     (*part, option, *((k,) if vals is values else ())))
            region[option] = frozenset(vals)
        out.append(Product.of(region))
    return tuple(out)


def scope_of(cat: Catalog, variants: Sequence[str], when: Any = None) -> Scope:
    products = [variant_product(cat, v) for v in variants]
    if when is not None:
        products += [p for p in parse_when(cat, when) if p not in products]
    return Scope(tuple(products), tuple(variants))


# --- the option space ----------------------------------------------------------------


KEPT_COMPLETIONS = 1 << 16
"""Regions whose completion a Space keeps."""


def _make_room(kept: dict[Any, Any]) -> None:
    """The older half of a full memo dropped, not all of it: the explorations of
    neighbouring fixtures ask many of the same regions again (a cold lint searched
    24,000 of its 175,600 completions a second time with the memo emptied whole, 15,500
    of 166,900 with its newer half kept)."""
    for key in list(itertools.islice(kept, len(kept) // 2)):
        del kept[key]


class Space:
    """The valid rule sets over the catalogue's named values (hand tables by name, the
    example files' tables, and `custom`: see the module docstring).

    A value in no valid rule set of named values (a tile set that only a rule-set file's
    own hand table can deal, DEAL-11) is left out of `options`: no fixture can name a
    rule set with it, and leaving it in would let a scope take it in for nothing.
    `unnamed` lists them.
    """

    def __init__(self, cat: Catalog | None = None) -> None:
        self.cat = cat or catalog()
        self.options: dict[str, tuple[str, ...]] = {
            o: option_values(self.cat, o) for o in self.cat.options}
        self._names = tuple(self.options)  # (the options in order; values may be left out)
        self.names = self._names
        self.tables: dict[str, tuple[tuple[int, int], ...]] = {
            example_value(n): ex.hand_table for n, ex in self.cat.examples.items()}
        # the scope checks ask complete() about the same regions over and over (one
        # fixture's exploration after another's): each answer kept, by the region's
        # values (the space does not change)
        self._completed: dict[object, tuple[str, ...] | None] = {}
        # complete() judges each rule of the option space once, at the last option it
        # names (in the order options are given values): the earlier ones stand.
        order = {o: k for k, o in enumerate(self.options)}
        self._judged: list[list[Clause]] = [[] for _ in self.options]
        for clause in self.cat.constrained:
            named = [*clause.when, *clause.requires]
            if all(o in order for o in named):
                self._judged[max(order[o] for o in named)].append(clause)
        self._full = {o: frozenset(vs) for o, vs in self.options.items()}
        self._values_in: dict[str, dict[frozenset[str], tuple[str, ...]]] = {
            o: {} for o in self.options}
        self._deal8: dict[tuple[str, str, str, int | None], bool] = {}
        deal8 = [order[o] for o in self.cat.DEAL8_OPTIONS if o in order]
        self._deal8_at = max(deal8) if len(deal8) == len(self.cat.DEAL8_OPTIONS) else -1
        # the same rules as plain tuples, for the search: (the `when` pairs, the values
        # `requires` lets pass, `other` and a table of one's own among them: _breaks)
        self._checks = [[(tuple(c.when.items()),
                          tuple((o, vs | {OTHER} | ({CUSTOM} if o == "hand_sizes" else set()))
                                for o, vs in c.requires.items())) for c in clauses]
                        for clauses in self._judged]
        self._rulesets: dict[object, Ruleset] = {}
        self._example_points: tuple[int, dict[frozenset[tuple[str, str]], Ruleset]] = (-1, {})
        self.unnamed: dict[str, tuple[str, ...]] = {
            o: tuple(v for v in vs if self.complete({o: frozenset((v,))}) is None)
            for o, vs in self.options.items()}
        self.options = {o: tuple(v for v in vs if v not in self.unnamed[o])
                        for o, vs in self.options.items()}
        self._full = {o: frozenset(vs) for o, vs in self.options.items()}
        self._values_in = {o: {} for o in self.options}  # (kept under the old options)

    def full(self) -> Region:
        return dict(self._full)

    def complete(self, region: Mapping[str, frozenset[str]],
                 prefer: Mapping[str, str] | None = None, *, memo: bool = True
                 ) -> dict[str, str] | None:
        """A valid assignment inside `region` (values in `prefer` tried first), or None.
        `memo` False: the answer is neither looked up nor kept (the search itself).

        Kept by the region's sets and the preferred values, in the order of the options
        (what `_complete` reads: other keys change nothing), the sets hashed once each
        (frozensets keep their hash): a lint asks 360,000 completions, a third of them
        asked before by another fixture's exploration."""
        if not memo:
            return self._complete(region, prefer)
        names = self._names
        key = (tuple(map(region.get, names)),
               None if not prefer else tuple(map(prefer.get, names)))
        try:
            known = key in self._completed
        except TypeError:  # a region of other sets than frozensets: searched each time
            return self._complete(region, prefer)
        if not known:
            if len(self._completed) >= KEPT_COMPLETIONS:
                _make_room(self._completed)
            found = self._complete(region, prefer)
            self._completed[key] = None if found is None else tuple(found.values())
            return found
        kept = self._completed[key]
        return None if kept is None else dict(zip(names, kept, strict=True))  # (callers write)

    def completer(self, prefer: Mapping[str, str] | None = None
                  ) -> Callable[[Region], tuple[str, ...] | None]:
        """`complete` with `prefer` fixed, answering a point as its values in the order of
        the options (`names`), or None: an exploration asks it once per region (390,000
        times a lint), with one `prefer` throughout, so its part of the key is made once
        and no dict is built for an answer kept."""
        names, completed = self._names, self._completed
        pkey = None if not prefer else tuple(map(prefer.get, names))

        def point(region: Region) -> tuple[str, ...] | None:
            key = (tuple(map(region.get, names)), pkey)
            try:  # (get, not [] and KeyError: nine regions in ten are new)
                kept = completed.get(key, completed)
            except TypeError:  # a region of other sets than frozensets: searched each time
                found = self._complete(region, prefer)
                return None if found is None else tuple(found.values())
            if kept is not completed:
                return kept  # type: ignore[return-value]
            if len(completed) >= KEPT_COMPLETIONS:
                _make_room(completed)
            found = self._complete(region, prefer)
            kept = completed[key] = None if found is None else tuple(found.values())
            return kept

        return point

    def _complete(self, region: Mapping[str, frozenset[str]],
                  prefer: Mapping[str, str] | None = None) -> dict[str, str] | None:
        # The values of each option in the region, the preferred one first, then in the
        # space's order; tried depth first, each rule judged at the last option it names
        # (Catalog.consistent, inlined: the scope checks ask this hundreds of thousands
        # of times).
        names = list(self.options)
        prefer = prefer or {}
        tries: list[Sequence[str]] = []
        full, options, kept = self._full, self.options, self._values_in
        for o in names:
            allowed, every = region.get(o), full[o]
            # (a region mostly holds the space's own sets, unchanged: `is` first)
            if allowed is None or allowed is every:
                vs: Sequence[str] = options[o]
                allowed = every
            else:
                # the option's values in `allowed`, in the space's order, kept by the set
                # (an exploration's regions share a few hundred sets among them)
                found = kept[o].get(allowed) if type(allowed) is frozenset else None
                if found is None:
                    found = tuple(v for v in options[o] if v in allowed)
                    if type(allowed) is frozenset:
                        if len(kept[o]) >= KEPT_COMPLETIONS:
                            kept[o].clear()
                        kept[o][allowed] = found
                vs = found
                if not vs:
                    return None
            p = prefer.get(o)
            if p is not None and vs[0] != p and p in allowed and p in every:
                vs = [p, *(v for v in vs if v != p)]
            tries.append(vs)
        tables = self.tables
        # Most regions hold the first values tried, together: the search would find them
        # first (no rule breaks on the way), so they are judged at once.
        first = {o: vs[0] for o, vs in zip(names, tries, strict=True)}
        hs = first.get("hand_sizes")
        plain_first = ({**first, "hand_sizes": CUSTOM} if hs in tables or hs == CUSTOM
                       else first)
        if self._holds(plain_first, tables.get(hs) if hs is not None else None):
            return first
        choice: dict[str, str] = {}
        plain: dict[str, str] = {}  # catalog_form(choice), kept up to date
        return dict(choice) if self._search(names, tries, choice, plain) else None

    def _search(self, names: list[str], tries: list[Sequence[str]], choice: dict[str, str],
                plain: dict[str, str]) -> bool:
        """`_complete`'s search: depth first, the values of each option in the order of
        `tries`, each rule judged at the last option it names. A loop over the levels, not
        a method calling itself: most searches go straight down 18 levels, and a call per
        level was most of their cost."""
        n, tables, checks = len(names), self.tables, self._checks
        at = [0] * n  # per level: the index in tries[k] of the next value to try
        table_at: list[tuple[tuple[int, int], ...] | None] = [None] * (n + 1)
        k = 0
        while k < n:
            o, vs, rules = names[k], tries[k], checks[k]
            i, found = at[k], False
            table = table_at[k]
            while i < len(vs):
                v = vs[i]
                i += 1
                choice[o] = v
                if o == "hand_sizes" and (v in tables or v == CUSTOM):
                    plain[o], table = CUSTOM, tables.get(v)
                else:
                    plain[o] = v
                    if o == "hand_sizes":
                        table = None
                ok = True
                for when, requires in rules:
                    for wo, wvs in when:
                        if plain[wo] not in wvs:
                            break
                    else:  # the clause applies: it breaks unless each requirement holds
                        for ro, rvs in requires:
                            if plain[ro] not in rvs:
                                ok = False
                                break
                        if not ok:
                            break
                if ok and k == self._deal8_at and self._undealable(plain, table):
                    ok = False
                if ok:
                    found = True
                    break
            if found:
                at[k] = i
                table_at[k + 1] = table
                k += 1
                if k < n:
                    at[k] = 0
            else:  # no value of this option fits: back to the one before
                if o in choice:
                    del choice[o]
                    del plain[o]
                k -= 1
                if k < 0:
                    return False
        return True

    def _holds(self, plain: Mapping[str, str], table: tuple[tuple[int, int], ...] | None
               ) -> bool:
        """Whether a whole point (catalogue values, its table) breaks no rule of the
        space: what the search judges level by level, at once."""
        for rules in self._checks:
            for when, requires in rules:
                for wo, wvs in when:
                    if plain[wo] not in wvs:
                        break
                else:
                    for ro, rvs in requires:
                        if plain[ro] not in rvs:
                            return False
        return self._deal8_at < 0 or not self._undealable(plain, table)

    def _undealable(self, plain: Mapping[str, str], table: tuple[tuple[int, int], ...] | None
                    ) -> bool:
        """Catalog._undealable (DEAL-8), kept by what it reads: the search asks it of the
        same few sets, procedures and tables tens of thousands of times. A table is one
        of the space's own (`tables`) or None, known by its identity."""
        key = (plain["hand_sizes"], plain["tile_set"], plain["engine_procedure"],
               None if table is None else id(table))
        found = self._deal8.get(key)
        if found is None:
            found = self._deal8[key] = bool(self.cat._undealable(plain, table))
        return found

    def catalog_form(self, values: Mapping[str, str]
                      ) -> tuple[dict[str, str], tuple[tuple[int, int], ...] | None]:
        """Catalogue values and the hand table of a (partial) point of the space."""
        hs = values.get("hand_sizes")
        if hs is None or (hs not in self.tables and hs != CUSTOM):
            return dict(values), None
        return {**values, "hand_sizes": CUSTOM}, self.tables.get(hs)

    def table_of(self, value: str) -> dict[int, int] | None:
        """The hand-size table a `hand_sizes` value names (None for `custom`: any)."""
        if value == CUSTOM:
            return None
        if value in self.tables:
            return dict(self.tables[value])
        return dict(self.cat.options["hand_sizes"].values[value].table)

    def point(self, rs: Ruleset) -> dict[str, str]:
        """The point of the space that `rs` is (`values_of`), a table of its own named by
        the examples this space was built with: one the catalogue takes in later (a fuzz
        reproducer's rule-set file, with the very table of the rules fuzzed) names no value
        of this space, so every region of that point was empty, and a finding found in play
        under `custom` was asked again under no rules at all ("did not show again")."""
        values = dict(rs.choices)
        if rs.custom_table:
            values["hand_sizes"] = next((v for v, t in self.tables.items()
                                         if t == rs.hand_table), CUSTOM)
        return values

    def intersect(self, a: Mapping[str, frozenset[str]],
                  b: Mapping[str, frozenset[str]]) -> Region | None:
        """The region of both, or None when some option has no value left."""
        out = dict(a)
        for o, vs in b.items():
            both = out.get(o, frozenset(self.options[o])) & vs
            if not both:
                return None
            out[o] = both
        return out

    def meets(self, a: Mapping[str, frozenset[str]], b: Mapping[str, frozenset[str]]) -> bool:
        """True when some valid rule set lies in both regions."""
        both = self.intersect(a, b)
        return both is not None and self.complete(both) is not None

    def ruleset(self, values: Mapping[str, str]) -> Ruleset:
        """The rule set of a point: an example itself where it is one, `custom` played
        with PROBE_TABLE. Kept by point: the scope checks play the same points over and
        over (rule sets are frozen). A whole point is known by its values in the space's
        order (a tuple is hashed in a fraction of the time of a set of pairs)."""
        point = tuple(map(values.get, self._names))
        key: object = point
        if len(values) != len(self._names) or None in point:  # (not a whole point)
            key = frozenset(values.items())
        found = self._rulesets.get(key)
        if found is None:
            if len(self._rulesets) >= KEPT_COMPLETIONS:
                self._rulesets.clear()
            found = self._rulesets[key] = self._ruleset(values)
        return found

    def ruleset_at(self, point: tuple[str, ...], values: Mapping[str, str]) -> Ruleset:
        """`ruleset(values)` for a whole point, given also as its values in the order of
        the options (as `completer` answers it)."""
        found = self._rulesets.get(point)
        if found is None:
            if len(self._rulesets) >= KEPT_COMPLETIONS:
                self._rulesets.clear()
            found = self._rulesets[point] = self._ruleset(values)
        return found

    def _ruleset(self, values: Mapping[str, str]) -> Ruleset:
        plain, table = self.catalog_form(values)
        hs = values["hand_sizes"]
        if hs in self.tables:
            examples = self.cat.examples
            if self._example_points[0] != len(examples):  # (examples are added, not taken)
                points: dict[frozenset[tuple[str, str]], Ruleset] = {}
                for ex in examples.values():  # the first example of a point, as before
                    points.setdefault(frozenset(values_of(self.cat, ex).items()), ex)
                self._example_points = (len(examples), points)
            found = self._example_points[1].get(frozenset(values.items()))
            if found is not None:
                return found
        elif hs == CUSTOM:
            table = PROBE_TABLE
        # Catalog.from_values without its checks: every value is one of the space's, and
        # complete() only returns assignments that break no rule (tests/test_space_search.py sets
        # it beside judging every rule at every step)
        options = self.cat.options
        if table is None:
            table = options["hand_sizes"].values[plain["hand_sizes"]].table
        return Ruleset(name=self.cat.describe(values),
                       choices=tuple((o, plain[o]) for o in options), hand_table=table,
                       overlays=())
