"""Scopes: the rule sets an expectation speaks about, written as option values.

A scope is a union of products. A product names, for some options, the values it allows;
an option it does not name may take any value. So `{follow_up: [anywhere, restricted]}`
is every rule set whose follow-up rule is one of those two, whatever its other options.
A variant name is shorthand for the product that fixes every option to that variant's
value. The option space itself (which assignments are valid rule sets) is the catalogue's:
`Space.complete` finds a valid rule set inside a region, or proves there is none, by a
backtracking search over the options that prunes on `Catalog.conflicts`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .catalog import Catalog, RulesetError, catalog
from .ruleset import Ruleset

Region = dict[str, frozenset[str]]
"""Option -> the values allowed; an option absent from the dict allows every value."""


class ScopeError(ValueError):
    """A `when` that names an unknown option or value, or is not shaped as one."""


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
        return all(values.get(o) in vs for o, vs in self.allowed)

    def to_data(self, cat: Catalog) -> dict[str, list[str]]:
        """The YAML form, values in catalogue order."""
        order = {o: list(opt.values) for o, opt in cat.options.items()}
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
    return Product.of({o: (v,) for o, v in rs.choices})


def parse_when(cat: Catalog, data: Any) -> tuple[Product, ...]:
    """`when:` as written: one mapping option -> value or [values], or a list of them;
    `{}` is every rule set."""
    items = data if isinstance(data, list) else [data]
    out = []
    for item in items:
        if not isinstance(item, dict):
            raise ScopeError(f"`when` must map options to lists of values, got {item!r}")
        region: dict[str, frozenset[str]] = {}
        for option, values in item.items():
            if option not in cat.options:
                raise ScopeError(f"`when` names unknown option {option!r}; known: "
                                 f"{', '.join(cat.options)}")
            vals = [values] if isinstance(values, str) else values
            if not isinstance(vals, list) or not vals:
                raise ScopeError(f"`when` {option}: expected a value or a list of values")
            known = cat.options[option].values
            for v in vals:
                if v not in known:
                    raise ScopeError(f"`when` {option}: unknown value {v!r}; known: "
                                     f"{', '.join(known)}")
            region[option] = frozenset(vals)
        out.append(Product.of(region))
    return tuple(out)


def scope_of(cat: Catalog, variants: Sequence[str], when: Any = None) -> Scope:
    products = [variant_product(cat, v) for v in variants]
    if when is not None:
        products += [p for p in parse_when(cat, when) if p not in products]
    return Scope(tuple(products), tuple(variants))


# --- the option space ----------------------------------------------------------------


class Space:
    """The valid rule sets over the catalogue's named values (hand tables by name).

    A value in no valid rule set of named values (a tile set that only a rule-set file's
    own hand table can deal, DEAL-11) is left out of `options`: no fixture can name a
    rule set with it, and leaving it in would let a scope take it in for nothing.
    `unnamed` lists them.
    """

    def __init__(self, cat: Catalog | None = None) -> None:
        self.cat = cat or catalog()
        self.options: dict[str, tuple[str, ...]] = {
            o: tuple(opt.values) for o, opt in self.cat.options.items()}
        self.unnamed: dict[str, tuple[str, ...]] = {
            o: tuple(v for v in vs if self.complete({o: frozenset((v,))}) is None)
            for o, vs in self.options.items()}
        self.options = {o: tuple(v for v in vs if v not in self.unnamed[o])
                        for o, vs in self.options.items()}

    def full(self) -> Region:
        return {o: frozenset(vs) for o, vs in self.options.items()}

    def complete(self, region: Mapping[str, frozenset[str]],
                 prefer: Mapping[str, str] | None = None) -> dict[str, str] | None:
        """A valid assignment inside `region` (values in `prefer` tried first), or None."""
        names = list(self.options)
        choice: dict[str, str] = {}

        def values(o: str) -> list[str]:
            vs = [v for v in self.options[o] if v in region.get(o, self.options[o])]
            p = (prefer or {}).get(o)
            return sorted(vs, key=lambda v: v != p)

        def search(k: int) -> bool:
            if k == len(names):
                return True
            o = names[k]
            for v in values(o):
                choice[o] = v
                if not self.cat.conflicts(choice) and search(k + 1):
                    return True
            choice.pop(o, None)
            return False

        return dict(choice) if search(0) else None

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
        try:
            return self.cat.from_values(values)
        except RulesetError as e:  # complete() only returns valid assignments
            raise AssertionError(f"invalid assignment {values}: {e}") from None
