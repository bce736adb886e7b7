"""The rule sets a fixture can name (a shipped variant plus overlays), and the pair of them
a question about two values of an option is best asked under."""

from __future__ import annotations

import functools
import itertools
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
