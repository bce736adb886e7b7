"""A `when` condition that holds for no rule set: dead text in a fixture.

An entry's scope is its variants and the conditions of its `when`. A condition whose
values no valid rule set takes together (a named hand-size table on a set it is not for,
DEAL-10 and DEAL-11; a table the set cannot deal, DEAL-8; values that another rule of the
option space keeps apart) names no rule set a fixture can be run under: a shipped
variant, an overlay combination, a rule-set file, or rules an implementation declares.
The scope check partitions the valid rule sets only, so such a condition was never played
and never failed: whatever its author meant by it is checked nowhere. `mtrain lint` says
so at the condition's line, with the rule that empties it where one rule alone does, and
the options that, left free, would let it hold.
"""

from __future__ import annotations

from collections.abc import Iterable

from mtrain.conformance.fixture import Fixture
from mtrain.spec.catalog import Catalog
from mtrain.spec.catalog_entries import Clause
from mtrain.spec.ruleset import CUSTOM, OTHER
from mtrain.spec.scope import Product, Region, Space


def dead_conditions(fixtures: Iterable[Fixture], space: Space) -> list[str]:
    """An error, at its line, for each `when` condition of an entry that holds for no
    valid rule set of `space`."""
    out = []
    for fx in fixtures:
        for j, exp in enumerate(fx.expect):
            for w, (product, line) in enumerate(exp.conditions):
                region = product.region()
                if space.complete(region) is not None:
                    continue
                where = f"{fx.path}:{line or exp.line}" if (line or exp.line) else fx.where
                written = "`when`" if len(exp.conditions) == 1 else f"`when` condition {w + 1}"
                out.append(f"{where}: {fx.id} entry {j + 1}: {written} "
                           f"({product.text(space.cat)}) holds for no rule set"
                           f"{_why(product, space)}, so nothing can ever check it: write "
                           "values some rule set takes together, or leave it out")
    return out


def _why(product: Product, space: Space) -> str:
    """What empties the condition: the rule of the option space it breaks whatever the
    other options are, else the options that, left free, let it hold."""
    region = product.region()
    clause = next((c for c in space.cat.constrained if _always_breaks(c, region)), None)
    if clause is not None:
        wants = "; ".join(f"{o} in {{{', '.join(sorted(vs))}}}" if vs
                          else f"a table of its rule-set file's own for {o}"
                          for o, vs in clause.requires.items())
        return f" ({clause.id}, {clause.title}: where it applies, it requires {wants})"
    freed = [o for o in region if space.complete({k: v for k, v in region.items() if k != o})
             is not None]
    deal8 = any(o in Catalog.DEAL8_OPTIONS for o in freed)
    if not freed:
        return " (no one option left free lets it hold: its values conflict in several rules)"
    return (f" (it holds for some with {' or '.join(freed)} left free"
            + ("; a hand-size table must be dealable from the set, DEAL-8" if deal8 else "")
            + ")")


def _plain(option: str, values: frozenset[str]) -> frozenset[str]:
    """The catalogue's values of a region's set: a table of one's own (`custom:NAME`) is
    `custom` to the rules of the option space."""
    if option != "hand_sizes":
        return values
    return frozenset(CUSTOM if v.startswith(f"{CUSTOM}:") else v for v in values)


def _always_breaks(clause: Clause, region: Region) -> bool:
    """Whether every rule set of `region` breaks `clause`: the region takes only values
    where it applies, for each option of its `when`, and for some option of its
    `requires` only values it does not allow (`other` and a table of one's own pass
    `requires`, as Space judges it)."""
    for o, vs in clause.when.items():
        if o not in region or not _plain(o, region[o]) <= vs:
            return False
    for o, allowed in clause.requires.items():
        passes = allowed | {OTHER} | ({CUSTOM} if o == "hand_sizes" else set())
        if o in region and not _plain(o, region[o]) & passes:
            return True
    return False
