"""The rule sets a fixture can name (a shipped variant plus overlays), and the pair of them
a question about two values of an option is best asked under."""

from __future__ import annotations

import functools
import heapq
import itertools
import operator
from collections.abc import Sequence
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


Entry = tuple[int, str, tuple[str, ...], int]
"""A rule set as _entries() gives it: index, name, values, overlay count."""
Scored = tuple[tuple[int, int, int, int, int], str, str]

NEAREST: Final = 8
"""How many pairs choose_pair returns."""
NEAR_SEARCH: Final = 2
"""The most other differences _nearest looks for before leaving it to the full search."""


def _nearest(side_a: Sequence[Entry], side_b: Sequence[Entry], at: int,
             relevant: Sequence[int], width: int) -> list[Scored] | None:
    """Every pair (a, b) that agrees on the relevant options and differs in at most d
    others, for the least d <= NEAR_SEARCH that gives at least NEAREST pairs; None when
    none does. Any pair not among them differs in more than d others, so the NEAREST best
    of them are the NEAREST best of all: the full search's answer, without comparing
    tens of millions of pairs. A pair differing in at most d others is equal outside
    some d of them (and the option itself), so it is found by a hash join on the values
    left once those d are set aside, for each choice of d."""
    free = [k for k in range(width) if k != at and k not in relevant]
    found: dict[tuple[int, int], Scored] = {}
    for d in range(NEAR_SEARCH + 1):
        for skip in itertools.combinations(free, d):
            keep = [k for k in range(width) if k != at and k not in skip]
            by_key: dict[tuple[str, ...], list[Entry]] = {}
            for entry in side_b:
                by_key.setdefault(tuple([entry[2][k] for k in keep]), []).append(entry)
            for ia, na, ca, pa in side_a:
                for ib, nb, cb, pb in by_key.get(tuple([ca[k] for k in keep]), ()):
                    if (ia, ib) not in found:
                        other = sum(map(operator.ne, ca, cb)) - 1
                        found[ia, ib] = ((0, other, pa + pb, ia + ib, ia), na, nb)
        if len(found) >= NEAREST:
            return list(found.values())
    return None


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
    # (the values are compared in C, map(ne, ...): the full search below runs over tens
    # of millions of pairs, hence _nearest first; `option` itself always differs, v1 !=
    # v2, hence the - 1)
    by_key: dict[tuple[str, ...], list[Entry]] = {}
    for entry in side_b:
        by_key.setdefault(tuple(entry[2][k] for k in relevant), []).append(entry)
    agreeing = any(tuple(ca[k] for k in relevant) in by_key for _, _, ca, _ in side_a)
    scored = _nearest(side_a, side_b, at, relevant, len(options)) if agreeing else []
    if scored is None:  # few pairs this close: every pair agreeing on the relevant options
        scored = []
        for ia, na, ca, pa in side_a:
            for ib, nb, cb, pb in by_key.get(tuple(ca[k] for k in relevant), []):
                other = sum(map(operator.ne, ca, cb)) - 1
                scored.append(((0, other, pa + pb, ia + ib, ia), na, nb))
    if not scored:  # no pair agrees on every relevant option: the nearest ones
        scored = _least_apart(side_a[:300], side_b[:300], relevant)
    # the 8 smallest keys (each pair's key is its own: ia + ib and ia name it), as a sort
    # of them all would give
    return [(na, nb) for _, na, nb in heapq.nsmallest(NEAREST, scored)]


def _least_apart(side_a: Sequence[Entry], side_b: Sequence[Entry],
                 relevant: Sequence[int]) -> list[Scored]:
    """The pairs whose count of differing relevant options (`near`, the first of the key)
    is at most the least count that NEAREST pairs reach: any other pair has a larger
    `near` than NEAREST of these, so the NEAREST best are among them. Rule sets with the
    same relevant values are grouped, so `near` is counted once per pair of groups."""
    groups_a: dict[tuple[str, ...], list[Entry]] = {}
    groups_b: dict[tuple[str, ...], list[Entry]] = {}
    for side, groups in ((side_a, groups_a), (side_b, groups_b)):
        for entry in side:
            groups.setdefault(tuple([entry[2][k] for k in relevant]), []).append(entry)
    apart = sorted(((sum(map(operator.ne, ra, rb)), ga, gb)
                    for ra, ga in groups_a.items() for rb, gb in groups_b.items()),
                   key=operator.itemgetter(0))
    scored: list[Scored] = []
    counted, bound = 0, None
    for near, ga, gb in apart:
        if bound is not None and near > bound:
            break
        counted += len(ga) * len(gb)
        if counted >= NEAREST:
            bound = near
        for ia, na, ca, pa in ga:
            for ib, nb, cb, pb in gb:
                other = sum(map(operator.ne, ca, cb)) - 1
                scored.append(((near, other, pa + pb, ia + ib, ia), na, nb))
    return scored
