"""The rule sets a fixture can name (a shipped variant plus overlays), and the pair of them
a question about two values of an option is best asked under."""

from __future__ import annotations

import functools
import heapq
import itertools
import operator
from typing import Final

from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.distinguish.question import KIND, RELEVANT
from mtrain.spec.yamlload import SpecError

MAX_OVERLAYS: Final = 3


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


@functools.cache
def _entries() -> tuple[tuple[str, ...], tuple[tuple[int, str, tuple[str, ...], int], ...]]:
    """expressible() as the options in order and, for each rule set, its index, name,
    values (in that order) and overlay count: what choose_pair compares, built once."""
    every = expressible()
    options = tuple(o for o, _ in every[0][1]) if every else ()
    return options, tuple((i, n, tuple(dict(c)[o] for o in options), n.count("+"))
                          for i, (n, c) in enumerate(every))


def choose_pair(option: str, v1: str, v2: str) -> list[tuple[str, str]]:
    """Pairs of nameable rule sets taking v1 and v2, best first (a short list).

    Best: fewest other differences among the options relevant to the option's kind,
    then fewest other differences at all, then fewest overlays, then catalog order.
    """
    options, entries = _entries()
    at = options.index(option)
    relevant = [options.index(o) for o in RELEVANT[KIND[option]] if o != option]
    side_a = [e for e in entries if e[2][at] == v1]
    side_b = [e for e in entries if e[2][at] == v2]
    # (the values are compared in C, map(ne, ...): this runs over tens of millions of
    # pairs; `option` itself always differs, v1 != v2, hence the - 1)
    scored = []
    by_key: dict[tuple[str, ...], list[tuple[int, str, tuple[str, ...], int]]] = {}
    for entry in side_b:
        by_key.setdefault(tuple(entry[2][k] for k in relevant), []).append(entry)
    for ia, na, ca, pa in side_a:
        for ib, nb, cb, pb in by_key.get(tuple(ca[k] for k in relevant), []):
            other = sum(map(operator.ne, ca, cb)) - 1
            scored.append(((0, other, pa + pb, ia + ib, ia), na, nb))
    if not scored:  # no pair agrees on every relevant option: the nearest ones
        for ia, na, ca, pa in side_a[:300]:
            for ib, nb, cb, pb in side_b[:300]:
                near = sum(ca[k] != cb[k] for k in relevant)
                other = sum(map(operator.ne, ca, cb)) - 1
                scored.append(((near, other, pa + pb, ia + ib, ia), na, nb))
    # the 8 smallest keys (each pair's key is its own: ia + ib and ia name it), as a sort
    # of them all would give
    return [(na, nb) for _, na, nb in heapq.nsmallest(8, scored)]
